package app

import (
	"context"

	"tankwatch/internal/fleet"
	"tankwatch/internal/tank"
	"tankwatch/internal/tank/tankinfo"
)

// buildTankInfo creates the shared compartments catalog (loaded from the store now; the history
// writer converts every level report through it) and the tank base data service that keeps it current.
// It runs before the devices are built, so that they can take a.TankCatalog. A station with ground
// tanks is not deleted (D34).
func (a *App) buildTankInfo() {
	a.TankCatalog = tank.NewCatalog()
	if err := a.TankCatalog.Load(context.Background(), a.DB); err != nil {
		a.Log.Error("tank catalog", "err", err)
	}
	a.TankInfo = tankinfo.New(a.DB, a.Audit, a.TankCatalog)
	a.Stations.DeleteCheck = tankinfo.StationDeleteCheck
}

// seedTankInfo gives the demo fleet's cars their compartments (first demo start, or an older demo
// data folder without them).
func (a *App) seedTankInfo(ctx context.Context) error {
	demo := fleet.DemoFleet(a.Cfg.DemoVehicles)
	plates := make([]string, len(demo))
	for i, d := range demo {
		plates[i] = d.Plate
	}
	return a.TankInfo.SeedDemo(ctx, plates)
}
