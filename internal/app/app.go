// Package app wires TankWatch together: it opens the store, builds the services from the
// configuration, mounts the route table, and starts and stops the HTTP server.
package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"path"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"tankwatch/internal/audit"
	"tankwatch/internal/auth"
	"tankwatch/internal/carpass"
	"tankwatch/internal/fleet"
	"tankwatch/internal/org"
	"tankwatch/internal/platform/blob"
	"tankwatch/internal/platform/config"
	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/loop"
	"tankwatch/internal/station"
	"tankwatch/internal/stats"
	"tankwatch/internal/tank"
	"tankwatch/internal/tank/calib"
	"tankwatch/internal/tank/cockpit"
	"tankwatch/internal/tank/tankinfo"
	"tankwatch/web"
)

// Version is set at build time (-ldflags "-X tankwatch/internal/app.Version=...").
var Version = "dev"

// App is a wired TankWatch instance.
type App struct {
	Cfg    config.Config
	DB     *db.DB
	Log    *slog.Logger
	Tokens *auth.Tokens
	Audit  *audit.Log
	Auth   *auth.Service
	Org    *org.Service
	Fleet  *fleet.Service
	// Stations is the station registry (fences); built before the devices, whose geocoder names places
	// after it.
	Stations *station.Service
	Devices
	Messaging
	Alarms Alarms
	// TankJudge is the car tank events engine and lists (issue 14, D36).
	TankJudge TankJudge
	// CarPass is the vehicles' local unlock passwords and their viewing records; built after the
	// devices, whose command log and gateway carry the password down.
	CarPass *carpass.Service
	// TankCatalog is every car's compartments in memory (tank base data, D34); TankInfo keeps it current.
	TankCatalog *tank.Catalog
	TankInfo    *tankinfo.Service

	tankIngest tankIngest // issue 14: level readings at ingest, tank monitor (tank_ingest.go)
	// Cockpit is the liquid-level cockpit's summary (manager/cockpit).
	Cockpit *cockpit.Service
	Calib   *calib.Service // remote calibration (tank_parameter.go)

	now      func() time.Time
	registry *prometheus.Registry
	console  fs.FS
	mux      *http.ServeMux // the routes, for telling an unknown path (404) from a wrong method (405)
	Gauges   *GaugeParts    // station tank gauges (tank_gauges.go)

	// issue 15, waybills and the transport process: one part per file (waybill_*.go)
	waybillBase    waybillBase    // products, customers, customer cars, sales companies, codes (waybill_base.go)
	waybillBills   waybillBills   // waybill CRUD, import, print, the three waybill pages (waybill_bills.go)
	waybillLoads   waybillLoads   // transport plans, car items, load records, seal checks (waybill_loads.go)
	waybillProcess waybillProcess // the process engine, received volume, loss, differences (waybill_process.go)
	waybillViews   waybillViews   // process timelines and the transport record (waybill_views.go)
	waybillMap     waybillMap     // monitoring_waybill and historyWaybill (waybill_map.go)
	waybillDemo    waybillDemo    // the demo fleet's days as waybills (waybill_demo.go)
	// issue 16, locks, seals and the numbers: one part per file
	lockRegistry  lockRegistry  // electronic locks, their bindings and the car blacklist (lock_registry.go)
	lockEvents    lockEvents    // lock events from the terminals and remote lock commands (lock_events.go)
	sealRecords   sealRecords   // lead-seal records and their incidents (seal_records.go)
	lockStats     lockStats     // lock and seal statistics by day, week and month (lock_stats.go)
	statsTrips    statsTrips    // the daily trip rollup and the car, company and product statistics (stats_trips.go)
	statsOverview statsOverview // the period overview and the formal report (stats_overview.go)
	statsAnalysis statsAnalysis // transport analysis and trends with period comparison (stats_analysis.go)
	// issue 18, the rest of the console: one part per file
	staff     staffPart     // employees, duties, leave, operating procedures (staff.go)
	equipment equipmentPart // equipment and model functions (equipment.go)
	firmware  firmwarePart  // upgrade packages and their transfer (firmware.go)
	settings  settingsPart  // code lists, platform settings, preferences, sessions, offline tiles (settings.go)
	notices   noticesPart   // text templates (notices.go)
	faults    faultsPart    // after-sales fault records (faults.go)
}

// NewLogger returns the slog logger for format ("text" or "json").
func NewLogger(w io.Writer, format string) *slog.Logger {
	if format == "json" {
		return slog.New(slog.NewJSONHandler(w, nil))
	}
	return slog.New(slog.NewTextHandler(w, nil))
}

// OpenStore opens and migrates the store of cfg.
func OpenStore(ctx context.Context, cfg config.Config) (*db.DB, error) {
	d, err := db.Open(ctx, cfg.DB, cfg.Data)
	if err != nil {
		return nil, err
	}
	if err := d.Migrate(ctx); err != nil {
		_ = d.Close()
		return nil, err
	}
	return d, nil
}

// New wires the services over an open, migrated store.
func New(cfg config.Config, d *db.DB, log *slog.Logger) *App {
	if cfg.Theme == "" {
		cfg.Theme = org.DefaultTheme
	}
	a := &App{Cfg: cfg, DB: d, Log: log, now: time.Now, registry: prometheus.NewRegistry(), console: web.Dist()}
	a.Tokens = auth.NewTokens(d)
	a.Audit = audit.New(d)
	a.Org = org.New(d, org.Config{Theme: cfg.Theme, Title: cfg.Title, SupplyChainURL: cfg.SupplyChainURL, MapTiles: cfg.MapTiles}, a.Tokens, a.Audit)
	a.Auth = auth.NewService(a.Tokens, a.Org, a.Audit)
	a.Org.Logins = a.Auth.Limiter
	a.Fleet = fleet.New(d, a.Audit)
	a.buildMessaging() // first: the broker is the Publisher of the services built after it
	a.Stations = station.New(d, a.Audit)
	a.Stations.Log = log
	a.buildTankInfo()
	a.buildDevices()
	a.buildTankIngest()
	a.buildAlarms()
	a.buildGauges()
	a.buildCockpit()
	a.CarPass = carpass.New(d, a.Fleet, a.Devices.Commands, a.Devices.Gateway, a.Audit)
	a.buildParameter()
	a.buildWaybillBase()
	a.buildWaybillBills()
	a.buildWaybillLoads()
	a.buildWaybillProcess()
	a.buildWaybillViews()
	a.buildWaybillMap()
	a.buildWaybillDemo()
	a.buildLockRegistry()
	a.buildLockEvents()
	a.buildSealRecords()
	a.buildLockStats()
	a.buildStatsTrips()
	a.buildStatsOverview()
	a.buildStatsAnalysis()
	a.buildStaff()
	a.buildEquipment()
	a.buildFirmware()
	a.buildAttributes()
	a.buildSettings()
	a.buildNotices()
	a.buildFaults()
	a.registry.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return a
}

// SetNow replaces the clock of every time-dependent service (tests).
func (a *App) SetNow(now func() time.Time) {
	a.Tokens.Now, a.Auth.Now, a.Auth.Limiter.Now, a.Org.Now, a.Fleet.Now = now, now, now, now, now
	a.now, a.Commands.Now, a.Sensors.Now, a.Geo.Now = now, now, now, now
	a.Messages.Now = now
	a.Stations.Now = now
	a.CarPass.Now = now
	a.TankInfo.Now = now
	a.Gauges.Ground.Now = now
	a.Calib.Now = now
}

// SetConsole replaces the embedded console (tests; nil = not built).
func (a *App) SetConsole(f fs.FS) { a.console = f }

// Routes is every endpoint with its access declaration.
func (a *App) Routes() []httpx.Route {
	var rs []httpx.Route
	rs = append(rs, a.systemRoutes()...)
	rs = append(rs, a.Auth.Routes()...)
	rs = append(rs, a.Org.Routes()...)
	rs = append(rs, a.Fleet.Routes()...)
	rs = append(rs, a.Audit.Routes()...)
	rs = append(rs, a.Devices.routes()...)
	rs = append(rs, a.messagingRoutes()...)
	rs = append(rs, a.Stations.Routes()...)
	rs = append(rs, a.alarmRoutes()...)
	rs = append(rs, a.CarPass.Routes()...)
	rs = append(rs, a.TankInfo.Routes()...)
	rs = append(rs, a.tankIngestRoutes()...)
	rs = append(rs, a.gaugeRoutes()...)
	rs = append(rs, a.trendRoutes()...)
	rs = append(rs, a.cockpitRoutes()...)
	rs = append(rs, a.parameterRoutes()...)
	rs = append(rs, a.waybillBaseRoutes()...)
	rs = append(rs, a.waybillBillsRoutes()...)
	rs = append(rs, a.waybillLoadsRoutes()...)
	rs = append(rs, a.waybillProcessRoutes()...)
	rs = append(rs, a.waybillViewsRoutes()...)
	rs = append(rs, a.waybillMapRoutes()...)
	rs = append(rs, a.lockRegistryRoutes()...)
	rs = append(rs, a.lockEventsRoutes()...)
	rs = append(rs, a.sealRecordsRoutes()...)
	rs = append(rs, a.lockStatsRoutes()...)
	rs = append(rs, a.statsTripsRoutes()...)
	rs = append(rs, a.statsOverviewRoutes()...)
	rs = append(rs, a.statsAnalysisRoutes()...)
	rs = append(rs, a.staffRoutes()...)
	rs = append(rs, a.equipmentRoutes()...)
	rs = append(rs, a.firmwareRoutes()...)
	rs = append(rs, a.settingsRoutes()...)
	rs = append(rs, a.noticesRoutes()...)
	rs = append(rs, a.faultsRoutes()...)
	return rs
}

func (a *App) systemRoutes() []httpx.Route {
	metrics := promhttp.HandlerFor(a.registry, promhttp.HandlerOpts{})
	rs := []httpx.Route{
		{Method: "GET", Path: "/healthz", Access: httpx.PublicAccess, Handler: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			_, _ = io.WriteString(w, "ok\n")
		}},
		{Method: "GET", Path: "/readyz", Access: httpx.PublicAccess, Handler: func(w http.ResponseWriter, r *http.Request) {
			ctx, cancel := context.WithTimeout(r.Context(), 3*time.Second)
			defer cancel()
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			if err := a.DB.PingContext(ctx); err != nil {
				w.WriteHeader(http.StatusServiceUnavailable)
				_, _ = io.WriteString(w, "database unavailable\n")
				return
			}
			_, _ = io.WriteString(w, "ready\n")
		}},
		{Method: "GET", Path: "/", Access: httpx.PublicAccess, Handler: a.serveConsole},
	}
	if a.Cfg.Metrics == "" {
		// no --metrics listener: on the public port, only to a token with 系统配置 (06-11), the
		// operators' page (docs/DECISIONS.md D27)
		rs = append(rs, httpx.Route{Method: "GET", Path: "/metrics", Access: httpx.Needs("06-11"), Handler: metrics.ServeHTTP})
	}
	return rs
}

// Handler is the complete HTTP handler: routes, middleware, metrics, security headers.
func (a *App) Handler() http.Handler {
	mux := http.NewServeMux()
	routes := a.Routes()
	if !a.Cfg.Serves(config.RoleAPI) {
		routes = a.probeRoutes()
	}
	httpx.Mount(mux, a.Auth.Guard, routes)
	// every other method on an unknown path: a JSON 404 (not ServeMux's 405 for the console's "GET /")
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { notFound(mux, w, r) })
	a.mux = mux
	return httpx.SecurityHeadersLive(httpx.Wrap(mux, httpx.NewMetrics(a.registry), a.Log), a.mapTileHosts)
}

const notBuiltPage = `<!doctype html>
<html lang="zh-CN"><head><meta charset="utf-8"><title>TankWatch</title>
<style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem;line-height:1.6}code{background:#f3f3f3;padding:.1rem .3rem}</style></head>
<body><h1>TankWatch</h1>
<p>控制台尚未构建 / The console was not built into this binary.</p>
<p>Run <code>make build</code>, or <code>cd web &amp;&amp; npm ci &amp;&amp; npm run build</code> and then
<code>go build -tags webdist ./cmd/tankwatch</code>.</p>
<p>The API is running: <a href="/healthz">/healthz</a>, <a href="/authority-app/platformInfo">/authority-app/platformInfo</a>.</p>
</body></html>
`

func (a *App) serveConsole(w http.ResponseWriter, r *http.Request) {
	if a.console == nil {
		if r.URL.Path != "/" && r.URL.Path != "/index.html" {
			notFound(a.mux, w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-cache")
		_, _ = io.WriteString(w, notBuiltPage)
		return
	}
	name := strings.TrimPrefix(path.Clean(r.URL.Path), "/")
	if name == "" {
		name = "index.html"
	}
	b, err := fs.ReadFile(a.console, name)
	if err != nil {
		notFound(a.mux, w, r)
		return
	}
	if strings.HasPrefix(name, "assets/") {
		w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		w.Header().Set("Cache-Control", "no-cache")
	}
	http.ServeContent(w, r, name, time.Time{}, strings.NewReader(string(b)))
}

// Bootstrap seeds the demo organisation (demo) or creates the first admin on an empty store, printing
// the logins to out.
func (a *App) Bootstrap(ctx context.Context, out io.Writer) error {
	// an upload under way names its file within seconds of its last chunk; older unnamed chunks are an
	// upload's that died (D136)
	if err := (&blob.Store{DB: a.DB, Now: a.now}).DropAbandoned(ctx, time.Hour); err != nil {
		return fmt.Errorf("abandoned uploads: %w", err)
	}
	if err := a.importFirmware(ctx); err != nil {
		return fmt.Errorf("firmware packages: %w", err)
	}
	if a.Cfg.Demo {
		if err := a.Org.SeedDemo(ctx); err != nil {
			return fmt.Errorf("demo seed: %w", err)
		}
		if err := a.Fleet.SeedDemo(ctx, a.Cfg.DemoVehicles); err != nil {
			return fmt.Errorf("demo fleet seed: %w", err)
		}
		if err := a.Stations.SeedDemo(ctx); err != nil {
			return fmt.Errorf("demo stations seed: %w", err)
		}
		if err := a.seedTankInfo(ctx); err != nil {
			return fmt.Errorf("demo compartments seed: %w", err)
		}
		if err := a.seedDemoGauges(ctx); err != nil {
			return fmt.Errorf("demo ground tanks seed: %w", err)
		}
		if err := a.seedWaybillDemo(ctx); err != nil {
			return fmt.Errorf("demo waybills seed: %w", err)
		}
		// issue 16: the past trips first (statistics), then locks, seals and lock events on them, then the rollups
		timed := func(name string, seed func(context.Context) error) error {
			start := time.Now()
			err := seed(ctx)
			a.Log.Info("demo seed", "part", name, "took", time.Since(start).Round(time.Millisecond))
			return err
		}
		if err := timed("StatsOverview", a.seedStatsOverviewDemo); err != nil {
			return fmt.Errorf("demo StatsOverview seed: %w", err)
		}
		if err := timed("LockRegistry", a.seedLockRegistryDemo); err != nil {
			return fmt.Errorf("demo LockRegistry seed: %w", err)
		}
		if err := timed("SealRecords", a.seedSealRecordsDemo); err != nil {
			return fmt.Errorf("demo SealRecords seed: %w", err)
		}
		if err := timed("LockEvents", a.seedLockEventsDemo); err != nil {
			return fmt.Errorf("demo LockEvents seed: %w", err)
		}
		if err := timed("LockStats", a.seedLockStatsDemo); err != nil {
			return fmt.Errorf("demo LockStats seed: %w", err)
		}
		if err := timed("StatsTrips", a.seedStatsTripsDemo); err != nil {
			return fmt.Errorf("demo StatsTrips seed: %w", err)
		}
		if err := timed("StatsAnalysis", a.seedStatsAnalysisDemo); err != nil {
			return fmt.Errorf("demo StatsAnalysis seed: %w", err)
		}
		// issue 18's parts
		if err := timed("Staff", a.seedStaffDemo); err != nil {
			return fmt.Errorf("demo Staff seed: %w", err)
		}
		if err := timed("Equipment", a.seedEquipmentDemo); err != nil {
			return fmt.Errorf("demo Equipment seed: %w", err)
		}
		if err := timed("Firmware", a.seedFirmwareDemo); err != nil {
			return fmt.Errorf("demo Firmware seed: %w", err)
		}
		if err := timed("Settings", a.seedSettingsDemo); err != nil {
			return fmt.Errorf("demo Settings seed: %w", err)
		}
		if err := timed("Notices", a.seedNoticesDemo); err != nil {
			return fmt.Errorf("demo Notices seed: %w", err)
		}
		if err := timed("Faults", a.seedFaultsDemo); err != nil {
			return fmt.Errorf("demo Faults seed: %w", err)
		}
		line := org.DemoLoginLine()
		a.Log.Info(line)
		fmt.Fprintln(out, line)
		return nil
	}
	pw, err := a.Org.EnsureAdmin(ctx)
	if err != nil {
		return fmt.Errorf("create first admin: %w", err)
	}
	if pw != "" {
		a.Log.Warn("created the first administrator; change the password after signing in", "user", "admin", "password", pw)
		fmt.Fprintf(out, "first start: created user admin with password %s (shown once)\n", pw)
	}
	return nil
}

// Serve runs the server until ctx is cancelled, then shuts down gracefully. ready, when not nil, is
// called with the listening address.
func Serve(ctx context.Context, cfg config.Config, out io.Writer, ready func(addr string)) error {
	log := NewLogger(out, cfg.LogFormat)
	slog.SetDefault(log)
	d, err := OpenStore(ctx, cfg)
	if err != nil {
		return err
	}
	defer d.Close()
	a := New(cfg, d, log)
	if err := a.Bootstrap(ctx, out); err != nil {
		return err
	}
	proxies, err := httpx.ParseTrustedProxies(cfg.TrustedProxies)
	if err != nil {
		return fmt.Errorf("--trusted-proxies: %w", err)
	}
	httpx.SetTrustedProxies(proxies)
	ln, err := a.ListenHTTP(cfg.HTTP)
	if err != nil {
		return err
	}
	srv := a.HTTPServer(a.Handler())
	log.Info("tankwatch listening", "addr", "http://"+ln.Addr().String(), "version", Version, "store", d.Kind,
		"console", a.console != nil && cfg.Serves(config.RoleAPI), "theme", cfg.Theme, "demo", cfg.Demo, "roles", a.roles())
	go a.purgeTokens(ctx)
	go a.runSettings(ctx) // issue 18: platform settings another node changed (settings.go)
	gateway := cfg.Serves(config.RoleGateway)
	if gateway { // the workers go with the engines (D93)
		go a.runFaults(ctx) // faults raised by the system (faults.go, D82)
	}
	if cfg.Pprof != "" {
		if err := servePprof(ctx, cfg.Pprof, log); err != nil {
			_ = ln.Close()
			return err
		}
	}
	if cfg.Metrics != "" {
		if err := serveMetrics(ctx, cfg.Metrics, a.registry, log); err != nil {
			_ = ln.Close()
			return err
		}
	}
	if gateway { // station tank gauges are devices polled over TCP
		if err := a.StartGauges(ctx); err != nil {
			_ = ln.Close()
			return err
		}
	}
	if err := a.StartDevices(ctx); err != nil {
		_ = ln.Close()
		return err
	}
	defer a.StopDevices()
	if a.RunsRollups() { // after StartDevices: which node runs them, and for which cars, is the cluster's (D113)
		c := a.Devices.Cluster
		share := func() stats.Share { return shareOf(c) }
		go a.runLockStats(ctx, share)  // issue 16: the lock and seal rollup worker (lock_stats.go)
		go a.runStatsTrips(ctx, share) // the trip rollup's outbox worker (stats_trips.go)
	}
	if err := a.StartMessaging(ctx); err != nil {
		_ = ln.Close()
		return err
	}
	defer a.StopMessaging()
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	if ready != nil {
		ready(ln.Addr().String())
	}
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down")
	sctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	// WebSocket connections are hijacked: the HTTP server does not wait for them, so they are closed
	// (1001) alongside its shutdown, before the live state and the store go.
	wsDone := make(chan error, 1)
	go func() { wsDone <- a.LiveWS.Shutdown(sctx) }()
	a.StopMessaging() // MQTT WebSockets are hijacked too
	err = srv.Shutdown(sctx)
	if wsErr := <-wsDone; wsErr != nil {
		log.Warn("live websocket connections did not close in time", "err", wsErr)
	}
	if err != nil {
		return err
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

func (a *App) purgeTokens(ctx context.Context) {
	loop.Every(ctx, time.Hour, func() {
		if n, err := a.Tokens.PurgeExpired(ctx); err != nil {
			a.Log.Warn("purge tokens", "err", err)
		} else if n > 0 {
			a.Log.Info("purged expired tokens", "count", n)
		}
	})
}
