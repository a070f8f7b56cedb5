package app

import (
	"time"

	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/waybill/load"
	"tankwatch/internal/waybill/plan"
)

// waybillLoads: transport plans and their car items, load records and seal checks (issue 15).
type waybillLoads struct {
	Plans *plan.Service
	Loads *load.Service
}

// buildWaybillLoads creates the plan and load record services. load.Service.OnChange (a waybill's
// car to reload) is left for the process engine's wiring (H4's Engine.Touch).
func (a *App) buildWaybillLoads() {
	a.waybillLoads.Plans = plan.New(a.DB, a.Audit)
	a.waybillLoads.Loads = load.New(a.DB, a.Audit)
	// the app's clock at call time, so that SetNow (tests) reaches these services too
	now := func() time.Time { return a.now() }
	a.waybillLoads.Plans.Now, a.waybillLoads.Loads.Now = now, now
}

func (a *App) waybillLoadsRoutes() []httpx.Route {
	return append(a.waybillLoads.Plans.Routes(), a.waybillLoads.Loads.Routes()...)
}

// LoadRecords is the load record service (the demo's depot records its loading tickets through
// Record).
func (a *App) LoadRecords() *load.Service { return a.waybillLoads.Loads }
