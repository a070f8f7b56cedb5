package db_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"tankwatch/internal/platform/db"
)

// TestSQLiteWritersQueueBehindABusyWriter: one goroutine writes back to back (as the history writer does
// under ingest) while others insert with autocommit statements, INSERT … RETURNING and transactions.
// Polling SQLite's lock, they starved and failed with "database is locked"; behind the write gate each
// gets in within a few of the busy writer's transactions.
func TestSQLiteWritersQueueBehindABusyWriter(t *testing.T) {
	ctx := context.Background()
	d, err := db.OpenSQLite(ctx, filepath.Join(t.TempDir(), "gate.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if _, err := d.ExecContext(ctx, "CREATE TABLE t (id INTEGER PRIMARY KEY, who TEXT NOT NULL, pad BLOB)"); err != nil {
		t.Fatal(err)
	}
	var stop atomic.Bool
	busy := make(chan int)
	go func() {
		n := 0
		pad := make([]byte, 4096)
		for !stop.Load() {
			tx, err := d.DB.DB.BeginTx(ctx, nil)
			if err != nil {
				t.Error(err)
				break
			}
			for range 1000 {
				if _, err := tx.ExecContext(ctx, "INSERT INTO t (who, pad) VALUES ('busy', ?)", pad); err != nil {
					t.Error(err)
				}
			}
			if err := tx.Commit(); err != nil {
				t.Error(err)
			}
			n++
		}
		busy <- n
	}()
	deadline := time.AfterFunc(60*time.Second, func() { stop.Store(true) }) // never hang the suite
	defer deadline.Stop()
	var wg sync.WaitGroup
	for w := range 16 {
		wg.Go(func() {
			for i := range 3 {
				if _, err := d.ExecContext(ctx, "INSERT INTO t (who) VALUES (?)", "exec"); err != nil {
					t.Errorf("writer %d exec %d: %v", w, i, err)
				}
				var id int64
				if err := d.QueryRowContext(ctx, "INSERT INTO t (who) VALUES ('returning') RETURNING id").Scan(&id); err != nil {
					t.Errorf("writer %d returning %d: %v", w, i, err)
				}
				err := d.RunInTx(ctx, &sql.TxOptions{}, func(ctx context.Context, tx bun.Tx) error {
					_, err := tx.ExecContext(ctx, "UPDATE t SET who = 'tx' WHERE id = ?", id)
					return err
				})
				if err != nil {
					t.Errorf("writer %d tx %d: %v", w, i, err)
				}
			}
		})
	}
	wg.Wait()
	stop.Store(true)
	if n := <-busy; n == 0 {
		t.Fatal("the busy writer committed nothing")
	}
	var others int
	if err := d.QueryRowContext(ctx, "SELECT count(*) FROM t WHERE who <> 'busy'").Scan(&others); err != nil {
		t.Fatal(err)
	}
	if others != 16*3*2 {
		t.Fatalf("%d rows of the other writers, want %d", others, 16*3*2)
	}
}
