package dbtest

import (
	"context"
	"io/fs"
	"strconv"
	"strings"
	"testing"

	"github.com/pressly/goose/v3"

	"tankwatch/internal/platform/db"
	"tankwatch/migrations"
)

// BeforeMigration opens an empty store of the dialect migrated up to, not including, the migration
// whose file name ends with suffix (found by name, so a renumbering when branches merge does not break
// the test), for a test that puts rows of the older schema in it; up runs that migration and the rest.
func BeforeMigration(t *testing.T, dialect, suffix string) (d *db.DB, up func() error) {
	t.Helper()
	ctx := context.Background()
	var err error
	if dialect == db.SQLite {
		d, err = db.OpenSQLite(ctx, t.TempDir()+"/t.db")
	} else {
		d, err = db.Open(ctx, SchemaDSN(t), "")
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = d.Close() })
	sub, err := fs.Sub(migrations.FS, dialect)
	if err != nil {
		t.Fatal(err)
	}
	names, err := fs.Glob(sub, "*"+suffix)
	if err != nil || len(names) != 1 {
		t.Fatalf("migration *%s: %v %v", suffix, names, err)
	}
	version, err := strconv.ParseInt(strings.SplitN(names[0], "_", 2)[0], 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	gd := goose.DialectSQLite3
	if dialect == db.Postgres {
		gd = goose.DialectPostgres
	}
	p, err := goose.NewProvider(gd, d.DB.DB, sub)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.UpTo(ctx, version-1); err != nil {
		t.Fatal(err)
	}
	return d, func() error { _, err := p.Up(ctx); return err }
}
