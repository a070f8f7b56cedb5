package app

import (
	"context"
	"time"

	"github.com/uptrace/bun"

	"tankwatch/internal/lock/registry"
	"tankwatch/internal/platform/httpx"
)

// lockRegistry: electronic locks, their bindings and the car blacklist (blueLock, blueLockBindRecord, carBlacklistRecord) — issue 16.
type lockRegistry struct {
	svc *registry.Service
}

// buildLockRegistry creates the part's services (called by New after the waybill parts) and gives the
// waybill service the blacklist's check: a barred car gets no new waybill, no other car on a waybill
// and no dispatch.
func (a *App) buildLockRegistry() {
	s := registry.New(a.DB, a.Audit)
	s.Now = func() time.Time { return a.now() } // follows SetNow
	a.lockRegistry.svc = s
	if b := a.waybillBills.svc; b != nil {
		b.Blacklist = registry.Refusal
	}
	a.Fleet.OnCarsDeleted(func(ctx context.Context, tx bun.Tx, ids []int64) error {
		return registry.CarsDeleted(ctx, tx, ids, 0, a.now().UnixMilli())
	})
}

// LockRegistry is the lock registry and car blacklist service.
func (a *App) LockRegistry() *registry.Service { return a.lockRegistry.svc }

func (a *App) lockRegistryRoutes() []httpx.Route { return a.lockRegistry.svc.Routes() }

// seedLockRegistryDemo adds the part's demo data (Bootstrap, after the waybill demo; order in Bootstrap).
func (a *App) seedLockRegistryDemo(ctx context.Context) error {
	user, err := a.demoUser(ctx)
	if err != nil {
		return err
	}
	return a.lockRegistry.svc.SeedDemo(ctx, user)
}

// demoCarBarred tells the demo planner that car id is on the blacklist now: it gets no waybill (its
// truck plans its own trip, as a truck without a dispatch does).
func (a *App) demoCarBarred(ctx context.Context, id int64) bool {
	e, err := registry.Blacklisted(ctx, a.DB, id, a.now().UnixMilli())
	return err == nil && e != nil
}
