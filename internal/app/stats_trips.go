package app

import (
	"context"
	"fmt"
	"time"

	"tankwatch/internal/cluster"
	"tankwatch/internal/platform/config"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/stats"
	"tankwatch/internal/stats/pages"
)

// statsTrips: the daily trip rollup and the car, company and product statistics (carStat*, compStat*, transportProductStat*) — issue 16.
type statsTrips struct {
	Pages *pages.Service
}

// statsTripsEvery is how often the rollup worker drains the outbox (a trip's figures show on the
// statistics pages within about this long after it finishes).
const statsTripsEvery = 3 * time.Second

// buildStatsTrips creates the part's services (called by New after the waybill parts).
func (a *App) buildStatsTrips() {
	a.statsTrips.Pages = pages.New(a.DB)
	a.statsTrips.Pages.Now = func() time.Time { return a.now() }
}

func (a *App) statsTripsRoutes() []httpx.Route { return a.statsTrips.Pages.Routes() }

// runStatsTrips keeps the trip rollup live until ctx ends: the writers mark (car, day)s in stat_dirty
// in their transactions (waybill.Advance / Correct), and this worker recomputes them (D55).
func (a *App) runStatsTrips(ctx context.Context, share func() stats.Share) {
	stats.Worker(ctx, a.DB, statsTripsEvery, a.Log, share)
}

// RollupShare is the part of the rollup marks (trips, locks, seals) this node recomputes (D113): with
// partitioned engines, the cars of the partitions it holds, so that each mark is recomputed once
// across the nodes; otherwise every car.
func (a *App) RollupShare() stats.Share { return shareOf(a.Devices.Cluster) }

// shareOf is RollupShare of a node (nil: alone). The workers are given the node itself, taken when
// they start: StopDevices clears Devices.Cluster while their last round may still run.
func shareOf(c *cluster.Node) stats.Share {
	if c == nil {
		return stats.Share{}
	}
	parts, held := c.Share()
	return stats.Share{Parts: parts, Held: held}
}

// RunsRollups reports whether this node runs the rollup workers: the nodes that hold partitions (the
// worker role) when the engines are partitioned, so that every partition's marks have a taker;
// otherwise the gateway nodes, which commit the records (D93).
func (a *App) RunsRollups() bool {
	if c := a.Devices.Cluster; c != nil && c.Partitioned() {
		return a.Cfg.Serves(config.RoleWorker)
	}
	return a.Cfg.Serves(config.RoleGateway)
}

// DrainStatsTrips recomputes every marked (car, day) now (tests; the worker does it in the server).
func (a *App) DrainStatsTrips(ctx context.Context) error {
	for {
		n, err := stats.Drain(ctx, a.DB, 1000)
		if err != nil || n == 0 {
			return err
		}
	}
}

// seedStatsTripsDemo rebuilds the rollup over the demo's history (the past trips the overview part
// seeded, and the waybill demo's), so the statistics pages have data at start.
func (a *App) seedStatsTripsDemo(ctx context.Context) error {
	var first int64
	if err := a.DB.NewSelect().Table("waybills").ColumnExpr("COALESCE(MIN(closed_at), 0)").Where("closed_at > 0").Scan(ctx, &first); err != nil {
		return err
	}
	today := stats.Day(a.now().UnixMilli())
	from := today
	if first > 0 {
		from = min(from, stats.Day(first))
	}
	// the rebuild covers every mark the seeds made (taken before it, so that none made meanwhile goes)
	if err := stats.Forget(ctx, a.DB, from, today, stats.DirtyTrip); err != nil {
		return err
	}
	if _, err := stats.Rebuild(ctx, a.DB, from, today); err != nil {
		return fmt.Errorf("rebuild the trip rollup: %w", err)
	}
	return nil
}
