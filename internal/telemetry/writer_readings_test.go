package telemetry

import (
	"context"
	"testing"
	"time"

	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/db/dbtest"
	"tankwatch/internal/tank"
)

// testCatalog is a catalog with car 7's compartment 1 on a strapping table (diesel) and compartment 2
// without one (gasoline 92: the probe's volume counts).
func testCatalog(t *testing.T) *tank.Catalog {
	t.Helper()
	strap, err := tank.ParseStrap("0:0;1000:10000;2000:20000")
	if err != nil {
		t.Fatal(err)
	}
	c := tank.NewCatalog()
	c.Set(7, []tank.Compartment{{CarID: 7, No: 1, Product: tank.ProductDiesel0, CapacityL: 20000, Strap: strap},
		{CarID: 7, No: 2, Product: tank.ProductGasoline92, CapacityL: 10000}})
	return c
}

func levelReport(car int64, sec int, mm1, mm2 uint16) Report {
	r := sampleReport(car, 3, sec)
	r.Levels = &tank.Levels{N: 2, Probes: [8]tank.Level{{Compartment: 1, LevelMM: mm1, VolumeL: 4000, TempDeci: 150},
		{Compartment: 2, LevelMM: mm2, VolumeL: 3000, TempDeci: 250}}}
	return r
}

type readingRow struct {
	CarID       int64   `bun:"car_id"`
	T           int64   `bun:"t"`
	Compartment int64   `bun:"compartment"`
	LevelMM     int64   `bun:"level_mm"`
	ProbeL      int64   `bun:"probe_l"`
	TempDC      int64   `bun:"temp_dc"`
	VolumeL     float64 `bun:"volume_l"`
	Source      int64   `bun:"source"`
	V20L        float64 `bun:"v20_l"`
	MassKg      float64 `bun:"mass_kg"`
}

func readingRows(t *testing.T, d *db.DB) []readingRow {
	t.Helper()
	var rows []readingRow
	if err := d.NewSelect().TableExpr("level_readings").Column("car_id", "t", "compartment", "level_mm", "probe_l", "temp_dc",
		"volume_l", "source", "v20_l", "mass_kg").OrderExpr("car_id, t, compartment").Scan(context.Background(), &rows); err != nil {
		t.Fatal(err)
	}
	return rows
}

// TestWriterConvertsLevels: a report with levels (position + 0xE2, and a TankOnly level report) gets
// its Readings before the commit, one level_readings row per compartment lands in the same commit,
// subscribers see the Readings, and re-sent reports add nothing.
func TestWriterConvertsLevels(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		w := NewWriter(d, WriterConfig{MaxDelay: -1}, quietLog())
		cat := testCatalog(t)
		w.SetConverter(cat)
		batches := make(chan []Report, 4)
		w.Subscribe(func(rs []Report) { batches <- rs })
		startWriter(t, w)

		withPos := levelReport(7, 0, 1500, 400)
		tankOnly := levelReport(7, 5, 1490, 400)
		tankOnly.TankOnly = true
		unknownCar := levelReport(8, 0, 100, 200) // no compartments listed: probe volumes
		plain := sampleReport(7, 3, 10)
		submitWait(t, w, []Report{withPos, tankOnly, unknownCar, plain}, nil)

		b := <-batches
		if len(b[0].Readings) != 2 || len(b[1].Readings) != 2 || len(b[2].Readings) != 2 || b[3].Readings != nil {
			t.Fatalf("subscriber readings: %d %d %d %v", len(b[0].Readings), len(b[1].Readings), len(b[2].Readings), b[3].Readings)
		}
		want := cat.Convert(7, withPos.Levels)
		if b[0].Readings[0] != want[0] || b[0].Readings[0].Source != tank.SourceStrap || b[0].Readings[0].VolumeL != 15000 {
			t.Errorf("compartment 1: %+v, want %+v (table: 1500 mm = 15000 L)", b[0].Readings[0], want[0])
		}
		if b[0].Readings[1].Source != tank.SourceProbe || b[0].Readings[1].VolumeL != 3000 {
			t.Errorf("compartment 2 (no table): %+v", b[0].Readings[1])
		}

		rows := readingRows(t, d)
		if len(rows) != 6 {
			t.Fatalf("level_readings: %d rows, want 6", len(rows))
		}
		r := rows[0]
		g := b[0].Readings[0]
		if r.CarID != 7 || r.T != t0.UnixMilli() || r.Compartment != 1 || r.LevelMM != 1500 || r.ProbeL != 4000 || r.TempDC != 150 ||
			r.VolumeL != g.VolumeL || r.Source != 1 || r.V20L != g.V20L || r.MassKg != g.MassKg {
			t.Errorf("row %+v, reading %+v", r, g)
		}
		if rows[2].T != t0.Add(5*time.Second).UnixMilli() || rows[2].LevelMM != 1490 {
			t.Errorf("TankOnly report's row: %+v", rows[2])
		}
		if rows[4].CarID != 8 || rows[4].Source != int64(tank.SourceProbe) || rows[4].VolumeL != 4000 {
			t.Errorf("car without compartments: %+v", rows[4])
		}

		// The terminal did not get the ack and sends the same reports again (later, with other figures
		// the store must not take): nothing changes.
		again := levelReport(7, 0, 1, 1)
		again.Received = again.Received.Add(time.Minute)
		submitWait(t, w, []Report{again, again}, nil)
		<-batches
		if got := readingRows(t, d); len(got) != 6 || got[0] != rows[0] {
			t.Errorf("after re-send: %d rows, first %+v", len(got), got[0])
		}
	})
}

// TestWriterWithoutConverter: no converter, no readings (the writer stays as it was).
func TestWriterWithoutConverter(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		w := NewWriter(d, WriterConfig{MaxDelay: -1}, quietLog())
		startWriter(t, w)
		submitWait(t, w, []Report{levelReport(7, 0, 1500, 400)}, nil)
		if n := count(t, d, "level_readings"); n != 0 {
			t.Errorf("level_readings: %d, want 0", n)
		}
		if n := count(t, d, "tank_states"); n != 1 {
			t.Errorf("tank_states: %d, want 1", n)
		}
	})
}
