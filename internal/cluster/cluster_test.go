package cluster

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"tankwatch/internal/jt808"
	"tankwatch/internal/platform/bus"
	"tankwatch/internal/tank"
	"tankwatch/internal/telemetry"
)

func sampleBatch(n int) []telemetry.Report {
	t0 := time.Date(2026, 3, 1, 8, 0, 0, 0, time.UTC)
	out := make([]telemetry.Report, n)
	for i := range out {
		r := &out[i]
		r.TerminalID, r.CarID, r.Phone = int64(1000+i), int64(i+1), "013800001234"
		r.Received, r.Time = t0.Add(time.Duration(i)*time.Second), t0.Add(time.Duration(i)*time.Second-300*time.Millisecond)
		r.Alarm, r.Status, r.Lat, r.Lon, r.Speed, r.Direction = 4, 0x300, 39_904_200+int32(i), 116_407_400-int32(i), 612, 271
		r.Mileage, r.HasMileage, r.Satellites = 123456, true, 12
		if i%4 == 0 { // a quarter of the reports carry tank data, as a tanker fleet's do
			r.Tank = &tank.State{Compartments: 3, Seal: tank.SealBroken}
			r.Tank.Devices[1][0] = 2
			r.Levels = &tank.Levels{N: 2}
			r.Levels.Probes[0] = tank.Level{Compartment: 1, LevelMM: 1200, VolumeL: 8000, TempDeci: 215}
			r.Readings = []tank.Reading{{Compartment: 1, LevelMM: 1200, VolumeL: 7990.5, V20L: 7985, MassKg: 6100}}
			r.Locks = []tank.LockEvent{{Event: 1, Compartment: 2, Time: t0, Serial: "LK0001"}}
		}
	}
	return out
}

// A batch crosses the bus with everything live state and the console read of it.
func TestReportsRoundTrip(t *testing.T) {
	in := sampleBatch(9)
	data, err := encodeReports(in)
	if err != nil {
		t.Fatal(err)
	}
	out, err := decodeReports(data)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(in)
	b, _ := json.Marshal(out)
	if string(a) != string(b) {
		t.Fatalf("batch changed on the way:\n%s\n%s", a, b)
	}
}

func newNodes(t *testing.T, names ...string) []*Node {
	hub := bus.NewHub()
	var out []*Node
	for _, name := range names {
		n := New(hub.Attach(name), "tw", Config{HeartbeatWindow: 90 * time.Second}, func([]telemetry.Report) {}, nil, nil)
		if err := n.Start(context.Background()); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(n.Stop)
		out = append(out, n)
	}
	return out
}

// One live session per terminal across nodes: a live holder elsewhere refuses the claim, a silent one
// (past the heartbeat window) is taken over, and the old holder's release does not undo that.
func TestClaim(t *testing.T) {
	ns := newNodes(t, "a", "b")
	a, b := ns[0], ns[1]
	ctx := context.Background()
	now := time.Date(2026, 3, 1, 8, 0, 0, 0, time.UTC)
	if h, err := a.Claim(ctx, 7, now); h != "" || err != nil {
		t.Fatalf("first claim: %q %v", h, err)
	}
	if h, err := a.Claim(ctx, 7, now.Add(time.Second)); h != "" || err != nil {
		t.Fatalf("a claims its own terminal again: %q %v", h, err)
	}
	if h, _ := b.Claim(ctx, 7, now.Add(89*time.Second)); h != "a" {
		t.Fatalf("claim while a's session is live: %q, want a", h)
	}
	if h, _ := b.Holder(ctx, 7, now.Add(89*time.Second)); h != "a" {
		t.Fatalf("holder: %q, want a", h)
	}
	if h, _ := b.Holder(ctx, 7, now.Add(92*time.Second)); h != "" {
		t.Fatalf("a silent session still holds: %q", h)
	}
	if h, err := b.Claim(ctx, 7, now.Add(92*time.Second)); h != "" || err != nil {
		t.Fatalf("take-over of a silent session: %q %v", h, err)
	}
	a.Release(7)
	waitFor(t, func() bool {
		h, _ := a.Holder(ctx, 7, now.Add(93*time.Second))
		return h == "b"
	})
	b.Release(7)
	waitFor(t, func() bool {
		h, _ := a.Holder(ctx, 7, now.Add(93*time.Second))
		return h == ""
	})
	if h, _ := a.Claim(ctx, 7, now.Add(94*time.Second)); h != "" {
		t.Fatalf("claim after release: %q", h)
	}
}

// The offline rule of a car is judged by the node that committed its newest report.
func TestMine(t *testing.T) {
	ns := newNodes(t, "a", "b")
	a, b := ns[0], ns[1]
	batch := sampleBatch(1)
	a.Committed(batch)
	waitFor(t, func() bool { return b.m.received.Load() == 1 })
	if !a.Mine(1) || b.Mine(1) {
		t.Fatalf("after a's report: a %v, b %v", a.Mine(1), b.Mine(1))
	}
	later := sampleBatch(1)
	later[0].Received = later[0].Received.Add(time.Minute)
	b.Committed(later)
	waitFor(t, func() bool { return a.m.received.Load() == 1 })
	if a.Mine(1) || !b.Mine(1) || a.Mine(2) {
		t.Fatalf("after b's newer report: a %v, b %v", a.Mine(1), b.Mine(1))
	}
	a.Committed(batch) // an older report (blind-area re-upload) does not move the car back
	if a.Mine(1) {
		t.Fatal("an older report moved the car")
	}
}

func TestMessageRoundTrip(t *testing.T) {
	for _, m := range []jt808.Message{&jt808.Text{Flag: 8, Text: "前方施工"}, &jt808.VehicleControl{Flag: 1},
		&jt808.Empty{ID: 0x8104}, &jt808.PassThrough{Down: true, Type: 0xF1, Data: []byte{1, 2}},
		&jt808.SetParams{Params: []jt808.Param{{ID: 0x29, Value: []byte{0, 0, 0, 10}}}}} {
		w, err := encodeMsg(m)
		if err != nil {
			t.Fatal(err)
		}
		got, err := w.decode()
		if err != nil {
			t.Fatal(err)
		}
		a, _ := m.AppendBody(nil, jt808.V2019)
		b, _ := got.AppendBody(nil, jt808.V2019)
		if got.MsgID() != m.MsgID() || string(a) != string(b) {
			t.Errorf("%T changed: %x → %x", m, a, b)
		}
	}
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition never held")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func BenchmarkEncodeGob(b *testing.B) {
	batch := sampleBatch(500)
	var n int
	for b.Loop() {
		d, err := encodeReports(batch)
		if err != nil {
			b.Fatal(err)
		}
		n = len(d)
	}
	b.ReportMetric(float64(n)/500, "bytes/report")
}

func BenchmarkEncodeJSON(b *testing.B) {
	batch := sampleBatch(500)
	var n int
	for b.Loop() {
		d, err := json.Marshal(batch)
		if err != nil {
			b.Fatal(err)
		}
		n = len(d)
	}
	b.ReportMetric(float64(n)/500, "bytes/report")
}

func BenchmarkDecodeGob(b *testing.B) {
	d, _ := encodeReports(sampleBatch(500))
	for b.Loop() {
		if _, err := decodeReports(d); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeJSON(b *testing.B) {
	d, _ := json.Marshal(sampleBatch(500))
	for b.Loop() {
		var out []telemetry.Report
		if err := json.Unmarshal(d, &out); err != nil {
			b.Fatal(err)
		}
	}
}

// A node that stopped beating (killed) holds nothing: its live-looking entries are taken over at once.
func TestDeadNodeReleases(t *testing.T) {
	ns := newNodes(t, "a", "b")
	a, b := ns[0], ns[1]
	ctx := context.Background()
	now := time.Date(2026, 3, 1, 8, 0, 0, 0, time.UTC)
	if h, _ := a.Claim(ctx, 9, now); h != "" {
		t.Fatalf("first claim: %q", h)
	}
	if h, _ := b.Claim(ctx, 9, now.Add(time.Second)); h != "a" {
		t.Fatalf("claim while a lives: %q", h)
	}
	// what the bucket's expiry does to a killed node's key
	if err := a.nodes.Delete(ctx, nodeKey("a"), a.beatRev); err != nil {
		t.Fatal(err)
	}
	if h, err := b.Claim(ctx, 9, now.Add(2*time.Second)); h != "" || err != nil {
		t.Fatalf("claim after a died: %q %v", h, err)
	}
}
