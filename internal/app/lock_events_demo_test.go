package app

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"testing"
	"time"

	"tankwatch/internal/lock"
	"tankwatch/internal/platform/config"
	"tankwatch/internal/platform/db/dbtest"
	"tankwatch/internal/stats"
	"tankwatch/internal/waybill"
)

// TestSeedLockEventsDemo: a finished trip of the demo history gets its lock events at its depot and
// destination, inside its times, filed on it and marked for the lock-stats rollup; seeding again
// adds nothing; no finished trip, no events.
func TestSeedLockEventsDemo(t *testing.T) {
	t.Parallel()
	for _, dialect := range dbtest.Dialects() {
		t.Run(dialect, func(t *testing.T) { seedLockEventsDemoOn(t, dialect) })
	}
}

func seedLockEventsDemoOn(t *testing.T, dialect string) {
	ctx := context.Background()
	d := dbtest.Open(t, dialect)
	a := New(config.Config{Demo: true, DemoVehicles: 2}, d, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err := a.Bootstrap(ctx, io.Discard); err != nil {
		t.Fatal(err)
	}
	count := func() int {
		n, err := d.NewSelect().Table("lock_events").Count(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return int(n)
	}
	if err := a.seedLockEventsDemo(ctx); err != nil || count() != 0 {
		t.Fatalf("without finished trips: %d events, %v", count(), err)
	}
	var car, group, depot, dest int64
	if err := d.NewRaw("SELECT id, group_id FROM cars ORDER BY id LIMIT 1").Scan(ctx, &car, &group); err != nil {
		t.Fatal(err)
	}
	if err := d.NewRaw("SELECT id FROM stations WHERE station_type = 'yk' ORDER BY id LIMIT 1").Scan(ctx, &depot); err != nil {
		t.Fatal(err)
	}
	if err := d.NewRaw("SELECT id FROM stations WHERE station_type = 'jyz' ORDER BY id LIMIT 1").Scan(ctx, &dest); err != nil {
		t.Fatal(err)
	}
	start := time.Date(2026, 2, 20, 0, 0, 0, 0, time.UTC).UnixMilli() // 08:00 Shanghai
	m := int64(60_000)
	r := waybill.Row{GroupID: group, CarID: car, DepotID: depot, No: "YD-SEED-1", State: waybill.Closed, StateAt: start + 300*m,
		DispatchedAt: start, LoadStartAt: start + 30*m, LoadedAt: start + 60*m, SealedAt: start + 70*m, DepartAt: start + 80*m,
		ClosedAt: start + 300*m, CreatedAt: start, UpdatedAt: start}
	dests := []waybill.Destination{{Seq: 1, StationID: dest, ArriveAt: start + 200*m, UnsealedAt: start + 205*m, UnloadEndAt: start + 240*m}}
	var product int64
	if err := d.NewRaw("INSERT INTO products (group_id, code, name, created_at, updated_at) VALUES (?, 'SEED', '92#', 1, 1) RETURNING id", group).Scan(ctx, &product); err != nil {
		t.Fatal(err)
	}
	comps := []waybill.Compartment{{No: 1, ProductID: product, PlannedL: 1, DestSeq: 1}, {No: 2, ProductID: product, PlannedL: 1, DestSeq: 1}}
	if err := waybill.Insert(ctx, d, &r, dests, comps); err != nil {
		t.Fatal(err)
	}
	// compartment 1 has a registered lock on its manhole cover; compartment 2 none (the demo registry's
	// locks of this car taken off first)
	if _, err := d.NewRaw("DELETE FROM locks WHERE car_id = ?", car).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	var lockID int64
	if err := d.NewRaw(`INSERT INTO locks (group_id, serial, kind, state, car_id, compartment, device, created_at, updated_at)
		VALUES (?, 'SEED-L1', 1, 2, ?, 1, 1, 1, 1) RETURNING id`, group, car).Scan(ctx, &lockID); err != nil {
		t.Fatal(err)
	}
	if err := a.seedLockEventsDemo(ctx); err != nil {
		t.Fatal(err)
	}
	var rows []lock.EventRow
	if err := d.NewSelect().Model(&rows).Order("t", "compartment").Scan(ctx); err != nil {
		t.Fatal(err)
	}
	// two compartments × (open and close at the depot, open and close at the station)
	want := []struct {
		t       int64
		e       lock.Event
		station int64
	}{{start + 30*m, lock.EventOpened, depot}, {start + 70*m, lock.EventClosed, depot},
		{start + 205*m, lock.EventOpened, dest}, {start + 245*m, lock.EventClosed, dest}}
	if len(rows) != 2*len(want) {
		t.Fatalf("%d events: %+v", len(rows), rows)
	}
	for i, w := range want {
		for c := range 2 {
			g := rows[2*i+c]
			if g.T != w.t || g.Event != w.e || g.Compartment != c+1 || g.WaybillID != r.ID || g.CarID != car || g.GroupID != group {
				t.Errorf("event %d/%d: %+v, want %+v", i, c, g, w)
			}
			if wantLock, wantSerial := map[int]int64{0: lockID}[c], map[int]string{0: "SEED-L1", 1: fmt.Sprintf("DEMO-%d-2", car)}[c]; g.LockID != wantLock || g.Serial != wantSerial {
				t.Errorf("event %d/%d: lock %d %q, want %d %q", i, c, g.LockID, g.Serial, wantLock, wantSerial)
			}
			if g.StationID != w.station {
				t.Errorf("event %d/%d at station %d, want %d (lat %d lon %d)", i, c, g.StationID, w.station, g.Lat, g.Lon)
			}
		}
	}
	marks, err := stats.TakeDirty(ctx, d, stats.DirtyLock, 10)
	if err != nil || len(marks) != 1 || marks[0].Day != 20260220 || marks[0].CarID != car {
		t.Errorf("dirty %+v %v", marks, err)
	}
	if err := a.seedLockEventsDemo(ctx); err != nil || count() != len(rows) {
		t.Errorf("seeding again: %d events, %v", count(), err)
	}
}
