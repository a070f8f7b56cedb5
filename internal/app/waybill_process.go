package app

import (
	"context"

	"tankwatch/internal/platform/httpx"
)

// waybillProcess: the process engine fed by the writer's subscription, received volumes, loss and
// the differences page (issue 15).
type waybillProcess struct{}

func (a *App) buildWaybillProcess() {}

func (a *App) waybillProcessRoutes() []httpx.Route { return nil }

// startWaybillProcess starts the engine before the writer runs (StartDevices).
func (a *App) startWaybillProcess(ctx context.Context) error { return nil }

// stopWaybillProcess stops it after the writer has stopped (idempotent).
func (a *App) stopWaybillProcess() {}
