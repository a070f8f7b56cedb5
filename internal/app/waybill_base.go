package app

import "tankwatch/internal/platform/httpx"

// waybillBase: products, customers, customer cars, sales companies and their carriers, code sequences (issue 15).
type waybillBase struct{}

func (a *App) buildWaybillBase() {}

func (a *App) waybillBaseRoutes() []httpx.Route { return nil }
