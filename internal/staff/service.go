package staff

import (
	"context"
	"net/http"
	"time"
	"unicode/utf8"

	"github.com/uptrace/bun"

	"tankwatch/internal/audit"
	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/httpx"
)

// Service is the staff register.
type Service struct {
	db    *db.DB
	audit *audit.Log
	Now   func() time.Time
}

// New returns the service.
func New(d *db.DB, a *audit.Log) *Service { return &Service{db: d, audit: a, Now: time.Now} }

func (s *Service) nowMS() int64 { return s.Now().UnixMilli() }
func (s *Service) today() int   { return today(s.Now()) }

func (s *Service) record(r *http.Request, module, action, target string, id int64, detail string) {
	if s.audit != nil && r != nil {
		s.audit.Record(r.Context(), r, nil, audit.Entry{Module: module, Action: action, Target: target, TargetID: id, Detail: detail})
	}
}

func maxLen(field, v string, n int) error {
	if utf8.RuneCountInString(v) > n {
		return httpx.Biz("field.maxLen", httpx.Field(field), n)
	}
	return nil
}

// groupFor is the group a record is filed under: the one named (in the caller's scope) or the
// caller's own.
func groupFor(ctx context.Context, idb bun.IDB, p *httpx.Principal, id int64) (int64, error) {
	if id <= 0 {
		return p.GroupID, nil
	}
	if _, err := db.ScopedGroupPath(ctx, idb, p, id); err != nil {
		return 0, err
	}
	return id, nil
}

type idBody struct {
	ID int64 `json:"id"`
}
