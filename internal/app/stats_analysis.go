package app

import (
	"context"

	"tankwatch/internal/platform/httpx"
)

// statsAnalysis: transport analysis and trends with period comparison (dataAnalysis/transportation, trend) — issue 16.
type statsAnalysis struct{}

// buildStatsAnalysis creates the part's services (called by New after the waybill parts).
func (a *App) buildStatsAnalysis() {}

func (a *App) statsAnalysisRoutes() []httpx.Route { return nil }

// seedStatsAnalysisDemo adds the part's demo data (Bootstrap, after the waybill demo; order in Bootstrap).
func (a *App) seedStatsAnalysisDemo(ctx context.Context) error { return nil }
