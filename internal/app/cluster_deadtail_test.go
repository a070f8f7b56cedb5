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
	t.Parallel()
	f := newDeadTail(t, "twd", config.Config{}, 3*time.Minute)
	y := f.cl.node("y", config.Config{Roles: "gateway,api"})
	f.xDies()

	// the terminal comes to y, which takes it over from the dead x, and reports
	if h, err := y.App.Devices.Cluster.Claim(f.ctx, f.car.TerminalID, time.Now()); h != "" || err != nil {
		t.Fatalf("claim on y after x died: %q %v", h, err)
	}
	f.submit(y, f.report(180, tank.SealSealed))
	waitFor(t, "the break x never published to be judged", func() bool { return len(f.alarms()) > 0 })
	waitFor(t, "the worker to judge y's report", func() bool {
		ev, _, _, _ := f.w.App.Alarms.Engine.Stats()
		return ev >= 4 // x's first report, read back with the break, the reseal, and y's report
	})
	f.oneAlarm()
}

// TestOrphanedTail: as TestDeadGatewayTail, but the terminal never comes back (the truck was switched
// off after its last reports). The worker that reads partition 0 sweeps the owners bucket once x has
// been gone Orphaned (half the heartbeat window, 4 s here): x's entry becomes a gap of the car, the
// break x never published is one alarm, and the entry is deleted, so that a terminal coming back
// later inherits nothing (D117). On the code before D117 it times out waiting for the alarm.
func TestOrphanedTail(t *testing.T) {
	t.Parallel()
	f := newDeadTail(t, "two", config.Config{JT808Identity: config.JT808Identity{JT808HeartbeatWindow: 8 * time.Second}}, 3*time.Minute)
	f.xDies()
	waitFor(t, "the break x never published to be judged", func() bool { return len(f.alarms()) > 0 })
	waitFor(t, "x's entry to be deleted", func() bool {
		h, err := f.w.App.Devices.Cluster.Holder(f.ctx, f.car.TerminalID, time.Now())
		return h == "" && err == nil && f.w.App.Devices.Cluster.Orphans() == 1
	})
	f.oneAlarm()
}

// TestRestartedNodeTail: as TestOrphanedTail, but x is restarted under its name at once (a process
// supervisor's restart), so to the worker x is alive. Its entry carries its former life's id, not the
// one in x's node key now: swept as a dead node's (D120). On the code before D120 it times out waiting
// for the alarm.
func TestRestartedNodeTail(t *testing.T) {
	t.Parallel()
	f := newDeadTail(t, "twr", config.Config{JT808Identity: config.JT808Identity{JT808HeartbeatWindow: 8 * time.Second}}, 3*time.Minute)
	f.xDies()
	f.x = f.cl.node("x", f.xc)
	waitFor(t, "the break x's former life never published to be judged", func() bool { return len(f.alarms()) > 0 })
	waitFor(t, "the former life's entry to be deleted", func() bool {
		h, err := f.w.App.Devices.Cluster.Holder(f.ctx, f.car.TerminalID, time.Now())
		return h == "" && err == nil && f.w.App.Devices.Cluster.Orphans() == 1
	})
	f.oneAlarm()
}

// TestDeadGatewayLongGap: as TestDeadGatewayTail, but x's unpublished episode is older than the tail
// read back around x's last word (10 minutes before it, the tail 5): x kept its gap in the store
// (D125), and y, taking the terminal over, reads the car back from the gap's start. On the code before
// D125 it times out waiting for the alarm.
func TestDeadGatewayLongGap(t *testing.T) {
	t.Parallel()
	f := newDeadTail(t, "twgl", config.Config{}, 10*time.Minute)
	y := f.cl.node("y", config.Config{Roles: "gateway,api"})
	f.xDies()
	f.gapKept()
	if h, err := y.App.Devices.Cluster.Claim(f.ctx, f.car.TerminalID, time.Now()); h != "" || err != nil {
		t.Fatalf("claim on y after x died: %q %v", h, err)
	}
	f.submit(y, f.report(600, tank.SealSealed))
	waitFor(t, "the break x never published to be judged", func() bool { return len(f.alarms()) > 0 })
	f.oneAlarm()
}

// TestOrphanedLongGap: as TestOrphanedTail (the terminal never comes back), with the episode older
// than the tail: the sweep publishes the gap x kept in the store, and deletes it (D125). On the code
// before D125 it times out waiting for the alarm.
func TestOrphanedLongGap(t *testing.T) {
	t.Parallel()
	f := newDeadTail(t, "twgo", config.Config{JT808Identity: config.JT808Identity{JT808HeartbeatWindow: 8 * time.Second}}, 10*time.Minute)
	f.xDies()
	f.gapKept()
	waitFor(t, "the break x never published to be judged", func() bool { return len(f.alarms()) > 0 })
	waitFor(t, "x's kept gap to be deleted", func() bool { return f.keptGaps() == 0 && f.w.App.Devices.Cluster.StoredGapsJudged() == 1 })
	f.oneAlarm()
}

// gapKept waits until x has kept the car's gap in the store.
func (f *deadTail) gapKept() {
	f.t.Helper()
	waitFor(f.t, "x to keep its gap in the store", func() bool { return f.keptGaps() == 1 })
}

func (f *deadTail) keptGaps() int {
	f.t.Helper()
	n, err := f.x.DB.NewSelect().TableExpr("bus_gaps").Where("car_id = ?", f.car.CarID).Count(f.ctx)
	if err != nil {
		f.t.Fatal(err)
	}
	return int(n)
}

// deadTail is the dead-tail tests' cluster: a worker w (the first node: its connection deletes the test's
// stream at the end) and a gateway x that holds the car's terminal and has a sealed report judged.
type deadTail struct {
	t    *testing.T
	ctx  context.Context
	cl   *cluster
	w, x *apptest.Env
	xc   config.Config // x's configuration
	car  boundCar
	t0   time.Time
}

// newDeadTail's car reports from ago on: its seal episode (60 and 120 s after) lies within the dead
// node's tail when ago is 3 minutes, and before it when ago is above DeadTail (5 min) plus 2.
func newDeadTail(t *testing.T, prefix string, cfg config.Config, ago time.Duration) *deadTail {
	cl := newCluster(t, prefix)
	wc, xc := cfg, cfg
	wc.Roles, xc.Roles = "worker", "gateway,api"
	f := &deadTail{t: t, ctx: context.Background(), cl: cl, w: cl.node("w", wc), x: cl.node("x", xc), xc: xc}
	waitFor(t, "the worker to hold every partition", func() bool { return len(f.w.App.Devices.Cluster.HeldPartitions()) == 32 })
	f.car = firstBoundCar(t, f.x.DB)
	now := time.Now().Truncate(time.Second)
	f.t0 = now.Add(-ago)
	// x holds the terminal and commits a sealed report, which the worker judges
	if h, err := f.x.App.Devices.Cluster.Claim(f.ctx, f.car.TerminalID, now); h != "" || err != nil {
		t.Fatalf("claim on x: %q %v", h, err)
	}
	f.submit(f.x, f.report(0, tank.SealSealed))
	waitFor(t, "the worker to judge x's report", func() bool { return f.w.App.Devices.Cluster.Judged() >= 1 })
	return f
}

// xDies cuts x from the bus for good (to the others x is gone, as after kill -9); x goes on committing
// the car's seal break and reseal: stored, never published.
func (f *deadTail) xDies() {
	t := f.t
	if err := f.cl.buses["x"].Close(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "x's connection to close", f.cl.buses["x"].Closed)
	f.submit(f.x, f.report(60, tank.SealBroken))
	f.submit(f.x, f.report(120, tank.SealSealed))
}

func (f *deadTail) report(s int, seal tank.Seal) telemetry.Report {
	at := f.t0.Add(time.Duration(s) * time.Second)
	st := &tank.State{Compartments: 1, Seal: seal}
	st.Devices[0][tank.ManholeCover] = tank.DevInstalled | tank.DevLocked
	return telemetry.Report{CarID: f.car.CarID, TerminalID: f.car.TerminalID, Time: at, Received: at, Lat: 39_900_000, Lon: 116_400_000, Tank: st}
}

func (f *deadTail) submit(on *apptest.Env, reports ...telemetry.Report) {
	f.t.Helper()
	done := make(chan error, 1)
	if err := on.App.Devices.Writer.Submit(f.ctx, reports, nil, func(err error) { done <- err }); err != nil {
		f.t.Fatal(err)
	}
	if err := <-done; err != nil {
		f.t.Fatal(err)
	}
}

type sealAlarm struct {
	StartAt int64  `bun:"start_at"`
	EndAt   *int64 `bun:"end_at"`
}

func (f *deadTail) alarms() []sealAlarm {
	f.t.Helper()
	var out []sealAlarm
	if err := f.x.DB.NewSelect().TableExpr("alarms").Column("start_at", "end_at").Where("car_id = ? AND type_code = 'sealBroken'", f.car.CarID).
		Scan(f.ctx, &out); err != nil {
		f.t.Fatal(err)
	}
	return out
}

// oneAlarm checks that the episode x never published is one alarm, started and ended at x's times.
func (f *deadTail) oneAlarm() {
	f.t.Helper()
	got := f.alarms()
	from, to := f.t0.Add(time.Minute).UnixMilli(), f.t0.Add(2*time.Minute).UnixMilli()
	if len(got) != 1 || got[0].StartAt != from || got[0].EndAt == nil || *got[0].EndAt != to {
		f.t.Errorf("seal alarms %+v, want one from %d to %d", got, from, to)
	}
}
