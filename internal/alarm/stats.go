package alarm

import (
	"context"
	"fmt"
	"slices"
	"time"

	"tankwatch/internal/audit"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
)

// TypeCount is one slice of exceptionTypeRatio.
type TypeCount struct {
	Type  string `json:"type"`
	Name  string `json:"name"`
	Count int    `json:"count"`
}

// statRows runs a grouped count over the query's alarms.
func (s *Service) statRows(ctx context.Context, p *httpx.Principal, q *Query, cols, group, order string, limit int, dst any) error {
	where, err := s.where(ctx, p, q, true)
	if err != nil {
		return err
	}
	sel := where(s.db.NewSelect().TableExpr("alarms AS a")).ColumnExpr(cols).GroupExpr(group)
	if order != "" {
		sel = sel.OrderExpr(order)
	}
	if limit > 0 {
		sel = sel.Limit(int64(limit))
	}
	return sel.Scan(ctx, dst)
}

// TypeRatio is POST /alarm-app/alarmMessage/exceptionTypeRatio: alarms per type in the range.
func (s *Service) TypeRatio(ctx context.Context, p *httpx.Principal, l i18n.Lang, q Query) ([]TypeCount, error) {
	var rows []struct {
		Type  string `bun:"type_code"`
		Count int    `bun:"n"`
	}
	if err := s.statRows(ctx, p, &q, "a.type_code, COUNT(*) AS n", "a.type_code", "n DESC, a.type_code", 0, &rows); err != nil {
		return nil, err
	}
	out := make([]TypeCount, len(rows))
	for i, r := range rows {
		out[i] = TypeCount{Type: r.Type, Name: TypeName(l, r.Type), Count: r.Count}
	}
	return out, nil
}

// CarCount is one bar of vehicleRankingRatio.
type CarCount struct {
	CarID int64  `json:"carId"`
	Plate string `json:"carNumber"`
	Count int    `json:"count"`
}

// Ranking is POST /alarm-app/alarmMessage/vehicleRankingRatio: the ten cars with most alarms.
func (s *Service) Ranking(ctx context.Context, p *httpx.Principal, q Query) ([]CarCount, error) {
	var rows []struct {
		CarID int64  `bun:"car_id"`
		Plate string `bun:"plate"`
		Count int    `bun:"n"`
	}
	if err := s.statRows(ctx, p, &q, "a.car_id, MAX(a.plate) AS plate, COUNT(*) AS n", "a.car_id", "n DESC, a.car_id", 10, &rows); err != nil {
		return nil, err
	}
	out := make([]CarCount, len(rows))
	for i, r := range rows {
		out[i] = CarCount{CarID: r.CarID, Plate: r.Plate, Count: r.Count}
	}
	return out, nil
}

// CarTypes is one row of vehicleAbnormalStatistics: a car's alarm counts by type.
type CarTypes struct {
	CarID  int64          `json:"carId"`
	Plate  string         `json:"carNumber"`
	Total  int            `json:"total"`
	Counts map[string]int `json:"counts"`
}

// CarStatistics is POST /alarm-app/alarmMessage/vehicleAbnormalStatistics: per car, counts by type,
// most alarms first, paged.
func (s *Service) CarStatistics(ctx context.Context, p *httpx.Principal, q Query) (httpx.Page[CarTypes], error) {
	if err := q.PageReq.Normalize(); err != nil {
		return httpx.Page[CarTypes]{}, err
	}
	var rows []struct {
		CarID int64  `bun:"car_id"`
		Plate string `bun:"plate"`
		Type  string `bun:"type_code"`
		Count int    `bun:"n"`
	}
	if err := s.statRows(ctx, p, &q, "a.car_id, MAX(a.plate) AS plate, a.type_code, COUNT(*) AS n", "a.car_id, a.type_code", "", 0, &rows); err != nil {
		return httpx.Page[CarTypes]{}, err
	}
	at := map[int64]int{}
	var list []CarTypes
	for _, r := range rows {
		i, ok := at[r.CarID]
		if !ok {
			i = len(list)
			at[r.CarID] = i
			list = append(list, CarTypes{CarID: r.CarID, Plate: r.Plate, Counts: map[string]int{}})
		}
		list[i].Counts[r.Type] += r.Count
		list[i].Total += r.Count
	}
	sortCarTypes(list)
	from := min(int(q.Offset()), len(list))
	to := min(from+q.PageSize, len(list))
	return httpx.NewPage(list[from:to], int64(len(list)), q.PageReq), nil
}

// DayCount is one point of exceptionTypeLine.
type DayCount struct {
	Day   string `json:"day"` // YYYY-MM-DD, Asia/Shanghai
	Type  string `json:"type"`
	Name  string `json:"name"`
	Count int    `json:"count"`
}

// TypeLine is POST /alarm-app/alarmMessage/exceptionTypeLine: alarms per day (Asia/Shanghai) and type.
func (s *Service) TypeLine(ctx context.Context, p *httpx.Principal, l i18n.Lang, q Query) ([]DayCount, error) {
	var rows []struct {
		Day   int64  `bun:"day"`
		Type  string `bun:"type_code"`
		Count int    `bun:"n"`
	}
	const day = "(a.start_at + 28800000) / 86400000"
	if err := s.statRows(ctx, p, &q, day+" AS day, a.type_code, COUNT(*) AS n", day+", a.type_code", "day, a.type_code", 0, &rows); err != nil {
		return nil, err
	}
	out := make([]DayCount, len(rows))
	for i, r := range rows {
		d := time.UnixMilli(r.Day * 86_400_000).UTC().Format("2006-01-02")
		out[i] = DayCount{Day: d, Type: r.Type, Name: TypeName(l, r.Type), Count: r.Count}
	}
	return out, nil
}

func auditDeal(in DealInput, n int64) audit.Entry {
	return audit.Entry{Module: ModuleAlarm, Action: "deal", Target: audit.Text("oplog.alarmCount", n),
		Detail: audit.Text("oplog.alarmDeal", audit.Key(fmt.Sprintf("alarm.state.%d", in.State)), in.Remark)}
}

func sortCarTypes(list []CarTypes) {
	slices.SortFunc(list, func(a, b CarTypes) int {
		if a.Total != b.Total {
			return b.Total - a.Total
		}
		return int(a.CarID - b.CarID)
	})
}
