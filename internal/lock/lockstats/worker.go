package lockstats

import (
	"context"
	"log/slog"
	"time"

	"github.com/uptrace/bun"

	"tankwatch/internal/stats"
)

// Worker keeps the rollups live: it drains the "lock" and "seal" marks of stat_dirty and recomputes
// those (car, day) rows, and it moves the offline time of the locks still offline forward.
type Worker struct {
	DB  *bun.DB
	Log *slog.Logger
	Now func() time.Time
	// Every is the pause between rounds (0 → 3 s); the open offline intervals are swept every
	// SweepEvery (0 → 1 min).
	Every, SweepEvery time.Duration
	// Share gives, each round, the cars whose marks and offline intervals this node recomputes
	// (nil: every car; D113).
	Share func() stats.Share
	// openDone: per open interval (offline event id), the last day already refreshed.
	openDone map[int64]int
}

const batch = 200

// Drain recomputes the rows of every mark waiting now and returns how many marks it did.
func (w *Worker) Drain(ctx context.Context) (int, error) {
	n := 0
	share := w.share()
	for _, kind := range []string{stats.DirtyLock, stats.DirtySeal} {
		for {
			marks, err := stats.TakeShare(ctx, w.DB, kind, batch, share)
			if err != nil || len(marks) == 0 {
				if err != nil {
					return n, err
				}
				break
			}
			for _, m := range marks {
				if err := w.refresh(ctx, kind, m); err != nil {
					return n, err
				}
				n++
			}
			if len(marks) < batch {
				break
			}
		}
	}
	return n, nil
}

func (w *Worker) share() stats.Share {
	if w.Share == nil {
		return stats.Share{}
	}
	return w.Share()
}

func (w *Worker) refresh(ctx context.Context, kind string, m stats.Mark) error {
	now := w.Now().UnixMilli()
	return w.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if kind == stats.DirtySeal {
			if err := RefreshSeal(ctx, tx, m.CarID, m.Day); err != nil {
				return err
			}
			return stats.Done(ctx, tx, kind, m)
		}
		more, err := lockDays(ctx, tx, m.CarID, m.Day)
		if err != nil {
			return err
		}
		if err := RefreshLocks(ctx, tx, append([]CarDay{{m.CarID, m.Day}}, more...), now); err != nil {
			return err
		}
		return stats.Done(ctx, tx, kind, m)
	})
}

// Sweep refreshes the days of the offline intervals still open (their offline time grows with the
// clock): on the first sweep every day since the lock went offline, then the days since the last.
func (w *Worker) Sweep(ctx context.Context) error {
	now := w.Now().UnixMilli()
	today := stats.Day(now)
	var open []Interval
	err := intervalSelect(w.DB).Where("NOT EXISTS (SELECT 1 FROM lock_events AS o WHERE "+endsOffline+")").Scan(ctx, &open)
	if err != nil {
		return err
	}
	if w.openDone == nil {
		w.openDone = map[int64]int{}
	}
	seen := map[int64]bool{}
	share := w.share()
	for _, iv := range open {
		if !share.Has(iv.CarID) {
			continue // another node's (its openDone entry, if any, goes below)
		}
		seen[iv.EventID] = true
		from := stats.Day(iv.Start)
		if d, ok := w.openDone[iv.EventID]; ok {
			from = d
		}
		for _, d := range stats.Days(from, today) {
			err := w.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error { return RefreshLock(ctx, tx, iv.CarID, d, now) })
			if err != nil {
				return err
			}
		}
		w.openDone[iv.EventID] = today
	}
	for id := range w.openDone {
		if !seen[id] {
			delete(w.openDone, id) // back online: the online report's mark refreshed its days
		}
	}
	return nil
}

// Run drains and sweeps until ctx ends.
func (w *Worker) Run(ctx context.Context) {
	every, sweepEvery := w.Every, w.SweepEvery
	if every == 0 {
		every = 3 * time.Second
	}
	if sweepEvery == 0 {
		sweepEvery = time.Minute
	}
	var lastSweep time.Time
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		if _, err := w.Drain(ctx); err != nil && ctx.Err() == nil {
			w.Log.Warn("lock stats rollup", "err", err)
		}
		if time.Since(lastSweep) >= sweepEvery {
			if err := w.Sweep(ctx); err != nil && ctx.Err() == nil {
				w.Log.Warn("lock stats offline sweep", "err", err)
			}
			lastSweep = time.Now()
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
