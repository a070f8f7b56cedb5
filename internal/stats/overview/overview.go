// Package overview is the period overview (manager/statistic, menu 04-21) and the formal operations
// report (manager/report, 04-20) of issue 16 (DOMAIN.md §5, D56): the trip figures come from the trip
// rollup (stats.Sum), the lock tampering and seal incident counts from lock_events and seal_incidents,
// and every trip figure drills down to the transport record's rows of the same period and scope.
package overview

import (
	"context"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"tankwatch/internal/lock"
	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/stats"
	"tankwatch/internal/waybill/views"
)

// Permission codes (internal/org/menu.json).
const (
	CodeStatistic       = "04-21"
	CodeStatisticExport = "04-21-01"
	CodeReport          = "04-20"
	CodeReportExport    = "04-20-01"
)

// MaxDays is the longest period one overview covers.
const MaxDays = 366

// Service answers the overview and report calls.
type Service struct {
	db    bun.IDB
	views *views.Service // the transport record, for the drill-down
	Now   func() time.Time
}

// New returns the service; v is the transport record's service the drill-down reads.
func New(idb bun.IDB, v *views.Service) *Service { return &Service{db: idb, views: v, Now: time.Now} }

// Period is a run of days (YYYYMMDD, inclusive).
type Period struct{ From, To int }

// Len is the number of days.
func (p Period) Len() int { return len(stats.Days(p.From, p.To)) }

// Prev is the period of the same length just before p.
func (p Period) Prev() Period {
	n := p.Len()
	return Period{From: int(stats.AddDays(p.From, -n)), To: int(stats.AddDays(p.From, -1))}
}

// Bounds are the first and last milliseconds of the period in Asia/Shanghai.
func (p Period) Bounds() (int64, int64) { return stats.DayStart(p.From), stats.DayEnd(p.To) }

// parseDay reads "YYYY-MM-DD" (a time after it, as the picker with times sends, is ignored).
func parseDay(s string) (int, bool) {
	s = strings.TrimSpace(s)
	if len(s) > 10 {
		s = s[:10]
	}
	t, err := time.ParseInLocation("2006-01-02", s, httpx.Shanghai)
	if err != nil {
		return 0, false
	}
	return t.Year()*10000 + int(t.Month())*100 + t.Day(), true
}

// ParsePeriod checks a period from the picker: both days given, in order, at most MaxDays long.
func ParsePeriod(start, end string) (Period, error) {
	if strings.TrimSpace(start) == "" || strings.TrimSpace(end) == "" {
		return Period{}, httpx.Biz("overview.periodRequired")
	}
	from, ok1 := parseDay(start)
	to, ok2 := parseDay(end)
	if !ok1 || !ok2 {
		return Period{}, httpx.Invalid("overview.period")
	}
	if to < from {
		return Period{}, httpx.Biz("overview.endBeforeStart")
	}
	p := Period{From: from, To: to}
	if p.Len() > MaxDays {
		return Period{}, httpx.Biz("overview.tooLong", MaxDays)
	}
	return p, nil
}

// DayText is day as "YYYY-MM-DD".
func DayText(day int) string {
	return time.Date(day/10000, time.Month(day/100%100), day%100, 0, 0, 0, 0, time.UTC).Format("2006-01-02")
}

// scope is the group path the caller's figures are read under (the named group once it is in scope).
func (s *Service) scope(ctx context.Context, p *httpx.Principal, groupID int64) (string, error) {
	return db.ScopeUnder(ctx, s.db, p, groupID)
}

// Events are the lock and seal counts of a period (read from the events, not from a rollup).
type Events struct {
	LockTampered  int64 `json:"lockTampered"`
	SealIncidents int64 `json:"sealIncidents"`
}

// events counts the lock tampering events and the seal incidents of the groups under path in p.
func (s *Service) events(ctx context.Context, under string, p Period) (Events, error) {
	from, to := p.Bounds()
	var e Events
	n, err := s.db.NewSelect().TableExpr("lock_events AS e").Join("JOIN org_groups AS g ON g.id = e.group_id").
		Where("e.event = ? AND e.t BETWEEN ? AND ? AND g.path LIKE ?", int(lock.EventTampered), from, to, under+"%").Count(ctx)
	if err != nil {
		return e, err
	}
	e.LockTampered = int64(n)
	n, err = s.db.NewSelect().TableExpr("seal_incidents AS i").Join("JOIN org_groups AS g ON g.id = i.group_id").
		Where("i.t BETWEEN ? AND ? AND g.path LIKE ?", from, to, under+"%").Count(ctx)
	e.SealIncidents = int64(n)
	return e, err
}

// names reads the names of rows of table by id ("" for an id not found, e.g. 0).
func (s *Service) names(ctx context.Context, table, col string, ids []int64) (map[int64]string, error) {
	out := map[int64]string{}
	if len(ids) == 0 {
		return out, nil
	}
	var rows []struct {
		ID   int64  `bun:"id"`
		Name string `bun:"name"`
	}
	if err := s.db.NewSelect().Table(table).ColumnExpr("id, "+col+" AS name").Where("id IN (?)", bun.In(ids)).Scan(ctx, &rows); err != nil {
		return nil, err
	}
	for _, r := range rows {
		out[r.ID] = r.Name
	}
	return out, nil
}

// Named is a grouped total with the name of its key (a company, a product, a car's plate).
type Named struct {
	Name string `json:"name"`
	stats.Total
}

// named sums f grouped by by and names the keys from table.col.
func (s *Service) named(ctx context.Context, f stats.Filter, by stats.By, table, col string) ([]Named, error) {
	rows, err := stats.Sum(ctx, s.db, f, by)
	if err != nil {
		return nil, err
	}
	ids := make([]int64, len(rows))
	for i, r := range rows {
		ids[i] = r.Key
	}
	nm, err := s.names(ctx, table, col, ids)
	if err != nil {
		return nil, err
	}
	out := make([]Named, len(rows))
	for i, r := range rows {
		out[i] = Named{Name: nm[r.Key], Total: r}
	}
	return out, nil
}

// byName merges the rows of the same name (each company keeps its own catalogue entry of a product:
// 0# 柴油 of two companies is one product to the reader), keeping the first key; the rate and the
// average are derived again from the merged sums. Rows keep their first order.
func byName(rows []Named) []Named {
	var out []Named
	at := map[string]int{}
	for _, r := range rows {
		i, ok := at[r.Name]
		if !ok {
			at[r.Name] = len(out)
			out = append(out, r)
			continue
		}
		out[i].Figures.Add(r.Figures)
		out[i].Derive()
	}
	return out
}
