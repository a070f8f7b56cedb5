package telemetry

import (
	"context"
	"testing"

	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/db/dbtest"
	"tankwatch/internal/tank"
)

func carRows(t *testing.T, d *db.DB, table string, car int64) int {
	t.Helper()
	n, err := d.NewSelect().TableExpr(table).Where("car_id = ?", car).Count(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return int(n)
}

// TestPGPipe: the writer's one-exchange commit (D127) on PostgreSQL. A new batch goes through it and
// is stored with its rollups; a batch that fails on its last statement leaves nothing (the pipe is one
// transaction) and the connection serves the next batch; a re-sent report makes the batch take the
// path that skips stored rows, once, and nothing is stored twice.
// Not parallel: it reads pgPipeFallbacks, which the package's parallel tests move too.
func TestPGPipe(t *testing.T) {
	dbtest.NeedPG(t)
	d := dbtest.Open(t, "postgres")
	commit, release := histCommitter(d, true)
	defer release()
	ctx := context.Background()
	withLevels := func(r Report) Report {
		lv := &tank.Levels{N: 1}
		lv.Probes[0] = tank.Level{Compartment: 1, LevelMM: 900, VolumeL: 4000, TempDeci: 150}
		r.Levels, r.Readings = lv, tank.Convert(nil, lv)
		return r
	}

	fallbacks := pgPipeFallbacks.Load()
	first := []Report{withLevels(sampleReport(9901, 91, 0)), withLevels(sampleReport(9901, 91, 1))}
	frame := Frame{TerminalID: 91, CarID: 9901, Phone: "013852600100", At: t0, MsgID: 0x0200, Serial: 1, Data: []byte{1, 2}}
	if err := commit(ctx, append([]Report(nil), first...), []Frame{frame}); err != nil {
		t.Fatal(err)
	}
	if got := pgPipeFallbacks.Load() - fallbacks; got != 0 {
		t.Errorf("a new batch fell back %d times", got)
	}
	for table, want := range map[string]int{"positions": 2, "level_readings": 2, "raw_frames": 1} {
		if n := carRows(t, d, table, 9901); n != want {
			t.Errorf("%s: %d rows, want %d", table, n, want)
		}
	}
	if n := carRows(t, d, "speed_rollup", 9901) + carRows(t, d, "level_rollup", 9901); n == 0 {
		t.Error("no rollup rows for the new batch")
	}

	// a phone with a NUL byte: PostgreSQL refuses the raw frame, the last copy before COMMIT
	bad := frame
	bad.CarID, bad.Phone = 9902, "0138\x00"
	if err := commit(ctx, []Report{withLevels(sampleReport(9902, 92, 0))}, []Frame{bad}); err == nil {
		t.Fatal("a refused raw frame committed")
	}
	for _, table := range []string{"positions", "level_readings", "raw_frames", "speed_rollup", "level_rollup"} {
		if n := carRows(t, d, table, 9902); n != 0 {
			t.Errorf("%s: %d rows of the failed batch stored", table, n)
		}
	}
	fallbacks = pgPipeFallbacks.Load()
	if err := commit(ctx, []Report{withLevels(sampleReport(9902, 92, 0))}, nil); err != nil {
		t.Fatalf("the batch after a failed one: %v", err)
	}
	if n := carRows(t, d, "positions", 9902); n != 1 {
		t.Errorf("positions after the failed batch: %d, want 1", n)
	}

	// the first batch again with one new report: one fallback, the new report stored once
	again := append(append([]Report(nil), first...), withLevels(sampleReport(9901, 91, 2)))
	if err := commit(ctx, again, nil); err != nil {
		t.Fatal(err)
	}
	if got := pgPipeFallbacks.Load() - fallbacks; got != 1 {
		t.Errorf("the re-sent batch fell back %d times, want 1", got)
	}
	for table, want := range map[string]int{"positions": 3, "level_readings": 3} {
		if n := carRows(t, d, table, 9901); n != want {
			t.Errorf("%s after the re-sent batch: %d rows, want %d", table, n, want)
		}
	}
}
