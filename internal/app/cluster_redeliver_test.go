package app_test

import (
	"context"
	"github.com/uptrace/bun"
	"testing"
	"time"

	"tankwatch/internal/platform/config"
	"tankwatch/internal/tank"
	"tankwatch/internal/telemetry"
)

// TestWorkerRedelivers: on the partitioned path (D97) a batch whose lock events or help requests
// could not be filed is not acknowledged: JetStream delivers it again until they are, and judging
// it again raises nothing twice (one alarm per episode, one lock event row, one help record, one
// valve change). The store refuses first the lock events (their table gone), then the help records.
func TestWorkerRedelivers(t *testing.T) {
	t.Parallel()
	cl := newCluster(t, "twr")
	n := cl.node("n", config.Config{})
	node := n.App.Devices.Cluster
	waitFor(t, "the node to hold every partition", func() bool { return len(node.HeldPartitions()) == 32 })
	ctx := context.Background()
	car := firstBoundCar(t, n.DB)
	at := time.Now().Add(-time.Hour).Truncate(time.Second)
	report := func(s int, seal tank.Seal, valve uint8) telemetry.Report {
		t0 := at.Add(time.Duration(s) * time.Second)
		st := &tank.State{Compartments: 1, Seal: seal}
		st.Devices[0][tank.ManholeCover] = tank.DevInstalled | tank.DevLocked
		st.Devices[0][tank.DischargeValve] = valve
		return telemetry.Report{CarID: car.CarID, TerminalID: car.TerminalID, Time: t0, Received: t0, Lat: 39_900_000, Lon: 116_400_000, Tank: st}
	}
	tamper := func(s int) tank.LockEvent {
		return tank.LockEvent{Event: 3, Method: 0, Compartment: 1, Device: 1, Battery: 80, Time: at.Add(time.Duration(s) * time.Second), Serial: "LKREDELIVER1"}
	}
	submit := func(reports ...telemetry.Report) {
		t.Helper()
		done := make(chan error, 1)
		if err := n.App.Devices.Writer.Submit(ctx, reports, nil, func(err error) { done <- err }); err != nil {
			t.Fatal(err)
		}
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	rename := func(from, to string) {
		t.Helper()
		if _, err := n.DB.ExecContext(ctx, "ALTER TABLE "+from+" RENAME TO "+to); err != nil {
			t.Fatal(err)
		}
	}
	count := func(table, where string, args ...any) int {
		t.Helper()
		c, err := n.DB.NewSelect().TableExpr(table).Where(where, args...).Count(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return int(c)
	}
	check := func(when string, locks, helps int) {
		t.Helper()
		if c := count("alarms", "car_id = ? AND type_code = 'sealBroken'", car.CarID); c != 1 {
			t.Errorf("%s: %d seal alarms, want 1", when, c)
		}
		if c := count("alarms", "car_id = ? AND type_code = 'lockTampered'", car.CarID); c != locks {
			t.Errorf("%s: %d tampering alarms, want %d", when, c, locks)
		}
		if c := count("lock_events", "serial = 'LKREDELIVER1'"); c != locks {
			t.Errorf("%s: %d lock events, want %d", when, c, locks)
		}
		if c := count("help_records", "terminal_id = ?", car.TerminalID); c != helps {
			t.Errorf("%s: %d help records, want %d", when, c, helps)
		}
		if c := count("valve_changes", "car_id = ? AND kind = ?", car.CarID, tank.DischargeValve); c != 1 {
			t.Errorf("%s: %d discharge valve changes, want 1", when, c)
		}
		if c := count("car_tank_events", "car_id = ? AND kind = 'valveOpen'", car.CarID); c != 1 {
			t.Errorf("%s: %d valve openings, want 1", when, c)
		}
	}
	lockFailures := func() int64 { _, _, f := n.App.LockEvents().Stats(); return f }

	// the lock events cannot be filed: the batch (a seal break, a valve opening, a tampering and a
	// help request) is judged again and again, and not acknowledged, well past the five tries the
	// lock events queue made before dropping
	rename("lock_events", "lock_events_gone")
	broken := report(60, tank.SealBroken, tank.DevInstalled|tank.DevOpen)
	broken.Locks = []tank.LockEvent{tamper(60)}
	broken.Help = &tank.Help{Type: 1, RequestID: 7}
	submit(report(0, tank.SealSealed, tank.DevInstalled|tank.DevLocked), broken)
	waitFor(t, "six failed deliveries", func() bool { return lockFailures() >= 6 })
	if j := node.Judged(); j != 0 {
		t.Fatalf("%d reports acknowledged as judged while their lock events were not filed", j)
	}
	rename("lock_events_gone", "lock_events")
	waitFor(t, "the batch to be judged", func() bool { return node.Judged() >= 2 })
	check("the lock events filed", 1, 1)

	// then the help records cannot be written
	rename("help_records", "help_records_gone")
	again := report(120, tank.SealBroken, tank.DevInstalled|tank.DevOpen)
	again.Locks = []tank.LockEvent{tamper(120)}
	again.Help = &tank.Help{Type: 1, RequestID: 8}
	submit(again)
	waitFor(t, "three failed deliveries", func() bool { return n.App.Devices.Help.Failed() >= 3 })
	if j := node.Judged(); j != 2 {
		t.Fatalf("%d reports acknowledged as judged while a help request was not recorded, want 2", j)
	}
	rename("help_records_gone", "help_records")
	waitFor(t, "the second batch to be judged", func() bool { return node.Judged() >= 3 })
	check("the help request recorded", 2, 2)
}

// boundCar is a car and the terminal bound to it.
type boundCar struct {
	CarID      int64 `bun:"car_id"`
	TerminalID int64 `bun:"id"`
}

// firstBoundCar is the demo store's first car with a terminal.
func firstBoundCar(t *testing.T, db bun.IDB) boundCar {
	t.Helper()
	var car boundCar
	if err := db.NewSelect().TableExpr("terminals").Column("car_id", "id").Where("car_id IS NOT NULL").OrderExpr("car_id").Limit(1).
		Scan(context.Background(), &car); err != nil {
		t.Fatal(err)
	}
	return car
}
