package app

import (
	"tankwatch/internal/platform/httpx"
)

// statsOverview: the period overview and the formal report (statistic, report), and the demo's past trips — issue 16.
type statsOverview struct{}

// buildStatsOverview creates the part's services (called by New after the waybill parts).
func (a *App) buildStatsOverview() {}

func (a *App) statsOverviewRoutes() []httpx.Route { return nil }
