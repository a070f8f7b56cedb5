package db_test

import (
	"context"
	"errors"
	"testing"

	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/db/dbtest"
)

func TestOpenMigratePing(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		if err := d.PingContext(ctx); err != nil {
			t.Fatal(err)
		}
		// migrating twice is a no-op
		if err := d.Migrate(ctx); err != nil {
			t.Fatal(err)
		}
		var n int
		if err := d.NewSelect().TableExpr("users").ColumnExpr("count(*)").Scan(ctx, &n); err != nil {
			t.Fatal(err)
		}
		if n != 0 {
			t.Fatalf("users = %d", n)
		}
		_, err := d.ExecContext(ctx, "INSERT INTO org_groups (name, code, path, created_at) VALUES ('a', 'X', '/1/', 1)")
		if err != nil {
			t.Fatal(err)
		}
		_, err = d.ExecContext(ctx, "INSERT INTO org_groups (name, code, path, created_at) VALUES ('b', 'X', '/2/', 1)")
		if !db.IsUniqueViolation(err) {
			t.Fatalf("want unique violation, got %v", err)
		}
		conflict := errors.New("code exists")
		if got := db.UniqueAs(err, conflict); got != conflict {
			t.Fatalf("UniqueAs(duplicate) = %v", got)
		}
		// foreign keys are enforced, and a violation that is not about uniqueness passes through
		_, err = d.ExecContext(ctx, "INSERT INTO users (name, password_hash, group_id, created_at) VALUES ('u', 'x', 999, 1)")
		if err == nil {
			t.Fatal("foreign key not enforced")
		}
		if got := db.UniqueAs(err, conflict); got != err {
			t.Fatalf("UniqueAs(foreign key) = %v", got)
		}
		if got := db.UniqueAs(nil, conflict); got != nil {
			t.Fatalf("UniqueAs(nil) = %v", got)
		}
	})
}

func TestOpenRejectsUnknownDSN(t *testing.T) {
	if _, err := db.Open(context.Background(), "mysql://x", t.TempDir()); err == nil {
		t.Fatal("want error")
	}
}

func TestOpenSQLiteInDataDir(t *testing.T) {
	d, err := db.Open(context.Background(), "", t.TempDir()+"/sub")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	var mode string
	if err := d.QueryRow("PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
		t.Fatalf("journal_mode %q %v", mode, err)
	}
}
