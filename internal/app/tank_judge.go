package app

import (
	"context"
	"fmt"

	"github.com/prometheus/client_golang/prometheus"

	"tankwatch/internal/alarm"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/tank"
	"tankwatch/internal/tank/judge"
)

// TankJudge is the car tank events engine (carEventRecord, valve_changes) and its lists.
type TankJudge struct {
	Catalog *tank.Catalog // the compartments' strapping tables (shared with the alarm engine's rule)
	Engine  *judge.Engine
	Service *judge.Service
}

// judgeCatalog is the catalog of compartments the level judgements convert with: the app's one
// catalogue (App.TankCatalog, kept current by tankInfo).
func (a *App) judgeCatalog() *tank.Catalog {
	if a.TankJudge.Catalog == nil {
		a.TankJudge.Catalog = a.TankCatalog
	}
	return a.TankJudge.Catalog
}

// buildTankJudge wires the tank events engine to the writer, after the alarm service (whose control
// modes give each car's drop threshold).
func (a *App) buildTankJudge(alarms *alarm.Service) {
	drop := func(carID int64, groupPath string) int {
		set, _, _ := alarms.Resolve(carID, groupPath)
		return set.LevelDropLitres
	}
	eng := judge.NewEngine(judge.Deps{DB: a.DB, Cars: a.Fleet, Stations: a.Stations, Levels: a.judgeCatalog(), DropLitres: drop},
		judge.EngineConfig{}, a.Log.With("component", "tankjudge"))
	a.Devices.Writer.Subscribe(a.engineFeed(eng.Enqueue))
	a.TankJudge.Engine, a.TankJudge.Service = eng, judge.NewService(a.DB, a.Fleet)
	stat := func(i int) func() float64 {
		return func() float64 {
			ev, ov, cu, st := eng.Stats()
			return float64([]int64{ev, ov, cu, st}[i])
		}
	}
	a.registry.MustRegister(
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "tankwatch_tank_events_reports_judged_total",
			Help: "Committed reports judged by the tank events engine."}, stat(0)),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "tankwatch_tank_events_queue_overflows_total",
			Help: "Batches the tank events engine could not queue (their cars were caught up from the store)."}, stat(1)),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "tankwatch_tank_events_caught_up_total",
			Help: "Stored reports the tank events engine read back after an overflow."}, stat(2)),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "tankwatch_tank_events_stored_total",
			Help: "Car tank events and valve changes stored."}, stat(3)),
	)
}

func (a *App) tankJudgeRoutes() []httpx.Route { return a.TankJudge.Service.Routes() }

// startTankJudge loads the compartments and starts the engine (warm from the newest stored states).
func (a *App) startTankJudge(ctx context.Context) error {
	if err := a.TankJudge.Engine.Start(ctx); err != nil {
		return fmt.Errorf("start the tank events engine: %w", err)
	}
	return nil
}

func (a *App) stopTankJudge() { a.TankJudge.Engine.Stop() }
