package stats

import (
	"context"
	"log/slog"
	"time"

	"github.com/uptrace/bun"
)

// Drain recomputes up to limit (car, day)s marked for the trip rollup (oldest first), each in its own
// transaction so that the pages never see a half-written day, and returns how many it did. A mark made
// again while its day was being recomputed stays for the next round (Done).
func Drain(ctx context.Context, idb bun.IDB, limit int) (int, error) {
	return DrainShare(ctx, idb, limit, Share{})
}

// DrainShare is Drain for the cars of share.
func DrainShare(ctx context.Context, idb bun.IDB, limit int, share Share) (int, error) {
	marks, err := TakeShare(ctx, idb, DirtyTrip, limit, share)
	if err != nil {
		return 0, err
	}
	for i, m := range marks {
		err := idb.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			if err := Refresh(ctx, tx, m.CarID, m.Day); err != nil {
				return err
			}
			return Done(ctx, tx, DirtyTrip, m)
		})
		if err != nil {
			return i, err
		}
	}
	return len(marks), nil
}

// Worker drains the trip marks every interval until ctx ends; a full batch is followed at once by the
// next one, so a burst (a day's closing, a correction of many trips) catches up without waiting. share
// gives, each round, the cars this node recomputes (nil: every car).
func Worker(ctx context.Context, idb bun.IDB, every time.Duration, log *slog.Logger, share func() Share) {
	t := time.NewTicker(every)
	defer t.Stop()
	const batch = 500
	for {
		var sh Share
		if share != nil {
			sh = share()
		}
		n, err := DrainShare(ctx, idb, batch, sh)
		if err != nil && ctx.Err() == nil {
			log.Warn("stats: trip rollup", "err", err)
		}
		if err == nil && n == batch {
			continue
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
