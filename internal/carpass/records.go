package carpass

import (
	"context"
	"net/http"
	"strings"

	"github.com/uptrace/bun"

	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/plate"
	"tankwatch/internal/platform/xlsx"
)

// RecordQuery is POST /alarm-app/passwordViewingRecord/page (and /export).
type RecordQuery struct {
	httpx.PageReq
	GroupID   int64      `json:"groupId"`
	CarNumber string     `json:"carNumber"`
	UserName  string     `json:"userName"`
	StartTime httpx.Time `json:"startTime"`
	EndTime   httpx.Time `json:"endTime"`
}

// Record is one reveal of a password.
type Record struct {
	ID        int64      `json:"id"`
	CarID     int64      `json:"carId"`
	CarNumber string     `json:"carNumber"`
	GroupID   int64      `json:"groupId"`
	GroupName string     `json:"groupName"`
	UserID    int64      `json:"userId"`
	UserName  string     `json:"userName"`
	ViewedAt  httpx.Time `json:"viewedAt"`
	ClientIP  string     `json:"clientIp"`
	Reason    string     `json:"reason"`
}

var recordSort = map[string]string{"id": "pv.id", "viewedAt": "pv.viewed_at", "carNumber": "pv.plate", "userName": "pv.user_name",
	"clientIp": "pv.client_ip"}

type recordRow struct {
	viewing
	GroupName string `bun:"group_name"`
}

func (r *recordRow) view() *Record {
	return &Record{ID: r.ID, CarID: r.CarID, CarNumber: r.Plate, GroupID: r.GroupID, GroupName: r.GroupName, UserID: r.UserID,
		UserName: r.UserName, ViewedAt: httpx.Time(r.ViewedAt), ClientIP: r.ClientIP, Reason: r.Reason}
}

// recordWhere selects the records of the caller's scope by the group path stored with each record (the
// car's group when it was viewed), narrowed by the filters.
func (s *Service) recordWhere(ctx context.Context, p *httpx.Principal, q *RecordQuery) (*bun.SelectQuery, error) {
	if err := q.Normalize(); err != nil {
		return nil, err
	}
	if q.StartTime != 0 && q.EndTime != 0 && q.EndTime < q.StartTime {
		return nil, httpx.Biz("alarm.endBeforeStart")
	}
	under, err := s.fleet.LiveGroupPath(ctx, p, q.GroupID)
	if err != nil {
		return nil, err
	}
	if under == "" {
		return nil, httpx.ErrScope
	}
	sel := s.db.NewSelect().Model((*viewing)(nil)).ColumnExpr("pv.*").ColumnExpr("COALESCE(g.name, '') AS group_name").
		Join("LEFT JOIN org_groups AS g ON g.id = pv.group_id").Where("pv.group_path LIKE ?", under+"%")
	if v := strings.TrimSpace(q.CarNumber); v != "" {
		sel = sel.Where(db.Contains(plate.SQL("pv.plate"), plate.Key(v)))
	}
	if v := strings.TrimSpace(q.UserName); v != "" {
		sel = sel.Where(db.Contains("pv.user_name", v))
	}
	if q.StartTime != 0 {
		sel = sel.Where("pv.viewed_at >= ?", int64(q.StartTime))
	}
	if q.EndTime != 0 {
		sel = sel.Where("pv.viewed_at <= ?", q.EndTime.Through())
	}
	return sel, nil
}

// Records lists the reveals of the caller's scope, newest first.
func (s *Service) Records(ctx context.Context, p *httpx.Principal, q RecordQuery) (httpx.Page[*Record], error) {
	sel, err := s.recordWhere(ctx, p, &q)
	if err != nil {
		return httpx.Page[*Record]{}, err
	}
	order, err := q.OrderBy(recordSort, "pv.viewed_at DESC")
	if err != nil {
		return httpx.Page[*Record]{}, err
	}
	return db.ScanPage(ctx, sel, q.PageReq, order, "pv.id DESC", (*recordRow).view)
}

// ExportRecords writes the filtered records (up to exportMax) as a sheet in the caller's language.
func (s *Service) ExportRecords(r *http.Request, q RecordQuery) (*xlsx.Sheet, error) {
	q.PageNum, q.PageSize = 1, 1
	sel, err := s.recordWhere(r.Context(), httpx.Caller(r), &q)
	if err != nil {
		return nil, err
	}
	var rows []recordRow
	if err := sel.OrderExpr("pv.viewed_at DESC, pv.id DESC").Limit(exportMax).Scan(r.Context(), &rows); err != nil {
		return nil, err
	}
	sh := &xlsx.Sheet{Name: "passwordView.export", ASCII: "password-viewing-records", Head: []string{"passwordView.col.viewedAt",
		"passwordView.col.carNumber", "passwordView.col.group", "passwordView.col.userName", "passwordView.col.clientIp",
		"passwordView.col.reason"}}
	for i := range rows {
		v := rows[i].view()
		sh.Rows = append(sh.Rows, []any{v.ViewedAt.String(), v.CarNumber, v.GroupName, v.UserName, v.ClientIP, v.Reason})
	}
	return sh, nil
}
