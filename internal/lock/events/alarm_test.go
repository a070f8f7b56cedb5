package events_test

import (
	"context"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"tankwatch/internal/lock"
	"tankwatch/internal/lock/events"
	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/db/dbtest"
	"tankwatch/internal/stats"
	"tankwatch/internal/tank"
	"tankwatch/internal/telemetry"
)

// sink records the alarms raised, and the pushes run (after the commit).
type sink struct {
	raised []events.Alarm
	pushed int
	inTx   bool
}

func (s *sink) RaiseLockAlarm(ctx context.Context, tx bun.IDB, a events.Alarm) (func(), error) {
	_, s.inTx = tx.(bun.Tx)
	s.raised = append(s.raised, a)
	return func() { s.pushed++ }, nil
}

// TestIngestRaisesLockAlarms: a tampering raises an alarm wherever it happens; an opening raises one
// only outside every fence while the car's waybill is loaded and no platform command explains it; a
// repeated report raises nothing more; the pushes run once the events are committed.
func TestIngestRaisesLockAlarms(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f := setup(t, d)
		s := &sink{}
		in := &events.Ingest{DB: d, Cars: lastSeen{f.group}, Stations: fence{}, Alarms: s, Now: func() time.Time { return f.t0 }}
		store := func(r telemetry.Report) int {
			t.Helper()
			n, err := in.Store(ctx, []telemetry.Report{r})
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
		at := f.t0
		away := func(evs ...tank.LockEvent) telemetry.Report {
			return telemetry.Report{CarID: f.car, Time: at, Lat: 30_600_000, Lon: 120_600_000, Locks: evs}
		}
		inside := func(evs ...tank.LockEvent) telemetry.Report {
			return telemetry.Report{CarID: f.car, Time: at, Lat: 31_000_000, Lon: 121_000_000, Locks: evs}
		}
		// the waybill is dispatched but not loaded yet: an opening away is no alarm; a tampering is
		store(away(ev(lock.EventOpened, lock.MethodBLE, 1, at, "BL-0001"), ev(lock.EventTampered, lock.MethodNone, 2, at, "BL-0001")))
		if len(s.raised) != 1 || !s.raised[0].Tampered || s.raised[0].Serial != "BL-0001" || s.raised[0].Compartment != 2 ||
			s.raised[0].Lat != 30_600_000 || s.raised[0].Station != "" || s.raised[0].GroupPath != "/1/" || s.pushed != 1 || !s.inTx {
			t.Fatalf("before loading: %+v pushed %d in tx %v", s.raised, s.pushed, s.inTx)
		}
		if _, err := d.NewRaw("UPDATE waybills SET loaded_at = ? WHERE id = ?", at.Add(time.Minute).UnixMilli(), f.w).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		t1 := at.Add(2 * time.Minute)
		store(inside(ev(lock.EventOpened, lock.MethodLocalKey, 1, t1, "BL-0001")))                 // inside the fence
		store(away(ev(lock.EventOpened, lock.MethodRemote, 1, at.Add(30*time.Second), "BL-0001"))) // before loading
		store(away(ev(lock.EventOpened, lock.MethodLocalKey, 1, t1.Add(time.Second), "BL-0001")))  // the alarm
		if len(s.raised) != 2 || s.raised[1].Tampered || s.raised[1].Method != lock.MethodLocalKey || s.raised[1].T != t1.Add(time.Second).UnixMilli() {
			t.Fatalf("loaded: %+v", s.raised)
		}
		// the terminal repeats its report: filed once, raised once
		if n := store(away(ev(lock.EventOpened, lock.MethodLocalKey, 1, t1.Add(time.Second), "BL-0001"))); n != 0 || len(s.raised) != 2 {
			t.Fatalf("repeat: stored %d, raised %d", n, len(s.raised))
		}
		// a remote opening the platform's unlock explains (sent a minute before at) is the dispatcher's
		if _, err := d.NewRaw("UPDATE commands SET created_at = ? WHERE id = ?", t1.UnixMilli(), f.cmd).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		store(away(ev(lock.EventOpened, lock.MethodRemote, 2, t1.Add(2*time.Second), "BL-0001")))
		// once received, the tank is empty: an opening away is no alarm
		if _, err := d.NewRaw("UPDATE waybills SET received_at = ? WHERE id = ?", t1.Add(time.Hour).UnixMilli(), f.w).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		store(away(ev(lock.EventOpened, lock.MethodBLE, 2, t1.Add(2*time.Hour), "BL-0001")))
		if len(s.raised) != 2 || s.pushed != 2 {
			t.Fatalf("after: %+v pushed %d", s.raised, s.pushed)
		}
	})
}

// TestIngestMarksSpellDays: an online report filed late ends an offline spell begun days earlier on
// another car (the lock moved): the ingest marks the event's day on its car and every day of the spell
// on the car of the offline report; an offline report filed late, before an online one already filed,
// marks the days of the spell it begins up to that report.
func TestIngestMarksSpellDays(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f := setup(t, d)
		var other int64
		if err := d.NewRaw("INSERT INTO cars (group_id, plate, compartments, created_at, updated_at) VALUES (?, '沪A00002', 1, 1, 1) RETURNING id",
			f.group).Scan(ctx, &other); err != nil {
			t.Fatal(err)
		}
		in := &events.Ingest{DB: d, Now: func() time.Time { return f.t0 }}
		file := func(car int64, e lock.Event, at time.Time) {
			t.Helper()
			x := ev(e, lock.MethodNone, 1, at, "BL-0001")
			if n, err := in.Store(ctx, []telemetry.Report{{CarID: car, TankOnly: true, Locks: []tank.LockEvent{x}}}); err != nil || n != 1 {
				t.Fatalf("stored %d, %v", n, err)
			}
		}
		take := func() map[int64][]int {
			t.Helper()
			marks, err := stats.TakeDirty(ctx, d, stats.DirtyLock, 100)
			if err != nil {
				t.Fatal(err)
			}
			got := map[int64][]int{}
			for _, m := range marks {
				got[m.CarID] = append(got[m.CarID], m.Day)
				if err := stats.Done(ctx, d, stats.DirtyLock, m); err != nil {
					t.Fatal(err)
				}
			}
			return got
		}
		eq := func(a, b []int) bool {
			if len(a) != len(b) {
				return false
			}
			m := map[int]bool{}
			for _, x := range a {
				m[x] = true
			}
			for _, x := range b {
				if !m[x] {
					return false
				}
			}
			return true
		}
		day := 24 * time.Hour
		file(f.car, lock.EventOffline, f.t0) // 2026-11-03, 10:00 Shanghai
		if got := take(); len(got) != 1 || !eq(got[f.car], []int{20261103}) {
			t.Fatalf("offline: %v", got)
		}
		file(other, lock.EventOnline, f.t0.Add(3*day)) // the lock came back on the other car on 11-06
		got := take()
		if !eq(got[other], []int{20261106}) || !eq(got[f.car], []int{20261103, 20261104, 20261105, 20261106}) {
			t.Fatalf("late online: %v", got)
		}
		// a late offline report on 11-01 (before the one of 11-03): its spell runs to 11-03 on its car
		file(f.car, lock.EventOffline, f.t0.Add(-2*day))
		if got := take(); len(got) != 1 || !eq(got[f.car], []int{20261101, 20261102, 20261103}) {
			t.Fatalf("late offline: %v", got)
		}
		// a closing marks its day only
		file(other, lock.EventClosed, f.t0.Add(5*day))
		if got := take(); len(got) != 1 || !eq(got[other], []int{20261108}) {
			t.Fatalf("closing: %v", got)
		}
	})
}
