package telemetry

import (
	"context"
	"fmt"
	"os"
	"syscall"
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
//	  go test ./internal/telemetry/ -run '^$' -bench 'BenchmarkWriter$' -benchtime 20x
func BenchmarkWriter(b *testing.B) {
	dialects := []string{db.SQLite}
	if os.Getenv(dbtest.EnvPG) != "" {
		dialects = append(dialects, db.Postgres)
	}
	for _, dialect := range dialects {
		for _, probes := range []int{0, 3} {
			b.Run(fmt.Sprintf("%s/probes=%d", dialect, probes), func(b *testing.B) { benchWriter(b, dialect, probes, true) })
		}
	}
}

// BenchmarkWriterNoRollups is BenchmarkWriter without the trend rollups (the writer's fold and upserts,
// D99; before 00042 the insert triggers of D38): the difference is what the trend summaries cost per
// report inside the store's transaction (on PostgreSQL mostly in the database's own CPU, which
// cpu-µs/report does not count).
func BenchmarkWriterNoRollups(b *testing.B) {
	dialects := []string{db.SQLite}
	if os.Getenv(dbtest.EnvPG) != "" {
		dialects = append(dialects, db.Postgres)
	}
	for _, dialect := range dialects {
		for _, probes := range []int{0, 3} {
			b.Run(fmt.Sprintf("%s/probes=%d", dialect, probes), func(b *testing.B) { benchWriter(b, dialect, probes, false) })
		}
	}
}

// benchWriter: with probes > 0, every report also carries that many compartments' levels (0xE2), the
// writer converts them through a catalogue (every car's compartments on a 50-row strapping table) and
// inserts one level_readings row each in the same transaction. cpu-µs/report is the process's CPU
// time (user + system, the database's own share included for SQLite, not for PostgreSQL's server)
// per report.
func benchWriter(b *testing.B, dialect string, probes int, rollups bool) {
	d := dbtest.Open(b, dialect)
	if d.IsPostgres() { // the rows go to their days' partitions, as in production (D89), not the default one
		for _, p := range histPartitioned {
			for day := range 3 {
				if _, err := d.EnsureDayPartition(context.Background(), p.table, p.col, t0.UnixMilli()+int64(day)*db.DayMS); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	w := NewWriter(d, WriterConfig{}, quietLog())
	if !rollups {
		w.commit, w.release = histCommitter(d, false)
	}
	if probes > 0 {
		cat := tank.NewCatalog()
		strap := tank.EllipseStrap(10000, 1800, 50)
		for car := int64(1); car <= 500; car++ {
			comps := make([]tank.Compartment, probes)
			for c := range comps {
				comps[c] = tank.Compartment{CarID: car, No: c + 1, Product: c % 3, CapacityL: 10000, HeightMM: 1800, Strap: strap}
			}
			cat.Set(car, comps)
		}
		w.SetConverter(cat)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ended := make(chan error, 1)
	go func() { ended <- w.Run(ctx) }()
	defer func() { cancel(); <-ended }()

	const n = 2000
	payload := make([]byte, 63)
	st := &tank.State{Compartments: 3, Seal: tank.SealSealed}
	seq := 0
	cpu0 := cpuTime()
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
			if probes > 0 {
				l := &tank.Levels{N: probes}
				for c := range probes {
					l.Probes[c] = tank.Level{Compartment: uint8(c + 1), LevelMM: uint16(200 + (seq+c*300)%1500), VolumeL: uint32(1000 + seq%8000), TempDeci: 215}
				}
				reports[i].Levels = l
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
	b.ReportMetric(float64(b.N*n*probes)/b.Elapsed().Seconds(), "readings/s")
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(time.Microsecond)/float64(b.N*n), "cpu-µs/report")
}

// cpuTime is the process's user + system CPU time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkWriterConvert is the writer's conversion of one report with three compartments on a 50-row
// strapping table (catalogue lookup, interpolation, ToV20): the CPU the conversion adds per report.
func BenchmarkWriterConvert(b *testing.B) {
	cat := tank.NewCatalog()
	strap := tank.EllipseStrap(10000, 1800, 50)
	cat.Set(1, []tank.Compartment{{CarID: 1, No: 1, Product: 0, Strap: strap}, {CarID: 1, No: 2, Product: 1, Strap: strap},
		{CarID: 1, No: 3, Product: 2, Strap: strap}})
	w := &Writer{conv: cat}
	l := &tank.Levels{N: 3, Probes: [8]tank.Level{{Compartment: 1, LevelMM: 900, TempDeci: 215}, {Compartment: 2, LevelMM: 1200, TempDeci: 215},
		{Compartment: 3, LevelMM: 300, TempDeci: 215}}}
	reports := make([]Report, 1)
	b.ReportAllocs()
	for b.Loop() {
		reports[0] = Report{CarID: 1, Levels: l}
		w.convert(reports)
	}
}
