package audit

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/uptrace/bun"
	"github.com/xuri/excelize/v2"

	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
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
		q = q.Where("user_name LIKE ?", "%"+s+"%")
	}
	if f.Module != "" {
		q = q.Where("module = ?", f.Module)
	}
	if f.Action != "" {
		q = q.Where("action = ?", f.Action)
	}
	if s := strings.TrimSpace(f.Target); s != "" {
		q = q.Where("target LIKE ?", "%"+s+"%")
	}
	if f.StartTime != 0 {
		q = q.Where("created_at >= ?", int64(f.StartTime))
	}
	if f.EndTime != 0 {
		q = q.Where("created_at <= ?", int64(f.EndTime))
	}
	return q
}

// Page lists operation log entries made by users in the caller's scope.
func (l *Log) Page(ctx context.Context, p *httpx.Principal, f OpLogQuery) (httpx.Page[OpLog], error) {
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
	x := excelize.NewFile()
	defer x.Close()
	sheet := x.GetSheetName(0)
	head := []string{"col.id", "col.userName", "col.module", "col.action", "col.target", "col.targetId", "col.detail", "col.ip", "col.createdAt"}
	for i, k := range head {
		cell, _ := excelize.CoordinatesToCellName(i+1, 1)
		_ = x.SetCellValue(sheet, cell, i18n.T(lang, k))
	}
	for i, row := range rows {
		vals := []any{row.ID, row.UserName, tr(lang, "module."+row.Module), tr(lang, "action."+row.Action), row.Target,
			row.TargetID, row.Detail, row.IP, row.CreatedAt.String()}
		for j, v := range vals {
			cell, _ := excelize.CoordinatesToCellName(j+1, i+2)
			_ = x.SetCellValue(sheet, cell, v)
		}
	}
	_ = x.SetColWidth(sheet, "A", "I", 18)
	name := fmt.Sprintf("%s-%s.xlsx", i18n.T(lang, "export.opLog"), time.Now().In(httpx.Shanghai).Format("20060102"))
	ascii := fmt.Sprintf("operation-log-%s.xlsx", time.Now().In(httpx.Shanghai).Format("20060102"))
	w.Header().Set("Content-Type", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s"; filename*=UTF-8''%s`, ascii, url.PathEscape(name)))
	w.Header().Set("Access-Control-Expose-Headers", "Content-Disposition")
	w.Header().Set("Cache-Control", "no-store")
	return x.Write(w)
}

func tr(l i18n.Lang, key string) string {
	if i18n.Has(key) {
		return i18n.T(l, key)
	}
	return key[strings.IndexByte(key, '.')+1:]
}
