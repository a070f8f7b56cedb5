package app

import (
	"context"
	"time"

	"tankwatch/internal/lock/lockstats"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/stats"
)

// lockStats: lock and seal statistics by day, week and month (blueLockStat*, sealRecord*Stat) — issue 16, D54.
type lockStats struct {
	svc    *lockstats.Service
	worker *lockstats.Worker
}

// buildLockStats creates the part's services (called by New after the waybill parts).
func (a *App) buildLockStats() {
	a.lockStats.svc = &lockstats.Service{DB: a.DB}
	a.lockStats.worker = &lockstats.Worker{DB: a.DB.DB, Log: a.Log.With("component", "lock-stats"), Now: func() time.Time { return a.now() }}
}

func (a *App) lockStatsRoutes() []httpx.Route { return a.lockStats.svc.Routes() }

// runLockStats keeps the lock and seal rollups live (the stat_dirty "lock" / "seal" marks) until ctx ends.
// share gives the cars it recomputes (D113).
func (a *App) runLockStats(ctx context.Context, share func() stats.Share) {
	a.lockStats.worker.Share = share
	a.lockStats.worker.Run(ctx)
}

// seedLockStatsDemo rebuilds the lock and seal rollups over the demo's history (the other parts' demo
// seeds ran before it); with no lock event or seal record yet there is nothing to do.
func (a *App) seedLockStatsDemo(ctx context.Context) error {
	now := a.now().UnixMilli()
	var first []int64
	err := a.DB.NewRaw(`SELECT COALESCE(MIN(t), 0) FROM (SELECT MIN(t) AS t FROM lock_events
		UNION ALL SELECT MIN(applied_at) FROM seal_records UNION ALL SELECT MIN(t) FROM seal_incidents) AS m`).Scan(ctx, &first)
	if err != nil || len(first) == 0 || first[0] == 0 {
		return err
	}
	// the rebuild covers the marks the demo's writers left: without this the worker did the whole
	// history again at start (2,760 car-days at 3,000 cars: its first 15–20 s, D128)
	from, to := stats.Day(first[0]), stats.Day(now)
	if err := stats.Forget(ctx, a.DB, from, to, stats.DirtyLock, stats.DirtySeal); err != nil {
		return err
	}
	_, err = lockstats.Rebuild(ctx, a.DB, from, to, now)
	return err
}

// DrainLockStats recomputes the rollup rows of every lock/seal mark waiting now (what the worker does
// every few seconds; tests call it directly).
func (a *App) DrainLockStats(ctx context.Context) (int, error) { return a.lockStats.worker.Drain(ctx) }

// RebuildLockStats recomputes the lock and seal rollups of the days from..to (YYYYMMDD) from the
// records; it returns the (car, day) pairs written.
func (a *App) RebuildLockStats(ctx context.Context, from, to int) (int, error) {
	return lockstats.Rebuild(ctx, a.DB, from, to, a.now().UnixMilli())
}
