package events_test

import (
	"context"
	"testing"
	"time"

	"tankwatch/internal/lock"
	"tankwatch/internal/lock/events"
	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/db/dbtest"
	"tankwatch/internal/stats"
	"tankwatch/internal/tank"
	"tankwatch/internal/telemetry"
	"tankwatch/internal/waybill"
)

// fence: the one station (id 7) holds exactly the position 31.000000 N 121.000000 E.
type fence struct{}

func (fence) StationAt(_ string, lat, lon int32) (int64, string, bool) {
	if lat == 31_000_000 && lon == 121_000_000 {
		return 7, "油库", true
	}
	return 0, "", false
}

// lastSeen: the live state knows the car at 30.5 N 120.5 E (outside the fence).
type lastSeen struct{ group int64 }

func (c lastSeen) CarNow(int64) (events.Car, bool) {
	return events.Car{GroupID: c.group, GroupPath: "/1/", Lat: 30_500_000, Lon: 120_500_000, Located: true}, true
}

type fixture struct {
	d                     *db.DB
	group, car, lockID, w int64
	cmd                   int64
	t0                    time.Time
}

func setup(t testing.TB, d *db.DB) fixture {
	t.Helper()
	ctx := context.Background()
	id := func(q string, args ...any) int64 {
		t.Helper()
		var v int64
		if err := d.NewRaw(q+" RETURNING id", args...).Scan(ctx, &v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	f := fixture{d: d, t0: time.Date(2026, 11, 3, 2, 0, 0, 0, time.UTC)} // 10:00 Shanghai, 2026-11-03
	t0 := f.t0.UnixMilli()
	f.group = id("INSERT INTO org_groups (name, path, created_at) VALUES ('集团', '/1/', 1)")
	f.car = id("INSERT INTO cars (group_id, plate, compartments, created_at, updated_at) VALUES (?, '沪A00001', 2, 1, 1)", f.group)
	f.lockID = id(`INSERT INTO locks (group_id, serial, kind, state, car_id, compartment, device, battery_pct, created_at, updated_at)
		VALUES (?, 'BL-0001', 2, 2, ?, 1, 1, 90, 1, 1)`, f.group, f.car)
	depot := id(`INSERT INTO stations (group_id, name, station_type, fence_type, fence_center, raduis, center_lng, center_lat, created_at, updated_at)
		VALUES (?, '油库', 'yk', 2, '121,31', 300, 121, 31, 1, 1)`, f.group)
	r := waybill.Row{GroupID: f.group, CarID: f.car, DepotID: depot, No: "YD1", State: waybill.InTransit, StateAt: t0,
		DispatchedAt: t0 - 3_600_000, CreatedAt: 1, UpdatedAt: 1}
	if err := waybill.Insert(ctx, d, &r, []waybill.Destination{{Seq: 1, StationID: depot}}, nil); err != nil {
		t.Fatal(err)
	}
	f.w = r.ID
	// an unlock of compartments 1 and 2 a minute before, carried out; a lock that timed out
	f.cmd = id(`INSERT INTO commands (terminal_id, car_id, phone, kind, msg_id, params, user_id, status, created_at)
		VALUES (1, ?, '1', 'unlock', 35072, 'compartments [1 2]', 5, 'ok', ?)`, f.car, t0-60_000)
	id(`INSERT INTO commands (terminal_id, car_id, phone, kind, msg_id, params, user_id, status, created_at)
		VALUES (1, ?, '1', 'lock', 35072, 'all compartments', 5, 'timeout', ?)`, f.car, t0-30_000)
	return f
}

func ev(e lock.Event, m lock.Method, comp uint8, at time.Time, serial string) tank.LockEvent {
	return tank.LockEvent{Event: uint8(e), Method: uint8(m), Compartment: comp, Device: 1, Battery: 80, Time: at, Serial: serial}
}

func rows(t *testing.T, d *db.DB) []lock.EventRow {
	t.Helper()
	var out []lock.EventRow
	if err := d.NewSelect().Model(&out).Order("id").Scan(context.Background()); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestIngestFilesEvents(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f := setup(t, d)
		now := f.t0.Add(5 * time.Minute)
		in := &events.Ingest{DB: d, Cars: lastSeen{f.group}, Stations: fence{}, Now: func() time.Time { return now }}
		at := f.t0
		report := telemetry.Report{CarID: f.car, Time: at, Lat: 31_000_000, Lon: 121_000_000, Locks: []tank.LockEvent{
			ev(lock.EventOpened, lock.MethodRemote, 1, at, "BL-0001"),                      // explained by the unlock
			ev(lock.EventOpened, lock.MethodRemote, 3, at.Add(time.Second), "BL-0001"),     // compartment 3 was not asked
			ev(lock.EventClosed, lock.MethodRemote, 1, at.Add(2*time.Second), "BL-0001"),   // the lock command timed out
			ev(lock.EventOpened, lock.MethodBLE, 2, at.Add(3*time.Second), "BL-0001"),      // BLE: no command
			ev(lock.EventTampered, lock.MethodNone, 2, at.Add(4*time.Second), "UNKNOWN-9"), // not registered
		}}
		// from a 0xF1 list: no position of its own, so the car's last known one (outside the fence)
		list := telemetry.Report{CarID: f.car, TankOnly: true, Locks: []tank.LockEvent{
			ev(lock.EventOpened, lock.MethodLocalKey, 1, at.Add(-time.Minute), "BL-0001")}}
		n, err := in.Store(ctx, []telemetry.Report{report, list, {CarID: 0, Locks: report.Locks}})
		if err != nil || n != 6 {
			t.Fatalf("stored %d, %v", n, err)
		}
		got := rows(t, d)
		if len(got) != 6 {
			t.Fatalf("%d rows", len(got))
		}
		want := []struct {
			lockID, station, waybill, cmd, lat int64
		}{
			{f.lockID, 7, f.w, f.cmd, 31_000_000},
			{f.lockID, 7, f.w, 0, 31_000_000},
			{f.lockID, 7, f.w, 0, 31_000_000},
			{f.lockID, 7, f.w, 0, 31_000_000},
			{0, 7, f.w, 0, 31_000_000},
			{f.lockID, 0, f.w, 0, 30_500_000},
		}
		for i, w := range want {
			g := got[i]
			if g.LockID != w.lockID || g.StationID != w.station || g.WaybillID != w.waybill || g.CommandID != w.cmd || g.Lat != w.lat ||
				g.GroupID != f.group || g.CarID != f.car || g.RecordedAt != now.UnixMilli() || g.BatteryPct != 80 {
				t.Errorf("row %d: %+v, want %+v", i, g, w)
			}
		}
		// the lock: battery and last event of its newest event (the 0xF1 one is older and changed nothing)
		var lk struct {
			Battery int   `bun:"battery_pct"`
			Online  bool  `bun:"online"`
			Last    int64 `bun:"last_event_at"`
		}
		if err := d.NewSelect().Table("locks").Column("battery_pct", "online", "last_event_at").Where("id = ?", f.lockID).Scan(ctx, &lk); err != nil {
			t.Fatal(err)
		}
		if lk.Battery != 80 || !lk.Online || lk.Last != at.Add(3*time.Second).UnixMilli() {
			t.Errorf("lock %+v", lk)
		}
		marks, err := stats.TakeDirty(ctx, d, stats.DirtyLock, 10)
		if err != nil || len(marks) != 1 || marks[0].CarID != f.car || marks[0].Day != 20261103 {
			t.Errorf("dirty marks %+v %v", marks, err)
		}

		// the terminal sends the same report again: nothing doubles
		if n, err := in.Store(ctx, []telemetry.Report{report}); err != nil || n != 0 || len(rows(t, d)) != 6 {
			t.Fatalf("duplicate stored %d, %v", n, err)
		}
		// an offline event later: the lock goes offline, battery unknown leaves the battery as it was
		off := ev(lock.EventOffline, lock.MethodNone, 1, at.Add(time.Hour), "BL-0001")
		off.Battery = tank.BatteryUnknown
		if n, err := in.Store(ctx, []telemetry.Report{{CarID: f.car, Time: off.Time, Lat: 1, Lon: 1, Locks: []tank.LockEvent{off}}}); err != nil || n != 1 {
			t.Fatalf("offline stored %d, %v", n, err)
		}
		if err := d.NewSelect().Table("locks").Column("battery_pct", "online", "last_event_at").Where("id = ?", f.lockID).Scan(ctx, &lk); err != nil {
			t.Fatal(err)
		}
		if lk.Battery != 80 || lk.Online || lk.Last != off.Time.UnixMilli() {
			t.Errorf("lock after offline %+v", lk)
		}
		// after the waybill closed, events carry no waybill
		if _, err := d.NewRaw("UPDATE waybills SET state = ?, closed_at = ?", int(waybill.Closed), at.Add(2*time.Hour).UnixMilli()).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		late := ev(lock.EventClosed, lock.MethodBLE, 1, at.Add(3*time.Hour), "BL-0001")
		if _, err := in.Store(ctx, []telemetry.Report{{CarID: f.car, Time: late.Time, Lat: 1, Lon: 1, Locks: []tank.LockEvent{late}}}); err != nil {
			t.Fatal(err)
		}
		if g := rows(t, d); g[len(g)-1].WaybillID != 0 {
			t.Errorf("event after the trip closed filed on waybill %d", g[len(g)-1].WaybillID)
		}
	})
}

// TestIngestUnknownToLive: a car the live state does not know yet is filed under its stored group,
// without a place.
func TestIngestUnknownToLive(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		f := setup(t, d)
		in := &events.Ingest{DB: d, Stations: fence{}}
		e := ev(lock.EventOpened, lock.MethodBLE, 1, f.t0, "BL-0001")
		if n, err := in.Store(context.Background(), []telemetry.Report{{CarID: f.car, TankOnly: true, Locks: []tank.LockEvent{e}}}); err != nil || n != 1 {
			t.Fatalf("stored %d, %v", n, err)
		}
		if g := rows(t, d)[0]; g.GroupID != f.group || g.Lat != 0 || g.StationID != 0 {
			t.Errorf("row %+v", g)
		}
	})
}

func TestCommandCovers(t *testing.T) {
	for _, c := range []struct {
		params string
		comp   int
		want   bool
	}{
		{"all compartments", 5, true},
		{"help request 3 (request ID 0x0102), all compartments", 1, true},
		{"compartments [1 2]", 2, true},
		{"compartments [1 2]", 3, false},
		{"compartments [12]", 1, false},
		{"", 1, false},
	} {
		if got := events.CommandCovers(c.params, c.comp); got != c.want {
			t.Errorf("%q %d: %v", c.params, c.comp, got)
		}
	}
}

// TestIngestCommandOnPlatformClock: a terminal whose clock runs an hour ahead still has its remote
// opening tied to the unlock the platform sent a minute before it read the report.
func TestIngestCommandOnPlatformClock(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		f := setup(t, d)
		in := &events.Ingest{DB: d}
		e := ev(lock.EventOpened, lock.MethodRemote, 2, f.t0.Add(time.Hour), "BL-0001")
		if _, err := in.Store(context.Background(), []telemetry.Report{{CarID: f.car, Received: f.t0, Time: e.Time, Lat: 1, Lon: 1,
			Locks: []tank.LockEvent{e}}}); err != nil {
			t.Fatal(err)
		}
		if g := rows(t, d)[0]; g.CommandID != f.cmd {
			t.Errorf("command %d, want %d", g.CommandID, f.cmd)
		}
		// without the platform's time the lock's clock alone is too far off
		e.Time = e.Time.Add(time.Second)
		if _, err := in.Store(context.Background(), []telemetry.Report{{CarID: f.car, Time: e.Time, Lat: 1, Lon: 1, Locks: []tank.LockEvent{e}}}); err != nil {
			t.Fatal(err)
		}
		if g := rows(t, d)[1]; g.CommandID != 0 {
			t.Errorf("command %d tied on a clock an hour off", g.CommandID)
		}
	})
}
