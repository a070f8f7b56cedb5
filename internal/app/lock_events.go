package app

import (
	"context"

	"tankwatch/internal/platform/httpx"
)

// lockEvents: lock events from the terminals and remote lock commands (blueLockRecord) — issue 16.
type lockEvents struct{}

// buildLockEvents creates the part's services (called by New after the waybill parts).
func (a *App) buildLockEvents() {}

func (a *App) lockEventsRoutes() []httpx.Route { return nil }

// seedLockEventsDemo adds the part's demo data (Bootstrap, after the waybill demo; order in Bootstrap).
func (a *App) seedLockEventsDemo(ctx context.Context) error { return nil }
