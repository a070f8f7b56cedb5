package analysis

import (
	"context"
	"math"

	"github.com/uptrace/bun"

	"tankwatch/internal/lock"
	"tankwatch/internal/stats"
	"tankwatch/internal/waybill"
)

// Scope is what one request counts: days, the carrier groups under a path (the caller's checked
// scope, or the company it named), and at most one of a product and a route.
type Scope struct {
	Period
	Under     string
	GroupID   int64 // exactly this carrier group (a company row's drill-down); 0: any under Under
	ProductID int64
	DepotID   int64 // a route: depot → first destination station
	StationID int64
}

func (s Scope) route() bool { return s.DepotID > 0 }

// Figs are a set's figures: the rollup's sums with the derived rate and average, and the abnormal
// events of the lock and seal records (nil where they cannot be told apart: per product and per route,
// an event belongs to a car and a day, not to a product or a route).
type Figs struct {
	stats.Total
	Tampering     *int64 `json:"tampering"`
	SealIncidents *int64 `json:"sealIncidents"`
}

// Spread is the out-to-arrival time of a route's timed trips: average, shortest, longest and the
// standard deviation, in minutes (-1: no timed trip).
type Spread struct {
	AvgMin float64 `json:"avgMin"`
	MinMin float64 `json:"minMin"`
	MaxMin float64 `json:"maxMin"`
	StdMin float64 `json:"stdMin"`
}

// sumRow is one grouped sum of the route rollup.
type sumRow struct {
	stats.Total
	Depot   int64   `bun:"depot"`
	Station int64   `bun:"station"`
	Sq      float64 `bun:"sq"`
	Lo      float64 `bun:"lo"`
	Hi      float64 `bun:"hi"`
}

func (r sumRow) spread() Spread {
	s := Spread{AvgMin: -1, MinMin: -1, MaxMin: -1, StdMin: -1}
	if r.TimedTrips == 0 {
		return s
	}
	n := float64(r.TimedTrips)
	mean := r.OutToArrivalMin / n
	s.AvgMin, s.MinMin, s.MaxMin = round1(mean), round1(r.Lo), round1(r.Hi)
	s.StdMin = round1(math.Sqrt(math.Max(0, r.Sq/n-mean*mean)))
	return s
}

func round1(v float64) float64 { return math.Round(v*10) / 10 }

// sumRoutes adds up stat_route_daily over sc grouped by key ("0", "s.day", "s.group_id"; routes are
// grouped by depot and station whatever key is).
func sumRoutes(ctx context.Context, idb bun.IDB, sc Scope, key string, byRoute bool) ([]sumRow, error) {
	return sumRoutesFrom(ctx, idb, sc, key, byRoute, true)
}

// sumRoutesFrom is sumRoutes over the group layers (fast) or the cars' rows (the reference the tests
// compare the layers with).
func sumRoutesFrom(ctx context.Context, idb bun.IDB, sc Scope, key string, byRoute, fast bool) ([]sumRow, error) {
	src := idb.NewRaw("stat_route_daily")
	if fast {
		src = routeSource(idb, sc, key == "s.day")
	}
	sel := idb.NewSelect().TableExpr("? AS s", src).Join("JOIN org_groups AS g ON g.id = s.group_id").
		ColumnExpr(key+" AS k").
		ColumnExpr("COALESCE(SUM(s.trips), 0) AS trips, COALESCE(SUM(s.shipped_vt_l), 0.0) AS shipped_vt_l, COALESCE(SUM(s.shipped_v20_l), 0.0) AS shipped_v20_l").
		ColumnExpr("COALESCE(SUM(s.shipped_t), 0.0) AS shipped_t, COALESCE(SUM(s.received_v20_l), 0.0) AS received_v20_l, COALESCE(SUM(s.loss_l), 0.0) AS loss_l").
		ColumnExpr("COALESCE(SUM(s.km), 0.0) AS km, COALESCE(SUM(s.ton_km), 0.0) AS ton_km, COALESCE(SUM(s.timed_trips), 0) AS timed_trips").
		ColumnExpr("COALESCE(SUM(s.out_to_arrival_min), 0.0) AS out_to_arrival_min, COALESCE(SUM(s.abnormal_openings), 0) AS abnormal_openings").
		ColumnExpr("COALESCE(SUM(s.over_allowance), 0) AS over_allowance, COALESCE(SUM(s.out_to_arrival_sq), 0.0) AS sq").
		ColumnExpr("COALESCE(MIN(CASE WHEN s.out_to_arrival_lo >= 0 THEN s.out_to_arrival_lo END), -1.0) AS lo, COALESCE(MAX(s.out_to_arrival_hi), -1.0) AS hi").
		Where("g.path LIKE ?", sc.Under+"%")
	if !fast { // the layers' source holds the period's rows only (a month's as YYYYMM00)
		sel = sel.Where("s.day BETWEEN ? AND ?", sc.From, sc.To)
	}
	if sc.GroupID > 0 {
		sel = sel.Where("s.group_id = ?", sc.GroupID)
	}
	if sc.route() {
		sel = sel.Where("s.depot_id = ? AND s.station_id = ?", sc.DepotID, sc.StationID)
	}
	groups := []string{}
	if key != "0" {
		groups = append(groups, key)
	}
	if byRoute {
		sel = sel.ColumnExpr("s.depot_id AS depot, s.station_id AS station")
		groups = append(groups, "s.depot_id", "s.station_id")
	} else {
		sel = sel.ColumnExpr("0 AS depot, 0 AS station")
	}
	for _, g := range groups {
		sel = sel.GroupExpr(g).OrderExpr(g)
	}
	var out []sumRow
	if err := sel.Scan(ctx, &out); err != nil {
		return nil, err
	}
	for i := range out {
		out[i].Derive()
	}
	return out, nil
}

// byKey sums sc grouped by one of total / day / group: from the product split of stat_trip_daily for a
// product, else from the route rollup, whose rows add up to the trip rows over any filter (the same
// stats.Compute; a store test holds them equal) and hold only trip rows (stat_trip_daily holds the
// product rows beside them, three times the rows to scan on a fleet carrying two products).
func byKey(ctx context.Context, idb bun.IDB, sc Scope, by stats.By) ([]stats.Total, error) {
	if sc.ProductID == 0 {
		key := map[stats.By]string{stats.ByTotal: "0", stats.ByDay: "s.day", stats.ByGroup: "s.group_id"}[by]
		rows, err := sumRoutes(ctx, idb, sc, key, false)
		out := make([]stats.Total, len(rows))
		for i, r := range rows {
			out[i] = r.Total
		}
		if by == stats.ByTotal && len(out) == 0 {
			out = []stats.Total{{AvgOutToArrivalMin: -1}}
		}
		return out, err
	}
	return stats.Sum(ctx, idb, stats.Filter{From: sc.From, To: sc.To, Under: sc.Under, GroupID: sc.GroupID,
		ProductID: sc.ProductID, Products: sc.ProductID > 0}, by)
}

// eventCounts counts the lock tampering events and the seal incidents of the carrier groups under sc
// in its days, keyed by the group (byGroup) or by the day, or all under key 0.
func eventCounts(ctx context.Context, idb bun.IDB, sc Scope, by stats.By) (tamper, seals map[int64]int64, err error) {
	count := func(table, cond string, args ...any) (map[int64]int64, error) {
		key := "0"
		switch by {
		case stats.ByGroup:
			key = "e.group_id"
		case stats.ByDay:
			// the Shanghai day number since the epoch (UTC+8 without daylight saving); turned into YYYYMMDD below
			key = "(e.t + 28800000) / 86400000"
		}
		sel := idb.NewSelect().TableExpr(table+" AS e").Join("JOIN org_groups AS g ON g.id = e.group_id").
			ColumnExpr(key+" AS k, COUNT(*) AS n").Where("e.t BETWEEN ? AND ?", stats.DayStart(sc.From), stats.DayEnd(sc.To)).
			Where("g.path LIKE ?", sc.Under+"%")
		if cond != "" {
			sel = sel.Where(cond, args...)
		}
		if sc.GroupID > 0 {
			sel = sel.Where("e.group_id = ?", sc.GroupID)
		}
		if key != "0" {
			sel = sel.GroupExpr(key)
		}
		var rows []struct {
			K int64 `bun:"k"`
			N int64 `bun:"n"`
		}
		if err := sel.Scan(ctx, &rows); err != nil {
			return nil, err
		}
		out := map[int64]int64{}
		for _, r := range rows {
			k := r.K
			if by == stats.ByDay {
				k = int64(stats.Day(k*86_400_000 - 28_800_000 + 43_200_000)) // noon of that Shanghai day
			}
			out[k] += r.N
		}
		return out, nil
	}
	if tamper, err = count("lock_events", "e.event = ?", int(lock.EventTampered)); err != nil {
		return nil, nil, err
	}
	seals, err = count("seal_incidents", "")
	return tamper, seals, err
}

func ptr(v int64) *int64 { return &v }

// finishedTrips selects the finished waybills sc counts (the same set as the rollups: CLOSED or
// DIFF_FLAGGED, by closed_at) with what a drill-down row shows.
func finishedTrips(idb bun.IDB, sc Scope) *bun.SelectQuery {
	const first = "COALESCE((SELECT wd.station_id FROM waybill_destinations AS wd WHERE wd.waybill_id = w.id ORDER BY wd.seq LIMIT 1), 0)"
	sel := idb.NewSelect().TableExpr("waybills AS w").Join("JOIN org_groups AS g ON g.id = w.group_id").
		Where("w.state IN (?, ?)", waybill.Closed, waybill.DiffFlagged).
		Where("w.closed_at BETWEEN ? AND ?", stats.DayStart(sc.From), stats.DayEnd(sc.To)).Where("g.path LIKE ?", sc.Under+"%")
	if sc.GroupID > 0 {
		sel = sel.Where("w.group_id = ?", sc.GroupID)
	}
	if sc.ProductID > 0 {
		sel = sel.Where(`EXISTS (SELECT 1 FROM load_records AS lr JOIN load_record_items AS li ON li.record_id = lr.id
			WHERE lr.waybill_id = w.id AND li.product_id = ?)`, sc.ProductID)
	}
	if sc.route() {
		sel = sel.Where("w.depot_id = ? AND "+first+" = ?", sc.DepotID, sc.StationID)
	}
	return sel
}
