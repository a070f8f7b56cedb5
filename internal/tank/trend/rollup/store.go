package rollup

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"

	"tankwatch/internal/platform/db"
)

// Chunks are the row counts of the multi-row statements: a table's rows are cut into chunks of these
// sizes, so that a handful of statement texts serve every batch (each stays prepared: the history
// writer's on its SQLite connection, pgx's statement cache on PostgreSQL).
var Chunks = chunkSizes[:]

var chunkSizes = [...]int{256, 64, 16, 4, 1}

// ChunkRows is the largest of Chunks not above n (n > 0).
func ChunkRows(n int) int {
	for _, c := range Chunks {
		if c <= n {
			return c
		}
	}
	return 1
}

// Write upserts tables with exec (a transaction's), a chunk of rows per statement.
func Write(ctx context.Context, postgres bool, tables []Table, exec func(ctx context.Context, query string, args ...any) error) error {
	for i := range tables {
		t := &tables[i]
		t.box()
		per := len(t.Cols)
		for args := t.Args; len(args) > 0; {
			n := ChunkRows(len(args) / per)
			if err := exec(ctx, UpsertSQL(postgres, t.Name, n), args[:n*per]...); err != nil {
				return fmt.Errorf("%s: %w", t.Name, err)
			}
			args = args[n*per:]
		}
	}
	return nil
}

// Rebuild summarises car's stored readings and positions again over the whole hours that hold
// [from, to): the slices there are deleted and made from the rows, in primary-key order (on equal times
// the lower terminal's position is the earlier, as the history writer inserts them). For rows that came
// in some other way than the history writer — an import, a test's fixture — and to repair slices.
func Rebuild(ctx context.Context, d *db.DB, carID, from, to int64) error {
	lo, hi := from-mod(from, HourMS), to-mod(to, HourMS)
	if hi < to {
		hi += HourMS
	}
	return d.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		for _, table := range []string{"speed_rollup", "speed_rollup_h", "level_rollup", "level_rollup_h"} {
			if _, err := tx.NewDelete().TableExpr(table).Where("car_id = ? AND b >= ? AND b < ?", carID, lo, hi).Exec(ctx); err != nil {
				return err
			}
		}
		var f Fold
		rows, err := tx.QueryContext(ctx, "SELECT t, speed FROM positions WHERE car_id = ? AND t >= ? AND t < ? ORDER BY t, terminal_id", carID, lo, hi)
		if err != nil {
			return err
		}
		for rows.Next() {
			var t, sp int64
			if err := rows.Scan(&t, &sp); err != nil {
				_ = rows.Close()
				return err
			}
			f.AddSpeed(carID, t, sp)
		}
		if err := rows.Close(); err != nil {
			return err
		}
		rows, err = tx.QueryContext(ctx, "SELECT t, compartment, level_mm, temp_dc, volume_l, v20_l FROM level_readings "+
			"WHERE car_id = ? AND t >= ? AND t < ? ORDER BY t, compartment", carID, lo, hi)
		if err != nil {
			return err
		}
		for rows.Next() {
			var t, comp int64
			var v LevelValues
			if err := rows.Scan(&t, &comp, &v.LevelMM, &v.TempDC, &v.VolumeL, &v.V20L); err != nil {
				_ = rows.Close()
				return err
			}
			f.AddLevel(carID, t, comp, v)
		}
		if err := rows.Close(); err != nil {
			return err
		}
		return Write(ctx, d.IsPostgres(), f.Take(), func(ctx context.Context, q string, args ...any) error {
			_, err := tx.Tx.ExecContext(ctx, q, args...) // the driver's own placeholders, not bun's
			return err
		})
	})
}

// mod is t mod m for any sign of t (Go's % keeps the sign of t).
func mod(t, m int64) int64 { return ((t % m) + m) % m }
