package app

import (
	"context"

	"tankwatch/internal/platform/httpx"
)

// lockRegistry: electronic locks, their bindings and the car blacklist (blueLock, blueLockBindRecord, carBlacklistRecord) — issue 16.
type lockRegistry struct{}

// buildLockRegistry creates the part's services (called by New after the waybill parts).
func (a *App) buildLockRegistry() {}

func (a *App) lockRegistryRoutes() []httpx.Route { return nil }

// seedLockRegistryDemo adds the part's demo data (Bootstrap, after the waybill demo; order in Bootstrap).
func (a *App) seedLockRegistryDemo(ctx context.Context) error { return nil }
