package audit

import (
	"context"
	"net/http"
	"strings"

	"github.com/uptrace/bun"

	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
	"tankwatch/internal/platform/xlsx"
)

// OpLogQuery filters the operation log.
type OpLogQuery struct {
	httpx.PageReq
	UserName  string     `json:"userName"`
	Module    string     `json:"module"`
	Action    string     `json:"action"`
	Target    string     `json:"target"`
	StartTime httpx.Time `json:"startTime"`
	EndTime   httpx.Time `json:"endTime"`
}

var opLogSort = map[string]string{"createdAt": "created_at", "userName": "user_name", "module": "module", "action": "action", "id": "id"}

func (l *Log) opLogWhere(q *bun.SelectQuery, p *httpx.Principal, f OpLogQuery) *bun.SelectQuery {
	q = q.Where("group_path LIKE ?", p.GroupPath+"%")
	if s := strings.TrimSpace(f.UserName); s != "" {
		q = q.Where(db.Contains("user_name", s))
	}
	if f.Module != "" {
		q = q.Where("module = ?", f.Module)
	}
	if f.Action != "" {
		q = q.Where("action = ?", f.Action)
	}
	if s := strings.TrimSpace(f.Target); s != "" {
		q = q.Where(db.Contains("target", s))
	}
	if f.StartTime != 0 {
		q = q.Where("created_at >= ?", int64(f.StartTime))
	}
	if f.EndTime != 0 {
		q = q.Where("created_at <= ?", f.EndTime.Through())
	}
	return q
}

// Page lists operation log entries made by users in the caller's scope, texts in lang.
func (l *Log) Page(ctx context.Context, p *httpx.Principal, lang i18n.Lang, f OpLogQuery) (httpx.Page[OpLog], error) {
	if err := f.Normalize(); err != nil {
		return httpx.Page[OpLog]{}, err
	}
	order, err := f.OrderBy(opLogSort, "id DESC")
	if err != nil {
		return httpx.Page[OpLog]{}, err
	}
	var rows []OpLog
	n, err := l.opLogWhere(l.db.NewSelect().Model(&rows), p, f).OrderExpr(order).
		Limit(f.Limit()).Offset(f.Offset()).ScanAndCount(ctx)
	if err != nil {
		return httpx.Page[OpLog]{}, err
	}
	for i := range rows {
		rows[i].localise(lang)
	}
	return httpx.NewPage(rows, n, f.PageReq), nil
}

// maxExportRows bounds one export.
const maxExportRows = 100_000

// Export writes the filtered log as an xlsx workbook.
func (l *Log) Export(ctx context.Context, w http.ResponseWriter, r *http.Request, p *httpx.Principal, f OpLogQuery) error {
	var rows []OpLog
	if err := l.opLogWhere(l.db.NewSelect().Model(&rows), p, f).OrderExpr("id DESC").Limit(maxExportRows).Scan(ctx); err != nil {
		return err
	}
	lang := httpx.Lang(r)
	sh := &xlsx.Sheet{Name: "export.opLog", ASCII: "operation-log",
		Head: []string{"col.id", "col.userName", "col.module", "col.action", "col.target", "col.targetId", "col.detail", "col.ip", "col.createdAt"}}
	for _, row := range rows {
		row.localise(lang)
		sh.Rows = append(sh.Rows, []any{row.ID, row.UserName, row.ModuleName, row.ActionName, row.TargetText,
			row.TargetID, row.DetailText, row.IP, row.CreatedAt.String()})
	}
	return xlsx.Write(w, r, sh)
}

func tr(l i18n.Lang, key string) string {
	if i18n.Has(key) {
		return i18n.T(l, key)
	}
	return key[strings.IndexByte(key, '.')+1:]
}
