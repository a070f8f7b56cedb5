package telemetry

import (
	"context"
	"fmt"
	"math"
	"os"
	"reflect"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"

	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/db/dbtest"
)

// TestPGCopyMatchesPGX copies the same rows (every value kind the history rows hold, with edge values)
// through pgCopy and through pgx's CopyFrom into two tables of the same column types and compares what
// PostgreSQL stored; values pgCopy does not encode itself (an int64 out of an int4 column's range, a
// bool) must give pgx's result too (here: pgx's error, and a stored bool).
func TestPGCopyMatchesPGX(t *testing.T) {
	if os.Getenv(dbtest.EnvPG) == "" {
		t.Skip("TANKWATCH_TEST_PG not set")
	}
	d := dbtest.Open(t, db.Postgres)
	ctx := context.Background()
	seven, minus := int64(7), int64(-1)
	cols := []string{"a", "b", "c", "d", "e", "f", "g", "h"}
	rows := [][]any{
		{int64(1), int64(2), int64(3), 1.5, "x", []byte{0, 1, 255}, &seven, "汉字 GBK"},
		{int64(math.MaxInt64), int64(math.MaxInt32), int64(math.MaxInt16), math.Inf(-1), "", []byte{}, (*int64)(nil), nil},
		{int64(math.MinInt64), int64(math.MinInt32), int64(math.MinInt16), math.NaN(), "a\nb\\c", []byte(nil), &minus, "v"},
		{int64(-1), int64(0), int64(-1), math.Copysign(0, -1), "'\"", []byte("data"), nil, ""},
	}
	ddl := "(a BIGINT, b INTEGER, c SMALLINT, d DOUBLE PRECISION, e TEXT, f BYTEA, g BIGINT, h VARCHAR(20), n SERIAL)"
	conn, err := d.DB.DB.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	read := func(tx pgx.Tx, table string) [][]any {
		rs, err := tx.Query(ctx, "SELECT a, b, c, d::text, e, f, g, h FROM "+table+" ORDER BY n")
		if err != nil {
			t.Fatal(err)
		}
		out, err := pgx.CollectRows(rs, func(r pgx.CollectableRow) ([]any, error) { return r.Values() })
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	err = conn.Raw(func(dc any) error {
		tx, err := dc.(*stdlib.Conn).Conn().Begin(ctx)
		if err != nil {
			return err
		}
		defer func() { _ = tx.Rollback(ctx) }()
		for _, tb := range []string{"copy_ours", "copy_pgx"} {
			if _, err := tx.Exec(ctx, "CREATE TEMP TABLE "+tb+" "+ddl); err != nil {
				return err
			}
		}
		if err := pgCopy(ctx, tx, "copy_ours", cols, rows); err != nil {
			return fmt.Errorf("pgCopy: %w", err)
		}
		if _, err := tx.CopyFrom(ctx, pgx.Identifier{"copy_pgx"}, cols, pgx.CopyFromRows(rows)); err != nil {
			return fmt.Errorf("pgx: %w", err)
		}
		ours, theirs := read(tx, "copy_ours"), read(tx, "copy_pgx")
		if len(ours) != len(rows) || !reflect.DeepEqual(ours, theirs) {
			t.Errorf("stored through pgCopy:\n%v\nthrough pgx:\n%v", ours, theirs)
		}
		if _, ok := pgCopyEncode([]uint32{oidInt4}, [][]any{{int64(math.MaxInt32) + 1}}); ok {
			t.Error("an int64 beyond an integer column's range was encoded, not left to pgx")
		}
		if _, err := tx.Exec(ctx, "SAVEPOINT s"); err != nil {
			return err
		}
		if err := pgCopy(ctx, tx, "copy_ours", cols[1:2], [][]any{{int64(math.MaxInt32) + 1}}); err == nil {
			t.Error("an int64 beyond an integer column's range was stored")
		}
		if _, err := tx.Exec(ctx, "ROLLBACK TO SAVEPOINT s"); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "CREATE TEMP TABLE copy_bool (a BOOLEAN)"); err != nil {
			return err
		}
		if err := pgCopy(ctx, tx, "copy_bool", []string{"a"}, [][]any{{true}, {false}}); err != nil {
			return fmt.Errorf("bool through pgx: %w", err)
		}
		var n int
		if err := tx.QueryRow(ctx, "SELECT count(*) FROM copy_bool WHERE a").Scan(&n); err != nil || n != 1 {
			t.Errorf("bool rows: %d true, %v", n, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
