package app

import (
	"time"

	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/waybill/live"
)

// waybillMap: monitoring_waybill and historyWaybill (issue 15). historyWaybill reads the process
// detail (waybill_views.go) and the track replay (telemetry) and has no endpoint of its own.
type waybillMap struct {
	svc *live.Service
}

func (a *App) buildWaybillMap() {
	a.waybillMap.svc = live.New(a.DB, a.Fleet, a.Devices.Live, a.Devices.History, func() time.Time { return a.now() })
}

func (a *App) waybillMapRoutes() []httpx.Route { return a.waybillMap.svc.Routes() }
