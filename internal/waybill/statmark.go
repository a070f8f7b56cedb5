package waybill

import (
	"context"

	"github.com/uptrace/bun"

	"tankwatch/internal/stats/outbox"
)

// finished: the set the trip statistics count (transportRecord's, D50).
func finished(s State) bool { return s == Closed || s == DiffFlagged }

// markTrip keeps the trip rollup live (D55): when a waybill enters or leaves the finished set, or a
// finished waybill's closing time moves, the car's days of the old and the new closing time are marked
// in the stat_dirty outbox inside tx, so the mark commits with the change and the worker recomputes them.
func markTrip(ctx context.Context, tx bun.IDB, carID int64, before State, beforeClosed int64, after State, afterClosed int64, now int64) error {
	if finished(before) && beforeClosed > 0 {
		if err := outbox.Mark(ctx, tx, outbox.Trip, carID, outbox.Day(beforeClosed), now); err != nil {
			return err
		}
	}
	if finished(after) && afterClosed > 0 && (!finished(before) || outbox.Day(afterClosed) != outbox.Day(beforeClosed)) {
		return outbox.Mark(ctx, tx, outbox.Trip, carID, outbox.Day(afterClosed), now)
	}
	return nil
}

// MarkTrip marks a finished waybill's day for the trip rollup: for writers that change a finished
// waybill's figures (loss, received, km) without a step.
func MarkTrip(ctx context.Context, tx bun.IDB, r *Row, now int64) error {
	return markTrip(ctx, tx, r.CarID, r.State, r.ClosedAt, r.State, r.ClosedAt, now)
}
