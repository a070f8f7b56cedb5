package overview

import (
	"context"

	"github.com/uptrace/bun"

	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/stats"
	"tankwatch/internal/waybill"
	"tankwatch/internal/waybill/views"
)

// Query is the body of the overview calls: the period (the picker's days) and the group (0: the
// caller's whole scope).
type Query struct {
	Start   string `json:"start"`
	End     string `json:"end"`
	GroupID int64  `json:"groupId"`
}

// Point is one day of the per-day series.
type Point struct {
	Day string `json:"day"` // YYYY-MM-DD
	stats.Total
}

// Overview is the period's overview (selectTrafficStatistics): the tiles of the period and of the
// previous period of the same length, and the series per day, company and product.
type Overview struct {
	From      string  `json:"from"`
	To        string  `json:"to"`
	PrevFrom  string  `json:"prevFrom"`
	PrevTo    string  `json:"prevTo"`
	Current   Tiles   `json:"current"`
	Previous  Tiles   `json:"previous"`
	ByDay     []Point `json:"byDay"`
	ByCompany []Named `json:"byCompany"`
	ByProduct []Named `json:"byProduct"`
}

// Tiles are a period's headline figures.
type Tiles struct {
	stats.Total
	Events
}

// tiles reads the trip totals (rollup) and the event counts of one period.
func (s *Service) tiles(ctx context.Context, under string, p Period) (Tiles, error) {
	tot, err := stats.Sum(ctx, s.db, stats.Filter{From: p.From, To: p.To, Under: under}, stats.ByTotal)
	if err != nil {
		return Tiles{}, err
	}
	ev, err := s.events(ctx, under, p)
	return Tiles{Total: tot[0], Events: ev}, err
}

// Statistic builds the overview of q for the caller.
func (s *Service) Statistic(ctx context.Context, pr *httpx.Principal, q Query) (*Overview, error) {
	p, err := ParsePeriod(q.Start, q.End)
	if err != nil {
		return nil, err
	}
	under, err := s.scope(ctx, pr, q.GroupID)
	if err != nil {
		return nil, err
	}
	prev := p.Prev()
	out := &Overview{From: DayText(p.From), To: DayText(p.To), PrevFrom: DayText(prev.From), PrevTo: DayText(prev.To)}
	if out.Current, err = s.tiles(ctx, under, p); err != nil {
		return nil, err
	}
	if out.Previous, err = s.tiles(ctx, under, prev); err != nil {
		return nil, err
	}
	f := stats.Filter{From: p.From, To: p.To, Under: under}
	days, err := stats.Sum(ctx, s.db, f, stats.ByDay)
	if err != nil {
		return nil, err
	}
	byDay := map[int]stats.Total{}
	for _, d := range days {
		byDay[int(d.Key)] = d
	}
	// every day of the period, with zeros where nothing finished (a chart's axis has no holes)
	for _, d := range stats.Days(p.From, p.To) {
		t, ok := byDay[d]
		if !ok {
			t = stats.Total{Key: int64(d)}
			t.Derive()
		}
		out.ByDay = append(out.ByDay, Point{Day: DayText(d), Total: t})
	}
	if out.ByCompany, err = s.named(ctx, f, stats.ByGroup, "org_groups", "name"); err != nil {
		return nil, err
	}
	products, err := s.named(ctx, f, stats.ByProduct, "products", "name")
	out.ByProduct = byName(products)
	return out, err
}

// StateCount is the number of trips in one state.
type StateCount struct {
	State string `json:"state"`
	Count int    `json:"count"`
}

// NowStates are the trips by state right now (transportProcessStatistics).
type NowStates struct {
	At     httpx.Time   `json:"at"`
	States []StateCount `json:"states"`
	Total  int          `json:"total"`
}

// openStates are the states of a trip not finished yet, in the order of the chain.
var openStates = []waybill.State{waybill.Planned, waybill.Dispatched, waybill.Loading, waybill.Loaded, waybill.Sealed,
	waybill.InTransit, waybill.Arrived, waybill.Unsealed, waybill.Unloading, waybill.Received, waybill.DiffFlagged}

// StatesNow counts the unfinished trips of the scope by state (the carrier's, or sold by a sales
// company of the scope, as the process list shows them). DIFF_FLAGGED counts as unfinished: it awaits
// a review.
func (s *Service) StatesNow(ctx context.Context, pr *httpx.Principal, q Query) (*NowStates, error) {
	under, err := s.scope(ctx, pr, q.GroupID)
	if err != nil {
		return nil, err
	}
	var rows []struct {
		State waybill.State `bun:"state"`
		N     int           `bun:"n"`
	}
	err = s.db.NewSelect().TableExpr("waybills AS w").Join("JOIN org_groups AS g ON g.id = w.group_id").
		Join("LEFT JOIN org_groups AS sg ON sg.id = w.sales_group_id").ColumnExpr("w.state, COUNT(*) AS n").
		Where("(g.path LIKE ? OR sg.path LIKE ?)", under+"%", under+"%").Where("w.state IN (?)", bun.In(openStates)).
		GroupExpr("w.state").Scan(ctx, &rows)
	if err != nil {
		return nil, err
	}
	n := map[waybill.State]int{}
	for _, r := range rows {
		n[r.State] = r.N
	}
	out := &NowStates{At: httpx.TimeOf(s.Now())}
	for _, st := range openStates {
		out.States = append(out.States, StateCount{State: st.String(), Count: n[st]})
		out.Total += n[st]
	}
	return out, nil
}

// TripsQuery is the drill-down: the transport record's rows behind a figure of the overview.
type TripsQuery struct {
	Query
	httpx.PageReq
	Day  string `json:"day"`  // one day of the period (a bar of the per-day chart)
	Over string `json:"over"` // "over": the over-allowance trips
}

// Trips lists the finished trips behind a figure: the transport record of the same days and scope
// (its count is the tile's trips, its over-allowance filter the tile's over-allowance trips).
func (s *Service) Trips(ctx context.Context, pr *httpx.Principal, q TripsQuery) (views.RecordPage, error) {
	p, err := ParsePeriod(q.Start, q.End)
	if err != nil {
		return views.RecordPage{}, err
	}
	if q.Day != "" {
		d, ok := parseDay(q.Day)
		if !ok || d < p.From || d > p.To {
			return views.RecordPage{}, httpx.Invalid("overview.day")
		}
		p = Period{From: d, To: d}
	}
	from, to := p.Bounds()
	return s.views.RecordPage(ctx, pr, views.Query{PageReq: q.PageReq, Start: httpx.Time(from), End: httpx.Time(to),
		GroupID: q.GroupID, Over: q.Over})
}
