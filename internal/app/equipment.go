package app

import (
	"context"

	"tankwatch/internal/platform/httpx"
)

// equipment: devices on cars and at stations, and what each model offers (basedata/equipment, access/equipmentFun) — issue 18.
// The part's wiring only: the service lives in its domain package (DESIGN.md §3).
type equipmentPart struct{}

// buildEquipment creates the part's services (called by New, after the issue-16 parts).
func (a *App) buildEquipment() {}

func (a *App) equipmentRoutes() []httpx.Route { return nil }

// seedEquipmentDemo adds the part's demo data (Bootstrap, after the issue-16 seeds).
func (a *App) seedEquipmentDemo(ctx context.Context) error { return nil }
