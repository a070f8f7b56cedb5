package app

import (
	"context"
	"time"

	"tankwatch/internal/aftersales"
	"tankwatch/internal/platform/httpx"
)

// faults: after-sales fault records (faultRecord) — issue 18.
// The part's wiring only: the service lives in its domain package (DESIGN.md §3).
type faultsPart struct {
	svc *aftersales.Service
}

// buildFaults creates the part's services (called by New, after the issue-16 parts).
func (a *App) buildFaults() {
	s := aftersales.New(a.DB, a.Audit)
	s.Now = func() time.Time { return a.now() }
	a.faults.svc = s
}

// Faults is the after-sales fault record service.
func (a *App) Faults() *aftersales.Service { return a.faults.svc }

func (a *App) faultsRoutes() []httpx.Route { return a.faults.svc.Routes() }

// seedFaultsDemo adds the part's demo data (Bootstrap, after the issue-16 seeds): a dozen faults in
// every state across the demo's companies.
func (a *App) seedFaultsDemo(ctx context.Context) error {
	user, err := a.demoUser(ctx)
	if err != nil {
		return err
	}
	return a.faults.svc.SeedDemo(ctx, user)
}
