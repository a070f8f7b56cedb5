package alarm

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
	"tankwatch/internal/platform/plate"
	"tankwatch/internal/platform/xlsx"
)

// maxRangeDays bounds the time range of a list or statistic.
const maxRangeDays = 366

// Query is the filter of the alarm lists, statistics and the export.
type Query struct {
	httpx.PageReq
	GroupID   int64      `json:"groupId"` // 0: the caller's group; always with its subtree
	CarID     int64      `json:"carId"`
	Plate     string     `json:"carNumber"` // contains
	Types     []string   `json:"types"`
	Levels    []int      `json:"levels"`
	States    []int      `json:"states"`
	StartTime httpx.Time `json:"startTime"`
	EndTime   httpx.Time `json:"endTime"`
}

// where applies the query's scope and filters to a select over alarms AS a.
func (s *Service) where(ctx context.Context, p *httpx.Principal, q *Query, needRange bool) (func(*bun.SelectQuery) *bun.SelectQuery, error) {
	if q.GroupID < 0 {
		return nil, httpx.Invalid("groupId")
	}
	path, err := s.fleet.LiveGroupPath(ctx, p, q.GroupID)
	if err != nil {
		return nil, err
	}
	if q.CarID < 0 {
		return nil, httpx.Invalid("carId")
	}
	if q.CarID > 0 {
		if _, err := s.fleet.HistoryCar(ctx, p, q.CarID); err != nil {
			return nil, err
		}
	}
	for _, c := range q.Types {
		if _, ok := s.typeOf(c); !ok {
			return nil, httpx.Invalid("alarmType")
		}
	}
	for _, l := range q.Levels {
		if l < LevelI || l > LevelV {
			return nil, httpx.Invalid("alarmLevel")
		}
	}
	for _, st := range q.States {
		if st < StateUnprocessed || st > StatePending {
			return nil, httpx.Invalid("alarmState")
		}
	}
	if (q.StartTime == 0) != (q.EndTime == 0) || needRange {
		if q.StartTime == 0 {
			return nil, httpx.Required("startTime")
		}
		if q.EndTime == 0 {
			return nil, httpx.Required("endTime")
		}
	}
	if q.EndTime < q.StartTime {
		return nil, httpx.Biz("alarm.endBeforeStart")
	}
	if time.Duration(q.EndTime-q.StartTime)*time.Millisecond > maxRangeDays*24*time.Hour {
		return nil, httpx.Biz("alarm.rangeTooLong", maxRangeDays)
	}
	plateQ := strings.TrimSpace(q.Plate)
	return func(sel *bun.SelectQuery) *bun.SelectQuery {
		sel = sel.Where("a.group_path >= ? AND a.group_path < ?", path, path+"\xff")
		if q.CarID > 0 {
			sel = sel.Where("a.car_id = ?", q.CarID)
		}
		if plateQ != "" {
			sel = sel.Where(db.Contains(plate.SQL("a.plate"), plate.Key(plateQ)))
		}
		if len(q.Types) > 0 {
			sel = sel.Where("a.type_code IN (?)", bun.In(q.Types))
		}
		if len(q.Levels) > 0 {
			sel = sel.Where("a.level IN (?)", bun.In(q.Levels))
		}
		if len(q.States) > 0 {
			sel = sel.Where("a.state IN (?)", bun.In(q.States))
		}
		if q.StartTime != 0 {
			sel = sel.Where("a.start_at >= ? AND a.start_at <= ?", int64(q.StartTime), q.EndTime.Through())
		}
		return sel
	}, nil
}

var sortColumns = map[string]string{"startTime": "a.start_at", "level": "a.level", "carNumber": "a.plate", "state": "a.state"}

// FindSome is POST /alarm-app/alarmMessage/findsome: a page of alarms, newest first.
func (s *Service) FindSome(ctx context.Context, p *httpx.Principal, l i18n.Lang, q Query) (httpx.Page[View], error) {
	if err := q.PageReq.Normalize(); err != nil {
		return httpx.Page[View]{}, err
	}
	where, err := s.where(ctx, p, &q, false)
	if err != nil {
		return httpx.Page[View]{}, err
	}
	order, err := q.OrderBy(sortColumns, "a.start_at DESC")
	if err != nil {
		return httpx.Page[View]{}, err
	}
	var rows []Record
	total, err := where(s.db.NewSelect().Model(&rows)).OrderExpr(order + ", a.id DESC").
		Offset(q.Offset()).Limit(q.Limit()).ScanAndCount(ctx)
	if err != nil {
		return httpx.Page[View]{}, err
	}
	return httpx.NewPage(views(l, rows), int64(total), q.PageReq), nil
}

func views(l i18n.Lang, rows []Record) []View {
	out := make([]View, len(rows))
	for i := range rows {
		out[i] = rows[i].view(l)
	}
	return out
}

// CarQuery is the body of findListByCarId and parkingTimeOut/getByCarId.
type CarQuery struct {
	CarID     int64      `json:"carId"`
	Limit     int        `json:"limit"` // findListByCarId: newest this many (default 20, at most 200)
	StartTime httpx.Time `json:"startTime"`
	EndTime   httpx.Time `json:"endTime"`
}

// ByCar is POST /alarm-app/alarmMessage/findListByCarId: a car's most recent alarms.
func (s *Service) ByCar(ctx context.Context, p *httpx.Principal, l i18n.Lang, q CarQuery) ([]View, error) {
	if _, err := s.fleet.HistoryCar(ctx, p, q.CarID); err != nil {
		return nil, err
	}
	if q.Limit == 0 {
		q.Limit = 20
	}
	if q.Limit < 1 || q.Limit > 200 {
		return nil, httpx.Biz("field.range", httpx.Field("limit"), 1, 200)
	}
	var rows []Record
	sel := s.db.NewSelect().Model(&rows).Where("a.car_id = ?", q.CarID)
	if q.StartTime != 0 {
		sel = sel.Where("a.start_at >= ?", int64(q.StartTime))
	}
	if q.EndTime != 0 {
		sel = sel.Where("a.start_at <= ?", q.EndTime.Through())
	}
	// only what the caller may see: a car moved in from another group keeps that group's alarms
	sel = sel.Where("a.group_path >= ? AND a.group_path < ?", p.GroupPath, p.GroupPath+"\xff")
	if err := sel.OrderExpr("a.start_at DESC, a.id DESC").Limit(int64(q.Limit)).Scan(ctx); err != nil {
		return nil, err
	}
	return views(l, rows), nil
}

// MonitorQuery is the body of selectByMonitor.
type MonitorQuery struct {
	GroupID int64 `json:"groupId"`
	Limit   int   `json:"limit"` // default 50, at most 500
}

// ByMonitor is POST /alarm-app/alarmMessage/selectByMonitor: the unprocessed alarms of the caller's
// scope (or a group of it), newest first.
func (s *Service) ByMonitor(ctx context.Context, p *httpx.Principal, l i18n.Lang, q MonitorQuery) ([]View, error) {
	if q.Limit == 0 {
		q.Limit = 50
	}
	if q.Limit < 1 || q.Limit > 500 {
		return nil, httpx.Biz("field.range", httpx.Field("limit"), 1, 500)
	}
	where, err := s.where(ctx, p, &Query{GroupID: q.GroupID, States: []int{StateUnprocessed}}, false)
	if err != nil {
		return nil, err
	}
	var rows []Record
	if err := where(s.db.NewSelect().Model(&rows)).OrderExpr("a.start_at DESC, a.id DESC").Limit(int64(q.Limit)).Scan(ctx); err != nil {
		return nil, err
	}
	return views(l, rows), nil
}

// CarSummary is one row of findsome2: a car's alarms in the range.
type CarSummary struct {
	CarID       int64      `json:"carId"`
	Plate       string     `json:"carNumber"`
	Total       int        `json:"total"`
	Unprocessed int        `json:"unprocessed"`
	MaxLevel    int        `json:"maxLevel"` // the most severe (smallest number)
	LastTime    httpx.Time `json:"lastTime"`
}

// FindSome2 is POST /alarm-app/alarmMessage/findsome2: the same filter, grouped per car (most alarms
// first).
func (s *Service) FindSome2(ctx context.Context, p *httpx.Principal, q Query) (httpx.Page[CarSummary], error) {
	if err := q.PageReq.Normalize(); err != nil {
		return httpx.Page[CarSummary]{}, err
	}
	where, err := s.where(ctx, p, &q, false)
	if err != nil {
		return httpx.Page[CarSummary]{}, err
	}
	var rows []struct {
		CarID       int64  `bun:"car_id"`
		Plate       string `bun:"plate"`
		Total       int    `bun:"total"`
		Unprocessed int    `bun:"unprocessed"`
		MaxLevel    int    `bun:"max_level"`
		LastTime    int64  `bun:"last_time"`
	}
	sel := where(s.db.NewSelect().TableExpr("alarms AS a")).
		ColumnExpr("a.car_id, MAX(a.plate) AS plate, COUNT(*) AS total").
		ColumnExpr("SUM(CASE WHEN a.state = 0 THEN 1 ELSE 0 END) AS unprocessed, MIN(a.level) AS max_level, MAX(a.start_at) AS last_time").
		GroupExpr("a.car_id")
	var total int
	if err := s.db.NewSelect().TableExpr("(?) AS x", sel).ColumnExpr("COUNT(*)").Scan(ctx, &total); err != nil {
		return httpx.Page[CarSummary]{}, err
	}
	if err := sel.OrderExpr("total DESC, a.car_id").Offset(q.Offset()).Limit(q.Limit()).Scan(ctx, &rows); err != nil {
		return httpx.Page[CarSummary]{}, err
	}
	out := make([]CarSummary, len(rows))
	for i, r := range rows {
		out[i] = CarSummary{CarID: r.CarID, Plate: r.Plate, Total: r.Total, Unprocessed: r.Unprocessed, MaxLevel: r.MaxLevel, LastTime: httpx.Time(r.LastTime)}
	}
	return httpx.NewPage(out, int64(total), q.PageReq), nil
}

// DealInput is the body of POST /alarm-app/alarmMessage/deal.
type DealInput struct {
	IDs    []int64 `json:"ids"`
	State  int     `json:"state"`
	Remark string  `json:"remark"`
}

// Deal sets the processing state of alarms (all in the caller's scope, or none is changed).
func (s *Service) Deal(r *http.Request, in DealInput) (int, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	if len(in.IDs) == 0 {
		return 0, httpx.Required("ids")
	}
	if len(in.IDs) > maxBatch {
		return 0, httpx.Biz("field.range", httpx.Field("ids"), 1, maxBatch)
	}
	if in.State != StateProcessed && in.State != StatePending && in.State != StateUnprocessed {
		return 0, httpx.Invalid("alarmState")
	}
	in.Remark = strings.TrimSpace(in.Remark)
	if len([]rune(in.Remark)) > 255 {
		return 0, httpx.Biz("field.maxLen", httpx.Field("remark"), 255)
	}
	var rows []struct {
		ID   int64  `bun:"id"`
		Path string `bun:"group_path"`
	}
	if err := s.db.NewSelect().TableExpr("alarms").ColumnExpr("id, group_path").Where("id IN (?)", bun.In(in.IDs)).Scan(ctx, &rows); err != nil {
		return 0, err
	}
	for _, row := range rows {
		if !p.InScope(row.Path) {
			return 0, httpx.ErrScope
		}
	}
	if len(rows) != len(uniq(in.IDs)) {
		return 0, httpx.ErrNotFound
	}
	now := s.nowMS()
	res, err := s.db.NewUpdate().Model((*Record)(nil)).Set("state = ?", in.State).Set("remark = ?", in.Remark).
		Set("handler_id = ?", p.UserID).Set("handler_name = ?", p.UserName).Set("handled_at = ?", now).
		Where("id IN (?)", bun.In(in.IDs)).Exec(ctx)
	if err != nil {
		return 0, err
	}
	n, _ := res.RowsAffected()
	s.audit.Record(ctx, r, nil, auditDeal(in, n))
	return int(n), nil
}

func uniq(ids []int64) map[int64]bool {
	m := make(map[int64]bool, len(ids))
	for _, id := range ids {
		m[id] = true
	}
	return m
}

// detailText renders a stored detail (a JSON list of arguments) with the type's template.
func detailText(l i18n.Lang, code, detail string) string {
	if detail == "" {
		return ""
	}
	var args []string
	if err := json.Unmarshal([]byte(detail), &args); err != nil {
		return detail
	}
	if s, ok := lockDetailText(l, code, args); ok {
		return s
	}
	key := "alarm.detail." + code
	if k := key + "." + strconv.Itoa(len(args)); i18n.Has(k) { // a template for this many arguments
		key = k
	}
	if !i18n.Has(key) {
		return strings.Join(args, ", ")
	}
	a := make([]any, len(args))
	for i, v := range args {
		a[i] = v
	}
	return i18n.T(l, key, a...)
}

func formatDeg(d float64) string { return strconv.FormatFloat(d, 'f', 6, 64) }

// Export is POST /alarm-app/alarmMessage/export: findsome's filter as xlsx.
func (s *Service) Export(r *http.Request, q Query) (*xlsx.Sheet, error) {
	l := httpx.Lang(r)
	q.PageReq = httpx.PageReq{PageNum: 1, PageSize: 1}
	if err := q.PageReq.Normalize(); err != nil {
		return nil, err
	}
	where, err := s.where(r.Context(), httpx.Caller(r), &q, false)
	if err != nil {
		return nil, err
	}
	var rows []Record
	if err := where(s.db.NewSelect().Model(&rows)).OrderExpr("a.start_at DESC, a.id DESC").Limit(int64(maxExportRows)).Scan(r.Context()); err != nil {
		return nil, err
	}
	sh := &xlsx.Sheet{Name: "export.alarms", ASCII: "alarms", Head: []string{"col.plate", "alarm.col.type", "alarm.col.level",
		"alarm.col.start", "alarm.col.end", "col.lng", "col.lat", "alarm.col.speed", "alarm.col.detail", "alarm.col.state",
		"alarm.col.handler", "alarm.col.handledTime", "alarm.col.remark"}}
	for i := range rows {
		v := rows[i].view(l)
		lng, lat := "", ""
		if v.Lng.Valid {
			lng, lat = formatDeg(v.Lng.Deg), formatDeg(v.Lat.Deg)
		}
		sh.Rows = append(sh.Rows, []any{v.Plate, v.TypeName, i18n.T(l, "alarm.levelName", levelRoman(v.Level)), v.StartTime.String(), v.EndTime.String(),
			lng, lat, v.Speed, v.Detail, i18n.T(l, fmt.Sprintf("alarm.state.%d", v.State)), v.HandlerName, v.HandledAt.String(), v.Remark})
	}
	return sh, nil
}
