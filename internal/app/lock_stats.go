package app

import (
	"context"

	"tankwatch/internal/platform/httpx"
)

// lockStats: lock and seal statistics by day, week and month (blueLockStat*, sealRecord*Stat) — issue 16.
type lockStats struct{}

// buildLockStats creates the part's services (called by New after the waybill parts).
func (a *App) buildLockStats() {}

func (a *App) lockStatsRoutes() []httpx.Route { return nil }

// seedLockStatsDemo adds the part's demo data (Bootstrap, after the waybill demo; order in Bootstrap).
func (a *App) seedLockStatsDemo(ctx context.Context) error { return nil }
