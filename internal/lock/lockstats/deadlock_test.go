package lockstats

import (
	"context"
	"reflect"
	"testing"
	"time"

	"tankwatch/internal/lock"
	"tankwatch/internal/platform/db"
	"tankwatch/internal/stats"
)

// TestMovedLockRefreshNoDeadlock: a lock went offline on one car and came back online on another of
// the same group the next day, so the worker's refresh of the second car's mark also refreshes the
// first car's days (the first, and the second's first hour: D129 found that one missed). While it
// runs, a single refresh of the first car holds that car. Taking the cars one by one, the worker held
// the group and waited for the first car while the single refresh, holding the car, waited for the
// group: PostgreSQL aborted one of them ("deadlock detected"). Both must succeed (D129).
func TestMovedLockRefreshNoDeadlock(t *testing.T) {
	d, f := setupPG(t)
	ctx := context.Background()
	day0, day1 := 20261101, 20261102
	f.event(t, "T-MOVE", f.carE, f.east, lock.EventOffline, 0, 0, stats.DayStart(day0)+3_600_000)
	f.event(t, "T-MOVE", f.carE2, f.east, lock.EventOnline, 0, 0, stats.DayStart(day1)+3_600_000)
	f.event(t, "T-E2", f.carE2, f.east, lock.EventOpened, lock.MethodRemote, 0, stats.DayStart(day1)+1_800_000)
	now := stats.DayEnd(day1)
	if _, err := d.NewDelete().TableExpr("stat_dirty").Where("car_id = ?", f.carE).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	marks, err := stats.TakeDirty(ctx, d, stats.DirtyLock, 10)
	if err != nil || len(marks) != 1 || marks[0].CarID != f.carE2 {
		t.Fatalf("marks %+v, %v", marks, err)
	}

	single, err := d.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer single.Rollback() //nolint:errcheck // committed below
	if err := stats.Serialize(ctx, single, stats.SpaceLockCars, f.carE); err != nil {
		t.Fatal(err)
	}
	w := &Worker{DB: d.DB, Now: func() time.Time { return time.UnixMilli(now) }}
	done := make(chan error, 1)
	go func() { done <- w.refresh(ctx, stats.DirtyLock, marks[0]) }()
	waitLockWait(t, d, done)
	if err := RefreshLock(ctx, single, f.carE, day0, now); err != nil {
		t.Fatalf("the single refresh: %v", err)
	}
	if err := single.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatalf("the worker's refresh: %v", err)
	}
	// and the rows are what a rebuild makes
	live, _ := snapshot(t, d)
	if _, err := Rebuild(ctx, d, day0, day1, now); err != nil {
		t.Fatal(err)
	}
	rebuilt, _ := snapshot(t, d)
	if len(live) == 0 || !reflect.DeepEqual(live, rebuilt) {
		t.Errorf("daily rows\nlive    %+v\nrebuilt %+v", live, rebuilt)
	}
}

// waitLockWait waits until a session waits for an advisory lock (the worker's refresh, blocked on the
// car the test holds), failing if the refresh ends first or nothing waits within a generous deadline.
func waitLockWait(t *testing.T, d *db.DB, done chan error) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case err := <-done:
			t.Fatalf("the worker's refresh ended (%v) while the car was held", err)
		default:
		}
		var n int
		if err := d.NewRaw("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())").Scan(context.Background(), &n); err != nil {
			t.Fatal(err)
		}
		if n > 0 {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("the worker's refresh never waited for the held car")
}
