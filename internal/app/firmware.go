package app

import (
	"context"

	"tankwatch/internal/platform/httpx"
)

// firmware: upgrade packages and their transfer to terminals over 0x8108 (access/upgradePack) — issue 18.
// The part's wiring only: the service lives in its domain package (DESIGN.md §3).
type firmwarePart struct{}

// buildFirmware creates the part's services (called by New, after the issue-16 parts).
func (a *App) buildFirmware() {}

func (a *App) firmwareRoutes() []httpx.Route { return nil }

// seedFirmwareDemo adds the part's demo data (Bootstrap, after the issue-16 seeds).
func (a *App) seedFirmwareDemo(ctx context.Context) error { return nil }
