package telemetry

import (
	"encoding/json"
	"testing"
	"time"

	"tankwatch/internal/tank"
)

// BenchmarkLiveWSTick is one tick of a live WebSocket connection that selected 20,000 of 100,000
// cars, 1,000 of which got a newer report since the last tick: diff, counts and encoding of the delta
// (the report batches are applied outside the timer).
func BenchmarkLiveWSTick(b *testing.B) {
	now := time.Date(2026, 3, 1, 8, 0, 0, 0, time.UTC)
	l := liveBenchState(now)
	const selected, changed = 20_000, 1_000
	ids := make([]int64, selected)
	for i := range ids {
		ids[i] = int64(i*(liveBenchCars/selected) + 1)
	}
	lc := &liveConn{live: l, sub: &liveSub{path: "/1/", scope: "/1/", ids: ids}}
	if _, ok := lc.frame("snapshot"); !ok || len(lc.markers) != selected {
		b.Fatalf("snapshot of %d cars", len(lc.markers))
	}
	batch := make([]Report, changed)
	b.ReportAllocs()
	for k := 0; b.Loop(); k++ {
		b.StopTimer()
		for i := range batch {
			id := ids[(k*changed+i)%selected]
			at := now.Add(time.Duration(k+1) * time.Millisecond)
			batch[i] = Report{CarID: id, TerminalID: id, Received: at, Time: at, Speed: uint16(300 + k%100)}
		}
		l.Apply(batch)
		b.StartTimer()
		if _, ok := lc.frame("delta"); !ok || len(lc.markers) != changed {
			b.Fatalf("delta of %d cars, want %d", len(lc.markers), changed)
		}
	}
	var d struct{ Cars []json.RawMessage }
	if err := json.Unmarshal(lc.buf, &d); err != nil || len(d.Cars) != changed {
		b.Fatalf("delta is not the JSON of %d cars: %v", changed, err)
	}
}

// BenchmarkLiveWSTankTick is one tick of a tank page's connection (tanks: true) that selected 340
// cars of the group, every one of which got a new level report with 3 compartments since the last
// tick (the worst case: the demo fleet reports every 30 s, so a 250 ms tick sees about 1 in 120 of
// them): diff, counts and encoding of the markers and the tank data. Reports the frame's size.
func BenchmarkLiveWSTankTick(b *testing.B) {
	now := time.Date(2026, 3, 1, 8, 0, 0, 0, time.UTC)
	l := liveBenchState(now)
	const selected = 340
	ids := make([]int64, selected)
	for i := range ids {
		ids[i] = int64(i + 1)
	}
	lc := &liveConn{live: l, sub: &liveSub{path: "/1/", scope: "/1/", ids: ids, tanks: true}}
	if _, ok := lc.frame("snapshot"); !ok {
		b.Fatal("no snapshot")
	}
	st := &tank.State{Compartments: 3, Seal: tank.SealSealed}
	batch := make([]Report, selected)
	b.ReportAllocs()
	for k := 0; b.Loop(); k++ {
		b.StopTimer()
		for i := range batch {
			id := ids[i]
			at := now.Add(time.Duration(k+1) * time.Millisecond)
			lv := &tank.Levels{N: 3}
			for c := range 3 {
				lv.Probes[c] = tank.Level{Compartment: uint8(c + 1), LevelMM: uint16(900 + k%500), VolumeL: uint32(5000 + k), TempDeci: 215}
			}
			batch[i] = Report{CarID: id, TerminalID: id, Received: at, Time: at, Speed: 300, Tank: st, Levels: lv, Readings: tank.Convert(nil, lv)}
		}
		l.Apply(batch)
		b.StartTimer()
		if _, ok := lc.frame("delta"); !ok || len(lc.sub.tankOut) != selected {
			b.Fatalf("delta with %d cars' tank data, want %d", len(lc.sub.tankOut), selected)
		}
	}
	var d struct{ Tanks []json.RawMessage }
	if err := json.Unmarshal(lc.buf, &d); err != nil || len(d.Tanks) != selected {
		b.Fatalf("delta is not the JSON of %d cars' tank data: %v", selected, err)
	}
	b.ReportMetric(float64(len(lc.buf)), "bytes/frame")
}
