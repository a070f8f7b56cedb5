package httpx

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync/atomic"
)

// trustedProxies are the reverse proxies whose X-Forwarded-For is believed (--trusted-proxies).
var trustedProxies atomic.Pointer[[]netip.Prefix]

// ParseTrustedProxies reads a comma-separated list of addresses and CIDR ranges ("" is none).
func ParseTrustedProxies(s string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if p, err := netip.ParsePrefix(f); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(f)
		if err != nil {
			return nil, fmt.Errorf("%q is neither an address nor a CIDR range", f)
		}
		out = append(out, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
	}
	return out, nil
}

// SetTrustedProxies sets the proxies whose forwarded address ClientIP believes (process-wide, like the
// listener it describes). nil trusts none.
func SetTrustedProxies(p []netip.Prefix) { trustedProxies.Store(&p) }

func trusted(list []netip.Prefix, ip string) bool {
	a, err := netip.ParseAddr(ip)
	if err != nil {
		return false
	}
	a = a.Unmap()
	for _, p := range list {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// ClientIP is the address of the client: the peer, or — when the peer is a trusted proxy — the
// right-most address of X-Forwarded-For that is not itself a trusted proxy. Only trusted proxies are
// believed, because anyone can send the header; the login limiter, the operation log and the password
// viewing records depend on this address.
func ClientIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	list := trustedProxies.Load()
	if list == nil || len(*list) == 0 || !trusted(*list, host) {
		return host
	}
	hops := strings.Split(strings.Join(r.Header.Values("X-Forwarded-For"), ","), ",")
	for i := len(hops) - 1; i >= 0; i-- {
		h := strings.TrimSpace(hops[i])
		if h == "" {
			continue
		}
		a, err := netip.ParseAddr(h)
		if err != nil {
			return host // a forged or broken entry: stop at the last address we can vouch for
		}
		if !trusted(*list, h) {
			return a.Unmap().String()
		}
		host = a.Unmap().String()
	}
	return host
}
