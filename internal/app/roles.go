package app

import (
	"strings"

	"tankwatch/internal/platform/config"
	"tankwatch/internal/platform/httpx"
)

// roles names this node's duties for the log (--roles, D93).
func (a *App) roles() string {
	var out []string
	for _, r := range config.Roles {
		if a.Cfg.Serves(r) {
			out = append(out, r)
		}
	}
	return strings.Join(out, ",")
}

// probeRoutes are what a node without the api role answers on its HTTP port: the load balancer's
// and the orchestrator's probes, and /metrics under the same rule as on any node (a token with 06-11,
// which any api node issues: tokens live in the shared store, unless --metrics serves it apart).
func (a *App) probeRoutes() []httpx.Route {
	var rs []httpx.Route
	for _, r := range a.systemRoutes() {
		if r.Path != "/" {
			rs = append(rs, r)
		}
	}
	return rs
}
