package app

import (
	"context"
	"fmt"
	"time"

	"tankwatch/internal/lock"
	"tankwatch/internal/tank"
	"tankwatch/internal/telemetry"
	"tankwatch/internal/waybill"
)

// demoTrip is a finished waybill of the demo history with the times its lock events follow.
type demoTrip struct {
	ID         int64 `bun:"id"`
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
// now and then a lock reports low battery. They go through the ingest, so they get the lock, the
// fence, the waybill and the lock-stats dirty mark as live events do. No finished trips: nothing.
func (a *App) seedLockEventsDemo(ctx context.Context) error {
	var trips []demoTrip
	if err := a.DB.NewSelect().Table("waybills").Column("id", "car_id", "depot_id", "dispatched_at", "load_start_at", "loaded_at",
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
	serials, err := a.demoLockSerials(ctx)
	if err != nil {
		return err
	}
	var batch []telemetry.Report
	flush := func() error {
		_, err := a.lockEvents.Ingest.Store(ctx, batch)
		batch = batch[:0]
		return err
	}
	for _, tr := range trips {
		cs := compsOf[tr.ID]
		if len(cs) == 0 {
			cs = []int{1}
		}
		serial := func(c int) string {
			if s, ok := serials[[2]int64{tr.CarID, int64(c)}]; ok {
				return s
			}
			return fmt.Sprintf("DEMO-%d-%d", tr.CarID, c)
		}
		battery := uint8(95 - tr.ID%60)
		clamp := func(t int64) int64 { return min(max(t, tr.Dispatched), tr.Closed) }
		add := func(station int64, t int64, e lock.Event, m lock.Method, b uint8) {
			pos := at[station]
			r := telemetry.Report{CarID: tr.CarID, Time: time.UnixMilli(t), Received: time.UnixMilli(t), Lat: pos[0], Lon: pos[1]}
			for _, c := range cs {
				r.Locks = append(r.Locks, tank.LockEvent{Event: uint8(e), Method: uint8(m), Compartment: uint8(c), Device: uint8(lock.DeviceCover),
					Battery: b, Time: time.UnixMilli(t).Truncate(time.Second), Serial: serial(c)})
			}
			batch = append(batch, r)
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
		if len(batch) >= 200 {
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

// demoLockSerials maps (car, compartment) to the serial of a registered lock bound there.
func (a *App) demoLockSerials(ctx context.Context) (map[[2]int64]string, error) {
	var rows []struct {
		CarID       int64  `bun:"car_id"`
		Compartment int64  `bun:"compartment"`
		Serial      string `bun:"serial"`
	}
	if err := a.DB.NewSelect().Table("locks").Column("car_id", "compartment", "serial").Where("car_id IS NOT NULL").
		OrderExpr("device DESC").Scan(ctx, &rows); err != nil {
		return nil, err
	}
	out := map[[2]int64]string{}
	for _, r := range rows {
		out[[2]int64{r.CarID, r.Compartment}] = r.Serial
	}
	return out, nil
}
