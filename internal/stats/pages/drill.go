package pages

import (
	"context"
	"database/sql"
	"errors"

	"github.com/uptrace/bun"

	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/stats"
)

// DrillQuery asks for the finished trips behind one number of a page: the row's key (All: the
// totals row) and the column (Only: over, openings, timed; empty for the other columns).
type DrillQuery struct {
	Query
	Kind Kind   `json:"kind"`
	Key  int64  `json:"key"`
	All  bool   `json:"all"`
	Only string `json:"only"`
}

// TripView is one trip of a drill-down with the figures it adds to the clicked row.
type TripView struct {
	ID        int64      `json:"id"`
	No        string     `json:"no"`
	Plate     string     `json:"plate"`
	GroupName string     `json:"groupName"`
	SalesName string     `json:"salesName"`
	ClosedAt  httpx.Time `json:"closedAt"`
	stats.Total
}

// Drill is a drill-down: the trips (paged, newest first) and their sums over every page, which are
// the clicked number — recomputed from the waybills, not read from the rollup.
type Drill struct {
	httpx.Page[TripView]
	Sum stats.Total `json:"sum"`
}

// Trips lists the trips behind a number.
func (s *Service) Trips(ctx context.Context, p *httpx.Principal, q DrillQuery) (*Drill, error) {
	if err := q.Normalize(); err != nil {
		return nil, err
	}
	if _, ok := codes[q.Kind]; !ok {
		return nil, httpx.Invalid("tripStats.kind")
	}
	only := stats.Only(q.Only)
	switch only {
	case stats.OnlyAll, stats.OnlyOver, stats.OnlyOpenings, stats.OnlyTimed:
	default:
		return nil, httpx.Invalid("tripStats.only")
	}
	if !q.All && q.Key <= 0 {
		return nil, httpx.Invalid("tripStats.key")
	}
	// the row's key goes through the same checks as a filter naming it (another company's car or group is refused)
	b := by(q.Kind, q.Sales)
	if !q.All {
		switch b {
		case stats.ByCar:
			q.CarID = q.Key
		case stats.ByGroup:
			q.GroupID = q.Key
		case stats.BySales:
			q.GroupID = q.Key
		case stats.ByProduct:
			q.ProductID = q.Key
		}
	}
	f, err := s.filter(ctx, p, q.Kind, &q.Query, false)
	if err != nil {
		return nil, err
	}
	if !q.All {
		switch b {
		case stats.ByGroup:
			f.GroupID = q.Key
		case stats.BySales:
			f.SalesGroupID = q.Key
		}
	}
	lines, err := stats.Trips(ctx, s.db, f, only, MaxDrillTrips)
	if errors.Is(err, stats.ErrTooManyTrips) {
		return nil, httpx.Biz("tripStats.tooManyTrips", MaxDrillTrips)
	} else if err != nil {
		return nil, err
	}
	out := &Drill{Sum: stats.AddLines(lines)}
	out.Page = httpx.Page[TripView]{List: []TripView{}, Total: len(lines), PageNum: q.PageNum, PageSize: q.PageSize}
	lo := (q.PageNum - 1) * q.PageSize
	if lo >= len(lines) {
		return out, nil
	}
	page := lines[lo:min(lo+q.PageSize, len(lines))]
	views, err := s.tripViews(ctx, page)
	if err != nil {
		return nil, err
	}
	out.List = views
	return out, nil
}

// tripViews names the trips of a page.
func (s *Service) tripViews(ctx context.Context, lines []stats.TripLine) ([]TripView, error) {
	ids := make([]int64, len(lines))
	for i, l := range lines {
		ids[i] = l.ID
	}
	var names []struct {
		ID    int64          `bun:"id"`
		No    string         `bun:"no"`
		Plate string         `bun:"plate"`
		Group string         `bun:"grp"`
		Sales sql.NullString `bun:"sales"`
	}
	err := s.db.NewSelect().TableExpr("waybills AS w").ColumnExpr("w.id, w.no, c.plate, g.name AS grp, sg.name AS sales").
		Join("JOIN cars AS c ON c.id = w.car_id").Join("JOIN org_groups AS g ON g.id = w.group_id").
		Join("LEFT JOIN org_groups AS sg ON sg.id = w.sales_group_id").Where("w.id IN (?)", bun.In(ids)).Scan(ctx, &names)
	if err != nil {
		return nil, err
	}
	byID := make(map[int64]int, len(names))
	for i, n := range names {
		byID[n.ID] = i
	}
	out := make([]TripView, len(lines))
	for i, l := range lines {
		t := stats.Total{Key: l.ID, Figures: l.Figures}
		t.Derive()
		v := TripView{ID: l.ID, ClosedAt: httpx.Time(l.ClosedAt), Total: t}
		if j, ok := byID[l.ID]; ok {
			n := names[j]
			v.No, v.Plate, v.GroupName, v.SalesName = n.No, n.Plate, n.Group, n.Sales.String
		}
		out[i] = v
	}
	return out, nil
}
