package lockstats

import (
	"context"

	"github.com/uptrace/bun"

	"tankwatch/internal/lock"
	"tankwatch/internal/stats"
)

// endsOffline is the SQL test "o is the next offline/online report of e's lock after e": the report
// that closes e's offline interval (ties on t broken by id, as the events were recorded).
const endsOffline = "o.serial = e.serial AND o.event IN (5, 6) AND (o.t > e.t OR (o.t = e.t AND o.id > e.id))"

// intervalSelect reads offline intervals (the offline report and when the lock came back, NULL → 0).
func intervalSelect(idb bun.IDB) *bun.SelectQuery {
	return idb.NewSelect().TableExpr("lock_events AS e").
		ColumnExpr("e.id, e.lock_id, e.serial, e.group_id, e.car_id, e.t").
		ColumnExpr("COALESCE((SELECT MIN(o.t) FROM lock_events AS o WHERE "+endsOffline+"), 0) AS back_at").
		Where("e.event = ?", int(lock.EventOffline))
}

// overlapping restricts intervalSelect to the intervals that reach into [from, to]: reported offline
// by to, and not back (no later offline/online report) by from.
func overlapping(sel *bun.SelectQuery, from, to int64) *bun.SelectQuery {
	return sel.Where("e.t <= ?", to).
		Where("NOT EXISTS (SELECT 1 FROM lock_events AS o WHERE "+endsOffline+" AND o.t <= ?)", from)
}

// RefreshLock recomputes the lock rollup rows of car on day from its lock events, replacing what was
// there, and the car's month and groups; now ends the offline intervals still open.
func RefreshLock(ctx context.Context, idb bun.IDB, carID int64, day int, now int64) error {
	return RefreshLocks(ctx, idb, []CarDay{{carID, day}}, now)
}

// CarDay is one car's day of rollup rows.
type CarDay struct {
	CarID int64
	Day   int
}

// RefreshLocks is RefreshLock for several car-days in one transaction: a mark's day and the days an
// offline interval it ends reaches back to, perhaps on another car the lock was bound to then.
func RefreshLocks(ctx context.Context, idb bun.IDB, days []CarDay, now int64) error {
	return refreshCars(ctx, idb, KindLock, days, func(cd CarDay) error { return refreshLockDay(ctx, idb, cd.CarID, cd.Day, now) })
}

func refreshLockDay(ctx context.Context, idb bun.IDB, carID int64, day int, now int64) error {
	from, to := stats.DayStart(day), stats.DayEnd(day)
	var evs []Event
	err := idb.NewSelect().Table("lock_events").Column("id", "lock_id", "serial", "group_id", "car_id", "event", "method", "station_id", "t").
		Where("car_id = ? AND t BETWEEN ? AND ?", carID, from, to).OrderExpr("t, id").Scan(ctx, &evs)
	if err != nil {
		return err
	}
	var ivs []Interval
	if err := overlapping(intervalSelect(idb).Where("e.car_id = ?", carID), from, to).Scan(ctx, &ivs); err != nil {
		return err
	}
	rows := ComputeLock(day, carID, evs, ivs, now)
	if _, err := idb.NewDelete().Table("stat_lock_daily").Where("car_id = ? AND day = ?", carID, day).Exec(ctx); err != nil {
		return err
	}
	if len(rows) == 0 {
		return nil
	}
	_, err = idb.NewInsert().Model(&rows).Exec(ctx)
	return err
}

// RefreshSeal recomputes the seal rollup rows of car on day from its seal records and incidents, and
// the car's month and groups.
func RefreshSeal(ctx context.Context, idb bun.IDB, carID int64, day int) error {
	return refreshCars(ctx, idb, KindSeal, []CarDay{{carID, day}}, func(CarDay) error { return refreshSealDay(ctx, idb, carID, day) })
}

func refreshSealDay(ctx context.Context, idb bun.IDB, carID int64, day int) error {
	from, to := stats.DayStart(day), stats.DayEnd(day)
	var recs, incs []SealMark
	err := idb.NewSelect().Table("seal_records").Column("group_id", "applied_at", "state", "broken_at").
		Where("car_id = ? AND (applied_at BETWEEN ? AND ? OR broken_at BETWEEN ? AND ?)", carID, from, to, from, to).Scan(ctx, &recs)
	if err != nil {
		return err
	}
	err = idb.NewSelect().Table("seal_incidents").Column("group_id", "kind", "t").
		Where("car_id = ? AND t BETWEEN ? AND ?", carID, from, to).Scan(ctx, &incs)
	if err != nil {
		return err
	}
	rows := ComputeSeal(day, carID, recs, incs)
	if _, err := idb.NewDelete().Table("stat_seal_daily").Where("car_id = ? AND day = ?", carID, day).Exec(ctx); err != nil {
		return err
	}
	if len(rows) == 0 {
		return nil
	}
	_, err = idb.NewInsert().Model(&rows).Exec(ctx)
	return err
}

// lockDays are the (car, day) pairs whose lock rows depend on the events of car on day besides that
// day itself: an offline/online report that day ends an offline interval begun earlier (perhaps on
// another car the lock was bound to then), whose days up to this one change with it.
func lockDays(ctx context.Context, idb bun.IDB, carID int64, day int) ([]CarDay, error) {
	from, to := stats.DayStart(day), stats.DayEnd(day)
	var prev []struct {
		CarID int64 `bun:"car_id"`
		T     int64 `bun:"t"`
	}
	// the offline reports (before the day) whose interval one of the car's reports of the day ends
	err := idb.NewSelect().TableExpr("lock_events AS e").ColumnExpr("e.car_id, e.t").
		Where("e.event = ? AND e.t < ?", int(lock.EventOffline), from).
		Where(`EXISTS (SELECT 1 FROM lock_events AS o WHERE o.car_id = ? AND o.t BETWEEN ? AND ? AND `+endsOffline+`
			AND NOT EXISTS (SELECT 1 FROM lock_events AS m WHERE m.serial = e.serial AND m.event IN (5, 6)
				AND (m.t > e.t OR (m.t = e.t AND m.id > e.id)) AND (m.t < o.t OR (m.t = o.t AND m.id < o.id))))`, carID, from, to).
		Scan(ctx, &prev)
	if err != nil {
		return nil, err
	}
	var out []CarDay
	for _, p := range prev {
		// up to this day, and this day too on another car (its offline time ends today)
		for d := stats.Day(p.T); d < day || d == day && p.CarID != carID; d = stats.NextDay(d) {
			out = append(out, CarDay{p.CarID, d})
		}
	}
	return out, nil
}

// Rebuild recomputes every lock and seal rollup row of the days from..to (inclusive) from the records:
// it deletes the days' rows and refreshes each (car, day) that has events, records or offline time.
// It returns the number of (car, day) pairs written.
func Rebuild(ctx context.Context, idb bun.IDB, from, to int, now int64) (int, error) {
	if to < from {
		return 0, nil
	}
	start, end := stats.DayStart(from), stats.DayEnd(to)
	pairs := map[int]map[int64]bool{}
	seal := map[int]map[int64]bool{}
	put := func(m map[int]map[int64]bool, day int, car int64) {
		if m[day] == nil {
			m[day] = map[int64]bool{}
		}
		m[day][car] = true
	}
	var evs []struct {
		CarID int64 `bun:"car_id"`
		T     int64 `bun:"t"`
	}
	if err := idb.NewSelect().Table("lock_events").Column("car_id", "t").Where("t BETWEEN ? AND ?", start, end).Scan(ctx, &evs); err != nil {
		return 0, err
	}
	for _, e := range evs {
		put(pairs, stats.Day(e.T), e.CarID)
	}
	var ivs []Interval
	if err := overlapping(intervalSelect(idb), start, end).Scan(ctx, &ivs); err != nil {
		return 0, err
	}
	for _, iv := range ivs {
		for _, d := range stats.Days(max(from, stats.Day(iv.Start)), to) {
			if OfflineSeconds(iv, d, now) > 0 {
				put(pairs, d, iv.CarID)
			}
		}
	}
	var sm []struct {
		CarID int64 `bun:"car_id"`
		T     int64 `bun:"t"`
	}
	err := idb.NewRaw(`SELECT car_id, applied_at AS t FROM seal_records WHERE applied_at BETWEEN ? AND ?
		UNION ALL SELECT car_id, broken_at AS t FROM seal_records WHERE broken_at BETWEEN ? AND ?
		UNION ALL SELECT car_id, t FROM seal_incidents WHERE t BETWEEN ? AND ?`, start, end, start, end, start, end).Scan(ctx, &sm)
	if err != nil {
		return 0, err
	}
	for _, s := range sm {
		put(seal, stats.Day(s.T), s.CarID)
	}
	n := 0
	for _, day := range stats.Days(from, to) {
		if _, err := idb.NewDelete().Table("stat_lock_daily").Where("day = ?", day).Exec(ctx); err != nil {
			return n, err
		}
		if _, err := idb.NewDelete().Table("stat_seal_daily").Where("day = ?", day).Exec(ctx); err != nil {
			return n, err
		}
		for car := range pairs[day] {
			if err := refreshLockDay(ctx, idb, car, day, now); err != nil {
				return n, err
			}
			n++
		}
		for car := range seal[day] {
			if err := refreshSealDay(ctx, idb, car, day); err != nil {
				return n, err
			}
			n++
		}
	}
	// the months of those days, whole, from their daily rows (days outside from..to included)
	var months []int
	for _, day := range stats.Days(from, to) {
		if len(months) == 0 || months[len(months)-1] != stats.Month(day) {
			months = append(months, stats.Month(day))
		}
	}
	for _, k := range []Kind{KindLock, KindSeal} {
		if err := refreshMonths(ctx, idb, k, 0, months); err != nil {
			return n, err
		}
		if err := refreshGroups(ctx, idb, k, nil, stats.Days(from, to)); err != nil {
			return n, err
		}
	}
	return n, nil
}
