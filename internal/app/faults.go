package app

import (
	"context"

	"tankwatch/internal/platform/httpx"
)

// faults: after-sales fault records (faultRecord) — issue 18.
// The part's wiring only: the service lives in its domain package (DESIGN.md §3).
type faultsPart struct{}

// buildFaults creates the part's services (called by New, after the issue-16 parts).
func (a *App) buildFaults() {}

func (a *App) faultsRoutes() []httpx.Route { return nil }

// seedFaultsDemo adds the part's demo data (Bootstrap, after the issue-16 seeds).
func (a *App) seedFaultsDemo(ctx context.Context) error { return nil }
