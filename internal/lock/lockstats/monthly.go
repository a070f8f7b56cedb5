package lockstats

import (
	"context"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/uptrace/bun"

	"tankwatch/internal/stats"
)

// month sums: the monthly tables hold the sums of the daily rows of a car's month (same figures, the
// same keys less the day), recomputed from the daily rows whenever one of the car's days is.

func sumCols(kind Kind) string {
	var cols []string
	for _, c := range Columns[kind] {
		cols = append(cols, c[1])
	}
	return strings.Join(cols, ", ")
}

func sumExprs(kind Kind) string {
	var cols []string
	for _, c := range Columns[kind] {
		cols = append(cols, "SUM("+c[1]+")")
	}
	return strings.Join(cols, ", ")
}

// keyCols are the columns that key kind's car rows besides the day: the car, its carrier group and,
// for locks, the serial.
func keyCols(kind Kind) string {
	if kind == KindLock {
		return "car_id, group_id, serial"
	}
	return "car_id, group_id"
}

// refreshMonths recomputes the monthly rows of kind for the months listed (YYYYMM), for one car
// (carID > 0) or for every car (0), from the daily rows, and for locks their month-to-date rows.
func refreshMonths(ctx context.Context, idb bun.IDB, kind Kind, carID int64, months []int) error {
	if len(months) == 0 {
		return nil
	}
	for _, m := range months {
		if kind == KindLock {
			if err := refreshMTD(ctx, idb, carID, m); err != nil {
				return err
			}
		}
	}
	daily, monthly := table[kind], strings.Replace(table[kind], "_daily", "_monthly", 1)
	keys, keyCols := "month, car_id, group_id", "month, car_id, group_id"
	extra, extraSum := "", ""
	if kind == KindLock {
		keys, keyCols = keys+", serial", keyCols+", serial"
		extra, extraSum = ", lock_id", ", MAX(lock_id)"
	}
	del := idb.NewDelete().Table(monthly).Where("month IN (?)", bun.In(months))
	where := "month IN (?)"
	args := []any{bun.In(months)}
	if carID > 0 {
		del = del.Where("car_id = ?", carID)
		where += " AND car_id = ?"
		args = append(args, carID)
	}
	if _, err := del.Exec(ctx); err != nil {
		return err
	}
	_, err := idb.NewRaw("INSERT INTO "+monthly+" ("+keyCols+extra+", "+sumCols(kind)+") SELECT "+keys+extraSum+", "+sumExprs(kind)+
		" FROM "+daily+" WHERE "+where+" GROUP BY "+keys, args...).Exec(ctx)
	return err
}

// monthDays is the first and the last day (YYYYMMDD) of month YYYYMM.
func monthDays(month int) (int, int) { return month*100 + 1, lastOfMonth(month*100 + 1) }

// refreshMTD rewrites month's running sums of the lock rollup (stat_lock_mtd, D80) from its daily rows,
// for one car (carID > 0) or every car (0): each key of the month gets a row on every day from its
// first one to the month's end, summed by a window over the days (a day without a daily row adds
// nothing). The same statement as the trip rollup's (stats.rebuildMTD, D70).
func refreshMTD(ctx context.Context, idb bun.IDB, carID int64, month int) error {
	const kind = KindLock
	first, last := monthDays(month)
	keys := keyCols(kind)
	del := idb.NewDelete().Table("stat_lock_mtd").Where("day BETWEEN ? AND ?", first, last)
	sel := "SELECT " + keys + ", MIN(day) AS first FROM " + table[kind] + " WHERE day BETWEEN ? AND ?"
	args := []any{first, last}
	if carID > 0 {
		del = del.Where("car_id = ?", carID)
		sel += " AND car_id = ?"
		args = append(args, carID)
	}
	if _, err := del.Exec(ctx); err != nil {
		return err
	}
	var days, figs, on, part []string
	for _, d := range stats.Days(first, last) {
		days = append(days, "("+strconv.Itoa(d)+")")
	}
	for _, c := range Columns[kind] {
		figs = append(figs, "SUM(COALESCE(s."+c[1]+", 0)) OVER w")
	}
	for _, k := range strings.Split(keys, ", ") {
		on = append(on, "s."+k+" = k."+k)
		part = append(part, "k."+k)
	}
	_, err := idb.NewRaw("INSERT INTO "+"stat_lock_mtd"+" (day, "+keys+", "+sumCols(kind)+")"+
		" SELECT d.column1, "+strings.Join(part, ", ")+", "+strings.Join(figs, ", ")+
		" FROM ("+sel+" GROUP BY "+keys+") AS k"+
		" JOIN (VALUES "+strings.Join(days, ", ")+") AS d ON d.column1 >= k.first"+
		" LEFT JOIN "+table[kind]+" AS s ON s.day = d.column1 AND s.day BETWEEN ? AND ? AND "+strings.Join(on, " AND ")+
		" WINDOW w AS (PARTITION BY "+strings.Join(part, ", ")+" ORDER BY d.column1)", append(args, first, last)...).Exec(ctx)
	return err
}

// refreshGroups recomputes the per-group rows of kind for the days listed and their months, for the
// groups listed (nil: every group), from the car rows.
func refreshGroups(ctx context.Context, idb bun.IDB, kind Kind, groups []int64, days []int) error {
	if len(days) == 0 {
		return nil
	}
	var months []int
	seen := map[int]bool{}
	for _, d := range days {
		if m := d / 100; !seen[m] {
			seen[m] = true
			months = append(months, m)
		}
	}
	base := strings.TrimSuffix(table[kind], "_daily")
	for _, lv := range []struct {
		key     string
		keys    []int
		extra   string
		from    string
		to      string
		extraIn string
	}{
		{"day", days, ", MAX(week), MAX(month)", base + "_daily", base + "_group_daily", ", week, month"},
		{"month", months, "", base + "_monthly", base + "_group_monthly", ""},
	} {
		del := idb.NewDelete().Table(lv.to).Where(lv.key+" IN (?)", bun.In(lv.keys))
		where := lv.key + " IN (?)"
		args := []any{bun.In(lv.keys)}
		if groups != nil {
			if len(groups) == 0 {
				return nil
			}
			del = del.Where("group_id IN (?)", bun.In(groups))
			where += " AND group_id IN (?)"
			args = append(args, bun.In(groups))
		}
		if _, err := del.Exec(ctx); err != nil {
			return err
		}
		_, err := idb.NewRaw("INSERT INTO "+lv.to+" ("+lv.key+lv.extraIn+", group_id, "+sumCols(kind)+") SELECT "+lv.key+lv.extra+", group_id, "+
			sumExprs(kind)+" FROM "+lv.from+" WHERE "+where+" GROUP BY "+lv.key+", group_id", args...).Exec(ctx)
		if err != nil {
			return err
		}
	}
	return nil
}

// groupsOf are the groups of car's rows of kind on day.
func groupsOf(ctx context.Context, idb bun.IDB, kind Kind, carID int64, day int) ([]int64, error) {
	var gs []int64
	err := idb.NewSelect().Table(table[kind]).ColumnExpr("DISTINCT group_id").Where("car_id = ? AND day = ?", carID, day).Scan(ctx, &gs)
	return gs, err
}

// refreshCars recomputes each car-day with fn, then the cars' months and the groups they had or have
// those days. Every car's lock is taken first and every group's last, each set in one ordered call:
// taken car by car, a transaction of several cars could hold a group that a single car's refresh waits
// for while waiting for that car (D129).
func refreshCars(ctx context.Context, idb bun.IDB, kind Kind, days []CarDay, fn func(CarDay) error) error {
	cars := make([]int64, len(days))
	for i, cd := range days {
		cars[i] = cd.CarID
	}
	if err := stats.Serialize(ctx, idb, stats.SpaceLockCars, cars...); err != nil {
		return err
	}
	groups := map[int][]int64{} // by day
	for _, cd := range days {
		before, err := groupsOf(ctx, idb, kind, cd.CarID, cd.Day)
		if err != nil {
			return err
		}
		if err := fn(cd); err != nil {
			return err
		}
		after, err := groupsOf(ctx, idb, kind, cd.CarID, cd.Day)
		if err != nil {
			return err
		}
		if err := refreshMonths(ctx, idb, kind, cd.CarID, []int{cd.Day / 100}); err != nil {
			return err
		}
		groups[cd.Day] = append(append(groups[cd.Day], before...), after...)
	}
	if err := stats.Serialize(ctx, idb, stats.SpaceLockGroups, slices.Concat(slices.Collect(maps.Values(groups))...)...); err != nil {
		return err
	}
	for _, day := range slices.Sorted(maps.Keys(groups)) {
		if err := refreshGroups(ctx, idb, kind, groups[day], []int{day}); err != nil {
			return err
		}
	}
	return nil
}
