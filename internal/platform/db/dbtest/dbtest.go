// Package dbtest gives tests a migrated store: SQLite always, PostgreSQL when TANKWATCH_TEST_PG is set
// (each test in its own fresh database copied from a migrated template, dropped at cleanup, so packages
// can run in parallel; template.go).
package dbtest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"net/url"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"tankwatch/internal/platform/db"
)

// EnvPG names the PostgreSQL DSN for tests.
const EnvPG = "TANKWATCH_TEST_PG"

// NeedPG skips a test of PostgreSQL alone when EnvPG is not set.
func NeedPG(t testing.TB) {
	t.Helper()
	if os.Getenv(EnvPG) == "" {
		t.Skip(EnvPG + " not set")
	}
}

// Dialects lists the dialects to test: sqlite, and postgres when TANKWATCH_TEST_PG is set.
func Dialects() []string {
	if os.Getenv(EnvPG) != "" {
		return []string{db.SQLite, db.Postgres}
	}
	return []string{db.SQLite}
}

// Each runs fn as a subtest per dialect with a fresh migrated store.
func Each(t *testing.T, fn func(t *testing.T, d *db.DB)) {
	t.Helper()
	for _, dialect := range Dialects() {
		t.Run(dialect, func(t *testing.T) { fn(t, Open(t, dialect)) })
	}
}

// Open returns a fresh migrated store of dialect, closed (and its schema dropped) at cleanup.
func Open(t testing.TB, dialect string) *db.DB {
	t.Helper()
	ctx := context.Background()
	var d *db.DB
	var err error
	switch dialect {
	case db.SQLite:
		d, err = openSQLite(t)
	case db.Postgres:
		d, err = openPG(t)
	default:
		t.Fatalf("unknown dialect %q", dialect)
	}
	if err != nil {
		t.Fatalf("open %s: %v", dialect, err)
	}
	t.Cleanup(func() { _ = d.Close() })
	if err := d.Migrate(ctx); err != nil {
		t.Fatalf("migrate %s: %v", dialect, err)
	}
	return d
}

// SchemaDSN creates a fresh schema in the TANKWATCH_TEST_PG database and returns a DSN whose
// search_path is that schema. The schema is dropped at cleanup (registered before any user of the DSN,
// so it runs after they close).
func SchemaDSN(t testing.TB) string {
	t.Helper()
	base := os.Getenv(EnvPG)
	if base == "" {
		t.Skip(EnvPG + " not set")
	}
	var b [6]byte
	_, _ = rand.Read(b[:])
	schema := "tw_test_" + hex.EncodeToString(b[:])
	admin, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatalf("open %s: %v", EnvPG, err)
	}
	if _, err := admin.Exec("CREATE SCHEMA " + schema); err != nil {
		_ = admin.Close()
		t.Fatalf("create schema: %v", err)
	}
	t.Cleanup(func() {
		_, _ = admin.Exec("DROP SCHEMA " + schema + " CASCADE")
		_ = admin.Close()
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("parse %s: %v", EnvPG, err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

// Snapshot returns every row of the named tables, ordered by every column in turn, for "nothing
// changed" and "these two stores hold the same" assertions.
func Snapshot(t testing.TB, d *db.DB, tables ...string) map[string][][]any {
	t.Helper()
	out := map[string][][]any{}
	for _, table := range tables {
		rows, err := d.DB.DB.Query("SELECT * FROM " + table + " LIMIT 0")
		if err != nil {
			t.Fatalf("snapshot %s: %v", table, err)
		}
		cols, _ := rows.Columns()
		_ = rows.Close()
		order := make([]string, len(cols))
		for i := range cols {
			order[i] = strconv.Itoa(i + 1)
		}
		rows, err = d.DB.DB.Query("SELECT * FROM " + table + " ORDER BY " + strings.Join(order, ", "))
		if err != nil {
			t.Fatalf("snapshot %s: %v", table, err)
		}
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatalf("snapshot %s: %v", table, err)
			}
			for i, v := range vals {
				if b, ok := v.([]byte); ok {
					vals[i] = string(b)
				}
			}
			out[table] = append(out[table], vals)
		}
		_ = rows.Close()
	}
	return out
}

// Step is one action that must leave the store as it was (a refused call, say).
type Step struct {
	What string
	Run  func()
}

// Unchanged runs steps between two snapshots of tables and fails when the store changed. Only then are
// the steps run again one at a time, each between snapshots of its own, to name those that changed it:
// comparing whole tables around every refused call was most of the authorization tests' time.
func Unchanged(t testing.TB, d *db.DB, tables []string, steps ...Step) {
	t.Helper()
	before := Snapshot(t, d, tables...)
	for _, s := range steps {
		s.Run()
	}
	if after := Snapshot(t, d, tables...); reflect.DeepEqual(before, after) {
		return
	}
	for _, s := range steps {
		before := Snapshot(t, d, tables...)
		s.Run()
		if after := Snapshot(t, d, tables...); !reflect.DeepEqual(before, after) {
			t.Errorf("%s changed the store", s.What)
		}
	}
	t.Errorf("%d steps that must change nothing changed the store", len(steps))
}

// Overlap runs first in a transaction it leaves open, then second in another on a goroutine of its
// own: second must not end while first is open (a bounded look, not a timing assertion), and must
// succeed once first has committed. Two workers rewriting the same rows take turns this way (D121).
func Overlap(t testing.TB, d *db.DB, first, second func(ctx context.Context, tx bun.Tx) error) {
	t.Helper()
	ctx := context.Background()
	tx, err := d.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback() //nolint:errcheck // committed below
	if err := first(ctx, tx); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- d.RunInTx(ctx, nil, second) }()
	select {
	case err := <-done:
		t.Fatalf("the second transaction ended (%v) while the first was open", err)
	case <-time.After(300 * time.Millisecond):
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatalf("the second transaction, after the first: %v", err)
	}
}
