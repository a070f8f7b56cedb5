package app

import "tankwatch/internal/platform/httpx"

// waybillLoads: transport plans and their car items, load records and seal checks (issue 15).
type waybillLoads struct{}

func (a *App) buildWaybillLoads() {}

func (a *App) waybillLoadsRoutes() []httpx.Route { return nil }
