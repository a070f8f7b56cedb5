package events

import (
	"context"

	"github.com/uptrace/bun"

	"tankwatch/internal/lock"
	"tankwatch/internal/stats"
)

// MaxSpellDays bounds the days one event marks for an offline spell it ends or starts; a longer
// spell's other days are the lock-stats worker's sweep (D54).
const MaxSpellDays = 62

// markDirty marks the lock-stats rollup's (car, day) rows that a newly filed event changes (D73):
// the event's own day; and for an offline or online report, which end the spell the same lock's
// previous offline report began, that spell's days from its start on its car (a late report may
// land after those days were rolled up); and for an offline report filed late, before the lock's
// next offline or online report, the days of the spell it now begins, up to that report.
func (in *Ingest) markDirty(ctx context.Context, tx bun.IDB, row *lock.EventRow, now int64) error {
	day := stats.Day(row.T)
	if err := stats.MarkDirty(ctx, tx, stats.DirtyLock, row.CarID, day, now); err != nil {
		return err
	}
	if row.Event != lock.EventOffline && row.Event != lock.EventOnline {
		return nil
	}
	prev, err := spellEdge(ctx, tx, row, true)
	if err != nil {
		return err
	}
	if prev != nil && prev.Event == lock.EventOffline {
		if err := markDays(ctx, tx, prev.CarID, stats.Day(prev.T), day, now); err != nil {
			return err
		}
	}
	if row.Event != lock.EventOffline {
		return nil
	}
	next, err := spellEdge(ctx, tx, row, false)
	if err != nil || next == nil {
		return err // a spell still open: the worker's sweep refreshes its days as the clock runs
	}
	return markDays(ctx, tx, row.CarID, day, stats.Day(next.T), now)
}

// spellEdge is the same serial's offline or online report just before (or after) row's.
func spellEdge(ctx context.Context, idb bun.IDB, row *lock.EventRow, before bool) (*lock.EventRow, error) {
	var rows []lock.EventRow
	q := idb.NewSelect().Model(&rows).Column("car_id", "event", "t").Where("serial = ?", row.Serial).
		Where("event IN (?, ?)", int(lock.EventOffline), int(lock.EventOnline))
	if before {
		q = q.Where("t < ?", row.T).OrderExpr("t DESC, id DESC")
	} else {
		q = q.Where("t > ?", row.T).OrderExpr("t ASC, id ASC")
	}
	if err := q.Limit(1).Scan(ctx); err != nil || len(rows) == 0 {
		return nil, err
	}
	return &rows[0], nil
}

// markDays marks car's days from..to (at most MaxSpellDays of them, from the start).
func markDays(ctx context.Context, tx bun.IDB, carID int64, from, to int, now int64) error {
	for d, n := from, 0; d <= to && n < MaxSpellDays; d, n = int(stats.AddDays(d, 1)), n+1 {
		if err := stats.MarkDirty(ctx, tx, stats.DirtyLock, carID, d, now); err != nil {
			return err
		}
	}
	return nil
}
