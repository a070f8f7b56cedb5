package telemetry

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"tankwatch/internal/fleet"
	"tankwatch/internal/platform/db/dbtest"
	"tankwatch/internal/tank"
)

const liveBenchCars = 100_000

// liveBenchState is a live state of 100,000 cars in 3 subsidiaries × 10 fleets, each car reported
// within the last 20 minutes at a random speed.
func liveBenchState(now time.Time) *Live {
	l := NewLive(nil, nil, LiveConfig{}, func() time.Time { return now })
	cars := make([]fleet.LiveCar, liveBenchCars)
	for i := range cars {
		sub, fl := 2+i%3, 10+i%30
		cars[i] = fleet.LiveCar{ID: int64(i + 1), Plate: fmt.Sprintf("P%06d", i), GroupID: int64(fl),
			GroupPath: fmt.Sprintf("/1/%d/%d/", sub, fl), Compartments: 3}
	}
	l.install(cars, nil)
	rng := rand.New(rand.NewPCG(1, 2))
	reports := make([]Report, liveBenchCars)
	for i := range reports {
		at := now.Add(-time.Duration(rng.IntN(20*60)) * time.Second)
		reports[i] = Report{CarID: int64(i + 1), TerminalID: int64(i + 1), Received: at, Time: at, Speed: uint16(rng.IntN(900))}
		if rng.IntN(20) == 0 {
			reports[i].Alarm = 1
		}
	}
	l.Apply(reports)
	return l
}

func BenchmarkCounts(b *testing.B) {
	now := time.Date(2026, 3, 1, 8, 0, 0, 0, time.UTC)
	l := liveBenchState(now)
	for _, bc := range []struct{ name, path string }{{"all100k", "/1/"}, {"subsidiary33k", "/1/2/"}, {"fleet3k", "/1/3/11/"}} {
		b.Run(bc.name, func(b *testing.B) {
			if n := l.Counts(bc.path)["8"]; n == 0 {
				b.Fatalf("no cars under %s", bc.path)
			}
			b.ReportAllocs()
			for b.Loop() {
				l.Counts(bc.path)
			}
		})
	}
	// Counting while the writer applies batches of 2000 reports.
	b.Run("all100k_whileApplying", func(b *testing.B) {
		stop := make(chan struct{})
		done := make(chan struct{})
		go func() {
			defer close(done)
			batch := make([]Report, 2000)
			for k := 0; ; k++ {
				select {
				case <-stop:
					return
				default:
				}
				for i := range batch {
					id := int64((k*2000+i)%liveBenchCars + 1)
					batch[i] = Report{CarID: id, TerminalID: id, Received: now, Time: now.Add(time.Duration(k+1) * time.Millisecond), Speed: 300}
				}
				l.Apply(batch)
			}
		}()
		for b.Loop() {
			l.Counts("/1/")
		}
		close(stop)
		<-done
	})
}

// BenchmarkLoad rebuilds the live state of 100,000 cars with 5 positions and a tank state each.
func BenchmarkLoad(b *testing.B) {
	for _, dialect := range dbtest.Dialects() {
		b.Run(dialect, func(b *testing.B) {
			ctx := context.Background()
			d := dbtest.Open(b, dialect)
			lock := strings.Repeat("1010", tank.MaxCompartments*tank.Kinds)
			stmts := []string{
				"INSERT INTO org_groups (id, parent_id, path, name, created_at) VALUES (1, NULL, '/1/', 'top', 0)",
				"WITH RECURSIVE n(i) AS (SELECT 2 UNION ALL SELECT i + 1 FROM n WHERE i < 31) " +
					"INSERT INTO org_groups (id, parent_id, path, name, created_at) SELECT i, 1, '/1/' || i || '/', 'g' || i, 0 FROM n",
				fmt.Sprintf("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < %d) "+
					"INSERT INTO cars (id, group_id, plate, compartments, created_at, updated_at) SELECT i, 2 + i %% 30, 'P' || i, 3, 0, 0 FROM n", liveBenchCars),
				fmt.Sprintf("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < %d) "+
					"INSERT INTO positions (car_id, t, terminal_id, received_at, lat, lon, speed, status, mileage) "+
					"SELECT i, 1772323200000 + j * 30000, i, 1772323200000 + j * 30000 + 500, 31000000 + i, 121000000 + j, i %% 900, 3, i * 10 "+
					"FROM n CROSS JOIN (SELECT 1 AS j UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4 UNION ALL SELECT 5) AS m", liveBenchCars),
				fmt.Sprintf("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < %d) "+
					"INSERT INTO tank_states (car_id, t, terminal_id, lock_state, seal, levels) "+
					"SELECT i, 1772323200000, i, '%s', 1, '1:1200:9800:215' FROM n", liveBenchCars, lock),
			}
			for _, q := range stmts {
				if _, err := d.ExecContext(ctx, q); err != nil {
					b.Fatal(err)
				}
			}
			f := fleet.New(d, nil)
			for b.Loop() {
				l := NewLive(d, f, LiveConfig{}, time.Now)
				if err := l.Load(ctx); err != nil {
					b.Fatal(err)
				}
				if s, ok := l.Car(liveBenchCars); !ok || !s.Reported || s.LockState != lock || len(s.Levels) != 1 {
					b.Fatalf("car %d: %+v", liveBenchCars, s)
				}
			}
		})
	}
}
