package db_test

import (
	"context"
	"database/sql"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pressly/goose/v3"

	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/db/dbtest"
	"tankwatch/migrations"
)

func count(t *testing.T, d *db.DB, table string) int {
	t.Helper()
	var n int
	if err := d.QueryRowContext(context.Background(), "SELECT count(*) FROM "+table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestBackupRestoreSQLite: a backup taken while a writer commits holds every row committed before it
// began; restore is refused while the store is open, keeps the replaced store (with its WAL) beside the
// restored one, and leaves a fresh data folder holding just the restored store.
func TestBackupRestoreSQLite(t *testing.T) {
	ctx := context.Background()
	dir := dbtest.SQLiteDataDir(t)
	d, err := db.Open(ctx, "", dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.ExecContext(ctx, "CREATE TABLE probe (n INTEGER PRIMARY KEY)"); err != nil {
		t.Fatal(err)
	}
	var committed atomic.Int64 // rows committed so far (each in its own transaction)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := int64(1); ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			if _, err := d.ExecContext(ctx, "INSERT INTO probe (n) VALUES (?)", i); err != nil {
				t.Error(err)
				return
			}
			committed.Store(i)
		}
	}()
	for committed.Load() < 200 {
		time.Sleep(time.Millisecond)
	}
	before := committed.Load()
	file := filepath.Join(t.TempDir(), "backup.db")
	b, err := db.BackupSQLite(ctx, dir, file)
	if err != nil {
		t.Fatal(err)
	}
	latest, err := db.LatestMigration(db.SQLite)
	if err != nil {
		t.Fatal(err)
	}
	if b.Version != latest || b.Bytes == 0 {
		t.Fatalf("backup %+v, latest migration %d", b, latest)
	}
	if _, err := db.BackupSQLite(ctx, dir, file); err == nil {
		t.Fatal("a backup overwrote an existing file")
	}
	if _, err := db.RestoreSQLite(ctx, dir, file, time.Now()); !errors.Is(err, db.ErrStoreInUse) {
		t.Fatalf("restore over an open store: %v", err)
	}
	close(stop)
	wg.Wait()
	live := count(t, d, "probe")
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}

	// into a fresh folder
	fresh := filepath.Join(t.TempDir(), "data")
	r, err := db.RestoreSQLite(ctx, fresh, file, time.Now())
	if err != nil || r.SideCopy != "" || r.Version != latest || r.Migrated != latest {
		t.Fatalf("restore into a fresh folder: %+v %v", r, err)
	}
	rd, err := db.Open(ctx, "", fresh)
	if err != nil {
		t.Fatal(err)
	}
	var missing int
	if err := rd.QueryRowContext(ctx, "SELECT ? - count(*) FROM probe WHERE n <= ?", before, before).Scan(&missing); err != nil {
		t.Fatal(err)
	}
	restored := count(t, rd, "probe")
	_ = rd.Close()
	if missing != 0 {
		t.Fatalf("%d of the %d rows committed before the backup are missing", missing, before)
	}
	t.Logf("%d rows committed before the backup, %d in it, %d in the store at the end", before, restored, live)

	// over the store it was taken from: the replaced store is kept, with what it held at the end
	r, err = db.RestoreSQLite(ctx, dir, file, time.Date(2026, 11, 26, 23, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	if want := db.StorePath(dir) + ".before-restore-20261126T230000Z"; r.SideCopy != want {
		t.Fatalf("side copy %q, want %q", r.SideCopy, want)
	}
	side, err := db.OpenSQLite(ctx, r.SideCopy)
	if err != nil {
		t.Fatal(err)
	}
	if n := count(t, side, "probe"); n != live {
		t.Errorf("the kept store has %d rows, the store had %d", n, live)
	}
	_ = side.Close()
	back, err := db.Open(ctx, "", dir)
	if err != nil {
		t.Fatal(err)
	}
	if n := count(t, back, "probe"); n != restored {
		t.Errorf("restored store has %d rows, the backup %d", n, restored)
	}
	_ = back.Close()
	for _, leftover := range []string{".restoring", ".restoring-wal", "-wal"} {
		if _, err := os.Stat(db.StorePath(dir) + leftover); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s left behind: %v", leftover, err)
		}
	}
}

// TestRestoreRefuses: files that are not a TankWatch store this binary can serve are refused and the
// store in place is left alone; a store of an older schema is migrated; a restore in progress keeps
// servers out.
func TestRestoreRefuses(t *testing.T) {
	ctx := context.Background()
	dir := dbtest.SQLiteDataDir(t)
	orig, err := os.ReadFile(db.StorePath(dir))
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	text := filepath.Join(tmp, "notes.txt")
	if err := os.WriteFile(text, []byte("not a database at all, but long enough to be read"), 0o600); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(tmp, "other.db")
	sqlExec(t, other, "CREATE TABLE something (x)")
	newer := filepath.Join(tmp, "newer.db")
	copyStore(t, dir, newer)
	sqlExec(t, newer, "INSERT INTO goose_db_version (version_id, is_applied) VALUES (99999, 1)")
	damaged := filepath.Join(tmp, "damaged.db")
	copyStore(t, dir, damaged)
	if f, err := os.OpenFile(damaged, os.O_RDWR, 0); err != nil {
		t.Fatal(err)
	} else {
		if _, err := f.WriteAt(make([]byte, 8192), 8192); err != nil { // pages 3 and 4 (4 KB pages) zeroed
			t.Fatal(err)
		}
		_ = f.Close()
	}
	for name, file := range map[string]string{"text": text, "other": other, "newer": newer, "damaged": damaged} {
		_, err := db.RestoreSQLite(ctx, dir, file, time.Now())
		if !errors.Is(err, db.ErrNotAStore) {
			t.Errorf("%s: %v", name, err)
		}
		t.Logf("%s: %v", name, err)
	}
	if _, err := db.RestoreSQLite(ctx, dir, filepath.Join(tmp, "absent.db"), time.Now()); err == nil {
		t.Error("a missing file restored")
	}
	if now, err := os.ReadFile(db.StorePath(dir)); err != nil || string(now) != string(orig) {
		t.Fatalf("a refused restore changed the store (%v)", err)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.Name() != db.StoreFile && e.Name() != db.LockName {
			t.Errorf("a refused restore left %s", e.Name())
		}
	}

	// a store one migration behind is brought up to this binary's schema
	latest, err := db.LatestMigration(db.SQLite)
	if err != nil {
		t.Fatal(err)
	}
	older := filepath.Join(tmp, "older.db")
	q, err := sql.Open("sqlite", older)
	if err != nil {
		t.Fatal(err)
	}
	sub, _ := fs.Sub(migrations.FS, db.SQLite)
	p, err := goose.NewProvider(goose.DialectSQLite3, q, sub)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.UpTo(ctx, latest-1); err != nil {
		t.Fatal(err)
	}
	// the version below the latest that exists: numbers have gaps while branches hold theirs
	before, err := p.GetDBVersion(ctx)
	if err != nil || before >= latest {
		t.Fatal(before, err)
	}
	_ = q.Close()
	r, err := db.RestoreSQLite(ctx, dir, older, time.Now())
	if err != nil || r.Version != before || r.Migrated != latest || r.SideCopy == "" {
		t.Fatalf("restore of an older store: %+v %v", r, err)
	}

	// while a restore holds the folder, opening the store is refused with a clear reason
	release, err := db.LockStore(dir, true)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Open(ctx, "", dir); !errors.Is(err, db.ErrStoreRestoring) {
		t.Errorf("open during a restore: %v", err)
	}
	if _, err := db.BackupSQLite(ctx, dir, filepath.Join(tmp, "during.db")); !errors.Is(err, db.ErrStoreRestoring) {
		t.Errorf("backup during a restore: %v", err)
	}
	release()
	d, err := db.Open(ctx, "", dir)
	if err != nil {
		t.Fatal(err)
	}
	_ = d.Close()
}

func sqlExec(t *testing.T, path, stmt string) {
	t.Helper()
	q, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	if _, err := q.Exec(stmt); err != nil {
		t.Fatal(err)
	}
}

func copyStore(t *testing.T, dir, to string) {
	t.Helper()
	b, err := os.ReadFile(db.StorePath(dir))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o600); err != nil {
		t.Fatal(err)
	}
}
