// Package config reads TankWatch's settings from flags and TANKWATCH_* environment variables (and
// TANKWATCH_*_FILE for secrets). A flag given on the command line wins over the environment, which wins
// over the default.
package config

import (
	"flag"
	"fmt"
	"net"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"tankwatch/internal/platform/httpx"
)

// Config is the serve/migrate/admin configuration.
type Config struct {
	HTTP           string
	Data           string
	DB             string
	Demo           bool
	Theme          string
	Title          string
	SupplyChainURL string
	MapTiles       string // map tile source of the console: gaode, osm or none
	LogFormat      string
	Pprof          string // profiling listen address (net/http/pprof); empty: off
	TrustedProxies string // reverse proxies (addresses, CIDR ranges) whose X-Forwarded-For names the client
	HTTPMaxConns   int    // HTTP connections held at once, WebSockets included (0: from the open-file limit)
	HTTPMaxPerIP   int    // HTTP connections held at once for one peer address (trusted proxies exempt)
	Metrics        string // Prometheus /metrics listen address; empty: /metrics on the HTTP port, only to a token with 06-11

	// Devices and history.
	JT808            string        // JT/T 808 gateway listen address; empty disables the gateway
	TerminalIdle     time.Duration // a terminal silent this long is disconnected
	MaxTerminals     int           // terminal sessions beyond this are refused at accept (0: from the open-file limit)
	JT808Identity                  // registration, takeover and failure limits of the gateway (D25)
	RawRetentionDays int           // raw frames older than this are purged (0 = keep forever)
	HistoryQueue     int           // reports + frames accepted but not yet committed; the gateway's memory bound
	OfflineMinutes   int           // a car not heard from for this long counts as offline (its own setting wins)
	MovingSpeed      int           // km/h at or above which an online car counts as in transit
	AMapKey          string        // Gaode web-service key for online reverse geocoding (empty = offline only)

	// Video (JT/T 1078, issue 17).
	JT1078          string        // media listener (TCP) devices stream to; empty disables video
	JT1078Public    string        // host:port announced to devices in 0x9101; empty: the listener's address
	JT1078UDP       string        // UDP media socket: "" the TCP listener's host and port, "off" none, or host:port
	JT1078Via       string        // the transport devices are asked to stream over: tcp or udp
	VideoLossReport time.Duration // how often a live stream's loss is reported to its terminal (0x9105)
	VideoLinger     time.Duration // a live stream with no viewer is closed (0x9102) after this
	VideoStreams    int           // device streams through this node (0: 200)
	VideoViewers    int           // browser viewers through this node (0: 1000)

	// Messaging.
	MQTTBroker string // external MQTT broker shared by every node (tcp://host:1883); empty: the embedded broker only

	// Several nodes (issue 19, D87).
	Bus    string // NATS JetStream URL shared by every node (nats://host:4222); empty: in-process, one node
	NodeID string // this node's name on the bus; empty: generated at start (and logged)
	// BusPrefix names the subjects, stream and buckets on the bus ("" = "tw"): two platforms, or two
	// test runs, can share one NATS server without seeing each other.
	BusPrefix string
	// Roles is the comma-separated duties of this node (roles.go): gateway, api, worker; empty: every one.
	Roles string

	// Demo fleet (with --demo).
	DemoVehicles int // vehicles seeded and driven by the in-process simulator
	// DemoHistoryCars: with --demo, how many of the demo cars get 60 days of past trips (the statistics
	// pages' history); 0: none
	DemoHistoryCars int
	DemoSim         bool    // drive the demo fleet in-process (off: seed only, e.g. for an external `tankwatch sim`)
	DemoSpeedup     float64 // simulated time runs this many times faster than the clock
	// DemoMisbehave scales the demo fleet's incidents (0: a perfectly behaved fleet); DemoIncident
	// names an incident every demo truck has on its first loaded trip (sim.Config.FirstTripIncident).
	DemoMisbehave float64
	DemoIncident  string
	DemoInterval  time.Duration // each demo truck reports this often while working (simulated time)

	// GaugeInterval is how often the collector polls each station tank gauge (issue 14, D37).
	GaugeInterval time.Duration
}

// JT808Identity tunes how the JT/T 808 gateway guards terminal identities (docs/DECISIONS.md D25).
type JT808Identity struct {
	JT808AuthTimeout     time.Duration // a device connection not authenticated this long after it opened is closed
	JT808HeartbeatWindow time.Duration // a terminal session heard from within this is live: no other connection takes it over
	JT808FailLimit       int           // failed registrations/authentications per address per minute before it is blocked
	JT808FailBlock       time.Duration // how long a blocked address is refused
	JT808ConflictEvery   time.Duration // at most one identity-conflict alarm per terminal this often
}

// Themes accepted by --theme.
var Themes = []string{"tankcar", "groundtank", "escort", "telecom"}

// MapTileSources accepted by --map-tiles: Gaode (AMap) tiles in GCJ-02, OpenStreetMap, or none
// (offline, and in tests: nothing may reach the internet).
var MapTileSources = []string{"gaode", "osm", "none"}

// Env looks up an environment variable; tests inject their own.
type Env func(string) (string, bool)

// EnvName is the environment variable of a flag: --supply-chain-url → TANKWATCH_SUPPLY_CHAIN_URL.
func EnvName(flagName string) string {
	return "TANKWATCH_" + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

// lookup returns the environment value of a flag: TANKWATCH_X, else the contents of the file named by
// TANKWATCH_X_FILE (trailing newline trimmed).
func lookup(env Env, flagName string) (string, bool, error) {
	name := EnvName(flagName)
	if v, ok := env(name); ok {
		return v, true, nil
	}
	if path, ok := env(name + "_FILE"); ok && path != "" {
		b, err := os.ReadFile(path)
		if err != nil {
			return "", false, fmt.Errorf("%s_FILE: %w", name, err)
		}
		return strings.TrimRight(string(b), "\r\n"), true, nil
	}
	return "", false, nil
}

// Binder registers flags whose defaults come from the environment.
type Binder struct {
	FS  *flag.FlagSet
	Env Env
	err error
}

// String binds a string flag.
func (b *Binder) String(p *string, name, def, usage string) {
	if v, ok, err := lookup(b.Env, name); err != nil {
		b.err = err
	} else if ok {
		def = v
	}
	b.FS.StringVar(p, name, def, usage+" (env "+EnvName(name)+")")
}

// Bool binds a boolean flag.
func (b *Binder) Bool(p *bool, name string, def bool, usage string) {
	if v, ok, err := lookup(b.Env, name); err != nil {
		b.err = err
	} else if ok {
		parsed, perr := strconv.ParseBool(strings.TrimSpace(v))
		if perr != nil {
			b.err = fmt.Errorf("%s: %q is not a boolean", EnvName(name), v)
		}
		def = parsed
	}
	b.FS.BoolVar(p, name, def, usage+" (env "+EnvName(name)+")")
}

// Int binds an integer flag.
func (b *Binder) Int(p *int, name string, def int, usage string) {
	if v, ok, err := lookup(b.Env, name); err != nil {
		b.err = err
	} else if ok {
		parsed, perr := strconv.Atoi(strings.TrimSpace(v))
		if perr != nil {
			b.err = fmt.Errorf("%s: %q is not a whole number", EnvName(name), v)
		}
		def = parsed
	}
	b.FS.IntVar(p, name, def, usage+" (env "+EnvName(name)+")")
}

// Float binds a decimal flag.
func (b *Binder) Float(p *float64, name string, def float64, usage string) {
	if v, ok, err := lookup(b.Env, name); err != nil {
		b.err = err
	} else if ok {
		parsed, perr := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if perr != nil {
			b.err = fmt.Errorf("%s: %q is not a number", EnvName(name), v)
		}
		def = parsed
	}
	b.FS.Float64Var(p, name, def, usage+" (env "+EnvName(name)+")")
}

// Duration binds a duration flag ("90s", "5m").
func (b *Binder) Duration(p *time.Duration, name string, def time.Duration, usage string) {
	if v, ok, err := lookup(b.Env, name); err != nil {
		b.err = err
	} else if ok {
		parsed, perr := time.ParseDuration(strings.TrimSpace(v))
		if perr != nil {
			b.err = fmt.Errorf("%s: %q is not a duration like 90s or 5m", EnvName(name), v)
		}
		def = parsed
	}
	b.FS.DurationVar(p, name, def, usage+" (env "+EnvName(name)+")")
}

// Err returns the first environment error.
func (b *Binder) Err() error { return b.err }

// BindStore binds --data and --db.
func BindStore(b *Binder, c *Config) {
	b.String(&c.Data, "data", "./data", "data folder (SQLite file, uploads)")
	b.String(&c.DB, "db", "", "database: empty = SQLite in the data folder; postgres://user@host:5432/db for PostgreSQL")
}

// BindServe binds every serve flag.
func BindServe(b *Binder, c *Config) {
	b.String(&c.HTTP, "http", "127.0.0.1:8080", "HTTP listen address")
	BindStore(b, c)
	b.Bool(&c.Demo, "demo", false, "seed the demo organisation and accounts")
	b.String(&c.Theme, "theme", "tankcar", "theme: tankcar, groundtank, escort or telecom")
	b.String(&c.Title, "title", "", "platform title shown on the login page and header (default: the theme's)")
	b.String(&c.SupplyChainURL, "supply-chain-url", "", "supply-chain services site opened from the menu")
	b.String(&c.MapTiles, "map-tiles", "gaode", "map tiles of the console: gaode, osm or none (offline)")
	b.String(&c.LogFormat, "log-format", "text", "log format: text or json")
	b.String(&c.Pprof, "pprof", "", "serve Go profiles (net/http/pprof) on this address, e.g. 127.0.0.1:6060; empty: off. Never expose it: it is unauthenticated")
	b.String(&c.TrustedProxies, "trusted-proxies", "", "reverse proxies whose X-Forwarded-For names the client, e.g. 127.0.0.1,10.0.0.0/8 (empty: the peer address is the client)")
	b.Int(&c.HTTPMaxConns, "http-max-conns", 0, "HTTP connections (WebSockets included) held at once; more are closed at accept (0: the open-file limit's fifth kept for HTTP by --max-terminals, less 128 for the database and logs, at most 10000)")
	b.Int(&c.HTTPMaxPerIP, "http-max-conns-per-ip", 256, "HTTP connections held at once for one client address; more are closed at accept (trusted proxies are held only to --http-max-conns)")
	b.String(&c.Metrics, "metrics", "", "serve Prometheus /metrics unauthenticated on this address, e.g. 127.0.0.1:9090; empty: on the HTTP port, only to a token with the system-configuration permission 06-11")
	b.String(&c.JT808, "jt808", "127.0.0.1:8808", "JT/T 808 gateway listen address (empty: no gateway)")
	b.String(&c.JT1078, "jt1078", "127.0.0.1:8809", "JT/T 1078 media listener (TCP) that devices stream video to (empty: no video)")
	b.String(&c.JT1078Public, "jt1078-public", "", "host:port announced to devices in 0x9101 (empty: the --jt1078 listener's address; set it when devices reach the node through NAT or a public name)")
	b.String(&c.JT1078UDP, "jt1078-udp", "", "JT/T 1078 media over UDP: empty: on the --jt1078 listener's host and port number; off: none; or host:port")
	b.String(&c.JT1078Via, "jt1078-transport", "tcp", "the transport 0x9101/0x9201 ask devices to stream over: tcp or udp (udp needs --jt1078-udp on)")
	b.Duration(&c.VideoLossReport, "video-loss-report", 10*time.Second, "how often the packet loss of a live stream is sent to its terminal (0x9105)")
	b.Duration(&c.VideoLinger, "video-linger", 30*time.Second, "close a device's live video stream (0x9102) this long after its last viewer left")
	b.Int(&c.VideoStreams, "video-max-streams", 200, "live device video streams through this node; more are refused with \"too many streams\"")
	b.Int(&c.VideoViewers, "video-max-viewers", 1000, "browser video viewers through this node; more are refused with \"too many streams\"")
	b.Duration(&c.TerminalIdle, "terminal-idle", 5*time.Minute, "disconnect a terminal that sends nothing for this long")
	b.Int(&c.MaxTerminals, "max-terminals", 0, "terminal connections served at once; more are closed at accept (0: 20000, or less so that a fifth of the open-file limit stays free for HTTP and browsers)")
	b.Duration(&c.JT808AuthTimeout, "jt808-auth-timeout", 30*time.Second, "close a device connection that has not authenticated this long after it opened")
	b.Duration(&c.JT808HeartbeatWindow, "jt808-heartbeat-window", 90*time.Second, "a terminal heard from within this is live: registrations and authentications of it from another connection are refused (set it above the terminals' heartbeat interval)")
	b.Int(&c.JT808FailLimit, "jt808-fail-limit", 30, "failed terminal registrations and authentications per address per minute before the address is blocked")
	b.Duration(&c.JT808FailBlock, "jt808-fail-block", 5*time.Minute, "how long an address that failed too often is refused registration and authentication")
	b.Duration(&c.JT808ConflictEvery, "jt808-conflict-alarm-every", 10*time.Minute, "at most one identity-conflict alarm per terminal this often (every attempt is logged)")
	b.Int(&c.HistoryQueue, "history-queue", 50000, "reports and frames waiting for the history store; when full the gateway stops reading terminals")
	b.Int(&c.RawRetentionDays, "raw-retention-days", 30, "days raw frames are kept (0: forever)")
	b.Int(&c.OfflineMinutes, "offline-minutes", 10, "minutes without a report after which a car counts as offline (a car's own setting wins)")
	b.Int(&c.MovingSpeed, "moving-speed", 5, "km/h from which an online car counts as in transit (below: resting at low speed)")
	b.String(&c.AMapKey, "amap-key", "", "Gaode (AMap) web-service key for online reverse geocoding; empty: offline only")
	b.String(&c.MQTTBroker, "mqtt-broker", "", "external MQTT broker shared by every node, e.g. tcp://127.0.0.1:1883 (empty: embedded broker only; browsers always connect to /mqtt)")
	b.String(&c.Bus, "bus", "", "NATS JetStream shared by every node, e.g. nats://127.0.0.1:4222: live state, terminal sessions and commands span the nodes (empty: in-process, one node)")
	b.String(&c.BusPrefix, "bus-prefix", "", "first token of the bus's subjects, stream and bucket names: letters and digits (empty: tw); every node of one platform uses the same")
	b.String(&c.Roles, "roles", "gateway,api,worker", "this node's duties, comma-separated: gateway (JT/T 808 and 1078 listeners, history writer), api (HTTP API, console, /ws/live, /mqtt, video to browsers), worker (with --bus: the engines of its share of the cars' partitions); a node without every role needs --bus and --mqtt-broker")
	b.String(&c.NodeID, "node-id", "", "this node's name on the bus: letters, digits, - and _ (empty: generated at start and logged)")
	b.Int(&c.DemoVehicles, "demo-vehicles", 200, "with --demo: vehicles seeded and driven by the in-process simulator")
	b.Int(&c.DemoHistoryCars, "demo-history-cars", 24, "with --demo: this many demo cars get 60 days of past trips at the first start, for the statistics pages (0: none; each car costs about 0.3 s of start-up)")
	b.Bool(&c.DemoSim, "demo-sim", true, "with --demo: drive the demo fleet with the in-process simulator (false: seed only, for an external tankwatch sim)")
	b.Duration(&c.GaugeInterval, "gauge-interval", time.Minute, "poll every station tank gauge (TLS protocol over TCP) this often")
	b.Float(&c.DemoSpeedup, "demo-speedup", 1, "with --demo: simulated time runs this many times faster than the clock")
	b.Float(&c.DemoMisbehave, "demo-misbehave", 1, "with --demo: scale of the demo fleet's incidents (0: none, 1: the usual few a day)")
	b.String(&c.DemoIncident, "demo-incident", "", "with --demo: every demo truck has this incident on its first loaded trip (valve_away, seal_broken, speeding, long_parking, help, offline, theft); for tests and demonstrations")
	b.Duration(&c.DemoInterval, "demo-interval", 10*time.Second, "with --demo: each simulated truck reports its position and levels this often while working (simulated time, at least 1s)")
}

// Validate checks the values.
func (c *Config) Validate() error {
	valid := false
	for _, t := range Themes {
		valid = valid || t == c.Theme
	}
	if c.Theme != "" && !valid {
		return fmt.Errorf("--theme must be one of %s, not %q", strings.Join(Themes, ", "), c.Theme)
	}
	if c.MapTiles != "" && !slices.Contains(MapTileSources, c.MapTiles) {
		return fmt.Errorf("--map-tiles must be one of %s, not %q", strings.Join(MapTileSources, ", "), c.MapTiles)
	}
	if c.MQTTBroker != "" && !strings.Contains(c.MQTTBroker, "://") {
		return fmt.Errorf("--mqtt-broker must be a URL such as tcp://host:1883, not %q", c.MQTTBroker)
	}
	if c.Bus != "" && !strings.HasPrefix(c.Bus, "nats://") && !strings.HasPrefix(c.Bus, "tls://") {
		return fmt.Errorf("--bus must be empty or a URL such as nats://host:4222, not %q", c.Bus)
	}
	if strings.Trim(c.BusPrefix, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") != "" {
		return fmt.Errorf("--bus-prefix may hold only letters and digits, not %q", c.BusPrefix)
	}
	if strings.Trim(c.NodeID, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_") != "" {
		return fmt.Errorf("--node-id may hold only letters, digits, - and _, not %q", c.NodeID)
	}
	if err := c.validateRoles(); err != nil {
		return err
	}
	if _, err := httpx.ParseTrustedProxies(c.TrustedProxies); err != nil {
		return fmt.Errorf("--trusted-proxies: %w", err)
	}
	if c.LogFormat != "" && c.LogFormat != "text" && c.LogFormat != "json" {
		return fmt.Errorf("--log-format must be text or json, not %q", c.LogFormat)
	}
	if c.DB != "" && !strings.HasPrefix(c.DB, "postgres://") && !strings.HasPrefix(c.DB, "postgresql://") {
		return fmt.Errorf("--db must be empty (SQLite) or a postgres:// URL")
	}
	switch {
	case c.TerminalIdle < 0:
		return fmt.Errorf("--terminal-idle cannot be negative")
	case c.VideoLinger < 0 || c.VideoStreams < 0 || c.VideoViewers < 0:
		return fmt.Errorf("--video-linger, --video-max-streams and --video-max-viewers cannot be negative")
	case c.JT1078UDP != "" && c.JT1078UDP != "off" && !hostPortAny(c.JT1078UDP):
		return fmt.Errorf("--jt1078-udp must be empty, off or host:port, not %q", c.JT1078UDP)
	case c.JT1078Via != "" && c.JT1078Via != "tcp" && c.JT1078Via != "udp":
		return fmt.Errorf("--jt1078-transport must be tcp or udp, not %q", c.JT1078Via)
	case c.JT1078Via == "udp" && c.JT1078UDP == "off":
		return fmt.Errorf("--jt1078-transport udp needs the UDP media socket (--jt1078-udp is off)")
	case c.VideoLossReport < 0:
		return fmt.Errorf("--video-loss-report cannot be negative")
	case c.JT1078Public != "" && !hostPort(c.JT1078Public):
		return fmt.Errorf("--jt1078-public must be host:port with a port from 1 to 65535, not %q", c.JT1078Public)
	case c.MaxTerminals < 0:
		return fmt.Errorf("--max-terminals cannot be negative")
	case c.JT808AuthTimeout < 0 || c.JT808HeartbeatWindow < 0 || c.JT808FailBlock < 0 || c.JT808ConflictEvery < 0:
		return fmt.Errorf("--jt808-auth-timeout, --jt808-heartbeat-window, --jt808-fail-block and --jt808-conflict-alarm-every cannot be negative")
	case c.JT808FailLimit < 0:
		return fmt.Errorf("--jt808-fail-limit cannot be negative")
	case c.HTTPMaxConns < 0:
		return fmt.Errorf("--http-max-conns cannot be negative")
	case c.HTTPMaxPerIP < 0:
		return fmt.Errorf("--http-max-conns-per-ip cannot be negative")
	case c.HistoryQueue < 100:
		return fmt.Errorf("--history-queue must be at least 100")
	case c.RawRetentionDays < 0:
		return fmt.Errorf("--raw-retention-days cannot be negative")
	case c.OfflineMinutes < 1:
		return fmt.Errorf("--offline-minutes must be at least 1")
	case c.MovingSpeed < 1:
		return fmt.Errorf("--moving-speed must be at least 1 km/h")
	case c.DemoHistoryCars < 0 || c.DemoHistoryCars > 100000:
		return fmt.Errorf("--demo-history-cars must be between 0 and 100000, not %d", c.DemoHistoryCars)
	case c.DemoVehicles < 0 || c.DemoVehicles > 100000:
		return fmt.Errorf("--demo-vehicles must be between 0 and 100000")
	case c.DemoSpeedup < 0 || c.DemoSpeedup > 1000:
		return fmt.Errorf("--demo-speedup must be between 0 and 1000")
	case c.DemoMisbehave < 0 || c.DemoMisbehave > 1000:
		return fmt.Errorf("--demo-misbehave must be between 0 and 1000")
	case c.DemoIncident != "" && !slices.Contains([]string{"valve_away", "seal_broken", "speeding", "long_parking", "help", "offline", "theft"}, c.DemoIncident):
		return fmt.Errorf("--demo-incident must be one of valve_away, seal_broken, speeding, long_parking, help, offline, theft, not %q", c.DemoIncident)
	case c.DemoInterval != 0 && (c.DemoInterval < time.Second || c.DemoInterval > time.Hour):
		return fmt.Errorf("--demo-interval must be between 1s and 1h")
	case c.GaugeInterval != 0 && (c.GaugeInterval < time.Second || c.GaugeInterval > 24*time.Hour):
		return fmt.Errorf("--gauge-interval must be between 1s and 24h")
	}
	return nil
}

// hostPort reports a host:port with a host and a port from 1 to 65535 (the address devices are told).
func hostPort(s string) bool {
	h, p, err := net.SplitHostPort(s)
	n, perr := strconv.Atoi(p)
	return err == nil && perr == nil && h != "" && n >= 1 && n <= 65535
}

// hostPortAny is a listen address: host (may be empty: every interface) and a port from 0 to 65535.
func hostPortAny(s string) bool {
	_, p, err := net.SplitHostPort(s)
	n, perr := strconv.Atoi(p)
	return err == nil && perr == nil && n >= 0 && n <= 65535
}
