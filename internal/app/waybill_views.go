package app

import (
	"time"

	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/waybill/views"
)

// waybillViews: the process timelines (oilTransportProcess, transportProcess2) and the transport record (issue 15).
type waybillViews struct {
	svc *views.Service
}

// buildWaybillViews builds the read side of the process (D46): it only reads the store; the geocoder
// names the place of a step outside any station; the clock (SetNow in tests) decides which trips are late.
func (a *App) buildWaybillViews() {
	svc := views.New(a.DB)
	svc.Now = func() time.Time { return a.now() }
	if a.Devices.Geo != nil {
		svc.Geo = a.Devices.Geo
	}
	a.waybillViews.svc = svc
}

func (a *App) waybillViewsRoutes() []httpx.Route { return a.waybillViews.svc.Routes() }
