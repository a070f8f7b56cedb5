package telemetry

import (
	"context"
	"log/slog"
	"time"
)

// purgeChunk bounds one delete statement, so a first purge of a large table does not hold the SQLite
// write lock (and the history writer) for long.
const purgeChunk = 5000

// Purge deletes raw frames received before now − RawRetention and returns how many; a zero
// retention keeps everything. Positions, tank states and commands are kept.
func (h *History) Purge(ctx context.Context) (int64, error) {
	if h.cfg.RawRetention <= 0 {
		return 0, nil
	}
	cutoff := h.now().Add(-h.cfg.RawRetention).UnixMilli()
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

// RunRetention purges at start and then hourly until ctx ends.
func (h *History) RunRetention(ctx context.Context) {
	t := time.NewTicker(time.Hour)
	defer t.Stop()
	for {
		n, err := h.Purge(ctx)
		switch {
		case err != nil && ctx.Err() == nil:
			slog.ErrorContext(ctx, "raw frame retention failed", "err", err)
		case n > 0:
			slog.InfoContext(ctx, "raw frames purged", "rows", n, "retention", h.cfg.RawRetention)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
