package app

import (
	"time"

	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/tank"
	"tankwatch/internal/tank/cockpit"
)

// buildCockpit wires the liquid-level cockpit (manager/cockpit) after the devices (live state, writer),
// the stations (fences) and the alarms. Its compartments come from its own catalogue, reloaded every
// minute, until a shared, kept-current tank.Catalog is wired (then pass it as Deps.Catalog). Station
// tanks: Deps.Ground is the gauge collector's tank.GroundStatuses; nil = not available (the page says
// so).
func (a *App) buildCockpit() {
	c := cockpit.New(cockpit.Deps{Cars: a.Devices.Live, Fences: a.Stations, Alarms: a.Alarms.Service, Scopes: a.Fleet,
		OwnCatalog: tank.NewCatalog(), DB: a.DB})
	c.Now, c.Log = func() time.Time { return a.now() }, a.Log
	a.Devices.Writer.Subscribe(c.Observe)
	a.Cockpit = c
}

func (a *App) cockpitRoutes() []httpx.Route { return a.Cockpit.Routes() }
