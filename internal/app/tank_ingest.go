package app

import (
	"context"
	"fmt"

	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/tank"
	"tankwatch/internal/tank/monitor"
)

// tankIngest wires issue 14's ingest side: the tank catalogue converts every level report in the
// history writer's transaction (Report.Readings, level_readings) and the live state's rebuild; the
// tank monitor serves tankMonitor, tankMonitor2VXE and getVtV20 from the live state.
// It uses the one catalogue of the app (App.TankCatalog, built by buildTankInfo and kept current by
// tankInfo's edits).
type tankIngest struct {
	catalog *tank.Catalog
	monitor *monitor.Service
}

// buildTankIngest runs after buildDevices.
func (a *App) buildTankIngest() {
	ti := &a.tankIngest
	ti.catalog = a.TankCatalog
	a.Devices.Writer.SetConverter(ti.catalog)
	a.Devices.Live.SetConverter(ti.catalog)
	ti.monitor = monitor.New(a.Devices.Live, a.Fleet, ti.catalog)
}

// loadTankIngest loads the catalogue; it runs before the live state is rebuilt and before the writer
// takes its first report.
func (a *App) loadTankIngest(ctx context.Context) error {
	if err := a.tankIngest.catalog.Load(ctx, a.DB); err != nil {
		return fmt.Errorf("load tank catalogue: %w", err)
	}
	return nil
}

// TankMonitor is the tank monitor service (tests, benchmarks).
func (a *App) TankMonitor() *monitor.Service { return a.tankIngest.monitor }

// IngestCatalog is the catalogue the writer converts with: App.TankCatalog (tests).
func (a *App) IngestCatalog() *tank.Catalog { return a.tankIngest.catalog }

func (a *App) tankIngestRoutes() []httpx.Route { return a.tankIngest.monitor.Routes() }
