package staff

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strconv"

	"github.com/uptrace/bun"

	"tankwatch/internal/audit"
	"tankwatch/internal/platform/httpx"
)

// maxPhoto is the largest photo accepted (a phone picture scaled for a badge is far smaller).
const maxPhoto = 2 << 20

// photoType is the media type of an image by its first bytes (JPEG, PNG, WebP), "" for anything else:
// the declared Content-Type is not trusted.
func photoType(b []byte) string {
	switch {
	case len(b) >= 3 && b[0] == 0xFF && b[1] == 0xD8 && b[2] == 0xFF:
		return "image/jpeg"
	case len(b) >= 8 && string(b[:8]) == "\x89PNG\r\n\x1a\n":
		return "image/png"
	case len(b) >= 12 && string(b[:4]) == "RIFF" && string(b[8:12]) == "WEBP":
		return "image/webp"
	}
	return ""
}

// UploadPhoto stores the request body (the image itself) as the photo of employee ?id= of the caller's
// scope.
func (s *Service) UploadPhoto(w http.ResponseWriter, r *http.Request) (any, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	id, err := httpx.QueryID(r, "id")
	if err != nil {
		return nil, err
	}
	emp, err := s.scopedEmployee(ctx, s.db, p, id)
	if err != nil {
		return nil, err
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxPhoto))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, httpx.Biz("staff.photoTooLarge", maxPhoto>>20)
		}
		return nil, err
	}
	mime := photoType(body)
	if mime == "" {
		return nil, httpx.Biz("staff.photoType")
	}
	now := s.nowMS()
	err = s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if _, err := tx.NewDelete().TableExpr("employee_photos").Where("employee_id = ?", id).Exec(ctx); err != nil {
			return err
		}
		if _, err := tx.NewInsert().Model(&photoRow{EmployeeID: id, Mime: mime, Data: body, UpdatedAt: now}).Exec(ctx); err != nil {
			return err
		}
		_, err := tx.NewUpdate().Model((*Employee)(nil)).Set("has_photo = ?, updated_at = ?", true, now).Where("id = ?", id).Exec(ctx)
		return err
	})
	if err != nil {
		return nil, err
	}
	s.record(r, ModuleEmployee, audit.ActionUpdate, emp.Name, id, audit.Text("oplog.employeePhoto"))
	return map[string]any{"hasPhoto": true}, nil
}

// Photo sends the photo of employee ?id= to a caller who may see the employee.
func (s *Service) Photo(w http.ResponseWriter, r *http.Request) {
	ctx, p := r.Context(), httpx.Caller(r)
	id, err := httpx.QueryID(r, "id")
	if err != nil {
		httpx.Fail(w, r, err)
		return
	}
	if _, err := s.scopedEmployee(ctx, s.db, p, id); err != nil {
		httpx.Fail(w, r, err)
		return
	}
	var ph struct {
		Mime string `bun:"mime"`
		Data []byte `bun:"data"`
	}
	if err := s.db.NewSelect().TableExpr("employee_photos").ColumnExpr("mime, data").Where("employee_id = ?", id).Scan(ctx, &ph.Mime, &ph.Data); err != nil {
		httpx.Fail(w, r, httpx.Biz("staff.photoMissing"))
		return
	}
	w.Header().Set("Content-Type", ph.Mime)
	w.Header().Set("Content-Length", strconv.Itoa(len(ph.Data)))
	w.Header().Set("Cache-Control", "private, no-store")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	_, _ = w.Write(ph.Data)
}
