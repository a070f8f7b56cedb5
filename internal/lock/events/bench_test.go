package events_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"tankwatch/internal/lock"
	"tankwatch/internal/lock/events"
	"tankwatch/internal/platform/db/dbtest"
	"tankwatch/internal/telemetry"
)

// BenchmarkIngest files batches of 100 reports with 3 lock events each (a registered lock, an active
// waybill, a remote command to match, a fence): the cost per event of the writer's subscriber.
func BenchmarkIngest(b *testing.B) {
	for _, dialect := range dbtest.Dialects() {
		b.Run(dialect, func(b *testing.B) {
			d := dbtest.Open(b, dialect)
			f := setup(b, d)
			in := &events.Ingest{DB: d, Cars: lastSeen{f.group}, Stations: fence{}}
			ctx := context.Background()
			n := 0
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				batch := make([]telemetry.Report, 100)
				for j := range batch {
					n++
					at := f.t0.Add(time.Duration(n) * time.Second)
					batch[j] = telemetry.Report{CarID: f.car, Time: at, Received: f.t0, Lat: 31_000_000, Lon: 121_000_000}
					for c := uint8(1); c <= 3; c++ {
						batch[j].Locks = append(batch[j].Locks, ev(lock.EventOpened, lock.MethodRemote, c, at, fmt.Sprintf("BL-%04d", c)))
					}
				}
				if _, err := in.Store(ctx, batch); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*300)/1000, "µs/event")
		})
	}
}
