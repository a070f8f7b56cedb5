// Package analysis is the transport analysis of issue 16 (dataAnalysis/transportation and trend, D57):
// the daily route rollup kept with the trip rollup, the breakdowns by company, product and route, the
// period comparison, the five largest V20 losses and the finished trips behind every figure.
package analysis

import (
	"context"
	"slices"

	"github.com/uptrace/bun"

	"tankwatch/internal/stats"
	"tankwatch/internal/waybill"
	"tankwatch/internal/waybill/views"
)

// RouteDaily is one row of stat_route_daily: the trip-row figures of stat_trip_daily for one route
// (depot → first destination station) plus what the out-to-arrival spread needs.
type RouteDaily struct {
	bun.BaseModel `bun:"table:stat_route_daily"`
	Day           int   `bun:"day,pk"`
	CarID         int64 `bun:"car_id,pk"`
	GroupID       int64 `bun:"group_id,pk"`
	SalesGroupID  int64 `bun:"sales_group_id,pk"`
	DepotID       int64 `bun:"depot_id,pk"`
	StationID     int64 `bun:"station_id,pk"`
	stats.Figures
	OutToArrivalSq float64 `bun:"out_to_arrival_sq"` // Σ minutes² of the timed trips
	OutToArrivalLo float64 `bun:"out_to_arrival_lo"` // shortest, -1: no timed trip
	OutToArrivalHi float64 `bun:"out_to_arrival_hi"` // longest, -1: no timed trip
}

type route struct{ group, sales, depot, station int64 }

// ComputeRoutes is the route rows of one car's finished trips on day. The figures are the trip rollup's
// own (stats.Compute on each route's trips, product-0 rows), so that route sums equal trip sums.
func ComputeRoutes(day int, trips []stats.Trip, routes map[int64][2]int64) []RouteDaily {
	byRoute := map[[2]int64][]stats.Trip{}
	var order [][2]int64
	for _, t := range trips {
		k := routes[t.ID]
		if byRoute[k] == nil {
			order = append(order, k)
		}
		byRoute[k] = append(byRoute[k], t)
	}
	var out []RouteDaily
	for _, k := range order {
		ts := byRoute[k]
		spread := map[route]*RouteDaily{}
		for _, t := range ts {
			r := route{t.GroupID, t.SalesGroupID, k[0], k[1]}
			s := spread[r]
			if s == nil {
				s = &RouteDaily{OutToArrivalLo: -1, OutToArrivalHi: -1}
				spread[r] = s
			}
			if views.OutToArrivalMin(t.DepartAt, t.ArriveAt) < 0 {
				continue
			}
			m := float64(t.ArriveAt-t.DepartAt) / 60000 // as the trip rollup sums it
			s.OutToArrivalSq += m * m
			if s.OutToArrivalLo < 0 || m < s.OutToArrivalLo {
				s.OutToArrivalLo = m
			}
			if m > s.OutToArrivalHi {
				s.OutToArrivalHi = m
			}
		}
		for _, d := range stats.Compute(day, ts) {
			if d.ProductID != 0 {
				continue
			}
			s := spread[route{d.GroupID, d.SalesGroupID, k[0], k[1]}]
			out = append(out, RouteDaily{Day: day, CarID: d.CarID, GroupID: d.GroupID, SalesGroupID: d.SalesGroupID,
				DepotID: k[0], StationID: k[1], Figures: d.Figures, OutToArrivalSq: s.OutToArrivalSq,
				OutToArrivalLo: s.OutToArrivalLo, OutToArrivalHi: s.OutToArrivalHi})
		}
	}
	return out
}

// Refresh recomputes stat_route_daily of car on day (registered as the "route" rollup, so that
// stats.Refresh and stats.Rebuild run it right after the trip rows of the same car and day).
func Refresh(ctx context.Context, idb bun.IDB, carID int64, day int) error {
	return refresh(ctx, idb, carID, day, true)
}

// refresh rewrites car's route rows of day; orphans: also drop other cars' rows the trip rollup no
// longer backs (not in the route-only Rebuild, which clears the day itself and may run before the trip
// rollup has rows).
func refresh(ctx context.Context, idb bun.IDB, carID int64, day int, orphans bool) error {
	trips, err := stats.LoadFinished(ctx, idb, carID, day)
	if err != nil {
		return err
	}
	routes, err := tripRoutes(ctx, idb, trips)
	if err != nil {
		return err
	}
	// the carrier groups whose group rows change: the car's before and after, and the orphans'
	layered := orphans && !stats.Bulk(ctx)
	var groups []int64
	if layered {
		q := idb.NewSelect().Table("stat_route_daily").ColumnExpr("DISTINCT group_id").Where("day = ?", day)
		if n, err := idb.NewSelect().Table("stat_trip_daily").Where("day = ? AND car_id <> ?", day, carID).Limit(1).Count(ctx); err != nil {
			return err
		} else if n > 0 {
			q = q.Where("car_id = ?", carID) // no orphan will be dropped: the car's own groups
		}
		if err := q.Scan(ctx, &groups); err != nil {
			return err
		}
	}
	if _, err := idb.NewDelete().Table("stat_route_daily").Where("car_id = ? AND day = ?", carID, day).Exec(ctx); err != nil {
		return err
	}
	if orphans {
		if err := dropOrphans(ctx, idb, carID, day); err != nil {
			return err
		}
	}
	rows := ComputeRoutes(day, trips, routes)
	if len(rows) > 0 {
		if _, err = idb.NewInsert().Model(&rows).Exec(ctx); err != nil {
			return err
		}
	}
	if !layered {
		return nil
	}
	for _, r := range rows {
		if !slices.Contains(groups, r.GroupID) {
			groups = append(groups, r.GroupID)
		}
	}
	if groups == nil {
		groups = []int64{}
	}
	return regroup(ctx, idb, day, day, groups)
}

// dropOrphans removes the day's route rows of other cars when the trip rollup holds no other car on
// that day. stats.Rebuild deletes a day's trip rows before it refreshes the cars that still have
// finished trips, so its first car lands here and clears the rows of cars that have none any more
// (which no refresh would reach); the cars after it rewrite their own rows. In incremental use the
// check is one index probe that finds another car and does nothing.
func dropOrphans(ctx context.Context, idb bun.IDB, carID int64, day int) error {
	n, err := idb.NewSelect().Table("stat_trip_daily").Where("day = ? AND car_id <> ?", day, carID).Limit(1).Count(ctx)
	if err != nil || n > 0 {
		return err
	}
	_, err = idb.NewDelete().Table("stat_route_daily").Where("day = ? AND car_id <> ?", day, carID).Exec(ctx)
	return err
}

// tripRoutes is each trip's route: its depot and its first destination's station (0: none).
func tripRoutes(ctx context.Context, idb bun.IDB, trips []stats.Trip) (map[int64][2]int64, error) {
	out := map[int64][2]int64{}
	if len(trips) == 0 {
		return out, nil
	}
	ids := make([]int64, len(trips))
	for i, t := range trips {
		ids[i] = t.ID
	}
	var rows []struct {
		ID      int64 `bun:"id"`
		Depot   int64 `bun:"depot_id"`
		Station int64 `bun:"station_id"`
	}
	err := idb.NewSelect().TableExpr("waybills AS w").ColumnExpr("w.id, w.depot_id").
		ColumnExpr("COALESCE((SELECT wd.station_id FROM waybill_destinations AS wd WHERE wd.waybill_id = w.id ORDER BY wd.seq LIMIT 1), 0) AS station_id").
		Where("w.id IN (?)", bun.In(ids)).Scan(ctx, &rows)
	for _, r := range rows {
		out[r.ID] = [2]int64{r.Depot, r.Station}
	}
	return out, err
}

// Rebuild recomputes the route rows of the days from..to from the waybills alone (the demo and a
// route-only repair; stats.Rebuild already runs Refresh through Register). It returns the (car, day)
// pairs written.
func Rebuild(ctx context.Context, idb bun.IDB, from, to int) (int, error) {
	n := 0
	for _, day := range stats.Days(from, to) {
		var cars []int64
		err := idb.NewSelect().Table("waybills").ColumnExpr("DISTINCT car_id").
			Where("state IN (?, ?) AND closed_at BETWEEN ? AND ?", waybill.Closed, waybill.DiffFlagged, stats.DayStart(day), stats.DayEnd(day)).
			Scan(ctx, &cars)
		if err != nil {
			return n, err
		}
		if _, err := idb.NewDelete().Table("stat_route_daily").Where("day = ?", day).Exec(ctx); err != nil {
			return n, err
		}
		for _, c := range cars {
			if err := refresh(ctx, idb, c, day, false); err != nil {
				return n, err
			}
			n++
		}
	}
	return n, Regroup(ctx, idb, from, to)
}
