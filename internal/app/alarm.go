package app

import (
	"context"
	"math"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"tankwatch/internal/alarm"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/sim"
)

// Alarms is alarm management: the service (types, control modes, records, calls) and the rule
// engine fed by the history writer.
type Alarms struct {
	Service *alarm.Service
	Engine  *alarm.Engine
}

// buildAlarms wires alarm management after the devices (it subscribes to the writer). The
// publisher, stations and suspects registries are optional: nil until their services exist.
func (a *App) buildAlarms() {
	now := func() time.Time { return a.now() }
	svc := alarm.New(a.DB, a.Fleet, a.Audit)
	svc.Now, svc.Log, svc.Locks = now, a.Log, a.Devices.Commands
	deps := alarm.Deps{Service: svc, Cars: a.Fleet, Live: a.Devices.Live, Recipients: a.Org, Unlocks: a.Devices.Commands}
	if a.Cfg.Demo {
		// Until the station registry exists, the demo's depots and stations are the fences: without
		// them every unloading of the demo fleet would be abnormal.
		deps.Stations = demoStations{}
	}
	eng := alarm.NewEngine(deps, alarm.EngineConfig{}, a.Log.With("component", "alarm"))
	eng.Now = now
	a.Devices.Writer.Subscribe(eng.Enqueue)
	a.Alarms = Alarms{Service: svc, Engine: eng}
	stat := func(i int) func() float64 {
		return func() float64 {
			ev, dr, ra := eng.Stats()
			return float64([]int64{ev, dr, ra}[i])
		}
	}
	a.registry.MustRegister(
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "tankwatch_alarm_reports_evaluated_total",
			Help: "Committed reports judged by the alarm engine."}, stat(0)),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "tankwatch_alarm_reports_dropped_total",
			Help: "Committed reports the alarm engine dropped because its queue was full."}, stat(1)),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "tankwatch_alarms_raised_total",
			Help: "Alarm records created by the alarm engine."}, stat(2)),
	)
}

func (a *App) alarmRoutes() []httpx.Route { return a.Alarms.Service.Routes() }

// startAlarms loads types, control modes and open alarms and starts the engine.
func (a *App) startAlarms(ctx context.Context) error { return a.Alarms.Engine.Start(ctx) }

func (a *App) stopAlarms() { a.Alarms.Engine.Stop() }

// demoStations are circles of demoStationRadius around the simulator's depots and stations.
type demoStations struct{}

const demoStationRadius = 300.0 // metres

func (demoStations) StationAt(_ string, lat, lon int32) (int64, string, bool) {
	la, lo := float64(lat)/1e6, float64(lon)/1e6
	for i, p := range sim.DemoPlaces {
		dy := (la - p.Lat) * 111_320
		dx := (lo - p.Lon) * 111_320 * math.Cos(p.Lat*math.Pi/180)
		if dx*dx+dy*dy <= demoStationRadius*demoStationRadius {
			return int64(i + 1), p.Name, true
		}
	}
	return 0, "", false
}
