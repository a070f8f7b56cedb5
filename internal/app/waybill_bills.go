package app

import (
	"time"

	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/waybill/bill"
)

// waybillBills: waybill CRUD, import, print and the three waybill pages (issue 15, D43).
type waybillBills struct {
	svc *bill.Service
}

func (a *App) buildWaybillBills() {
	s := bill.New(a.DB, a.Audit, a.Devices.Commands, a.Devices.Gateway)
	s.Now = func() time.Time { return a.now() } // follows SetNow
	a.waybillBills.svc = s
}

// WaybillBills is the waybill service (its Go API Create and Dispatch is the demo planner's; tests
// replace its Sender).
func (a *App) WaybillBills() *bill.Service { return a.waybillBills.svc }

func (a *App) waybillBillsRoutes() []httpx.Route { return a.waybillBills.svc.Routes() }
