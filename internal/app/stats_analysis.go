package app

import (
	"context"

	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/stats"
	"tankwatch/internal/stats/analysis"
)

// statsAnalysis: transport analysis and trends with period comparison (dataAnalysis/transportation, trend) — issue 16.
type statsAnalysis struct {
	svc *analysis.Service
}

// buildStatsAnalysis creates the service and registers the route rollup, so that stats.Refresh (the
// rollup worker, as trips finish) and stats.Rebuild keep stat_route_daily with the trip rollup (D57).
func (a *App) buildStatsAnalysis() {
	a.statsAnalysis.svc = analysis.New(a.DB)
	stats.Register("route", analysis.Refresh)
	stats.RegisterLayers("route", analysis.Regroup) // once after a stats.Rebuild (D71)
}

func (a *App) statsAnalysisRoutes() []httpx.Route { return a.statsAnalysis.svc.Routes() }

// seedStatsAnalysisDemo: the route rows of the demo's past trips. The overview part's seed writes
// those trips first and rebuilds the rollup through stats.Rebuild, which runs the route refresher
// registered above, so there is normally nothing to do; when trip rows exist without route rows (a
// seed that filled the trip rollup some other way) the route rows are rebuilt from the same finished
// trips — a recomputation, never invented figures.
func (a *App) seedStatsAnalysisDemo(ctx context.Context) error {
	var n struct {
		Trips  int64 `bun:"trips"`
		Routes int64 `bun:"routes"`
		Lo     int64 `bun:"lo"`
		Hi     int64 `bun:"hi"`
	}
	err := a.DB.NewRaw(`SELECT (SELECT COUNT(*) FROM stat_trip_daily) AS trips, (SELECT COUNT(*) FROM stat_route_daily) AS routes,
		(SELECT COALESCE(MIN(day), 0) FROM stat_trip_daily) AS lo, (SELECT COALESCE(MAX(day), 0) FROM stat_trip_daily) AS hi`).Scan(ctx, &n)
	if err != nil || n.Trips == 0 || n.Routes > 0 {
		return err
	}
	_, err = analysis.Rebuild(ctx, a.DB, int(n.Lo), int(n.Hi))
	return err
}
