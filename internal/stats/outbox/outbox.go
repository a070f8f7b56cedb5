// Package outbox is the rollup outbox's write side (stat_dirty, D50/D55) without the rollups: the
// waybill package marks the trip rollup from its own transactions, and internal/stats (which reads the
// waybills) cannot be imported there. stats.MarkDirty is this package's Mark.
package outbox

import (
	"context"
	"time"

	"github.com/uptrace/bun"

	"tankwatch/internal/platform/httpx"
)

// Trip is the kind of the trip rollup's marks (stats.DirtyTrip).
const Trip = "trip"

// Day is the Asia/Shanghai date of t (Unix ms) as YYYYMMDD.
func Day(t int64) int {
	y, m, d := time.UnixMilli(t).In(httpx.Shanghai).Date()
	return y*10000 + int(m)*100 + d
}

// Mark records that the rollups of kind must recompute car's day; marking twice is free.
func Mark(ctx context.Context, idb bun.IDB, kind string, carID int64, day int, now int64) error {
	_, err := idb.NewRaw(`INSERT INTO stat_dirty (kind, car_id, day, marked_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (kind, car_id, day) DO UPDATE SET marked_at = EXCLUDED.marked_at`, kind, carID, day, now).Exec(ctx)
	return err
}
