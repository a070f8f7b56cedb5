package process

import (
	"context"
	"testing"
	"time"

	"tankwatch/internal/tank"
	"tankwatch/internal/telemetry"
	"tankwatch/internal/waybill"
)

// benchReports is a batch of committed reports of one car that change nothing: on the road, sealed,
// levels within the noise.
func benchReports(carID int64, n int) []telemetry.Report {
	st := closed(tank.SealSealed)
	lv := levels(8000, 8000, 8000)
	out := make([]telemetry.Report, n)
	t0 := time.UnixMilli(1_800_000_000_000)
	for i := range out {
		at := t0.Add(time.Duration(i) * 10 * time.Second)
		out[i] = telemetry.Report{CarID: carID, Time: at, Received: at, Lat: roadAt[0] + int32(i%7), Lon: roadAt[1], Tank: st, Readings: lv}
	}
	return out
}

// BenchmarkEvaluateNothingChanges: the process evaluation of a committed report that changes nothing,
// for a car on an active waybill (IN_TRANSIT, two destinations) and for a car without one.
func BenchmarkEvaluateNothingChanges(b *testing.B) {
	for _, withWaybill := range []bool{true, false} {
		name := "withoutWaybill"
		if withWaybill {
			name = "withWaybill"
		}
		b.Run(name, func(b *testing.B) {
			e := NewEngine(Deps{}, EngineConfig{}, nil)
			c := e.carOf(7)
			if withWaybill {
				_, w := newTrip(b, waybill.InTransit, 2)
				c.wb = []*active{w}
			}
			batch := benchReports(7, 1024)
			ctx := context.Background()
			e.Evaluate(ctx, batch[:8])
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				r := &batch[i%len(batch)]
				// times move forward: a report older than the last one is stale and costs less
				r.Time = r.Time.Add(time.Duration(len(batch)) * 10 * time.Second)
				e.Evaluate(ctx, batch[i%len(batch):i%len(batch)+1])
			}
			if withWaybill && c.wb[0].state != waybill.InTransit {
				b.Fatal("the benchmark's reports moved the waybill")
			}
		})
	}
}
