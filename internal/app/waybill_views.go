package app

import "tankwatch/internal/platform/httpx"

// waybillViews: the process timelines (oilTransportProcess, transportProcess2) and the transport record (issue 15).
type waybillViews struct{}

func (a *App) buildWaybillViews() {}

func (a *App) waybillViewsRoutes() []httpx.Route { return nil }
