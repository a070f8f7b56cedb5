package trend

import (
	"context"
	"testing"
	"time"

	"tankwatch/internal/fleet"
	"tankwatch/internal/platform/db/dbtest"
	"tankwatch/internal/platform/httpx"
)

// BenchmarkLevelChartMonth answers a month of 10-second readings of one car (3 compartments,
// 777,600 level readings, 259,200 positions) at the default 1,500 points. Figures: docs/PERFORMANCE.md.
func BenchmarkLevelChartMonth(b *testing.B) {
	for _, dialect := range dbtest.Dialects() {
		b.Run(dialect, func(b *testing.B) {
			d := dbtest.Open(b, dialect)
			fixture(b, d)
			n := 30 * 8640
			start := time.Now()
			readings(b, d, 1, t0, n, n/2)
			b.Logf("%s: %d readings inserted in %v", dialect, 3*n, time.Since(start))
			// the steady state: autovacuum keeps the rollups' old row versions pruned on PostgreSQL
			// (a bulk load leaves one per reading); statistics on both
			maintain := "ANALYZE"
			if d.IsPostgres() {
				maintain = "VACUUM ANALYZE"
			}
			if _, err := d.ExecContext(context.Background(), maintain); err != nil {
				b.Fatal(err)
			}
			s := New(d, fleet.New(d, nil))
			p := principal("/1/")
			q := CarQuery{CarID: 1, Start: httpx.Time(t0), End: httpx.Time(t0 + int64(n)*10_000)}
			ctx := context.Background()
			for b.Loop() {
				c, err := s.LevelChart(ctx, p, q)
				if err != nil {
					b.Fatal(err)
				}
				if len(c.Compartments) != 4 || c.Compartments[0].Readings != n || c.Compartments[0].Series.Len() > DefaultMaxPoints {
					b.Fatalf("%d compartments, %d readings", len(c.Compartments), c.Compartments[0].Readings)
				}
			}
		})
	}
}
