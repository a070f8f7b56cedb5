package stats

import (
	"context"
	"slices"

	"github.com/uptrace/bun"

	"tankwatch/internal/waybill"
)

// finished is the set the statistics count, as transportRecord does: CLOSED or DIFF_FLAGGED, dated
// by closed_at.
var finished = []waybill.State{waybill.Closed, waybill.DiffFlagged}

// Refresh recomputes the rollup rows of car on day from its finished waybills, replacing what was
// there (inside tx when the caller has one), and then every registered rollup's rows of that day.
func Refresh(ctx context.Context, idb bun.IDB, carID int64, day int) error {
	if err := Serialize(ctx, idb, SpaceTripCars, carID); err != nil {
		return err
	}
	groups, err := refreshDay(ctx, idb, carID, day)
	if err != nil {
		return err
	}
	if err := refreshMonth(ctx, idb, carID, Month(day)); err != nil {
		return err
	}
	if err := Serialize(ctx, idb, SpaceTripGroups, groups...); err != nil {
		return err
	}
	for _, g := range groups {
		if err := regroupDays(ctx, idb, day, day, g); err != nil {
			return err
		}
		if err := regroupMonth(ctx, idb, Month(day), g); err != nil {
			return err
		}
	}
	return nil
}

// refreshDay is Refresh without the monthly and group rows (Rebuild adds those up once at the end);
// it returns the carrier groups whose rows of the day changed (before and after).
func refreshDay(ctx context.Context, idb bun.IDB, carID int64, day int) ([]int64, error) {
	groups, err := refreshTrips(ctx, idb, carID, day)
	if err != nil {
		return nil, err
	}
	for _, fn := range registered() {
		if err := fn(ctx, idb, carID, day); err != nil {
			return nil, err
		}
	}
	return groups, nil
}

// LoadFinished reads car's finished trips on day: what the trip rollup counts, and what a rollup kept
// with it through Register reads (the analysis part's route rollup, D57).
func LoadFinished(ctx context.Context, idb bun.IDB, carID int64, day int) ([]Trip, error) {
	return loadTrips(ctx, idb, "w.car_id = ? AND w.closed_at BETWEEN ? AND ?", carID, DayStart(day), DayEnd(day))
}

func refreshTrips(ctx context.Context, idb bun.IDB, carID int64, day int) ([]int64, error) {
	trips, err := LoadFinished(ctx, idb, carID, day)
	if err != nil {
		return nil, err
	}
	rows := Compute(day, trips)
	var groups []int64
	if err := idb.NewSelect().Table("stat_trip_daily").ColumnExpr("DISTINCT group_id").Where("car_id = ? AND day = ?", carID, day).
		Scan(ctx, &groups); err != nil {
		return nil, err
	}
	for _, r := range rows {
		if !slices.Contains(groups, r.GroupID) {
			groups = append(groups, r.GroupID)
		}
	}
	if _, err := idb.NewDelete().Table("stat_trip_daily").Where("car_id = ? AND day = ?", carID, day).Exec(ctx); err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return groups, nil
	}
	_, err = idb.NewInsert().Model(&rows).Exec(ctx)
	return groups, err
}

// loadTrips reads the finished waybills matching where with their load items and opening counts.
func loadTrips(ctx context.Context, idb bun.IDB, where string, args ...any) ([]Trip, error) {
	var ws []waybill.Row
	err := idb.NewSelect().Model(&ws).ModelTableExpr("waybills AS w").ColumnExpr("w.*").
		Where("w.state IN (?)", bun.In(finished)).Where(where, args...).OrderExpr("w.id").Scan(ctx)
	if err != nil || len(ws) == 0 {
		return nil, err
	}
	ids := make([]int64, len(ws))
	for i, w := range ws {
		ids[i] = w.ID
	}
	var items []struct {
		WaybillID int64   `bun:"waybill_id"`
		ProductID int64   `bun:"product_id"`
		VtL       float64 `bun:"vt_l"`
		V20L      float64 `bun:"v20_l"`
		MassT     float64 `bun:"mass_t"`
	}
	err = idb.NewSelect().TableExpr("load_record_items AS i").Join("JOIN load_records AS r ON r.id = i.record_id").
		ColumnExpr("r.waybill_id, i.product_id, i.vt_l, i.v20_l, i.mass_t").
		Where("r.waybill_id IN (?)", bun.In(ids)).OrderExpr("r.waybill_id, i.compartment").Scan(ctx, &items)
	if err != nil {
		return nil, err
	}
	var opens []struct {
		WaybillID int64 `bun:"waybill_id"`
		N         int64 `bun:"n"`
	}
	err = idb.NewSelect().Table("waybill_steps").ColumnExpr("waybill_id, COUNT(*) AS n").
		Where("waybill_id IN (?) AND evidence = ?", bun.In(ids), int(waybill.EvOpeningOnWay)).
		Group("waybill_id").Scan(ctx, &opens)
	if err != nil {
		return nil, err
	}
	byID := make(map[int64]*Trip, len(ws))
	trips := make([]Trip, len(ws))
	for i, w := range ws {
		t := Trip{ID: w.ID, CarID: w.CarID, GroupID: w.GroupID, ClosedAt: w.ClosedAt, DepartAt: w.DepartAt,
			ArriveAt: w.ArriveAt, ShippedV20: w.ShippedV20, ShippedMassT: w.ShippedMassT, ReceivedV20: w.ReceivedV20,
			LossL: w.LossL, LossRatePct: w.LossRatePct, AllowedPct: w.AllowedPct, LoadedKm: w.LoadedKm}
		if w.SalesGroupID != nil {
			t.SalesGroupID = *w.SalesGroupID
		}
		trips[i] = t
		byID[w.ID] = &trips[i]
	}
	for _, it := range items {
		t := byID[it.WaybillID]
		t.Items = append(t.Items, Item{ProductID: it.ProductID, VtL: it.VtL, V20L: it.V20L, MassT: it.MassT})
	}
	for _, o := range opens {
		byID[o.WaybillID].Openings = o.N
	}
	return trips, nil
}

// Rebuild recomputes every row of the days from..to (inclusive) from the waybills and deletes the rows
// of cars that no longer have finished trips on those days. A day is read and written at once (every
// car's trips in one query, the rows in one insert) with the very Compute that Refresh uses; the
// registered rollups are refreshed car by car. It returns the number of (car, day) pairs written.
func Rebuild(ctx context.Context, idb bun.IDB, from, to int) (int, error) {
	ctx = context.WithValue(ctx, bulkKey{}, true)
	n := 0
	regs := registered()
	for _, day := range Days(from, to) {
		trips, err := loadTrips(ctx, idb, "w.closed_at BETWEEN ? AND ?", DayStart(day), DayEnd(day))
		if err != nil {
			return n, err
		}
		byCar := map[int64][]Trip{}
		var cars []int64
		for _, t := range trips {
			if byCar[t.CarID] == nil {
				cars = append(cars, t.CarID)
			}
			byCar[t.CarID] = append(byCar[t.CarID], t)
		}
		var rows []Daily
		for _, c := range cars {
			rows = append(rows, Compute(day, byCar[c])...)
		}
		if _, err := idb.NewDelete().Table("stat_trip_daily").Where("day = ?", day).Exec(ctx); err != nil {
			return n, err
		}
		for lo := 0; lo < len(rows); lo += 1000 {
			chunk := rows[lo:min(lo+1000, len(rows))]
			if _, err := idb.NewInsert().Model(&chunk).Exec(ctx); err != nil {
				return n, err
			}
		}
		for _, c := range cars {
			for _, fn := range regs {
				if err := fn(ctx, idb, c, day); err != nil {
					return n, err
				}
			}
		}
		n += len(cars)
	}
	if err := RebuildLayers(ctx, idb, from, to); err != nil {
		return n, err
	}
	for _, fn := range registeredLayers() {
		if err := fn(ctx, idb, from, to); err != nil {
			return n, err
		}
	}
	return n, nil
}

// RebuildLayers re-adds every layer above stat_trip_daily for the days from..to (their whole months):
// the group days, the cars' months and running sums, the group months.
func RebuildLayers(ctx context.Context, idb bun.IDB, from, to int) error {
	if err := regroupDays(ctx, idb, from, to, 0); err != nil {
		return err
	}
	for m := Month(from); m <= Month(to); m = Month(NextDay(m*100 + 31)) {
		if err := rebuildMonth(ctx, idb, "", m); err != nil {
			return err
		}
		if err := regroupMonth(ctx, idb, m, 0); err != nil {
			return err
		}
	}
	return nil
}
