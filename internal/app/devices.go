package app

import (
	"context"
	"fmt"
	"net"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"tankwatch/internal/alarm"
	"tankwatch/internal/cluster"
	"tankwatch/internal/geo"
	"tankwatch/internal/jt1078/relay"
	"tankwatch/internal/jt808/gateway"
	"tankwatch/internal/platform/bus"
	"tankwatch/internal/platform/config"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/sim"
	"tankwatch/internal/tank"
	"tankwatch/internal/telemetry"
	"tankwatch/internal/video"
)

// Devices is the ingest side: gateway → writer (group commit) → live state, plus history, sensors
// and geocoding. Built by New, started by Start.
type Devices struct {
	Writer   *telemetry.Writer
	Commands *telemetry.Commands
	History  *telemetry.History
	Live     *telemetry.Live
	LiveWS   *telemetry.LiveWS // the console's live WebSocket /ws/live
	Sensors  *tank.Sensors
	Geo      *geo.Service
	Gateway  *gateway.Server
	Sim      *sim.Fleet // the in-process demo fleet, nil without --demo
	Help     *alarm.HelpService
	// Video is live video: the JT/T 1078 media listener, the relay and the signalling (issue 17, D75).
	Video *video.Live

	// Cluster is this node among the others on the bus (cluster.go, D87); nil when alone.
	Cluster *cluster.Node

	gatewayAddr string
	partitioned atomic.Bool // the engines follow the partitions this node holds, not its commits (work.go)
	stop        func()
	bus         bus.Bus
	closeBus    func() // set when this node dialled the bus itself
}

func (a *App) buildDevices() {
	cfg, d, now := a.Cfg, a.DB, func() time.Time { return a.now() }
	dv := &a.Devices
	dv.Writer = telemetry.NewWriter(d, telemetry.WriterConfig{QueueLimit: cfg.HistoryQueue, MaxBatch: max(cfg.HistoryQueue/2, 100)}, a.Log)
	dv.Commands = telemetry.NewCommands(d)
	dv.Commands.Fleet = a.Fleet
	dv.History = telemetry.NewHistory(d, a.Fleet, telemetry.HistoryConfig{RawRetention: time.Duration(cfg.RawRetentionDays) * 24 * time.Hour}, now)
	dv.Live = telemetry.NewLive(d, a.Fleet, telemetry.LiveConfig{OfflineAfter: time.Duration(cfg.OfflineMinutes) * time.Minute,
		MovingKmh: float64(cfg.MovingSpeed)}, now)
	dv.Writer.Subscribe(dv.Live.Apply)
	dv.LiveWS = telemetry.NewLiveWS(dv.Live, a.Auth.Guard, telemetry.LiveWSConfig{}, a.Log)
	dv.History.UseLive(dv.Live)
	dv.Sensors = tank.NewSensors(d, a.Audit)
	// Addresses are given relative to the registered stations (with --demo: the simulator's depots and
	// stations, seeded as stations).
	dv.Geo = geo.New(geo.Config{AMapKey: cfg.AMapKey}, a.Stations.Places)
	a.Stations.Geo = dv.Geo
	dv.Geo.Log = a.Log
	w := dv.Writer
	a.registry.MustRegister(
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "tankwatch_history_committed_reports_total",
			Help: "Position and tank reports committed to the history store."},
			func() float64 { return float64(w.Stats().CommittedReports) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "tankwatch_history_committed_frames_total",
			Help: "Raw frames committed to the history store."},
			func() float64 { return float64(w.Stats().CommittedFrames) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "tankwatch_history_batches_total",
			Help: "Transactions committed by the history writer."},
			func() float64 { return float64(w.Stats().Batches) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "tankwatch_history_commit_seconds_total",
			Help: "Time the history writer spent in successful commits (its busy share: the rate of this)."},
			func() float64 { return w.Stats().CommitTime.Seconds() }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "tankwatch_history_queued",
			Help: "Reports and frames accepted by the history writer and not yet committed (bounded by --history-queue)."},
			func() float64 { return float64(w.Stats().Queued) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "tankwatch_live_ws_connections",
			Help: "Open live WebSocket (/ws/live) connections."},
			func() float64 { return float64(dv.LiveWS.Conns()) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "tankwatch_history_retrying",
			Help: "1 while a failed commit is being retried (the store is unavailable)."},
			func() float64 {
				if w.Stats().Retrying {
					return 1
				}
				return 0
			}),
	)
	dv.Gateway = gateway.New(gateway.Config{IdleTimeout: cfg.TerminalIdle, MaxConns: cfg.MaxTerminals, Now: now,
		AuthTimeout: cfg.JT808AuthTimeout, HeartbeatWindow: cfg.JT808HeartbeatWindow, FailLimit: cfg.JT808FailLimit,
		FailBlock: cfg.JT808FailBlock, ConflictEvery: cfg.JT808ConflictEvery}, gateway.FleetRegistry{Fleet: a.Fleet},
		dv.Writer, dv.Commands, dv.Sensors, a.Log, a.registry)
	dv.Help = alarm.NewHelp(alarm.HelpDeps{DB: d, Audit: a.Audit, Cars: dv.Live, Terminals: a.Fleet, Recipients: a.Org,
		Publisher: a.Broker, Geo: dv.Geo, Stations: a.Stations, Sender: dv.Gateway, Log: a.Log})
	dv.Help.Now = now
	dv.Writer.Subscribe(a.engineFeed(dv.Help.Accept))
	dv.Video = video.NewLive(video.LiveConfig{Relay: relay.Config{MaxStreams: cfg.VideoStreams, MaxViewers: cfg.VideoViewers,
		Linger: cfg.VideoLinger}, LossReport: cfg.VideoLossReport}, a.Fleet, dv.Gateway, a.Auth.Guard, a.Log)
	a.registerVideoMetrics()
}

// registerVideoMetrics puts live video's streams, viewers and ingest counters on /metrics.
func (a *App) registerVideoMetrics() {
	v := a.Devices.Video
	gauge := func(name, help string, f func() float64) prometheus.Collector {
		return prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: name, Help: help}, f)
	}
	counter := func(name, help string, c interface{ Load() int64 }) prometheus.Collector {
		return prometheus.NewCounterFunc(prometheus.CounterOpts{Name: name, Help: help}, func() float64 { return float64(c.Load()) })
	}
	a.registry.MustRegister(
		gauge("tankwatch_video_streams", "Device video streams (live and playback) held by this node's relay (capped by --video-max-streams).",
			func() float64 { s, _ := v.Hub.Counts(); return float64(s) }),
		gauge("tankwatch_video_viewers", "Browser video viewers (FLV and G.711 sockets) on this node (capped by --video-max-viewers).",
			func() float64 { _, n := v.Hub.Counts(); return float64(n) }),
		counter("tankwatch_video_requests_total", "Live video requests (0x9101) sent to terminals.", &v.Starts),
		counter("tankwatch_video_closes_total", "Live video closes (0x9102) sent to terminals: no viewer for the linger, stopped by the console, or no media from the device.", &v.Stops),
		counter("tankwatch_video_replays_total", "Video playbacks (0x9201) asked of terminals.", &v.ReplayStarts),
		counter("tankwatch_video_replay_stops_total", "Playbacks stopped (0x9202 stop) because nobody watched them for the linger or the device went quiet.", &v.ReplayStops),
		counter("tankwatch_video_ingest_connections_total", "Device media connections accepted.", &v.Stats.Conns),
		counter("tankwatch_video_ingest_refused_total", "Device media connections refused (a stream nobody asked for, or too many connections).", &v.Stats.Refused),
		counter("tankwatch_video_ingest_packets_total", "JT/T 1078 packets received.", &v.Stats.Packets),
		counter("tankwatch_video_ingest_frames_total", "Audio and video frames assembled and relayed.", &v.Stats.Frames),
		counter("tankwatch_video_ingest_dropped_frames_total", "Frames dropped by the assembler (sequence gaps, missing starts, oversize).", &v.Stats.Dropped),
		counter("tankwatch_video_ingest_lost_packets_total", "Media packets that never came, by their sequence numbers (loss rate: lost / (lost + packets)).", &v.Stats.Lost),
		counter("tankwatch_video_mirrors_total", "Live streams relayed from the node that streams the camera instead of asked of the terminal again (D119).", &v.Mirrors),
		counter("tankwatch_video_loss_reports_total", "Loss notices (0x9105) sent to terminals of live streams.", &v.LossReports),
		counter("tankwatch_video_udp_datagrams_total", "Media datagrams received over UDP.", &v.Stats.Datagrams),
		counter("tankwatch_video_udp_strangers_total", "UDP media packets dropped: no stream of their SIM and channel was asked for, or they came from another address than the stream's.", &v.Stats.Strangers),
	)
}

// routes are the ingest side's HTTP calls.
func (dv *Devices) routes() []httpx.Route {
	var rs []httpx.Route
	rs = append(rs, dv.History.Routes()...)
	rs = append(rs, dv.Live.Routes()...)
	rs = append(rs, dv.LiveWS.Routes()...)
	rs = append(rs, dv.Sensors.Routes()...)
	rs = append(rs, dv.Geo.Routes()...)
	rs = append(rs, dv.Commands.SendRoutes(dv.Gateway)...)
	rs = append(rs, dv.Help.Routes()...)
	rs = append(rs, dv.Video.Routes()...)
	return rs
}

// GatewayAddr is the address the JT/T 808 gateway listens on ("" before Start or when disabled).
func (dv *Devices) GatewayAddr() string { return dv.gatewayAddr }

// Start loads the caches, starts the writer, retention, live state, the gateway on cfg.JT808 and, with
// --demo, the in-process simulator. Stop (or ctx's end) takes them down in the order that keeps the
// promise "acknowledged means committed": simulator and gateway first, the writer last.
func (a *App) StartDevices(ctx context.Context) error {
	dv := &a.Devices
	if err := dv.Sensors.Load(ctx); err != nil {
		return fmt.Errorf("load sensors: %w", err)
	}
	if err := a.Stations.Load(ctx); err != nil {
		return fmt.Errorf("load stations: %w", err)
	}
	if err := a.loadTankIngest(ctx); err != nil {
		return err
	}
	if err := dv.Live.Load(ctx); err != nil {
		return fmt.Errorf("rebuild live state: %w", err)
	}
	// The day partitions are made before any terminal can connect: attached while a commit writes rows
	// of that day, PostgreSQL refuses the commit (the row was routed to the default partition, which the
	// attach narrowed: "violates partition constraint"). A fresh store met it at every start; later days
	// are made a week ahead by the retention job. A refusal here is left to that job's next run.
	if _, err := dv.History.EnsurePartitions(ctx); err != nil {
		a.Log.Warn("history partitions at start", "err", err)
	}
	if err := a.startCluster(ctx); err != nil {
		return err
	}
	if err := a.startAlarms(ctx); err != nil {
		a.stopCluster()
		return fmt.Errorf("start the alarm engine: %w", err)
	}
	if err := a.startWaybillProcess(ctx); err != nil {
		a.stopAlarms()
		a.stopCluster()
		return fmt.Errorf("start the waybill process engine: %w", err)
	}
	writerCtx, stopWriter := context.WithCancel(context.WithoutCancel(ctx))
	edgeCtx, stopEdge := context.WithCancel(ctx)
	var writerDone, edgeDone sync.WaitGroup
	writerDone.Add(1)
	go func() {
		defer writerDone.Done()
		if err := dv.Writer.Run(writerCtx); err != nil {
			a.Log.Error("history writer stopped", "err", err)
		}
	}()
	dv.Help.Start(context.WithoutCancel(ctx))
	edgeDone.Add(2)
	go func() { defer edgeDone.Done(); dv.Live.Run(edgeCtx) }()
	go func() { defer edgeDone.Done(); dv.History.RunRetention(edgeCtx) }()
	// teardown stops the edge first (nothing new comes in), then lets the writer drain what it holds
	teardown := func() {
		stopEdge()
		edgeDone.Wait()
		stopWriter()
		writerDone.Wait()
		if dv.Cluster != nil {
			dv.Cluster.StopWork() // the batches under way are judged before the engines stop
		}
		dv.Help.Stop()
		a.stopAlarms()
		a.stopWaybillProcess()
		a.stopCluster()
	}
	// Media goes to the node that asked for the stream (D94), where its browsers watch: a node with the
	// api role, whichever node holds the terminal's session. A gateway-only node is never asked (D118).
	if a.Cfg.Serves(config.RoleAPI) {
		if err := a.startVideo(edgeCtx, &edgeDone); err != nil {
			teardown()
			return err
		}
	}
	// a node without the gateway role opens no 808 port: its terminals are the gateway nodes' (D93)
	if a.Cfg.JT808 != "" && a.Cfg.Serves(config.RoleGateway) {
		ln, err := net.Listen("tcp", a.Cfg.JT808)
		if err != nil {
			teardown()
			return fmt.Errorf("JT/T 808 gateway: %w", err)
		}
		dv.gatewayAddr = ln.Addr().String()
		// what waited for a terminal while it was offline goes down once it is back; a stale record of
		// its own attributes is refreshed (attributes.go)
		dv.Gateway.OnAuthenticated(func(t gateway.Terminal) {
			if err := a.CarPass.ResendWaiting(edgeCtx, t.CarID); err != nil && edgeCtx.Err() == nil {
				a.Log.Warn("car password not resent", "car", t.CarID, "terminal", t.ID, "err", err)
			}
			a.attributesOnLogin(edgeCtx, t.ID)
		})
		// a refused takeover of a live terminal becomes an alarm to the operators of the car's group
		dv.Gateway.OnConflict(func(c gateway.Conflict) {
			_, err := a.Alarms.Engine.RaiseIdentityConflict(edgeCtx, alarm.IdentityConflict{CarID: c.Terminal.CarID,
				TerminalID: c.Terminal.ID, Peer: c.Peer, MsgID: c.MsgID, Attempts: c.Attempts, At: c.At})
			if err != nil && edgeCtx.Err() == nil {
				a.Log.Warn("identity-conflict alarm not stored", "car", c.Terminal.CarID, "terminal", c.Terminal.ID, "peer", c.Peer, "err", err)
			}
		})
		a.Log.Info("JT/T 808 gateway listening", "addr", dv.gatewayAddr, "max_terminals", dv.Gateway.MaxConns(),
			"open_file_limit", gateway.OpenFileLimit())
		edgeDone.Add(1)
		go func() {
			defer edgeDone.Done()
			if err := dv.Gateway.Serve(edgeCtx, ln); err != nil {
				a.Log.Error("JT/T 808 gateway stopped", "err", err)
			}
		}()
		a.startFirmware(edgeCtx, &edgeDone) // firmware transfers (firmware.go)
		if a.Cfg.Demo && a.Cfg.DemoSim && a.Cfg.DemoVehicles > 0 {
			f, err := sim.Start(edgeCtx, sim.Config{Gateway: dv.gatewayAddr, Vehicles: a.Cfg.DemoVehicles, Interval: a.Cfg.DemoInterval,
				Seed: 1, Speedup: a.Cfg.DemoSpeedup, Misbehave: a.Cfg.DemoMisbehave, DayAtStart: true, Log: a.Log.With("component", "sim"),
				OnDeliver: a.gaugeDeliver, FirstTripIncident: a.Cfg.DemoIncident, DispatchWait: a.waybillDemoWait(), OnDepot: a.waybillDemoDepot, OnLoaded: a.waybillDemoLoaded})
			if err != nil {
				a.Log.Warn("demo simulator not started", "err", err)
			} else {
				dv.Sim = f
				a.Log.Info("demo fleet driving", "vehicles", a.Cfg.DemoVehicles, "gateway", dv.gatewayAddr)
				a.startWaybillDemo(edgeCtx)
			}
		}
	}
	var once sync.Once
	dv.stop = func() {
		once.Do(func() {
			if dv.Sim != nil {
				dv.Sim.Stop()
			}
			teardown()
		})
	}
	return nil
}

// startVideo opens the JT/T 1078 media listener (--jt1078) and serves live video on it until ctx ends.
// Devices are told the --jt1078-public address in 0x9101, else the listener's own.
func (a *App) startVideo(ctx context.Context, wg *sync.WaitGroup) error {
	if a.Cfg.JT1078 == "" {
		return nil
	}
	ln, err := net.Listen("tcp", a.Cfg.JT1078)
	if err != nil {
		return fmt.Errorf("JT/T 1078 media listener: %w", err)
	}
	public := a.Cfg.JT1078Public
	if public == "" {
		addr := ln.Addr().(*net.TCPAddr)
		host := addr.IP.String()
		if addr.IP.IsUnspecified() {
			// listening on every interface: devices cannot be sent "0.0.0.0"; loopback serves a
			// simulator on this machine, a real fleet needs --jt1078-public
			host = "127.0.0.1"
			a.Log.Warn("--jt1078 listens on every interface but --jt1078-public is not set: devices are told 127.0.0.1", "addr", ln.Addr().String())
		}
		public = net.JoinHostPort(host, strconv.Itoa(addr.Port))
	}
	if err := a.Devices.Video.Enable(ctx, public); err != nil {
		_ = ln.Close()
		return fmt.Errorf("--jt1078-public: %w", err)
	}
	if b := a.Devices.bus; b != nil { // one stream of a camera for every node's viewers (D119)
		if err := a.Devices.Video.Share(ctx, b, a.busPrefix()); err != nil {
			_ = ln.Close()
			return fmt.Errorf("video on the bus: %w", err)
		}
	}
	a.Log.Info("JT/T 1078 media listener", "addr", ln.Addr().String(), "announced", public)
	pc, err := a.listenVideoUDP(ln.Addr().(*net.TCPAddr))
	if err != nil {
		_ = ln.Close()
		return err
	}
	if pc != nil {
		port := uint16(pc.LocalAddr().(*net.UDPAddr).Port)
		a.Devices.Video.EnableUDP(port, a.Cfg.JT1078Via == "udp")
		a.Log.Info("JT/T 1078 media over UDP", "addr", pc.LocalAddr().String(), "devices_told", a.Cfg.JT1078Via)
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer pc.Close()
			if err := a.Devices.Video.ServeUDP(ctx, pc); err != nil {
				a.Log.Error("JT/T 1078 UDP media stopped", "err", err)
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		if err := a.Devices.Video.Serve(ctx, ln); err != nil {
			a.Log.Error("JT/T 1078 media listener stopped", "err", err)
		}
	}()
	return nil
}

// listenVideoUDP opens the UDP media socket (--jt1078-udp): by default on the TCP listener's host and
// port number, so devices given either transport reach the same port; nil when it is off.
func (a *App) listenVideoUDP(tcp *net.TCPAddr) (net.PacketConn, error) {
	addr := a.Cfg.JT1078UDP
	switch addr {
	case "off":
		return nil, nil
	case "":
		addr = tcp.String()
	}
	pc, err := net.ListenPacket("udp", addr)
	if err != nil {
		return nil, fmt.Errorf("JT/T 1078 UDP media socket (--jt1078-udp): %w", err)
	}
	return pc, nil
}

// StopDevices stops what StartDevices started (idempotent).
func (a *App) StopDevices() {
	if a.Devices.stop != nil {
		a.Devices.stop()
	}
}
