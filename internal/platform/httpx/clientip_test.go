package httpx

import (
	"net/http/httptest"
	"testing"
)

func TestClientIP(t *testing.T) {
	proxies, err := ParseTrustedProxies(" 10.0.0.0/8, 127.0.0.1 ,::1")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ParseTrustedProxies("10.0.0.0/8,proxy"); err == nil {
		t.Error("a host name was accepted as a proxy")
	}
	for _, c := range []struct {
		name, remote, xff string
		trust             bool
		want              string
	}{
		{"no proxies configured: the peer, whatever the header says", "203.0.113.9:5000", "1.2.3.4", false, "203.0.113.9"},
		{"an untrusted peer cannot claim another address", "203.0.113.9:5000", "1.2.3.4", true, "203.0.113.9"},
		{"a trusted proxy: the client it names", "127.0.0.1:5000", "198.51.100.7", true, "198.51.100.7"},
		{"a chain: the right-most address that is not a proxy", "10.1.1.1:5000", "6.6.6.6, 198.51.100.7, 10.2.2.2", true, "198.51.100.7"},
		{"a trusted proxy without the header: the proxy", "127.0.0.1:5000", "", true, "127.0.0.1"},
		{"garbage in the header: the last vouched-for address", "127.0.0.1:5000", "198.51.100.7, not-an-ip", true, "127.0.0.1"},
		{"IPv6 proxy and client", "[::1]:5000", "2001:db8::5", true, "2001:db8::5"},
	} {
		if c.trust {
			SetTrustedProxies(proxies)
		} else {
			SetTrustedProxies(nil)
		}
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = c.remote
		if c.xff != "" {
			r.Header.Set("X-Forwarded-For", c.xff)
		}
		if got := ClientIP(r); got != c.want {
			t.Errorf("%s: ClientIP = %q, want %q", c.name, got, c.want)
		}
	}
	SetTrustedProxies(nil)
}
