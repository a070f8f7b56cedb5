package httpx

import (
	"net/http"
	"regexp"
	"strings"
	"sync/atomic"
)

// CSP is the console's Content-Security-Policy for map tiles from tileHosts (the --map-tiles source's
// hosts; none when tiles are off). Each directive says why it is as wide as it is:
//   - script-src 'self': the built console has no inline script and no eval.
//   - style-src 'unsafe-inline': Ant Design (CSS-in-JS) injects <style> elements and Leaflet and
//     ECharts set style attributes; styles cannot run code, so this is the accepted trade.
//   - img-src data: blob: and the tile hosts: logos are data: URLs until saved, exports are blob:
//     downloads, map tiles come from the configured tile server.
//   - connect-src 'self' plus ws(s)://<host>: the API, /ws/live and /mqtt are on the console's own
//     origin (the explicit WebSocket origins are for browsers whose 'self' does not cover ws:).
//   - worker-src/media-src blob: video players feed MediaSource from blob: URLs and may start a
//     worker from one.
//   - frame-ancestors 'none' (and X-Frame-Options DENY): nothing may frame the console (clickjacking).
func CSP(tileHosts []string, host string) string { return newPolicy(tileHosts).with(host) }

// policy is the CSP without its one per-request part, the WebSocket origins of the Host the console
// was reached by, so that a response pays for that part only.
type policy struct {
	head, tail string
	last       atomic.Pointer[[2]string] // the last host and its policy: nearly every request has the same host
}

func newPolicy(tileHosts []string) *policy {
	img := "img-src 'self' data: blob:"
	if len(tileHosts) > 0 {
		img += " " + strings.Join(tileHosts, " ")
	}
	return &policy{
		head: strings.Join([]string{"default-src 'self'", "script-src 'self'", "style-src 'self' 'unsafe-inline'", img,
			"font-src 'self' data:", "connect-src 'self'"}, "; "),
		tail: strings.Join([]string{"worker-src 'self' blob:", "media-src 'self' blob:", "object-src 'none'",
			"base-uri 'self'", "form-action 'self'", "frame-ancestors 'none'"}, "; "),
	}
}

func (p *policy) with(host string) string {
	if l := p.last.Load(); l != nil && l[0] == host {
		return l[1]
	}
	connect := ""
	if validHost.MatchString(host) {
		connect = " ws://" + host + " wss://" + host
	}
	v := p.head + connect + "; " + p.tail
	p.last.Store(&[2]string{host, v})
	return v
}

// validHost is a Host header fit to be written into the policy (name or address, optional port).
var validHost = regexp.MustCompile(`^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(:[0-9]{1,5})?$`)

// SecurityHeaders sets the browser protections on every response: the CSP for tiles from tileHosts,
// no framing, no MIME sniffing, and no full URLs leaked to other sites (the tile servers still get
// the origin, which OpenStreetMap's tile policy asks for).
func SecurityHeaders(h http.Handler, tileHosts []string) http.Handler {
	csp := newPolicy(tileHosts)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		hd.Set("Content-Security-Policy", csp.with(r.Host))
		hd.Set("X-Frame-Options", "DENY")
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("Referrer-Policy", "strict-origin-when-cross-origin")
		h.ServeHTTP(w, r)
	})
}
