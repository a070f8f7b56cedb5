package app

import "tankwatch/internal/platform/httpx"

// waybillBills: waybill CRUD, import, print and the three waybill pages (issue 15).
type waybillBills struct{}

func (a *App) buildWaybillBills() {}

func (a *App) waybillBillsRoutes() []httpx.Route { return nil }
