package app

import "tankwatch/internal/platform/httpx"

// waybillMap: monitoring_waybill and historyWaybill (issue 15).
type waybillMap struct{}

func (a *App) buildWaybillMap() {}

func (a *App) waybillMapRoutes() []httpx.Route { return nil }
