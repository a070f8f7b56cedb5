package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"tankwatch/migrations"
)

// SQLite backup and restore (tankwatch admin backup / restore, DECISIONS D79). The backup is
// VACUUM INTO from a connection of its own: one read transaction, so the copy is the store as of one
// commit, taken while the server keeps writing (in WAL mode a reader blocks no writer). SQLite's online
// backup API (modernc's Conn.NewBackup) would do the same with step(-1); stepped in pieces it restarts
// whenever another connection writes, which under ingest is always.

// sqliteMagic opens every SQLite database file.
const sqliteMagic = "SQLite format 3\x00"

// ErrNotAStore is returned for a file that is not a TankWatch store this binary can serve.
var ErrNotAStore = errors.New("not a TankWatch store")

// LatestMigration is the highest migration version of the dialect embedded in this binary.
func LatestMigration(dialect string) (int64, error) {
	entries, err := fs.ReadDir(migrations.FS, dialect)
	if err != nil {
		return 0, err
	}
	var latest int64
	for _, e := range entries {
		digits, _, _ := strings.Cut(e.Name(), "_")
		if v, err := strconv.ParseInt(digits, 10, 64); err == nil && v > latest {
			latest = v
		}
	}
	return latest, nil
}

// storeVersion checks that q is a sound TankWatch SQLite store and returns its schema version (the
// highest migration applied).
func storeVersion(ctx context.Context, q *sql.DB) (int64, error) {
	var check string
	if err := q.QueryRowContext(ctx, "PRAGMA quick_check").Scan(&check); err != nil {
		return 0, fmt.Errorf("%w: %v", ErrNotAStore, err)
	}
	if check != "ok" {
		return 0, fmt.Errorf("%w: the file is damaged (quick_check: %s)", ErrNotAStore, check)
	}
	var tables int
	if err := q.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master WHERE type = 'table'
		AND name IN ('goose_db_version', 'org_groups', 'users')`).Scan(&tables); err != nil {
		return 0, fmt.Errorf("%w: %v", ErrNotAStore, err)
	}
	if tables != 3 {
		return 0, fmt.Errorf("%w: it lacks TankWatch's tables (schema migrations, groups, users)", ErrNotAStore)
	}
	var v sql.NullInt64
	if err := q.QueryRowContext(ctx, "SELECT max(version_id) FROM goose_db_version WHERE is_applied").Scan(&v); err != nil {
		return 0, fmt.Errorf("%w: %v", ErrNotAStore, err)
	}
	latest, err := LatestMigration(SQLite)
	if err != nil {
		return 0, err
	}
	switch {
	case v.Int64 < 1:
		return 0, fmt.Errorf("%w: no migration has been applied to it", ErrNotAStore)
	case v.Int64 > latest:
		return 0, fmt.Errorf("%w: its schema version %d is newer than this tankwatch's (%d); restore it with the tankwatch that made it",
			ErrNotAStore, v.Int64, latest)
	}
	return v.Int64, nil
}

// isSQLiteFile reports whether path starts like a SQLite database.
func isSQLiteFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	head := make([]byte, len(sqliteMagic))
	if _, err := io.ReadFull(f, head); err != nil || string(head) != sqliteMagic {
		return fmt.Errorf("%w: %s is not a SQLite database", ErrNotAStore, path)
	}
	return nil
}

// openPlain opens the existing SQLite file at path on one connection of its own (no write gate: it
// never writes the store, and another process's gate is not ours anyway).
func openPlain(ctx context.Context, path string) (*sql.DB, error) {
	if err := isSQLiteFile(path); err != nil {
		return nil, err
	}
	q, err := sql.Open("sqlite", "file:"+path+"?mode=rw&_pragma=busy_timeout(10000)")
	if err != nil {
		return nil, err
	}
	q.SetMaxOpenConns(1)
	if err := q.PingContext(ctx); err != nil {
		_ = q.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	return q, nil
}

// Backup is what BackupSQLite wrote.
type Backup struct {
	Bytes   int64
	Version int64 // schema version of the copy
}

// BackupSQLite writes a consistent copy of the SQLite store of dataDir to dest, which must not exist
// yet, while other connections and processes keep using the store (it holds the folder's lock shared:
// not while a restore replaces the store). The copy is written beside dest as dest.partial, flushed to
// disk and renamed, so dest is either whole or absent.
func BackupSQLite(ctx context.Context, dataDir, dest string) (Backup, error) {
	src := StorePath(dataDir)
	if _, err := os.Stat(src); err != nil {
		return Backup{}, fmt.Errorf("no SQLite store at %s: %w", src, err)
	}
	release, err := LockStore(dataDir, false)
	if err != nil {
		return Backup{}, err
	}
	defer release()
	if _, err := os.Lstat(dest); err == nil {
		return Backup{}, fmt.Errorf("%s already exists: name a new file", dest)
	}
	q, err := openPlain(ctx, src)
	if err != nil {
		return Backup{}, err
	}
	defer q.Close()
	partial := dest + ".partial"
	if err := os.Remove(partial); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return Backup{}, err
	}
	if _, err := q.ExecContext(ctx, "VACUUM INTO ?", partial); err != nil {
		_ = os.Remove(partial)
		return Backup{}, fmt.Errorf("backup: %w", err)
	}
	// VACUUM INTO does not fsync what it wrote
	if err := syncFile(partial); err != nil {
		_ = os.Remove(partial)
		return Backup{}, err
	}
	b, err := checkFile(ctx, partial)
	if err != nil {
		_ = os.Remove(partial)
		return Backup{}, fmt.Errorf("the backup did not check out: %w", err)
	}
	if err := os.Rename(partial, dest); err != nil {
		_ = os.Remove(partial)
		return Backup{}, err
	}
	return b, syncDir(filepath.Dir(dest))
}

// checkFile checks the SQLite file at path (nobody else's) and returns its size and schema version.
func checkFile(ctx context.Context, path string) (Backup, error) {
	q, err := openPlain(ctx, path)
	if err != nil {
		return Backup{}, err
	}
	v, err := storeVersion(ctx, q)
	if cerr := q.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return Backup{}, err
	}
	st, err := os.Stat(path)
	if err != nil {
		return Backup{}, err
	}
	return Backup{Bytes: st.Size(), Version: v}, nil
}

// Restored is what RestoreSQLite did.
type Restored struct {
	Version  int64  // schema version of the backup
	Migrated int64  // schema version after the migrations this binary applied to it
	SideCopy string // where the replaced store was moved ("" when there was none)
}

// RestoreSQLite replaces the SQLite store of dataDir with a copy of the backup src. It holds the data
// folder's lock exclusively (ErrStoreInUse while a server or another command has the store open),
// checks the copy is a sound TankWatch store, applies this binary's pending migrations to it, and moves
// the store it replaces (with its WAL) to tankwatch.db.before-restore-<UTC time>. src is not changed.
func RestoreSQLite(ctx context.Context, dataDir, src string, now time.Time) (Restored, error) {
	if err := isSQLiteFile(src); err != nil {
		return Restored{}, err
	}
	if err := os.MkdirAll(dataDir, 0o750); err != nil {
		return Restored{}, fmt.Errorf("create data folder: %w", err)
	}
	release, err := LockStore(dataDir, true)
	if err != nil {
		return Restored{}, err
	}
	defer release()
	store := StorePath(dataDir)
	tmp := store + ".restoring"
	removeTmp := func() {
		for _, p := range sqliteFiles(tmp) {
			_ = os.Remove(p)
		}
	}
	removeTmp()
	if err := copyFile(src, tmp); err != nil {
		removeTmp()
		return Restored{}, err
	}
	r, err := prepareRestore(ctx, tmp)
	if err != nil {
		removeTmp()
		return Restored{}, err
	}
	if _, err := os.Stat(store); err == nil {
		r.SideCopy = store + ".before-restore-" + now.UTC().Format("20060102T150405Z")
		for i, p := range sqliteFiles(store) { // the store, then its WAL and shared memory if any
			if err := os.Rename(p, sqliteFiles(r.SideCopy)[i]); err != nil && (i == 0 || !errors.Is(err, fs.ErrNotExist)) {
				removeTmp()
				return Restored{}, fmt.Errorf("keep the previous store: %w", err)
			}
		}
	}
	if err := os.Rename(tmp, store); err != nil {
		return Restored{}, err
	}
	return r, syncDir(dataDir)
}

// prepareRestore checks the copy at tmp, migrates it to this binary's schema and folds its WAL into it.
func prepareRestore(ctx context.Context, tmp string) (Restored, error) {
	b, err := checkFile(ctx, tmp)
	if err != nil {
		return Restored{}, err
	}
	d, err := OpenSQLite(ctx, tmp)
	if err != nil {
		return Restored{}, err
	}
	r := Restored{Version: b.Version}
	err = d.Migrate(ctx)
	if err == nil {
		err = d.QueryRowContext(ctx, "SELECT max(version_id) FROM goose_db_version WHERE is_applied").Scan(&r.Migrated)
	}
	if err == nil {
		_, err = d.ExecContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)")
	}
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return Restored{}, fmt.Errorf("prepare the restored store: %w", err)
	}
	for _, p := range sqliteFiles(tmp)[1:] {
		if st, err := os.Stat(p); err == nil && st.Size() > 0 && strings.HasSuffix(p, "-wal") {
			return Restored{}, fmt.Errorf("the restored store's WAL was not folded in (%s)", p)
		}
		_ = os.Remove(p)
	}
	return r, syncFile(tmp)
}

// sqliteFiles are the database file and the WAL and shared-memory files SQLite keeps beside it.
func sqliteFiles(path string) []string { return []string{path, path + "-wal", path + "-shm"} }

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o640)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		_ = out.Close()
		return err
	}
	if err := out.Sync(); err != nil {
		_ = out.Close()
		return err
	}
	return out.Close()
}

func syncFile(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	err = f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// syncDir makes a rename in dir durable.
func syncDir(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := f.Sync(); err != nil && !errors.Is(err, os.ErrInvalid) {
		return err
	}
	return nil
}
