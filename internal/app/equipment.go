package app

import (
	"context"
	"time"

	"tankwatch/internal/equipment"
	"tankwatch/internal/platform/httpx"
)

// equipment: devices on cars and at stations, and what each model offers (basedata/equipment, access/equipmentFun) — issue 18.
// The part's wiring only: the service lives in its domain package (DESIGN.md §3).
type equipmentPart struct {
	svc *equipment.Service
}

// buildEquipment creates the part's services (called by New, after the issue-16 parts).
func (a *App) buildEquipment() {
	s := equipment.New(a.DB, a.Audit)
	s.Now = func() time.Time { return a.now() } // follows SetNow
	a.equipment.svc = s
}

// Equipment is the equipment list and device model service.
func (a *App) Equipment() *equipment.Service { return a.equipment.svc }

func (a *App) equipmentRoutes() []httpx.Route { return a.equipment.svc.Routes() }

// seedEquipmentDemo adds the part's demo data (Bootstrap, after the issue-16 seeds: the locks exist).
func (a *App) seedEquipmentDemo(ctx context.Context) error {
	user, err := a.demoUser(ctx)
	if err != nil {
		return err
	}
	return a.equipment.svc.SeedDemo(ctx, user)
}
