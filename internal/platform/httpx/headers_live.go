package httpx

import (
	"net/http"
	"strings"
	"sync/atomic"
)

// SecurityHeadersLive is SecurityHeaders for tile hosts that change at run time (the map provider of
// the system settings): the policy is rebuilt when tileHosts() answers differently.
func SecurityHeadersLive(h http.Handler, tileHosts func() []string) http.Handler {
	type built struct {
		key string
		p   *policy
	}
	var cur atomic.Pointer[built]
	policyFor := func() *policy {
		hosts := tileHosts()
		key := strings.Join(hosts, " ")
		if b := cur.Load(); b != nil && b.key == key {
			return b.p
		}
		b := &built{key: key, p: newPolicy(hosts)}
		cur.Store(b)
		return b.p
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		hd.Set("Content-Security-Policy", policyFor().with(r.Host))
		hd.Set("X-Frame-Options", "DENY")
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("Referrer-Policy", "strict-origin-when-cross-origin")
		h.ServeHTTP(w, r)
	})
}
