package app

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"

	"tankwatch/internal/lock"
	"tankwatch/internal/stats"
	"tankwatch/internal/waybill"
)

// demoTrip is a finished waybill of the demo history with the times its lock events follow.
type demoTrip struct {
	ID         int64 `bun:"id"`
	GroupID    int64 `bun:"group_id"`
	CarID      int64 `bun:"car_id"`
	DepotID    int64 `bun:"depot_id"`
	Dispatched int64 `bun:"dispatched_at"`
	LoadStart  int64 `bun:"load_start_at"`
	Loaded     int64 `bun:"loaded_at"`
	Sealed     int64 `bun:"sealed_at"`
	Depart     int64 `bun:"depart_at"`
	Closed     int64 `bun:"closed_at"`
}

type demoStop struct {
	WaybillID int64 `bun:"waybill_id"`
	StationID int64 `bun:"station_id"`
	Arrive    int64 `bun:"arrive_at"`
	Unsealed  int64 `bun:"unsealed_at"`
	UnloadEnd int64 `bun:"unload_end_at"`
	Received  int64 `bun:"received_at"`
}

// seedLockEventsDemo files the lock events of the demo's past trips (the finished waybills the
// overview part seeded): at the depot each compartment's lock opens for loading and closes when
// sealed, at each destination it opens (BLE, now and then the local key) and closes after unloading;
// now and then a lock reports low battery. Each row names its trip, the station it happened at (the
// station's centre, inside its fence) and the registered lock bound there, and marks the lock-stats
// rollup's (car, day) dirty — what the ingest does for live events, written in bulk because a year of
// history is many rows. Seeding again adds nothing (the idempotency key). No finished trips: nothing.
func (a *App) seedLockEventsDemo(ctx context.Context) error {
	var trips []demoTrip
	if err := a.DB.NewSelect().Table("waybills").Column("id", "group_id", "car_id", "depot_id", "dispatched_at", "load_start_at", "loaded_at",
		"sealed_at", "depart_at", "closed_at").Where("state IN (?, ?)", int(waybill.Closed), int(waybill.DiffFlagged)).
		Where("dispatched_at > 0").Order("id").Scan(ctx, &trips); err != nil {
		return err
	}
	if len(trips) == 0 {
		return nil
	}
	var stops []demoStop
	if err := a.DB.NewSelect().Table("waybill_destinations").Column("waybill_id", "station_id", "arrive_at", "unsealed_at",
		"unload_end_at", "received_at").Order("waybill_id", "seq").Scan(ctx, &stops); err != nil {
		return err
	}
	byTrip := map[int64][]demoStop{}
	for _, s := range stops {
		byTrip[s.WaybillID] = append(byTrip[s.WaybillID], s)
	}
	var places []struct {
		ID  int64   `bun:"id"`
		Lat float64 `bun:"center_lat"`
		Lng float64 `bun:"center_lng"`
	}
	if err := a.DB.NewSelect().Table("stations").Column("id", "center_lat", "center_lng").Scan(ctx, &places); err != nil {
		return err
	}
	at := map[int64][2]int32{}
	for _, p := range places {
		at[p.ID] = [2]int32{int32(p.Lat * 1e6), int32(p.Lng * 1e6)}
	}
	var comps []struct {
		WaybillID int64 `bun:"waybill_id"`
		No        int   `bun:"no"`
	}
	if err := a.DB.NewSelect().Table("waybill_compartments").Column("waybill_id", "no").Order("waybill_id", "no").Scan(ctx, &comps); err != nil {
		return err
	}
	compsOf := map[int64][]int{}
	for _, c := range comps {
		compsOf[c.WaybillID] = append(compsOf[c.WaybillID], c.No)
	}
	locks, err := a.demoLocks(ctx)
	if err != nil {
		return err
	}
	now := a.now().UnixMilli()
	var rows []lock.EventRow
	dirty := map[[2]int64]bool{} // (car, day)
	flush := func() error {
		if len(rows) == 0 {
			return nil
		}
		err := a.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			if _, err := tx.NewInsert().Model(&rows).On("CONFLICT (serial, t, event) DO NOTHING").Returning("NULL").Exec(ctx); err != nil {
				return err
			}
			for k := range dirty {
				if err := stats.MarkDirty(ctx, tx, stats.DirtyLock, k[0], int(k[1]), now); err != nil {
					return err
				}
			}
			return nil
		})
		rows, dirty = rows[:0], map[[2]int64]bool{}
		return err
	}
	for _, tr := range trips {
		cs := compsOf[tr.ID]
		if len(cs) == 0 {
			cs = []int{1}
		}
		battery := int(95 - tr.ID%60)
		clamp := func(t int64) int64 { return min(max(t, tr.Dispatched), tr.Closed) / 1000 * 1000 }
		add := func(station int64, t int64, e lock.Event, m lock.Method, b int) {
			pos := at[station]
			for _, c := range cs {
				l, ok := locks[[2]int64{tr.CarID, int64(c)}]
				if !ok {
					l.Serial = fmt.Sprintf("DEMO-%d-%d", tr.CarID, c)
				}
				rows = append(rows, lock.EventRow{LockID: l.ID, Serial: l.Serial, GroupID: tr.GroupID, CarID: tr.CarID, Compartment: c,
					Device: lock.DeviceCover, Event: e, Method: m, BatteryPct: b, T: t, Lat: int64(pos[0]), Lon: int64(pos[1]),
					StationID: station, WaybillID: tr.ID, RecordedAt: now})
			}
			dirty[[2]int64{tr.CarID, int64(stats.Day(t))}] = true
		}
		open := clamp(first(tr.LoadStart, tr.Loaded-20*60_000, tr.Depart-40*60_000))
		shut := clamp(first(tr.Sealed, tr.Depart-5*60_000, open+30*60_000))
		add(tr.DepotID, open, lock.EventOpened, lock.MethodBLE, battery)
		add(tr.DepotID, shut, lock.EventClosed, lock.MethodBLE, battery)
		if tr.ID%6 == 0 {
			add(tr.DepotID, clamp(shut+60_000), lock.EventLowBattery, lock.MethodNone, 15)
		}
		for i, s := range byTrip[tr.ID] {
			m := lock.MethodBLE
			if (tr.ID+int64(i))%4 == 0 {
				m = lock.MethodLocalKey
			}
			o := clamp(first(s.Unsealed, s.Arrive+5*60_000, shut+60*60_000))
			add(s.StationID, o, lock.EventOpened, m, battery)
			add(s.StationID, clamp(first(s.UnloadEnd+5*60_000, s.Received, o+40*60_000)), lock.EventClosed, m, battery)
		}
		if len(rows) >= 500 {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	return flush()
}

// first is the first of ts that is a time (> 0).
func first(ts ...int64) int64 {
	for _, t := range ts {
		if t > 0 {
			return t
		}
	}
	return 0
}

// demoLock is a registered lock bound to a car's compartment.
type demoLock struct {
	ID     int64  `bun:"id"`
	Serial string `bun:"serial"`
}

// demoLocks maps (car, compartment) to a registered lock bound there (the manhole cover's when there
// are several).
func (a *App) demoLocks(ctx context.Context) (map[[2]int64]demoLock, error) {
	var rows []struct {
		demoLock
		CarID       int64 `bun:"car_id"`
		Compartment int64 `bun:"compartment"`
	}
	if err := a.DB.NewSelect().Table("locks").Column("id", "car_id", "compartment", "serial").Where("car_id IS NOT NULL").
		OrderExpr("ABS(device - ?) DESC", int(lock.DeviceCover)).Scan(ctx, &rows); err != nil {
		return nil, err
	}
	out := map[[2]int64]demoLock{}
	for _, r := range rows {
		out[[2]int64{r.CarID, r.Compartment}] = r.demoLock
	}
	return out, nil
}
