package apptest

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"tankwatch/internal/app"
	"tankwatch/internal/auth"
	"tankwatch/internal/platform/config"
	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/db/dbtest"
)

// The demo seed (App.Bootstrap) was a fifth of internal/app's CPU under -race: every instance seeded
// the demo organisation, fleet, stations and history anew. A test process seeds one SQLite store once,
// on the same fixed clock as every instance, and each plain demo instance starts on a copy of it;
// NewOn still runs Bootstrap on the copy, which finds the demo there (as a restarted `serve --demo`
// does), so the instance's own state is built the same way. The copy lives only as long as the
// process: a change to a seed shows in the next run, never as a stale file. Only the store is copied:
// the seed writes nothing else in the data folder (the firmware packages are in the store, D136), and
// TestSeededStoreIsTheFreshDemo says so if that changes.
var seededSQLite struct {
	once  sync.Once
	bytes []byte
	err   error
}

// plainDemo is the configuration apptest.Each uses: the one whose store can be shared.
func plainDemo(cfg config.Config) bool { return cfg == config.Config{Demo: true} }

// openSeeded returns a fresh SQLite store holding the seeded demo, closed at cleanup.
func openSeeded(t testing.TB) *db.DB {
	t.Helper()
	s := &seededSQLite
	s.once.Do(func() { s.bytes, s.err = seedSQLite(t) })
	if s.err != nil {
		t.Fatalf("seeded demo store: %v", s.err)
	}
	path := filepath.Join(t.TempDir(), "test.db")
	if err := os.WriteFile(path, s.bytes, 0o600); err != nil {
		t.Fatal(err)
	}
	d, err := db.OpenSQLite(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = d.Close() })
	if err := d.Migrate(context.Background()); err != nil { // nothing to do unless the copy is stale
		t.Fatal(err)
	}
	return d
}

// seedSQLite bootstraps the demo into a migrated store of the first caller's and returns its bytes.
func seedSQLite(t testing.TB) ([]byte, error) {
	auth.UseFastHashingForTests()
	dir := dbtest.SQLiteDataDir(t)
	d, err := db.OpenSQLite(context.Background(), db.StorePath(dir))
	if err != nil {
		return nil, err
	}
	a := app.New(config.Config{Demo: true, Data: t.TempDir()}, d, slog.New(slog.NewTextHandler(io.Discard, nil)))
	a.SetNow(newClock().Now)
	err = a.Bootstrap(context.Background(), io.Discard)
	if cerr := d.Close(); err == nil {
		err = cerr // closing the last connection checkpoints the WAL into the file
	}
	if err != nil {
		return nil, err
	}
	return os.ReadFile(db.StorePath(dir))
}
