package telemetry

import (
	"context"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"

	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/db/dbtest"
	"tankwatch/internal/tank"
	"tankwatch/internal/tank/trend/rollup"
)

// inPGTx runs fn in a transaction on a pgx connection of d, after staging its rollup tables if stage.
func inPGTx(t *testing.T, d *db.DB, stage bool, fn func(tx pgx.Tx) error) {
	t.Helper()
	ctx := context.Background()
	conn, err := d.DB.DB.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	err = conn.Raw(func(dc any) error {
		c := dc.(*stdlib.Conn).Conn()
		if stage {
			ok, err := pgRollupStaging(ctx, c)
			if err != nil {
				return err
			}
			if !ok {
				return fmt.Errorf("staging tables not usable")
			}
		}
		tx, err := c.Begin(ctx)
		if err != nil {
			return err
		}
		defer func() { _ = tx.Rollback(ctx) }()
		if err := fn(tx); err != nil {
			return err
		}
		return tx.Commit(ctx)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func upsertOld(ctx context.Context, tx pgx.Tx, tables []rollup.Table) error {
	return rollup.Write(ctx, true, tables, func(ctx context.Context, q string, args ...any) error {
		_, err := tx.Exec(ctx, q, args...)
		return err
	})
}

// TestPGRollupsEqualUpsert: the staging path (COPY and INSERT … SELECT) leaves the same rollup rows as
// UpsertSQL's multi-row statements on the same input: stored slices, then a batch of new slices (more
// than one chunk of them), slices merged into stored ones with readings before, inside and after them,
// equal times on both ends, several compartments.
func TestPGRollupsEqualUpsert(t *testing.T) {
	dbtest.NeedPG(t)
	t.Parallel()
	ctx := context.Background()
	old, nw := dbtest.Open(t, db.Postgres), dbtest.Open(t, db.Postgres)
	lv := func(mm int64, vol float64) rollup.LevelValues {
		return rollup.LevelValues{LevelMM: mm, TempDC: mm%300 - 50, VolumeL: vol, V20L: vol * 0.99}
	}
	stored := func(f *rollup.Fold) {
		for car := int64(1); car <= 3; car++ {
			for _, tm := range []int64{1_000, 60_000, 200_000, 3_700_000} {
				f.AddSpeed(car, tm, car*100+tm%97)
				for comp := int64(1); comp <= 3; comp++ {
					f.AddLevel(car, tm, comp, lv(car*10+comp+tm%89, float64(tm%1013)+0.25))
				}
			}
		}
	}
	batch := func(f *rollup.Fold) {
		for car := int64(1); car <= 3; car++ {
			// equal to the stored first and last times, before, between and after them, and a new slice
			for i, tm := range []int64{1_000, 200_000, 500, 100_000, 250_000, 3_700_000, 7_300_000} {
				f.AddSpeed(car, tm, int64(900-i*7)+car)
				for comp := int64(1); comp <= 3; comp++ {
					f.AddLevel(car, tm, comp, lv(int64(1500-i*11)+comp, float64(5000-i*3)+0.5*float64(comp)))
				}
			}
		}
		for k := range int64(300) { // new slices of a new car: more than the largest chunk
			tm := 10*rollup.HourMS + k*rollup.FiveMinMS + k
			f.AddSpeed(9, tm, k)
			f.AddLevel(9, tm, 1+k%4, lv(k, float64(k)/3))
		}
	}
	for _, d := range []*db.DB{old, nw} {
		var f rollup.Fold
		stored(&f)
		inPGTx(t, d, false, func(tx pgx.Tx) error { return upsertOld(ctx, tx, f.Take()) })
	}
	var f rollup.Fold
	batch(&f)
	inPGTx(t, old, false, func(tx pgx.Tx) error { return upsertOld(ctx, tx, f.Take()) })
	batch(&f)
	inPGTx(t, nw, true, func(tx pgx.Tx) error { return pgRollups(ctx, tx, f.TakeRows()) })
	want := rollupRows(t, old)
	if len(want["speed_rollup"]) < 300 {
		t.Fatalf("%d five-minute speed slices", len(want["speed_rollup"]))
	}
	sameRollups(t, "staging against UpsertSQL", rollupRows(t, nw), want)
	// the staging tables are emptied by the commit: a second batch does not merge the first again
	batch(&f)
	inPGTx(t, old, false, func(tx pgx.Tx) error { return upsertOld(ctx, tx, f.Take()) })
	batch(&f)
	inPGTx(t, nw, true, func(tx pgx.Tx) error { return pgRollups(ctx, tx, f.TakeRows()) })
	sameRollups(t, "a second batch", rollupRows(t, nw), rollupRows(t, old))
}

// TestPGRollupsConcurrentWriters: two writers (their own connections, as on a cluster's nodes) commit
// reports of the same cars and slices at once, in opposite orders of their batches; neither deadlocks
// nor loses a count — every slice holds as many readings as the stored rows in it.
func TestPGRollupsConcurrentWriters(t *testing.T) {
	dbtest.NeedPG(t)
	t.Parallel()
	d := dbtest.Open(t, db.Postgres)
	base := time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)
	batches := func(term int64) [][]Report {
		var out [][]Report
		for k := range 30 {
			var b []Report
			for car := int64(1); car <= 6; car++ {
				for s := range 5 {
					at := base.Add(time.Duration(k*37+s*401) * time.Second)
					r := Report{TerminalID: car*1000 + term, CarID: car, Received: at, Time: at, Speed: uint16(k + s + int(term))}
					lv := &tank.Levels{N: 2}
					for c := range 2 {
						lv.Probes[c] = tank.Level{Compartment: uint8(c + 1), LevelMM: uint16(100 + k + s), VolumeL: uint32(1000 + k), TempDeci: 150}
					}
					r.Levels, r.Readings = lv, tank.Convert(nil, lv)
					b = append(b, r)
				}
			}
			out = append(out, b)
		}
		return out
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var wg sync.WaitGroup
	errs := make(chan error, 2)
	for w := range int64(2) {
		bs := batches(w + 1)
		wg.Add(1)
		go func() {
			defer wg.Done()
			commit, release := histCommitter(d, true)
			defer release()
			for i := range bs {
				b := bs[i]
				if w == 1 {
					b = bs[len(bs)-1-i]
				}
				if err := commit(ctx, b, nil); err != nil {
					errs <- fmt.Errorf("writer %d: %w", w, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	counts := func(q string) [][]int64 {
		rows, err := d.QueryContext(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var out [][]int64
		for rows.Next() {
			var a, b, c, n int64
			if err := rows.Scan(&a, &b, &c, &n); err != nil {
				t.Fatal(err)
			}
			out = append(out, []int64{a, b, c, n})
		}
		return out
	}
	for _, c := range []struct{ rows, slices string }{
		{"SELECT car_id, t - t % 300000 AS s, 0, count(*) FROM positions GROUP BY 1, 2 ORDER BY 1, 2", "SELECT car_id, b, 0, n FROM speed_rollup ORDER BY 1, 2"},
		{"SELECT car_id, t - t % 3600000 AS s, 0, count(*) FROM positions GROUP BY 1, 2 ORDER BY 1, 2", "SELECT car_id, b, 0, n FROM speed_rollup_h ORDER BY 1, 2"},
		{"SELECT car_id, t - t % 300000 AS s, compartment, count(*) FROM level_readings GROUP BY 1, 2, 3 ORDER BY 1, 2, 3", "SELECT car_id, b, compartment, n FROM level_rollup ORDER BY 1, 2, 3"},
		{"SELECT car_id, t - t % 3600000 AS s, compartment, count(*) FROM level_readings GROUP BY 1, 2, 3 ORDER BY 1, 2, 3", "SELECT car_id, b, compartment, n FROM level_rollup_h ORDER BY 1, 2, 3"},
	} {
		want, got := counts(c.rows), counts(c.slices)
		if len(want) == 0 || !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got  %v\n want %v", c.slices, got, want)
		}
	}
	var total int64
	if err := d.QueryRowContext(context.Background(), "SELECT count(*) FROM positions").Scan(&total); err != nil {
		t.Fatal(err)
	}
	if total != 2*30*6*5 {
		t.Errorf("%d positions", total)
	}
}
