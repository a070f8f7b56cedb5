package app_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"tankwatch/internal/sim"
)

// TestKillWorker: a gateway without the worker role and two worker-only processes on one PostgreSQL
// database and one NATS, 40 simulated terminals reporting, then `kill -9` of the worker that reads the
// partition of a car with an emergency alarm going on. While nobody reads that partition the car ends
// the alarm and raises a new one; the other worker takes the partition over once the dead one's key
// expires and judges both from the stream: the first alarm ends where the car said, the second is a
// row of its own, and no alarm of the fleet is stored twice.
func TestKillWorker(t *testing.T) {
	if testing.Short() {
		t.Skip("three server processes: not in -short")
	}
	t.Parallel()
	mqttURL := os.Getenv("TANKWATCH_TEST_MQTT")
	if mqttURL == "" {
		t.Skip("TANKWATCH_TEST_MQTT not set (nodes without every role share a broker)")
	}
	const terminals = 40
	ps := newProcSetup(t, "twkw", terminals)
	natsURL, alarmIdx, dsn, bin, prefix, store := ps.natsURL, ps.alarmIdx, ps.dsn, ps.bin, ps.prefix, ps.store
	ctx := context.Background()
	parts, err := ps.bus.KV(ctx, "parts", 0)
	if err != nil {
		t.Fatal(err)
	}

	common := []string{"--db", dsn, "--bus", natsURL, "--bus-prefix", prefix, "--mqtt-broker", mqttURL, "--jt1078", "",
		"--jt808-fail-limit", "1000000"}
	g := startNode(t, bin, "g", append(common, "--roles", "gateway,api", "--demo", "--demo-sim=false", "--demo-history-cars", "0",
		"--demo-vehicles", fmt.Sprint(alarmIdx+1)))
	waitFor(t, "the gateway to serve", g.ready)
	w1 := startNode(t, bin, "w1", append(common, "--roles", "worker"))
	w2 := startNode(t, bin, "w2", append(common, "--roles", "worker"))
	holder := func(p int64) string {
		v, _, err := parts.Get(ctx, "p"+strconv.FormatInt(p, 10))
		if err != nil {
			return ""
		}
		return string(v)
	}
	held := func() map[string]int {
		n := map[string]int{}
		for p := range int64(32) {
			n[holder(p)]++
		}
		return n
	}
	waitFor(t, "the two workers to share the 32 partitions", func() bool {
		h := held()
		return h[w1.id()] > 0 && h[w2.id()] > 0 && h[w1.id()]+h[w2.id()] == 32
	})

	fl, err := sim.Start(ctx, sim.Config{Gateway: g.jt808, Vehicles: terminals, Interval: 10 * time.Second, Speedup: 10,
		DayAtStart: true, Seed: 23, Misbehave: 0, AckTimeout: 2 * time.Second, Backoff: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(fl.Stop)
	waitFleet(t, fl, "the fleet to report", func() bool { return fl.Stats().Acked >= 2*terminals })

	car := alarmTerminal(t, store, alarmIdx)
	code := car.register(t, g.jt808)
	if !car.auth(t, g.jt808, code) {
		t.Fatal("the alarm terminal was refused")
	}
	at := time.Now().Add(-time.Minute).Truncate(time.Second).UTC()
	car.report(t, at, 1) // bit 0: emergency
	waitFor(t, "the emergency alarm", func() bool { return alarmRows(t, store, car.carID) == 1 })

	victim, heir := w1, w2
	if holder(car.carID%32) == w2.id() {
		victim, heir = w2, w1
	}
	tok := g.login(t)
	before := heir.metric(t, tok, "tankwatch_work_reports_judged_total")
	if err := victim.cmd.Process.Kill(); err != nil { // SIGKILL: its partitions' batches under way are not acknowledged
		t.Fatal(err)
	}
	_ = victim.cmd.Wait()
	car.report(t, at.Add(time.Second), 0)   // the emergency ends…
	car.report(t, at.Add(2*time.Second), 1) // …and a new one starts, while nobody reads the partition

	waitFor(t, "the other worker to hold every partition", func() bool { return held()[heir.id()] == 32 })
	waitFor(t, "the other worker to judge the fleet's reports", func() bool {
		return heir.metric(t, tok, "tankwatch_work_reports_judged_total") >= before+2*terminals
	})
	type row struct {
		StartAt int64  `bun:"start_at"`
		EndAt   *int64 `bun:"end_at"`
	}
	var rows []row
	show := func(rs []row) string {
		out := ""
		for _, r := range rs {
			end := "open"
			if r.EndAt != nil {
				end = strconv.FormatInt(*r.EndAt, 10)
			}
			out += fmt.Sprintf("[%d → %s]", r.StartAt, end)
		}
		return out
	}
	read := func() {
		rows = rows[:0]
		if err := store.NewRaw("SELECT start_at, end_at FROM alarms WHERE car_id = ? AND type_code = 't0' ORDER BY start_at",
			car.carID).Scan(ctx, &rows); err != nil {
			t.Fatal(err)
		}
	}
	// the rows are read until both alarms are there or two minutes have passed, and then checked: a
	// wrong outcome (the first never ended, the second merged into it) is shown as it stands
	for deadline := time.Now().Add(2 * time.Minute); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if read(); len(rows) >= 2 && rows[0].EndAt != nil {
			break
		}
	}
	if len(rows) != 2 || rows[0].StartAt != at.UnixMilli() || rows[0].EndAt == nil || *rows[0].EndAt != at.Add(time.Second).UnixMilli() ||
		rows[1].StartAt != at.Add(2*time.Second).UnixMilli() || rows[1].EndAt != nil {
		t.Errorf("the car's emergency alarms after the kill: %s; want one from %d ended at %d and one open from %d",
			show(rows), at.UnixMilli(), at.Add(time.Second).UnixMilli(), at.Add(2*time.Second).UnixMilli())
	}
	fl.Stop()
	var doubled int
	if err := store.NewRaw("SELECT count(*) FROM (SELECT 1 FROM alarms GROUP BY car_id, type_code, start_at HAVING count(*) > 1) AS d").
		Scan(ctx, &doubled); err != nil {
		t.Fatal(err)
	}
	if doubled > 0 {
		t.Errorf("%d alarm episodes are stored more than once", doubled)
	}
}
