package stats

import (
	"context"
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

// rebuildMonth adds up month's daily rows into stat_trip_monthly (narrowed by cond: one car's).
func rebuildMonth(ctx context.Context, idb bun.IDB, cond string, month int, args ...any) error {
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
