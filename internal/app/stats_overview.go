package app

import (
	"time"

	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/stats/overview"
)

// statsOverview: the period overview and the formal report (statistic, report), and the demo's past trips — issue 16.
type statsOverview struct {
	svc *overview.Service
}

// buildStatsOverview creates the part's services (called by New after the waybill parts): the
// overview reads the trip rollup and, for its drill-down, the transport record's service.
func (a *App) buildStatsOverview() {
	svc := overview.New(a.DB, a.waybillViews.svc)
	svc.Now = func() time.Time { return a.now() }
	a.statsOverview.svc = svc
}

func (a *App) statsOverviewRoutes() []httpx.Route { return a.statsOverview.svc.Routes() }
