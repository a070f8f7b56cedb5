package app_test

import (
	"context"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/platform/config"
	"tankwatch/internal/tank"
	"tankwatch/internal/telemetry"
)

// TestWorkers: two gateway nodes without the worker role and two worker nodes (D97). The 32
// partitions are shared by the workers; seal breaks committed on both gateways, one of them sent again
// through the other gateway, are one alarm each. Worker 1 stops: worker 2 takes its partitions over,
// a car whose seal is still broken is not raised again and is ended there, and a breach after the
// loss is raised once.
func TestWorkers(t *testing.T) {
	t.Parallel()
	cl := newCluster(t, "tww")
	g1, g2 := cl.node("g1", config.Config{Roles: "gateway,api"}), cl.node("g2", config.Config{Roles: "gateway,api"})
	w1, w2 := cl.node("w1", config.Config{Roles: "worker"}), cl.node("w2", config.Config{Roles: "worker"})
	held := func(e *apptest.Env) int { return len(e.App.Devices.Cluster.HeldPartitions()) }
	waitFor(t, "the workers to share the partitions", func() bool {
		return held(w1) > 0 && held(w2) > 0 && held(w1)+held(w2) == 32 && held(g1)+held(g2) == 0
	})
	// the rollup marks go with the partitions (D113): the workers recompute them, each its own cars
	if g1.App.RunsRollups() || g2.App.RunsRollups() || !w1.App.RunsRollups() || !w2.App.RunsRollups() {
		t.Errorf("rollup workers on g1 %v, g2 %v, w1 %v, w2 %v: want on the workers alone",
			g1.App.RunsRollups(), g2.App.RunsRollups(), w1.App.RunsRollups(), w2.App.RunsRollups())
	}
	for car := int64(1); car <= 64; car++ {
		if in1, in2 := w1.App.RollupShare().Has(car), w2.App.RollupShare().Has(car); in1 == in2 {
			t.Fatalf("car %d in w1's share %v, in w2's %v: want in exactly one", car, in1, in2)
		}
	}

	var cars []struct {
		CarID      int64 `bun:"car_id"`
		TerminalID int64 `bun:"id"`
	}
	if err := g1.DB.NewSelect().TableExpr("terminals").Column("car_id", "id").Where("car_id IS NOT NULL").OrderExpr("car_id").Limit(8).
		Scan(context.Background(), &cars); err != nil || len(cars) < 8 {
		t.Fatalf("demo cars: %d %v", len(cars), err)
	}
	at := time.Now().Add(-time.Hour).Truncate(time.Second)
	seal := func(i int, t0 time.Time, s tank.Seal) telemetry.Report {
		st := &tank.State{Compartments: 1, Seal: s}
		st.Devices[0][tank.ManholeCover] = tank.DevInstalled | tank.DevLocked
		return telemetry.Report{CarID: cars[i].CarID, TerminalID: cars[i].TerminalID, Time: t0, Received: t0, Lat: 39_900_000, Lon: 116_400_000, Tank: st}
	}
	submit := func(g *apptest.Env, reports ...telemetry.Report) {
		t.Helper()
		done := make(chan error, 1)
		if err := g.App.Devices.Writer.Submit(context.Background(), reports, nil, func(err error) { done <- err }); err != nil {
			t.Fatal(err)
		}
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	judgedOn := func(e *apptest.Env) int64 { return e.App.Devices.Cluster.Judged() }
	judged := func() int64 { return judgedOn(w1) + judgedOn(w2) }
	alarms := func(first, last int, open bool) int {
		t.Helper()
		ids := []int64{}
		for _, c := range cars[first:last] {
			ids = append(ids, c.CarID)
		}
		q := g1.DB.NewSelect().TableExpr("alarms").Where("type_code = 'sealBroken' AND car_id IN (?)", bun.In(ids))
		if open {
			q = q.Where("end_at IS NULL")
		}
		n, err := q.Count(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return int(n)
	}

	// cars 0–3 break their seal: 0 and 1 on g1, 2 and 3 on g2; car 0's report is sent again to g2
	for i := range 4 {
		g := g1
		if i >= 2 {
			g = g2
		}
		submit(g, seal(i, at, tank.SealSealed), seal(i, at.Add(time.Minute), tank.SealBroken))
	}
	submit(g2, seal(0, at.Add(time.Minute), tank.SealBroken))
	waitFor(t, "the workers to judge the 9 reports", func() bool { return judged() >= 9 })
	if n := alarms(0, 4, true); n != 4 {
		t.Fatalf("%d seal alarms for 4 cars", n)
	}

	// worker 1 stops: its partitions move to worker 2
	w1.App.StopDevices()
	waitFor(t, "worker 2 to hold every partition", func() bool { return held(w2) == 32 })
	before := judgedOn(w2)
	// cars 0–3: still broken, then resealed; cars 4–7 break their seal after the loss
	for i := range 4 {
		submit(g1, seal(i, at.Add(2*time.Minute), tank.SealBroken), seal(i, at.Add(3*time.Minute), tank.SealSealed))
	}
	for i := 4; i < 8; i++ {
		submit(g2, seal(i, at.Add(2*time.Minute), tank.SealSealed), seal(i, at.Add(3*time.Minute), tank.SealBroken))
	}
	waitFor(t, "worker 2 to judge the 16 reports", func() bool { return judgedOn(w2)-before >= 16 })
	if n, open := alarms(0, 4, false), alarms(0, 4, true); n != 4 || open != 0 {
		t.Errorf("cars 0–3 after the move: %d seal alarms (%d open), want 4 ended", n, open)
	}
	if n := alarms(4, 8, true); n != 4 {
		t.Errorf("cars 4–7: %d seal alarms, want 4", n)
	}
}
