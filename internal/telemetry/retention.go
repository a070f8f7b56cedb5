package telemetry

import (
	"context"
	"errors"
	"log/slog"
	"sync/atomic"
	"time"

	"tankwatch/internal/platform/db"
)

// purgeChunk bounds one delete statement, so a first purge of a large table does not hold the SQLite
// write lock (and the history writer) for long.
const purgeChunk = 5000

// purgeStep is the slice of one car's positions one delete covers.
const purgeStep = 24 * time.Hour

// RetentionEvery is how often the retention job runs (and once at start).
const RetentionEvery = time.Hour

// retention is what the purge keeps, changed at run time by the system settings (SetRetention).
type retention struct {
	raw, positions atomic.Int64 // time.Duration; 0 keeps everything
	last           atomic.Pointer[PurgeResult]
}

// PurgeResult is one run of the retention job.
type PurgeResult struct {
	At        int64 `json:"at"` // Unix ms
	RawFrames int64 `json:"rawFrames"`
	Positions int64 `json:"positions"`
	// PostgreSQL's day partitions (D9B): made ahead and dropped past the retention in this run.
	PartitionsCreated int    `json:"partitionsCreated,omitempty"`
	PartitionsDropped int    `json:"partitionsDropped,omitempty"`
	Err               string `json:"error,omitempty"`
}

// SetRetention changes how long raw frames and positions are kept (0: forever); the next run of the
// job (hourly) applies it.
func (h *History) SetRetention(raw, positions time.Duration) {
	h.ret.raw.Store(int64(max(raw, 0)))
	h.ret.positions.Store(int64(max(positions, 0)))
}

// Retention returns the durations in force and the last run of the job (nil before the first).
func (h *History) Retention() (raw, positions time.Duration, last *PurgeResult) {
	return time.Duration(h.ret.raw.Load()), time.Duration(h.ret.positions.Load()), h.ret.last.Load()
}

// Purge deletes raw frames received before now − the raw retention and returns how many; a zero
// retention keeps everything. On PostgreSQL whole days go (dropDays), and rows are deleted only from
// the default partition.
func (h *History) Purge(ctx context.Context) (int64, error) {
	n, _, err := h.purgeRaw(ctx)
	return n, err
}

func (h *History) purgeRaw(ctx context.Context) (int64, int, error) {
	keep := time.Duration(h.ret.raw.Load())
	if keep <= 0 {
		return 0, 0, nil
	}
	cutoff := h.now().Add(-keep).UnixMilli()
	var total int64
	var parts int
	table := "raw_frames"
	if h.db.IsPostgres() {
		var err error
		if total, parts, err = h.dropDays(ctx, table, cutoff, nil); err != nil {
			return total, parts, err
		}
		table = db.DefaultPartition(table)
	}
	for {
		res, err := h.db.NewDelete().TableExpr(table).
			Where("id IN (?)", h.db.NewSelect().TableExpr(table).Column("id").Where("received_at < ?", cutoff).Limit(purgeChunk)).
			Exec(ctx)
		if err != nil {
			return total, parts, err
		}
		n, err := res.RowsAffected()
		if err != nil {
			return total, parts, err
		}
		total += n
		if n < purgeChunk {
			return total, parts, nil
		}
	}
}

// PurgePositions deletes positions (device time) older than now − the positions retention, car by car
// and a day at a time, so that each statement is a short range of the primary key (car_id, t) and the
// writer is never held up for long. The speed trend's rollups follow the deleted rows (their delete
// triggers). A zero retention keeps everything. On PostgreSQL whole days go (dropDays), and rows are
// deleted only from the default partition.
func (h *History) PurgePositions(ctx context.Context) (int64, error) {
	n, _, err := h.purgePositions(ctx)
	return n, err
}

func (h *History) purgePositions(ctx context.Context) (int64, int, error) {
	keep := time.Duration(h.ret.positions.Load())
	if keep <= 0 {
		return 0, 0, nil
	}
	cutoff := h.now().Add(-keep).UnixMilli()
	var total int64
	var parts int
	table := "positions"
	if h.db.IsPostgres() {
		var err error
		total, parts, err = h.dropDays(ctx, table, cutoff, []string{"speed_rollup", "speed_rollup_h"})
		if err != nil {
			return total, parts, err
		}
		table = db.DefaultPartition(table)
	}
	n, err := h.purgeRows(ctx, table, cutoff)
	return total + n, parts, err
}

// purgeRows deletes table's positions before cutoff, car by car and a day at a time.
func (h *History) purgeRows(ctx context.Context, table string, cutoff int64) (int64, error) {
	var total int64
	car := int64(-1 << 62)
	for {
		var next []int64
		if err := h.db.NewSelect().TableExpr(table).Column("car_id").Where("car_id > ?", car).
			OrderExpr("car_id").Limit(1).Scan(ctx, &next); err != nil {
			return total, err
		}
		if len(next) == 0 {
			return total, nil
		}
		car = next[0]
		var oldest []int64
		if err := h.db.NewSelect().TableExpr(table).ColumnExpr("t").Where("car_id = ?", car).
			OrderExpr("t").Limit(1).Scan(ctx, &oldest); err != nil {
			return total, err
		}
		for from := oldest[0]; len(oldest) > 0 && from < cutoff; from += purgeStep.Milliseconds() {
			res, err := h.db.NewDelete().TableExpr(table).Where("car_id = ?", car).
				Where("t < ?", min(from+purgeStep.Milliseconds(), cutoff)).Exec(ctx)
			if err != nil {
				return total, err
			}
			n, _ := res.RowsAffected()
			total += n
			if err := ctx.Err(); err != nil {
				return total, err
			}
		}
	}
}

// RunRetention runs the purges (and, on PostgreSQL, makes the day partitions ahead) at start and then
// hourly until ctx ends.
func (h *History) RunRetention(ctx context.Context) {
	t := time.NewTicker(RetentionEvery)
	defer t.Stop()
	for {
		res := h.retain(ctx)
		err := res.err
		switch {
		case err != nil && ctx.Err() == nil:
			res.Err = err.Error()
			slog.ErrorContext(ctx, "history retention failed", "err", err)
		case res.RawFrames > 0 || res.Positions > 0 || res.PartitionsCreated > 0 || res.PartitionsDropped > 0:
			slog.InfoContext(ctx, "history purged", "rawFrames", res.RawFrames, "positions", res.Positions,
				"partitionsCreated", res.PartitionsCreated, "partitionsDropped", res.PartitionsDropped)
		}
		h.ret.last.Store(&res.PurgeResult)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

type retainRun struct {
	PurgeResult
	err error
}

// retain is one run of the retention job. A failed step does not keep the others from running (a
// partition step that timed out on a lock is tried again at the next run).
func (h *History) retain(ctx context.Context) retainRun {
	res := retainRun{PurgeResult: PurgeResult{At: h.now().UnixMilli()}}
	var rawDropped, posDropped int
	var errs [3]error
	res.PartitionsCreated, errs[0] = h.EnsurePartitions(ctx)
	res.RawFrames, rawDropped, errs[1] = h.purgeRaw(ctx)
	res.Positions, posDropped, errs[2] = h.purgePositions(ctx)
	res.PartitionsDropped = rawDropped + posDropped
	res.err = errors.Join(errs[:]...)
	return res
}

// RunAt is when the run started (Unix ms; 0 for nil).
func (p *PurgeResult) RunAt() int64 {
	if p == nil {
		return 0
	}
	return p.At
}
