package analysis

import (
	"context"
	"strings"

	"github.com/uptrace/bun"

	"tankwatch/internal/stats"
)

// The route rollup's layers without the car (D71, migration 00036): stat_route_group_daily per day,
// carrier group, sales company and route, and stat_route_group_monthly per month. Re-added from the
// layer below, never edited; the analysis answers read them.

// routeCols are the additive figures of the route tables.
const routeCols = `trips, shipped_vt_l, shipped_v20_l, shipped_t, received_v20_l, loss_l, km, ton_km, timed_trips,
	out_to_arrival_min, out_to_arrival_sq, abnormal_openings, over_allowance`

// routeSums is routeCols summed, then the shortest and longest (-1: no timed trip).
func routeSums() string {
	var out []string
	for _, c := range strings.Split(routeCols, ",") {
		out = append(out, "SUM("+strings.TrimSpace(c)+")")
	}
	return strings.Join(out, ", ") + ", COALESCE(MIN(CASE WHEN out_to_arrival_lo >= 0 THEN out_to_arrival_lo END), -1), MAX(out_to_arrival_hi)"
}

// regroup re-adds the group rows of the days from..to from the cars' rows, and the months they are in
// from the group days; groups narrows both to those carrier groups (nil: every group).
func regroup(ctx context.Context, idb bun.IDB, from, to int, groups []int64) error {
	cols := "group_id, sales_group_id, depot_id, station_id"
	redo := func(table, dayCol string, lo, hi int, insert string, args ...any) error {
		del := idb.NewDelete().Table(table).Where(dayCol+" BETWEEN ? AND ?", lo, hi)
		if groups != nil {
			del = del.Where("group_id IN (?)", bun.In(groups))
			insert += " AND group_id IN (?)"
			args = append(args, bun.In(groups))
		}
		if _, err := del.Exec(ctx); err != nil {
			return err
		}
		_, err := idb.NewRaw(insert+" GROUP BY "+dayColOf(dayCol)+cols, args...).Exec(ctx)
		return err
	}
	if groups != nil && len(groups) == 0 {
		return nil
	}
	if err := redo("stat_route_group_daily", "day", from, to,
		`INSERT INTO stat_route_group_daily (day, `+cols+`, `+routeCols+`, out_to_arrival_lo, out_to_arrival_hi)
		SELECT day, `+cols+`, `+routeSums()+` FROM stat_route_daily WHERE day BETWEEN ? AND ?`, from, to); err != nil {
		return err
	}
	for m := stats.Month(from); m <= stats.Month(to); m = stats.Month(stats.NextDay(m*100 + 31)) {
		if err := redo("stat_route_group_monthly", "month", m, m,
			`INSERT INTO stat_route_group_monthly (month, `+cols+`, `+routeCols+`, out_to_arrival_lo, out_to_arrival_hi)
			SELECT ?, `+cols+`, `+routeSums()+` FROM stat_route_group_daily WHERE day BETWEEN ? AND ?`, m, m*100+1, m*100+31); err != nil {
			return err
		}
	}
	return nil
}

// dayColOf is what a re-add groups by besides the route: the day (the month's rows are one month).
func dayColOf(col string) string {
	if col == "day" {
		return "day, "
	}
	return ""
}

// Regroup re-adds every group's route rows of the days from..to and their months (registered with
// stats.RegisterLayers: stats.Rebuild calls it once after refreshing the cars in bulk).
func Regroup(ctx context.Context, idb bun.IDB, from, to int) error {
	return regroup(ctx, idb, from, to, nil)
}

// routeSource is the rows sumRoutes reads for sc: the group months of the whole months and the group
// days of the edge days (every day when byDay), each with day = YYYYMMDD or YYYYMM00.
func routeSource(idb bun.IDB, sc Scope, byDay bool) *bun.RawQuery {
	cols := "group_id, sales_group_id, depot_id, station_id, " + routeCols + ", out_to_arrival_lo, out_to_arrival_hi"
	var cond []string
	var cargs []any
	if sc.GroupID > 0 {
		cond, cargs = append(cond, "group_id = ?"), append(cargs, sc.GroupID)
	}
	if sc.route() {
		cond, cargs = append(cond, "depot_id = ? AND station_id = ?"), append(cargs, sc.DepotID, sc.StationID)
	}
	where := ""
	if len(cond) > 0 {
		where = " AND " + strings.Join(cond, " AND ")
	}
	var ranges, parts []string
	var rargs, args []any
	var months []int
	for m := stats.Month(sc.From); sc.From <= sc.To && m <= stats.Month(sc.To); m = stats.Month(stats.NextDay(m*100 + 31)) {
		first, last := m*100+1, lastDay(m)
		lo, hi := max(sc.From, first), min(sc.To, last)
		if !byDay && lo == first && hi == last {
			months = append(months, m)
			continue
		}
		ranges, rargs = append(ranges, "day BETWEEN ? AND ?"), append(rargs, lo, hi)
	}
	if len(ranges) > 0 {
		parts = append(parts, "SELECT day, "+cols+" FROM stat_route_group_daily WHERE ("+strings.Join(ranges, " OR ")+")"+where)
		args = append(append(args, rargs...), cargs...)
	}
	if len(months) > 0 {
		parts = append(parts, "SELECT month * 100 AS day, "+cols+" FROM stat_route_group_monthly WHERE month IN (?)"+where)
		args = append(append(args, bun.In(months)), cargs...)
	}
	if len(parts) == 0 {
		return idb.NewRaw("(SELECT day, " + cols + " FROM stat_route_group_daily WHERE 1 = 0)")
	}
	return idb.NewRaw("("+strings.Join(parts, " UNION ALL ")+")", args...)
}
