package telemetry

import (
	"context"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/db/dbtest"
	"tankwatch/internal/tank"
	"tankwatch/internal/tank/trend/rollup"
)

// rollupBatches makes batches of reports as terminals send them under load: three hours of four cars
// in a random order, car 1 with two terminals reporting at the same instants now and then (equal
// times), readings of one to three compartments, tank-only reports (readings without a position), and
// re-sent reports — in the same batch and in later ones, some with other values (the stored first
// one is what counts).
func rollupBatches(seed uint64) [][]Report {
	rnd := rand.New(rand.NewPCG(seed, 1))
	base := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	var all, later []Report
	for i := range 1200 {
		car := int64(rnd.IntN(4) + 1)
		term := car
		if car == 1 && rnd.IntN(4) == 0 {
			term = 11
		}
		at := base.Add(time.Duration(rnd.IntN(3*3600)) * time.Second)
		if i%50 == 0 { // on a slice boundary
			at = base.Add(time.Duration(rnd.IntN(36)) * 5 * time.Minute)
		}
		r := Report{TerminalID: term, CarID: car, Received: at.Add(time.Second), Time: at, Lat: 31_000_000, Lon: 121_000_000,
			Speed: uint16(rnd.IntN(900)), TankOnly: rnd.IntN(10) == 0}
		lv := &tank.Levels{N: rnd.IntN(4)}
		for c := range lv.N {
			lv.Probes[c] = tank.Level{Compartment: uint8(c + 1), LevelMM: uint16(rnd.IntN(1800)), VolumeL: uint32(rnd.IntN(9000)),
				TempDeci: int16(rnd.IntN(400) - 100)}
		}
		if lv.N > 0 {
			r.Levels, r.Readings = lv, tank.Convert(nil, lv)
		}
		all = append(all, r)
		if car == 1 && rnd.IntN(3) == 0 { // the other terminal of car 1 at the same instant
			twin := r
			twin.TerminalID, twin.Speed = 11, uint16(rnd.IntN(900))
			if term == 11 {
				twin.TerminalID = 1
			}
			if rnd.IntN(2) == 0 {
				all = append(all, twin)
			} else {
				later = append(later, twin) // in a later batch: equal times across a stored slice and a new one
			}
		}
	}
	all = append(all, later...)
	var batches [][]Report
	for len(all) > 0 {
		n := min(len(all), rnd.IntN(120)+1)
		b := append([]Report(nil), all[:n]...)
		all = all[n:]
		for range rnd.IntN(4) { // re-sent: the same report again, or with another speed and level
			r := b[rnd.IntN(len(b))]
			if rnd.IntN(2) == 0 {
				r.Speed++
				if len(r.Readings) > 0 {
					r.Readings = append([]tank.Reading(nil), r.Readings...)
					r.Readings[0].LevelMM++
				}
			}
			if rnd.IntN(2) == 0 {
				b = append(b, r)
			} else {
				all = append(all, r)
			}
		}
		batches = append(batches, b)
	}
	return batches
}

// commitBatches commits each batch as the history writer does, folding the rollups or leaving them to
// the store's triggers.
func commitBatches(t *testing.T, d *db.DB, rollups bool, batches [][]Report) {
	t.Helper()
	commit, release := histCommitter(d, rollups)
	defer release()
	for i, b := range batches {
		if err := commit(context.Background(), append([]Report(nil), b...), nil); err != nil {
			t.Fatalf("batch %d: %v", i, err)
		}
	}
}

var rollupTables = []string{"speed_rollup", "speed_rollup_h", "level_rollup", "level_rollup_h"}

func rollupRows(t *testing.T, d *db.DB) map[string][][]any {
	return dbtest.Snapshot(t, d, rollupTables...)
}

func sameRollups(t *testing.T, what string, got, want map[string][][]any) {
	t.Helper()
	for _, table := range rollupTables {
		if len(want[table]) == 0 {
			t.Fatalf("%s: no %s rows to compare", what, table)
		}
		for i := range min(len(got[table]), len(want[table])) {
			if !reflect.DeepEqual(got[table][i], want[table][i]) {
				t.Fatalf("%s: %s row %d\n got  %v\n want %v", what, table, i, got[table][i], want[table][i])
			}
		}
		if len(got[table]) != len(want[table]) {
			t.Fatalf("%s: %s has %d rows, want %d", what, table, len(got[table]), len(want[table]))
		}
	}
}

// TestWriterRollupsEqualTriggers: the writer's folded rollups (00042, D99) are row for row what the
// insert triggers of 00018 made from the same batches — re-sent reports counted once, out-of-order
// and equal times — on both dialects; a store migrated from the triggers goes on the same; and
// rollup.Rebuild from the stored rows agrees too.
func TestWriterRollupsEqualTriggers(t *testing.T) {
	t.Parallel()
	for _, dialect := range dbtest.Dialects() {
		t.Run(dialect, func(t *testing.T) {
			t.Parallel()
			old, up := dbtest.BeforeMigration(t, dialect, "_rollups_by_writer.sql")
			nw := dbtest.Open(t, dialect)
			first, second := rollupBatches(1), rollupBatches(2)
			commitBatches(t, old, false, first)
			commitBatches(t, nw, true, first)
			want := rollupRows(t, old)
			sameRollups(t, "the writer against the triggers", rollupRows(t, nw), want)

			// the same reports again, as terminals re-send after a restart: nothing changes
			commitBatches(t, nw, true, first)
			sameRollups(t, "everything re-sent", rollupRows(t, nw), want)

			// after the migration the old store's slices go on from where the triggers left them
			if err := up(); err != nil {
				t.Fatal(err)
			}
			commitBatches(t, old, true, second)
			commitBatches(t, nw, true, second)
			want = rollupRows(t, old)
			sameRollups(t, "a migrated store", rollupRows(t, nw), want)

			// rebuilt from the stored rows: the same (car 1 left out: on equal times of its two
			// terminals the writer's first and last are in insertion order, Rebuild's in key order)
			from, to := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC).UnixMilli(), time.Date(2026, 3, 1, 3, 0, 0, 0, time.UTC).UnixMilli()
			for car := int64(2); car <= 4; car++ {
				if _, err := nw.ExecContext(context.Background(), "DELETE FROM speed_rollup WHERE car_id = ?", car); err != nil {
					t.Fatal(err)
				}
				if err := rollup.Rebuild(context.Background(), nw, car, from, to); err != nil {
					t.Fatal(err)
				}
			}
			sameRollups(t, "rebuilt", rollupRows(t, nw), want)
		})
	}
}
