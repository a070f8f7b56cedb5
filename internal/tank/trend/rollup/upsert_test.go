package rollup

import (
	"sync"
	"testing"
)

// TestUpsertSQLCached: every dialect, table and chunk size gets the text the builder makes, from many
// writers at once, and a cached text costs no allocation (the old code built each one again).
func TestUpsertSQLCached(t *testing.T) {
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, pg := range []bool{false, true} {
				for _, table := range Tables {
					for _, n := range Chunks {
						if got, want := UpsertSQL(pg, table, n), upsertSQL(pg, table, n); got != want {
							t.Errorf("postgres=%v %s %d rows: cached text differs", pg, table, n)
						}
					}
				}
			}
		}()
	}
	wg.Wait()
	if a := testing.AllocsPerRun(20, func() { _ = UpsertSQL(true, "level_rollup_h", 256) }); a != 0 {
		t.Errorf("%v allocations per cached text", a)
	}
	if got, want := UpsertSQL(true, "level_rollup", 3), upsertSQL(true, "level_rollup", 3); got != want {
		t.Errorf("a size outside Chunks: %s", got)
	}
}
