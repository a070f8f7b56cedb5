package app

import (
	"context"
	"sync/atomic"
	"time"

	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/sim"
	"tankwatch/internal/tank/ground"
)

// Station tank gauges (issue 14, D37): the collector and its endpoints, and with --demo the
// simulator's gauges that the demo trucks' unloads fill.
// GaugeParts is the station tank side of the app.
type GaugeParts struct {
	Ground   *ground.Service
	simGauge atomic.Pointer[sim.GaugeServer]
}

// buildGauges builds the station tank service (called from New).
func (a *App) buildGauges() {
	a.Gauges = &GaugeParts{}
	a.Gauges.Ground = ground.New(a.DB, ground.Config{Interval: a.Cfg.GaugeInterval}, a.registry)
	a.Gauges.Ground.Log = a.Log.With("component", "gauges")
}

// gaugeRoutes are the station tank endpoints.
func (a *App) gaugeRoutes() []httpx.Route { return a.Gauges.Ground.Routes() }

// seedDemoGauges registers the demo stations' ground tanks (Bootstrap with --demo).
func (a *App) seedDemoGauges(ctx context.Context) error { return a.Gauges.Ground.SeedDemo(ctx, nil) }

// StartGauges starts, with --demo and the in-process simulator, a gauge per demo station (each on
// 127.0.0.1:0; the demo tanks' gauge ports are set to the bound ones), then the collector. The
// gauges stop with ctx.
func (a *App) StartGauges(ctx context.Context) error {
	if a.Cfg.Demo && a.Cfg.DemoSim {
		g, err := sim.StartGauges(ctx, sim.GaugeConfig{Speedup: a.Cfg.DemoSpeedup, Log: a.Log.With("component", "sim-gauge")})
		if err != nil {
			return err
		}
		a.Gauges.simGauge.Store(g)
		if err := a.Gauges.Ground.SeedDemo(ctx, g.Addr); err != nil {
			g.Stop()
			return err
		}
		go func() {
			<-ctx.Done()
			g.Stop()
		}()
		a.Log.Info("demo station gauges listening", "interval", a.Cfg.GaugeInterval)
	}
	a.Gauges.Ground.Start(ctx)
	return nil
}

// gaugeDeliver is the demo fleet's sim.Config.OnDeliver: the delivery goes into the station's gauge
// (at the truck's simulated times, with the poured product's standard volume, D48).
func (a *App) gaugeDeliver(station string, litres float64, product int, tempC float64, start, end time.Time) {
	if g := a.Gauges.simGauge.Load(); g != nil {
		g.Deliver(station, litres, product, tempC, start, end)
	}
}
