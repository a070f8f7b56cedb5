package telemetry

import (
	"context"
	"os"
	"testing"
	"time"

	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/db/dbtest"
	"tankwatch/internal/tank"
)

// BenchmarkWriter measures durable positions/s through the writer: each op is one submission of 2000
// positions (one in ten with a tank state) and 2000 raw frames of 63 bytes, waited for until committed.
//
//	TANKWATCH_TEST_PG='postgres://postgres@127.0.0.1:5432/test?sslmode=disable' \
//	  go test ./internal/telemetry/ -run '^$' -bench BenchmarkWriter -benchtime 20x
func BenchmarkWriter(b *testing.B) {
	dialects := []string{db.SQLite}
	if os.Getenv(dbtest.EnvPG) != "" {
		dialects = append(dialects, db.Postgres)
	}
	for _, dialect := range dialects {
		b.Run(dialect, func(b *testing.B) {
			d := dbtest.Open(b, dialect)
			w := NewWriter(d, WriterConfig{}, quietLog())
			ctx, cancel := context.WithCancel(context.Background())
			ended := make(chan error, 1)
			go func() { ended <- w.Run(ctx) }()
			defer func() { cancel(); <-ended }()

			const n = 2000
			payload := make([]byte, 63)
			st := &tank.State{Compartments: 3, Seal: tank.SealSealed}
			seq := 0
			b.ResetTimer()
			for range b.N {
				reports, frames := make([]Report, n), make([]Frame, n)
				for i := range n {
					seq++
					at := t0.Add(time.Duration(seq) * time.Second)
					car := int64(i%500 + 1)
					reports[i] = Report{TerminalID: car, CarID: car, Received: at, Time: at, Lat: 39_900_000 + int32(seq),
						Lon: 116_400_000, Speed: 600, Mileage: uint32(seq), HasMileage: true}
					if i%10 == 0 {
						reports[i].Tank = st
					}
					frames[i] = Frame{TerminalID: car, CarID: car, Phone: "013852600100", At: at, MsgID: 0x0200, Serial: uint16(seq), Data: payload}
				}
				done := make(chan error, 1)
				if err := w.Submit(ctx, reports, frames, func(err error) { done <- err }); err != nil {
					b.Fatal(err)
				}
				if err := <-done; err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "positions/s")
		})
	}
}
