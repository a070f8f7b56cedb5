package app

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"tankwatch/internal/platform/httpx"
)

// TileHosts are the origins the console loads map tiles from for a --map-tiles source; they must
// match web/src/components/map/MapView.tsx (GAODE_URL, OSM_URL), or the CSP blocks the map.
func TileHosts(source string) []string {
	switch source {
	case "", "gaode":
		return []string{"https://*.is.autonavi.com"}
	case "osm":
		return []string{"https://tile.openstreetmap.org"}
	}
	return nil // none: offline, no tiles
}

// notFound answers a request no route took: 405 with Allow when the path exists for other methods,
// else a JSON 404 in the caller's language.
func notFound(mux *http.ServeMux, w http.ResponseWriter, r *http.Request) {
	var allow []string
	if mux != nil {
		for _, m := range []string{"GET", "POST", "PUT", "DELETE", "PATCH"} {
			if m == r.Method || (m == "GET" && r.Method == "HEAD") {
				continue
			}
			probe := r.Clone(r.Context())
			probe.Method = m
			if _, pat := mux.Handler(probe); pat != "" && pat != "/" && pat != "GET /" {
				allow = append(allow, m)
			}
		}
	}
	if len(allow) > 0 {
		w.Header().Set("Allow", strings.Join(allow, ", "))
		httpx.Fail(w, r, &httpx.Error{Status: http.StatusMethodNotAllowed, Key: "route.method"})
		return
	}
	httpx.Fail(w, r, &httpx.Error{Status: http.StatusNotFound, Key: "route.notFound"})
}

// serveMetrics serves Prometheus /metrics unauthenticated on its own listener (--metrics), for a
// scraper on a private network; the public port then has no /metrics.
func serveMetrics(ctx context.Context, addr string, reg *prometheus.Registry, log *slog.Logger) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: time.Minute, IdleTimeout: time.Minute}
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	go func() { _ = srv.Serve(ln) }()
	log.Info("metrics listening", "addr", "http://"+ln.Addr().String()+"/metrics")
	return nil
}
