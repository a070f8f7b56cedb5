package app

import (
	"context"

	"tankwatch/internal/platform/httpx"
)

// statsTrips: the daily trip rollup and the car, company and product statistics (carStat*, compStat*, transportProductStat*) — issue 16.
type statsTrips struct{}

// buildStatsTrips creates the part's services (called by New after the waybill parts).
func (a *App) buildStatsTrips() {}

func (a *App) statsTripsRoutes() []httpx.Route { return nil }

// seedStatsTripsDemo adds the part's demo data (Bootstrap, after the waybill demo; order in Bootstrap).
func (a *App) seedStatsTripsDemo(ctx context.Context) error { return nil }
