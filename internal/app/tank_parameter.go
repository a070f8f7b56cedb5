package app

import (
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/tank/calib"
)

// buildParameter builds remote calibration (04-08): reads and sets through the JT/T 808 gateway.
func (a *App) buildParameter() {
	a.Calib = calib.New(a.DB, a.Fleet, a.Devices.Gateway, a.Audit)
}

func (a *App) parameterRoutes() []httpx.Route { return a.Calib.Routes() }
