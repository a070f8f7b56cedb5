package app

import (
	"context"

	"tankwatch/internal/platform/httpx"
)

// staff: employees, duties, leave and operating procedures (basedata/employees, jobDuty, leaveRecord, operateFlow) — issue 18.
// The part's wiring only: the service lives in its domain package (DESIGN.md §3).
type staffPart struct{}

// buildStaff creates the part's services (called by New, after the issue-16 parts).
func (a *App) buildStaff() {}

func (a *App) staffRoutes() []httpx.Route { return nil }

// seedStaffDemo adds the part's demo data (Bootstrap, after the issue-16 seeds).
func (a *App) seedStaffDemo(ctx context.Context) error { return nil }
