package app

import (
	"context"
	"time"

	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/staff"
)

// staff: employees, duties, leave and operating procedures (basedata/employees, jobDuty, leaveRecord, operateFlow) — issue 18.
// The part's wiring only: the service lives in its domain package (DESIGN.md §3).
type staffPart struct {
	svc *staff.Service
}

// buildStaff creates the part's services (called by New, after the issue-16 parts) and gives the
// waybill service the crew check: a registered driver or escort with an expired qualification, or on
// approved leave on the loading day, is refused on a waybill (D60).
func (a *App) buildStaff() {
	s := staff.New(a.DB, a.Audit)
	s.Now = func() time.Time { return a.now() } // follows SetNow
	a.staff.svc = s
	if b := a.waybillBills.svc; b != nil {
		b.Crew = staff.CrewCheck
	}
}

// Staff is the staff register.
func (a *App) Staff() *staff.Service { return a.staff.svc }

func (a *App) staffRoutes() []httpx.Route { return a.staff.svc.Routes() }

// seedStaffDemo adds the part's demo data (Bootstrap, after the issue-16 seeds).
func (a *App) seedStaffDemo(ctx context.Context) error {
	user, err := a.demoUser(ctx)
	if err != nil {
		return err
	}
	return a.staff.svc.SeedDemo(ctx, user)
}
