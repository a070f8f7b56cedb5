package httpx

import (
	"net"
	"net/netip"
	"sync"
	"sync/atomic"
)

// ConnLimits bound the connections the HTTP listener holds at once. Every connection holds a file
// descriptor until it closes, and at the process's open-file limit accept fails for every listener,
// the JT/T 808 gateway's too: a flood of slow or idle HTTP connections must run into these caps long
// before that (docs/DECISIONS.md D27).
type ConnLimits struct {
	// Total is the most connections held at once, WebSockets (/ws/live, /mqtt) included; 0: no cap.
	Total int
	// PerAddr is the most held for one peer address; 0: no cap.
	PerAddr int
	// Exempt peers are not held to PerAddr (only to Total): behind a reverse proxy every connection
	// comes from the proxy, and the client's address is known only from X-Forwarded-For, after accept.
	Exempt []netip.Prefix
}

// LimitListener closes, right after accept, a connection that would exceed its ConnLimits. A closed
// connection is told nothing: the client sees the connection reset or closed and may retry later.
// Counting ends when the connection is closed, whoever closes it: the server, or the WebSocket
// handler that hijacked it.
type LimitListener struct {
	net.Listener
	lim ConnLimits

	mu     sync.Mutex
	open   int
	byAddr map[netip.Addr]int

	refusedTotal atomic.Int64
	refusedAddr  atomic.Int64
}

// NewLimitListener wraps ln with lim.
func NewLimitListener(ln net.Listener, lim ConnLimits) *LimitListener {
	return &LimitListener{Listener: ln, lim: lim, byAddr: map[netip.Addr]int{}}
}

// Accept returns the next connection within the limits; those beyond are closed and counted.
func (l *LimitListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		ip := peerAddr(c.RemoteAddr())
		switch l.acquire(ip) {
		case admitted:
			return &limitedConn{Conn: c, l: l, ip: ip}, nil
		case overTotal:
			_ = c.Close()
			l.refusedTotal.Add(1)
		case overAddr:
			_ = c.Close()
			l.refusedAddr.Add(1)
		}
	}
}

type verdict int

const (
	admitted verdict = iota
	overTotal
	overAddr
)

func (l *LimitListener) acquire(ip netip.Addr) verdict {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.lim.Total > 0 && l.open >= l.lim.Total {
		return overTotal
	}
	if l.lim.PerAddr > 0 && l.byAddr[ip] >= l.lim.PerAddr && !l.exempt(ip) {
		return overAddr
	}
	l.open++
	l.byAddr[ip]++
	return admitted
}

func (l *LimitListener) release(ip netip.Addr) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.open--
	if n := l.byAddr[ip] - 1; n > 0 {
		l.byAddr[ip] = n
	} else {
		delete(l.byAddr, ip)
	}
}

func (l *LimitListener) exempt(ip netip.Addr) bool {
	for _, p := range l.lim.Exempt {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}

// ConnStats is a snapshot of a LimitListener's counters.
type ConnStats struct {
	Open         int            // connections held now
	ByAddr       map[string]int // connections held now per peer address
	RefusedTotal int64          // closed at accept because Total was reached
	RefusedAddr  int64          // closed at accept because the peer's PerAddr was reached
}

// Stats returns the current counters.
func (l *LimitListener) Stats() ConnStats {
	l.mu.Lock()
	defer l.mu.Unlock()
	s := ConnStats{Open: l.open, ByAddr: make(map[string]int, len(l.byAddr)),
		RefusedTotal: l.refusedTotal.Load(), RefusedAddr: l.refusedAddr.Load()}
	for a, n := range l.byAddr {
		s.ByAddr[a.String()] = n
	}
	return s
}

// peerAddr is the IP of a TCP peer (IPv4-mapped IPv6 unmapped, so both forms count as one); the zero
// Addr for anything else, which then shares one per-address budget.
func peerAddr(a net.Addr) netip.Addr {
	if ta, ok := a.(*net.TCPAddr); ok {
		if ip, ok := netip.AddrFromSlice(ta.IP); ok {
			return ip.Unmap()
		}
	}
	if ap, err := netip.ParseAddrPort(a.String()); err == nil {
		return ap.Addr().Unmap()
	}
	return netip.Addr{}
}

// limitedConn gives its place back once, on the first Close.
type limitedConn struct {
	net.Conn
	l    *LimitListener
	ip   netip.Addr
	once sync.Once
}

func (c *limitedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() { c.l.release(c.ip) })
	return err
}
