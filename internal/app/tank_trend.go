package app

import (
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/tank/trend"
)

// trendRoutes builds the level trend service (hydtrend, hydtrend2) and returns its routes. It reads
// the store only (the rollups of migration 00018 are kept by the history writer, D99); the geocoder
// names the place of a clicked point.
func (a *App) trendRoutes() []httpx.Route {
	svc := trend.New(a.DB, a.Fleet)
	if a.Devices.Geo != nil {
		svc.Geo = a.Devices.Geo
	}
	return svc.Routes()
}
