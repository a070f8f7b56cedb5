package app

import (
	"context"

	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/stats"
	"tankwatch/internal/stats/analysis"
	"tankwatch/internal/waybill"
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
}

func (a *App) statsAnalysisRoutes() []httpx.Route { return a.statsAnalysis.svc.Routes() }

// seedStatsAnalysisDemo: the route rollup of the demo's past trips. The overview part's seed writes
// them first and rolls them up through stats (which runs the registered route refresher too); the
// route rows are rebuilt here from the same finished trips so that the analysis pages agree with the
// trip rollup whatever that seed did (a rebuild recomputes; it never invents).
func (a *App) seedStatsAnalysisDemo(ctx context.Context) error {
	var span struct {
		Lo int64 `bun:"lo"`
		Hi int64 `bun:"hi"`
	}
	err := a.DB.NewRaw("SELECT COALESCE(MIN(closed_at), 0) AS lo, COALESCE(MAX(closed_at), 0) AS hi FROM waybills WHERE state IN (?, ?) AND closed_at > 0",
		waybill.Closed, waybill.DiffFlagged).Scan(ctx, &span)
	if err != nil || span.Lo == 0 {
		return err
	}
	_, err = analysis.Rebuild(ctx, a.DB, stats.Day(span.Lo), stats.Day(span.Hi))
	return err
}
