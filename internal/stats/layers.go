package stats

import (
	"context"
	"strconv"
	"strings"

	"github.com/uptrace/bun"
)

// The rollup's layers above stat_trip_daily (D55, migration 00027): the cars' months, and the groups'
// days and months (without the car). Each is re-added from the layer below, never edited, so they
// agree with the daily rows by construction; the tests check it on data.

// monthCols are the additive figures, in the tables' column order.
const monthCols = `trips, shipped_vt_l, shipped_v20_l, shipped_t, received_v20_l, loss_l, km, ton_km, timed_trips,
	out_to_arrival_min, abnormal_openings, over_allowance`

// sums is monthCols as SUM(…) expressions.
func sums() string {
	var out []string
	for _, c := range strings.Split(monthCols, ",") {
		out = append(out, "SUM("+strings.TrimSpace(c)+")")
	}
	return strings.Join(out, ", ")
}

// replace deletes del's rows and inserts those of insert (an INSERT … SELECT … WHERE …) grouped by
// groupBy, both narrowed by cond when it is set (one car's, one group's rows).
func replace(ctx context.Context, idb bun.IDB, del *bun.DeleteQuery, insert string, args []any, groupBy, cond string, condArgs ...any) error {
	if cond != "" {
		del = del.Where(cond, condArgs...)
		insert += " AND " + cond
		args = append(args, condArgs...)
	}
	if _, err := del.Exec(ctx); err != nil {
		return err
	}
	_, err := idb.NewRaw(insert+" GROUP BY "+groupBy, args...).Exec(ctx)
	return err
}

// rebuildMonth adds up month's daily rows into stat_trip_monthly and rewrites its month-to-date rows
// (narrowed by cond: one car's).
func rebuildMonth(ctx context.Context, idb bun.IDB, cond string, month int, args ...any) error {
	if err := rebuildMTD(ctx, idb, cond, month, args...); err != nil {
		return err
	}
	return replace(ctx, idb, idb.NewDelete().Table("stat_trip_monthly").Where("month = ?", month),
		`INSERT INTO stat_trip_monthly (month, car_id, group_id, sales_group_id, product_id, `+monthCols+`)
		SELECT ?, car_id, group_id, sales_group_id, product_id, `+sums()+` FROM stat_trip_daily WHERE day BETWEEN ? AND ?`,
		[]any{month, month*100 + 1, month*100 + 31}, "car_id, group_id, sales_group_id, product_id", cond, args...)
}

// refreshMonth re-adds car's month from its days.
func refreshMonth(ctx context.Context, idb bun.IDB, carID int64, month int) error {
	return rebuildMonth(ctx, idb, "car_id = ?", month, carID)
}

// groupCond narrows a re-add to one group (0: every group).
func groupCond(group int64) (string, []any) {
	if group > 0 {
		return "group_id = ?", []any{group}
	}
	return "", nil
}

// regroupDays re-adds the group rows of the days from..to from the cars' rows (one group's when
// group > 0).
func regroupDays(ctx context.Context, idb bun.IDB, from, to int, group int64) error {
	cond, args := groupCond(group)
	return replace(ctx, idb, idb.NewDelete().Table("stat_trip_group_daily").Where("day BETWEEN ? AND ?", from, to),
		`INSERT INTO stat_trip_group_daily (day, group_id, sales_group_id, product_id, `+monthCols+`)
		SELECT day, group_id, sales_group_id, product_id, `+sums()+` FROM stat_trip_daily WHERE day BETWEEN ? AND ?`,
		[]any{from, to}, "day, group_id, sales_group_id, product_id", cond, args...)
}

// regroupMonth re-adds the group rows of month from the groups' days (one group's when group > 0).
func regroupMonth(ctx context.Context, idb bun.IDB, month int, group int64) error {
	cond, args := groupCond(group)
	return replace(ctx, idb, idb.NewDelete().Table("stat_trip_group_monthly").Where("month = ?", month),
		`INSERT INTO stat_trip_group_monthly (month, group_id, sales_group_id, product_id, `+monthCols+`)
		SELECT ?, group_id, sales_group_id, product_id, `+sums()+` FROM stat_trip_group_daily WHERE day BETWEEN ? AND ?`,
		[]any{month, month*100 + 1, month*100 + 31}, "group_id, sales_group_id, product_id", cond, args...)
}

// rebuildMTD rewrites month's running sums (stat_trip_mtd, D70) from its daily rows (narrowed by cond):
// every key of the month gets a row on each day from its first one to the month's end, summed by a
// window over the days (a day without a daily row adds nothing).
func rebuildMTD(ctx context.Context, idb bun.IDB, cond string, month int, args ...any) error {
	first, last := month*100+1, int(AddDays(Month(NextDay(month*100+31))*100+1, -1))
	del := idb.NewDelete().Table("stat_trip_mtd").Where("day BETWEEN ? AND ?", first, last)
	keys := "SELECT car_id, group_id, sales_group_id, product_id, MIN(day) AS first FROM stat_trip_daily WHERE day BETWEEN ? AND ?"
	kargs := []any{first, last}
	if cond != "" {
		del = del.Where(cond, args...)
		keys += " AND " + cond
		kargs = append(kargs, args...)
	}
	if _, err := del.Exec(ctx); err != nil {
		return err
	}
	var days, figs []string
	for _, d := range Days(first, last) {
		days = append(days, "("+strconv.Itoa(d)+")")
	}
	for _, c := range strings.Split(monthCols, ",") {
		c = strings.TrimSpace(c)
		figs = append(figs, "SUM(COALESCE(s."+c+", 0)) OVER w")
	}
	_, err := idb.NewRaw(`INSERT INTO stat_trip_mtd (day, car_id, group_id, sales_group_id, product_id, `+monthCols+`)
		SELECT d.column1, k.car_id, k.group_id, k.sales_group_id, k.product_id, `+strings.Join(figs, ", ")+`
		FROM (`+keys+` GROUP BY car_id, group_id, sales_group_id, product_id) AS k
		JOIN (VALUES `+strings.Join(days, ", ")+`) AS d ON d.column1 >= k.first
		LEFT JOIN stat_trip_daily AS s ON s.day = d.column1 AND s.day BETWEEN ? AND ? AND s.car_id = k.car_id AND s.group_id = k.group_id
			AND s.sales_group_id = k.sales_group_id AND s.product_id = k.product_id
		WINDOW w AS (PARTITION BY k.car_id, k.group_id, k.sales_group_id, k.product_id ORDER BY d.column1)`, append(kargs, first, last)...).Exec(ctx)
	return err
}
