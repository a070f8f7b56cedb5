package dbtest

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"tankwatch/internal/platform/db"
	"tankwatch/migrations"
)

// Migrating a store was most of a test's set-up (under -race, seconds per store): SQLite keeps one
// migrated file per set of migrations in the temporary folder, whose bytes each test copies, and
// PostgreSQL one migrated template database, which CREATE DATABASE … TEMPLATE copies per test. Open
// still runs Migrate on the copy, so a stale template would show as a migration, never as a wrong schema.

var sqliteTpl struct {
	once  sync.Once
	bytes []byte
	err   error
}

// sqliteTemplate is a migrated SQLite database file's bytes: read from the temporary folder, where the
// first test process to need it (of any package) leaves it, named by the migrations it holds.
func sqliteTemplate() ([]byte, error) {
	db.UseUnsyncedSQLiteForTests()
	t := &sqliteTpl
	t.once.Do(func() {
		name, err := migrationsHash(db.SQLite)
		if err != nil {
			t.err = err
			return
		}
		path := filepath.Join(os.TempDir(), "tankwatch-dbtest-"+name+".db")
		if b, err := os.ReadFile(path); err == nil {
			t.bytes = b
			return
		}
		t.bytes, t.err = makeSQLiteTemplate(path)
	})
	return t.bytes, t.err
}

// makeSQLiteTemplate migrates a new file and renames it to path (atomic: a process reading path at the
// same time sees the whole file or none).
func makeSQLiteTemplate(path string) ([]byte, error) {
	dir, err := os.MkdirTemp(filepath.Dir(path), "tankwatch-dbtest-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	tmp := filepath.Join(dir, "template.db")
	d, err := db.OpenSQLite(context.Background(), tmp)
	if err != nil {
		return nil, err
	}
	err = d.Migrate(context.Background())
	if cerr := d.Close(); err == nil {
		err = cerr // closing the last connection checkpoints the WAL into the file
	}
	if err != nil {
		return nil, err
	}
	b, err := os.ReadFile(tmp)
	if err != nil {
		return nil, err
	}
	return b, os.Rename(tmp, path)
}

// openSQLite writes the template to a fresh file of the test's.
func openSQLite(tb testing.TB) (*db.DB, error) {
	path := filepath.Join(tb.TempDir(), "test.db")
	if err := writeTemplate(path); err != nil {
		return nil, err
	}
	return db.OpenSQLite(context.Background(), path)
}

func writeTemplate(path string) error {
	b, err := sqliteTemplate()
	if err != nil {
		return fmt.Errorf("sqlite template: %w", err)
	}
	return os.WriteFile(path, b, 0o600)
}

// SQLiteDataDir returns a fresh data folder holding a migrated SQLite store (db.StoreFile), for tests
// of what db.Open and the commands do with a data folder.
func SQLiteDataDir(tb testing.TB) string {
	tb.Helper()
	dir := tb.TempDir()
	if err := writeTemplate(db.StorePath(dir)); err != nil {
		tb.Fatal(err)
	}
	return dir
}

var pgTpl struct {
	once sync.Once
	name string
	err  error
}

// migrationsHash names the migrations of dialect (a hash of their files).
func migrationsHash(dialect string) (string, error) {
	h := sha256.New()
	err := fs.WalkDir(migrations.FS, dialect, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		b, err := migrations.FS.ReadFile(p)
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s %d\n", p, len(b))
		h.Write(b)
		return nil
	})
	return hex.EncodeToString(h.Sum(nil))[:16], err
}

// pgTemplate makes (once per machine and set of migrations; test processes run in parallel, so under
// an advisory lock) the migrated template database and returns its name.
func pgTemplate(base string) (string, error) {
	t := &pgTpl
	t.once.Do(func() { t.name, t.err = makePGTemplate(base) })
	return t.name, t.err
}

func makePGTemplate(base string) (string, error) {
	hash, err := migrationsHash(db.Postgres)
	name := "tw_tpl_" + hash
	if err != nil {
		return "", err
	}
	ctx := context.Background()
	admin, err := sql.Open("pgx", base)
	if err != nil {
		return "", err
	}
	defer admin.Close()
	conn, err := admin.Conn(ctx)
	if err != nil {
		return "", err
	}
	defer conn.Close()
	const lockKey = 0x7477_7470 // "twtp"
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock($1)", lockKey); err != nil {
		return "", err
	}
	defer conn.ExecContext(ctx, "SELECT pg_advisory_unlock($1)", lockKey) //nolint:errcheck // the connection closes next
	var ready bool
	err = conn.QueryRowContext(ctx, "SELECT datistemplate FROM pg_database WHERE datname = $1", name).Scan(&ready)
	if err == nil && ready {
		return name, nil
	}
	if err == nil { // a run stopped half-way through making it
		if _, err := conn.ExecContext(ctx, "DROP DATABASE "+name+" WITH (FORCE)"); err != nil {
			return "", err
		}
	} else if !errors.Is(err, sql.ErrNoRows) {
		return "", err
	}
	if _, err := conn.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
		return "", err
	}
	dsn, err := withDatabase(base, name)
	if err != nil {
		return "", err
	}
	d, err := db.Open(ctx, dsn, "")
	if err != nil {
		return "", err
	}
	err = d.Migrate(ctx)
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", fmt.Errorf("migrate the template: %w", err)
	}
	// marked only once complete: an unmarked database of this name is a half-made one
	if _, err := conn.ExecContext(ctx, "ALTER DATABASE "+name+" IS_TEMPLATE true"); err != nil {
		return "", err
	}
	return name, nil
}

// withDatabase returns base with its database replaced by name.
func withDatabase(base, name string) (string, error) {
	u, err := url.Parse(base)
	if err != nil {
		return "", err
	}
	u.Path = "/" + name
	// a test's commits need not wait for the disk (the server's crash safety is not what is tested)
	q := u.Query()
	q.Set("synchronous_commit", "off")
	u.RawQuery = q.Encode()
	return u.String(), nil
}

// openPG creates a database of the test's from the template, dropped at cleanup.
func openPG(tb testing.TB) (*db.DB, error) {
	dsn, err := pgDatabase(tb)
	if err != nil {
		return nil, err
	}
	return db.Open(context.Background(), dsn, "")
}

// PGDatabase creates a migrated database of the test's from the template (dropped at cleanup) and
// returns its DSN, for tests that open it several times (several nodes of one deployment). It skips
// the test when TANKWATCH_TEST_PG is not set.
func PGDatabase(tb testing.TB) string {
	tb.Helper()
	dsn, err := pgDatabase(tb)
	if err != nil {
		tb.Fatalf("postgres: %v", err)
	}
	return dsn
}

func pgDatabase(tb testing.TB) (string, error) {
	base := os.Getenv(EnvPG)
	if base == "" {
		tb.Skip(EnvPG + " not set")
	}
	tpl, err := pgTemplate(base)
	if err != nil {
		return "", fmt.Errorf("postgres template: %w", err)
	}
	var b [6]byte
	_, _ = rand.Read(b[:])
	name := "tw_test_" + hex.EncodeToString(b[:])
	admin, err := sql.Open("pgx", base)
	if err != nil {
		return "", err
	}
	if _, err := admin.Exec("CREATE DATABASE " + name + " TEMPLATE " + tpl); err != nil {
		_ = admin.Close()
		return "", fmt.Errorf("create database: %w", err)
	}
	tb.Cleanup(func() { // registered first, so it runs after the store is closed
		_, _ = admin.Exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)")
		_ = admin.Close()
	})
	return withDatabase(base, name)
}
