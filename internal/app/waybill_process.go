package app

import (
	"context"
	"fmt"

	"github.com/prometheus/client_golang/prometheus"

	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/waybill/process"
)

// waybillProcess: the process engine fed by the writer's subscription, received volumes, loss and
// the differences page (issue 15).
type waybillProcess struct {
	Engine  *process.Engine
	Service *process.Service
}

// buildWaybillProcess subscribes the transport process engine to the history writer (DESIGN §2: the
// one subscription point; never the gateway) and builds the differences / corrections service.
func (a *App) buildWaybillProcess() {
	eng := process.NewEngine(process.Deps{DB: a.DB, Stations: a.Stations, Levels: a.TankCatalog},
		process.EngineConfig{}, a.Log.With("component", "waybillprocess"))
	a.Devices.Writer.Subscribe(a.engineFeed(eng.Enqueue))
	a.waybillProcess.Engine = eng
	a.waybillProcess.Service = process.NewService(a.DB, eng.Touch)
	a.waybillProcess.Service.Audit = a.Audit
	stat := func(i int) func() float64 {
		return func() float64 {
			ev, ov, cu, mv := eng.Stats()
			return float64([]int64{ev, ov, cu, mv}[i])
		}
	}
	a.registry.MustRegister(
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "tankwatch_waybill_process_reports_total",
			Help: "Committed reports evaluated by the transport process engine."}, stat(0)),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "tankwatch_waybill_process_queue_overflows_total",
			Help: "Batches the transport process engine could not queue (their cars were caught up from the store)."}, stat(1)),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "tankwatch_waybill_process_caught_up_total",
			Help: "Stored reports the transport process engine read back after an overflow."}, stat(2)),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "tankwatch_waybill_process_steps_total",
			Help: "Waybill steps, marks and destination records stored by the transport process engine."}, stat(3)),
	)
}

// TouchWaybillCar tells the transport process engine that a waybill of the car was created,
// dispatched, cancelled, corrected or recorded (the hook H2/H3 call through the lead's wiring).
func (a *App) TouchWaybillCar(carID int64) {
	if a.waybillProcess.Engine != nil {
		a.waybillProcess.Engine.Touch(carID)
	}
}

// WaybillProcess is the transport process engine (tests, the demo).
func (a *App) WaybillProcess() *process.Engine { return a.waybillProcess.Engine }

func (a *App) waybillProcessRoutes() []httpx.Route { return a.waybillProcess.Service.Routes() }

// startWaybillProcess starts the engine before the writer runs (StartDevices).
func (a *App) startWaybillProcess(ctx context.Context) error {
	if err := a.waybillProcess.Engine.Start(ctx); err != nil {
		return fmt.Errorf("start the transport process engine: %w", err)
	}
	return nil
}

// stopWaybillProcess stops it after the writer has stopped (idempotent).
func (a *App) stopWaybillProcess() { a.waybillProcess.Engine.Stop() }
