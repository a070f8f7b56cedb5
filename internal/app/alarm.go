package app

import (
	"context"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"tankwatch/internal/alarm"
	"tankwatch/internal/platform/httpx"
)

// Alarms is alarm management: the service (types, control modes, records, calls) and the rule
// engine fed by the history writer.
type Alarms struct {
	Service *alarm.Service
	Engine  *alarm.Engine
}

// buildAlarms wires alarm management after the devices (it subscribes to the writer), the broker
// (live pushes) and the station registry (fences, suspected stations).
func (a *App) buildAlarms() {
	now := func() time.Time { return a.now() }
	svc := alarm.New(a.DB, a.Fleet, a.Audit)
	svc.Now, svc.Log, svc.Locks = now, a.Log, a.Devices.Commands
	deps := alarm.Deps{Service: svc, Cars: a.Fleet, Live: a.Devices.Live, Recipients: a.Org, Unlocks: a.Devices.Commands,
		Publisher: a.Broker, Stations: a.Stations, Suspects: a.Stations, Levels: a.judgeCatalog(),
		Mine: func(carID int64) bool { c := a.Devices.Cluster; return c == nil || c.Mine(carID) }}
	eng := alarm.NewEngine(deps, alarm.EngineConfig{}, a.Log.With("component", "alarm"))
	eng.Now = now
	a.Devices.Writer.Subscribe(a.engineFeed(eng.Enqueue))
	a.Alarms = Alarms{Service: svc, Engine: eng}
	a.buildTankJudge(svc)
	stat := func(i int) func() float64 {
		return func() float64 {
			ev, ov, cu, ra := eng.Stats()
			return float64([]int64{ev, ov, cu, ra}[i])
		}
	}
	a.registry.MustRegister(
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "tankwatch_alarm_reports_evaluated_total",
			Help: "Committed reports judged by the alarm engine."}, stat(0)),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "tankwatch_alarm_queue_overflows_total",
			Help: "Batches the alarm engine could not queue (their cars were caught up from the store)."}, stat(1)),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "tankwatch_alarm_caught_up_total",
			Help: "Stored reports the alarm engine read back after an overflow."}, stat(2)),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "tankwatch_alarms_raised_total",
			Help: "Alarm records created by the alarm engine."}, stat(3)),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "tankwatch_alarm_decisions_lost_total",
			Help: "Alarm decisions dropped after the store refused them for long (past 20,000 kept)."},
			func() float64 { return float64(eng.Lost()) }),
	)
}

func (a *App) alarmRoutes() []httpx.Route {
	return append(a.Alarms.Service.Routes(), a.tankJudgeRoutes()...)
}

// startAlarms loads types, control modes and open alarms and starts the engine.
func (a *App) startAlarms(ctx context.Context) error {
	if err := a.startTankJudge(ctx); err != nil {
		return err
	}
	if err := a.Alarms.Engine.Start(ctx); err != nil {
		a.stopTankJudge()
		return err
	}
	return nil
}

func (a *App) stopAlarms() { a.Alarms.Engine.Stop(); a.stopTankJudge() }
