package httpx

import (
	"errors"
	"net"
	"net/netip"
	"testing"
	"time"
)

// dialFrom connects to addr from the loopback source src (Linux accepts any 127.x source).
func dialFrom(t *testing.T, src, addr string) net.Conn {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(src)}}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// acceptLoop accepts from l until it is closed, handing connections to got.
func acceptLoop(l net.Listener) chan net.Conn {
	got := make(chan net.Conn, 100)
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				close(got)
				return
			}
			got <- c
		}
	}()
	return got
}

// closedByServer reports whether the server closed c (a read ends with EOF or a reset at once,
// whereas a held connection has nothing to read).
func closedByServer(c net.Conn) bool {
	_ = c.SetReadDeadline(time.Now().Add(2 * time.Second))
	_, err := c.Read(make([]byte, 1))
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return false
	}
	return err != nil
}

func TestLimitListener(t *testing.T) {
	raw, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	proxy := netip.MustParsePrefix("127.0.0.4/32")
	l := NewLimitListener(raw, ConnLimits{Total: 8, PerAddr: 3, Exempt: []netip.Prefix{proxy}})
	defer l.Close()
	got := acceptLoop(l)
	addr := raw.Addr().String()

	// One address: three held, the fourth and fifth closed at accept.
	var held []net.Conn
	for range 3 {
		dialFrom(t, "127.0.0.2", addr)
		held = append(held, <-got)
	}
	late := []net.Conn{dialFrom(t, "127.0.0.2", addr), dialFrom(t, "127.0.0.2", addr)}
	waitStats(t, l, func(s ConnStats) bool { return s.RefusedAddr == 2 })
	for _, c := range late {
		if !closedByServer(c) {
			t.Fatal("a connection beyond the per-address cap was held")
		}
	}
	// Another address is unaffected.
	dialFrom(t, "127.0.0.3", addr)
	held = append(held, <-got)
	// The trusted proxy is held only to the total: 4 more reach the total of 8.
	for range 4 {
		dialFrom(t, "127.0.0.4", addr)
		held = append(held, <-got)
	}
	if s := l.Stats(); s.Open != 8 || s.ByAddr["127.0.0.4"] != 4 || s.ByAddr["127.0.0.2"] != 3 {
		t.Fatalf("stats %+v", s)
	}
	// At the total every address is refused, the proxy too.
	over := dialFrom(t, "127.0.0.5", addr)
	waitStats(t, l, func(s ConnStats) bool { return s.RefusedTotal == 1 })
	if !closedByServer(over) {
		t.Fatal("a connection beyond the total was held")
	}
	// Closing gives the place back, once even when closed twice (a hijacked connection is closed by
	// its WebSocket handler, maybe again by the server).
	_ = held[0].Close()
	_ = held[0].Close()
	if s := l.Stats(); s.Open != 7 || s.ByAddr["127.0.0.2"] != 2 {
		t.Fatalf("after close: %+v", s)
	}
	dialFrom(t, "127.0.0.2", addr)
	<-got
	if s := l.Stats(); s.Open != 8 || s.ByAddr["127.0.0.2"] != 3 {
		t.Fatalf("after reconnect: %+v", s)
	}
	for _, c := range held[1:] {
		_ = c.Close()
	}
}

func waitStats(t *testing.T, l *LimitListener, cond func(ConnStats) bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond(l.Stats()) {
		if time.Now().After(deadline) {
			t.Fatalf("stats never matched: %+v", l.Stats())
		}
		time.Sleep(5 * time.Millisecond)
	}
}
