package app_test

import (
	"context"
	"testing"
	"time"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/platform/config"
	"tankwatch/internal/tank"
	"tankwatch/internal/telemetry"
)

// TestDeadGatewayTail: a gateway that dies leaves commits stored but never published to the work
// stream (D101). Gateway x holds a terminal; its connection to the bus is cut (to the others it is
// gone, as after kill -9) while it still commits the car's seal break and reseal; the terminal is
// taken over by gateway y, whose first report of the car makes the worker read the car's reports
// around x's last word back from the store: the episode x never published is one alarm, started and
// ended at its own times, and the reports the worker had judged already raise nothing again.
func TestDeadGatewayTail(t *testing.T) {
	cl := newCluster(t, "twd")
	w := cl.node("w", config.Config{Roles: "worker"}) // the first node: its connection deletes the test's stream at the end
	x, y := cl.node("x", config.Config{Roles: "gateway,api"}), cl.node("y", config.Config{Roles: "gateway,api"})
	waitFor(t, "the worker to hold every partition", func() bool { return len(w.App.Devices.Cluster.HeldPartitions()) == 32 })
	ctx := context.Background()
	car := firstBoundCar(t, x.DB)
	now := time.Now().Truncate(time.Second)
	t0 := now.Add(-3 * time.Minute)
	report := func(s int, seal tank.Seal) telemetry.Report {
		at := t0.Add(time.Duration(s) * time.Second)
		st := &tank.State{Compartments: 1, Seal: seal}
		st.Devices[0][tank.ManholeCover] = tank.DevInstalled | tank.DevLocked
		return telemetry.Report{CarID: car.CarID, TerminalID: car.TerminalID, Time: at, Received: at, Lat: 39_900_000, Lon: 116_400_000, Tank: st}
	}
	submit := func(on *apptest.Env, reports ...telemetry.Report) {
		t.Helper()
		done := make(chan error, 1)
		if err := on.App.Devices.Writer.Submit(ctx, reports, nil, func(err error) { done <- err }); err != nil {
			t.Fatal(err)
		}
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	type alarm struct {
		StartAt int64  `bun:"start_at"`
		EndAt   *int64 `bun:"end_at"`
	}
	alarms := func() []alarm {
		t.Helper()
		var out []alarm
		if err := x.DB.NewSelect().TableExpr("alarms").Column("start_at", "end_at").Where("car_id = ? AND type_code = 'sealBroken'", car.CarID).
			Scan(ctx, &out); err != nil {
			t.Fatal(err)
		}
		return out
	}

	// x holds the terminal and commits a sealed report, which the worker judges
	if h, err := x.App.Devices.Cluster.Claim(ctx, car.TerminalID, now); h != "" || err != nil {
		t.Fatalf("claim on x: %q %v", h, err)
	}
	submit(x, report(0, tank.SealSealed))
	waitFor(t, "the worker to judge x's report", func() bool { return w.App.Devices.Cluster.Judged() >= 1 })

	// x loses the bus for good and goes on committing: the break and the reseal are stored, never
	// published
	if err := cl.buses["x"].Close(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "x's connection to close", cl.buses["x"].Closed)
	submit(x, report(60, tank.SealBroken))
	submit(x, report(120, tank.SealSealed))

	// the terminal comes to y, which takes it over from the dead x, and reports
	if h, err := y.App.Devices.Cluster.Claim(ctx, car.TerminalID, time.Now()); h != "" || err != nil {
		t.Fatalf("claim on y after x died: %q %v", h, err)
	}
	submit(y, report(180, tank.SealSealed))
	waitFor(t, "the break x never published to be judged", func() bool { return len(alarms()) > 0 })
	waitFor(t, "the worker to judge y's report", func() bool {
		ev, _, _, _ := w.App.Alarms.Engine.Stats()
		return ev >= 4 // x's first report, read back with the break, the reseal, and y's report
	})
	got := alarms()
	if len(got) != 1 || got[0].StartAt != t0.Add(time.Minute).UnixMilli() || got[0].EndAt == nil || *got[0].EndAt != t0.Add(2*time.Minute).UnixMilli() {
		t.Errorf("seal alarms %+v, want one from %d to %d", got, t0.Add(time.Minute).UnixMilli(), t0.Add(2*time.Minute).UnixMilli())
	}
}
