package app

import "context"

// waybillDemo: with --demo, the demo fleet's days become waybills (issue 15).
type waybillDemo struct{}

func (a *App) buildWaybillDemo() {}

// seedWaybillDemo seeds the demo's products, customers and first waybills (Bootstrap, --demo).
func (a *App) seedWaybillDemo(ctx context.Context) error { return a.seedWaybillBase(ctx) } // wb-base: the lead keeps this call at merge

// startWaybillDemo starts the demo planner once the in-process simulator drives (StartDevices).
func (a *App) startWaybillDemo(ctx context.Context) {}
