package app

import (
	"time"

	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/tank/cockpit"
)

// buildCockpit wires the liquid-level cockpit (manager/cockpit) after the devices (live state, writer),
// the stations (fences), the alarms and the station gauges. Its compartments come from the app's one
// catalogue (kept current by tankInfo); station tanks from the gauge collector's tank.GroundStatuses.
func (a *App) buildCockpit() {
	c := cockpit.New(cockpit.Deps{Cars: a.Devices.Live, Fences: a.Stations, Alarms: a.Alarms.Service, Scopes: a.Fleet,
		Catalog: a.TankCatalog, Ground: a.Gauges.Ground, DB: a.DB})
	c.Now, c.Log = func() time.Time { return a.now() }, a.Log
	a.Devices.Writer.Subscribe(c.Observe)
	a.Cockpit = c
}

func (a *App) cockpitRoutes() []httpx.Route { return a.Cockpit.Routes() }
