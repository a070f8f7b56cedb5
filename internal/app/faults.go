package app

import (
	"context"
	"time"

	"tankwatch/internal/aftersales"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/loop"
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
	// fault types are the code list's (D66): forms offer its enabled items, a type in use is not deleted
	s.Codes = a.settings.Codes
	a.settings.Codes.RegisterInUse(aftersales.TypeList, s.CountByType)
	a.faults.svc = s
}

// Faults is the after-sales fault record service.
func (a *App) Faults() *aftersales.Service { return a.faults.svc }

// FaultsEvery is how often the system looks for faults to raise (D82).
var FaultsEvery = time.Minute

// RaiseFaults raises the faults the platform settings ask for (D82): cars silent for too long, and
// sensor-fault events.
func (a *App) RaiseFaults(ctx context.Context) (int, error) {
	v := a.settings.System.Current()
	auto := aftersales.Auto{SilentHours: v.FaultSilentHours, Sensor: v.FaultSensor}
	if auto.SilentHours == 0 && !auto.Sensor {
		return 0, nil
	}
	var silent []aftersales.Silence
	if auto.SilentHours > 0 {
		for _, r := range a.Devices.Live.LastReports() {
			silent = append(silent, aftersales.Silence{CarID: r.CarID, Since: r.At})
		}
	}
	return a.faults.svc.RaiseAuto(ctx, auto, silent)
}

// runFaults raises due faults every FaultsEvery until ctx ends. The first pass waits one period, so
// that after a stop the terminals have reconnected before anyone counts as silent.
func (a *App) runFaults(ctx context.Context) {
	loop.Every(ctx, FaultsEvery, func() {
		if n, err := a.RaiseFaults(ctx); err != nil && ctx.Err() == nil {
			a.Log.Warn("faults raised by the system", "err", err)
		} else if n > 0 {
			a.Log.Info("faults raised by the system", "count", n)
		}
	})
}

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
