package app

import (
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"tankwatch/internal/jt808/gateway"
	"tankwatch/internal/platform/httpx"
)

// HTTP deadlines. A client that opens a connection and sends nothing, or sends its headers or body a
// byte at a time, holds a file descriptor; these bound how long. Hijacked connections (the /ws/live
// and /mqtt WebSockets) lose them at the hijack (net/http clears the deadlines) and keep their own
// ping/idle rules.
const (
	httpReadHeaderTimeout = 10 * time.Second
	httpReadTimeout       = time.Minute // the whole request, body included: 1 MiB bodies at ≥ 20 KiB/s
	httpWriteTimeout      = 2 * time.Minute
	httpIdleTimeout       = time.Minute
)

// HTTP connection budget defaults (docs/DECISIONS.md D27).
const (
	// HTTPMaxConnsCeiling is the most HTTP connections one node holds by default.
	HTTPMaxConnsCeiling = 10000
	// httpFDHeadroom is kept out of the HTTP reserve for the database pool, the SQLite files and logs.
	httpFDHeadroom = 128
)

// DefaultHTTPMaxConns is the HTTP connection cap for a process allowed nofile open files. The JT/T 808
// gateway leaves a fifth of the limit (at least 512) for everything else (gateway.DefaultMaxConns,
// D22); HTTP takes that reserve less httpFDHeadroom, so neither port can starve the other of
// descriptors. 0 means the limit is unknown.
func DefaultHTTPMaxConns(nofile uint64) int {
	if nofile == 0 {
		return 4096
	}
	reserve := int(max(nofile/5, 512))
	if gw := gateway.DefaultMaxConns(nofile); int(nofile)-gw > reserve {
		reserve = int(nofile) - gw // the gateway's ceiling left more than a fifth
	}
	return min(max(reserve-httpFDHeadroom, 256), HTTPMaxConnsCeiling)
}

// httpLimits are the connection caps of cfg: explicit, or derived from the open-file limit.
func (a *App) httpLimits() httpx.ConnLimits {
	total := a.Cfg.HTTPMaxConns
	if total == 0 {
		total = DefaultHTTPMaxConns(gateway.OpenFileLimit())
	}
	proxies, _ := httpx.ParseTrustedProxies(a.Cfg.TrustedProxies) // validated with the config
	return httpx.ConnLimits{Total: total, PerAddr: a.Cfg.HTTPMaxPerIP, Exempt: proxies}
}

// ListenHTTP listens on addr with the HTTP connection budget and registers its metrics.
func (a *App) ListenHTTP(addr string) (*httpx.LimitListener, error) {
	raw, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	lim := a.httpLimits()
	ln := httpx.NewLimitListener(raw, lim)
	a.registry.MustRegister(
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "tankwatch_http_open_connections",
			Help: "HTTP connections held now, WebSockets included."},
			func() float64 { return float64(ln.Stats().Open) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "tankwatch_http_rejected_connections_total",
			Help:        "HTTP connections closed at accept: the total cap or the client address's cap was reached.",
			ConstLabels: prometheus.Labels{"cap": "total"}},
			func() float64 { return float64(ln.Stats().RefusedTotal) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "tankwatch_http_rejected_connections_total",
			Help:        "HTTP connections closed at accept: the total cap or the client address's cap was reached.",
			ConstLabels: prometheus.Labels{"cap": "address"}},
			func() float64 { return float64(ln.Stats().RefusedAddr) }),
	)
	a.Log.Info("HTTP connection budget", "max_conns", lim.Total, "max_conns_per_ip", lim.PerAddr,
		"exempt_proxies", len(lim.Exempt), "open_file_limit", gateway.OpenFileLimit())
	return ln, nil
}

// HTTPServer is the console/API server of h (a.Handler(), built once: it registers metrics) with its
// deadlines.
func (a *App) HTTPServer(h http.Handler) *http.Server {
	return &http.Server{Handler: h, ReadHeaderTimeout: httpReadHeaderTimeout, ReadTimeout: httpReadTimeout,
		WriteTimeout: httpWriteTimeout, IdleTimeout: httpIdleTimeout,
		ErrorLog: slog.NewLogLogger(a.Log.Handler(), slog.LevelWarn)}
}
