package telemetry

import (
	"context"
	"log/slog"
	"sync/atomic"
	"time"
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
	At        int64  `json:"at"` // Unix ms
	RawFrames int64  `json:"rawFrames"`
	Positions int64  `json:"positions"`
	Err       string `json:"error,omitempty"`
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
// retention keeps everything.
func (h *History) Purge(ctx context.Context) (int64, error) {
	keep := time.Duration(h.ret.raw.Load())
	if keep <= 0 {
		return 0, nil
	}
	cutoff := h.now().Add(-keep).UnixMilli()
	var total int64
	for {
		res, err := h.db.NewDelete().TableExpr("raw_frames").
			Where("id IN (?)", h.db.NewSelect().TableExpr("raw_frames").Column("id").Where("received_at < ?", cutoff).Limit(purgeChunk)).
			Exec(ctx)
		if err != nil {
			return total, err
		}
		n, err := res.RowsAffected()
		if err != nil {
			return total, err
		}
		total += n
		if n < purgeChunk {
			return total, nil
		}
	}
}

// PurgePositions deletes positions (device time) older than now − the positions retention, car by car
// and a day at a time, so that each statement is a short range of the primary key (car_id, t) and the
// writer is never held up for long. The speed trend's rollups follow the deleted rows (their delete
// triggers). A zero retention keeps everything.
func (h *History) PurgePositions(ctx context.Context) (int64, error) {
	keep := time.Duration(h.ret.positions.Load())
	if keep <= 0 {
		return 0, nil
	}
	cutoff := h.now().Add(-keep).UnixMilli()
	var total int64
	car := int64(-1 << 62)
	for {
		var next []int64
		if err := h.db.NewSelect().TableExpr("positions").Column("car_id").Where("car_id > ?", car).
			OrderExpr("car_id").Limit(1).Scan(ctx, &next); err != nil {
			return total, err
		}
		if len(next) == 0 {
			return total, nil
		}
		car = next[0]
		var oldest []int64
		if err := h.db.NewSelect().TableExpr("positions").ColumnExpr("t").Where("car_id = ?", car).
			OrderExpr("t").Limit(1).Scan(ctx, &oldest); err != nil {
			return total, err
		}
		for from := oldest[0]; len(oldest) > 0 && from < cutoff; from += purgeStep.Milliseconds() {
			res, err := h.db.NewDelete().TableExpr("positions").Where("car_id = ?", car).
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

// RunRetention runs the purges at start and then hourly until ctx ends.
func (h *History) RunRetention(ctx context.Context) {
	t := time.NewTicker(RetentionEvery)
	defer t.Stop()
	for {
		res := &PurgeResult{At: h.now().UnixMilli()}
		var err error
		res.RawFrames, err = h.Purge(ctx)
		if err == nil {
			res.Positions, err = h.PurgePositions(ctx)
		}
		switch {
		case err != nil && ctx.Err() == nil:
			res.Err = err.Error()
			slog.ErrorContext(ctx, "history retention failed", "err", err)
		case res.RawFrames > 0 || res.Positions > 0:
			slog.InfoContext(ctx, "history purged", "rawFrames", res.RawFrames, "positions", res.Positions)
		}
		h.ret.last.Store(res)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// RunAt is when the run started (Unix ms; 0 for nil).
func (p *PurgeResult) RunAt() int64 {
	if p == nil {
		return 0
	}
	return p.At
}
