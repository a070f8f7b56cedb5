package gateway

import (
	"net"
	"strings"
	"sync"
	"time"

	"tankwatch/internal/jt808"
	"tankwatch/internal/platform/plate"
)

// Why a registration or authentication was refused (the label of tankwatch_jt808_refusals_total).
// The terminal hears the same answer for each of them (0x8100 result 4, 0x8001 result 1): a stranger
// learns nothing about which numbers exist.
const (
	refuseUnknown   = "unknown"      // no enabled terminal has the phone number
	refuseNoVehicle = "no_vehicle"   // the terminal is bound to no car
	refuseIdentity  = "identity"     // terminal ID or plate do not match the registry
	refuseAuthCode  = "auth_code"    // 0x0102 with a code the terminal was not issued
	refuseLive      = "live_session" // the terminal has a live session on another connection
	refuseLimited   = "rate_limited" // the address failed too often
)

var refuseReasons = []string{refuseUnknown, refuseNoVehicle, refuseIdentity, refuseAuthCode, refuseLive, refuseLimited}

// identityMatches reports whether a 0x0100 proves more than the phone number: the terminal ID the
// registry holds for the terminal and, when it is bound to a car, the car's plate (or, for a 2019
// terminal that sends plate colour 0 and its VIN instead, the car's VIN). A terminal with no ID in the
// registry never matches: the operator has to enter it (docs/PROTOCOL.md).
func identityMatches(t Terminal, m *jt808.Register) bool {
	id := strings.TrimSpace(m.TerminalID)
	if t.DeviceID == "" || !strings.EqualFold(id, strings.TrimSpace(t.DeviceID)) {
		return false
	}
	if t.Plate == "" {
		return true
	}
	if m.PlateColor == jt808.PlateNone && t.VIN != "" {
		return platesMatch(m.Plate, t.VIN)
	}
	return platesMatch(m.Plate, t.Plate)
}

// platesMatch compares a plate a terminal sent with the registry's by the platform's one plate key
// (D30): terminals are configured by hand and do not agree on the dot. Padding NULs are not the plate.
func platesMatch(sent, registered string) bool {
	return plate.Key(strings.Trim(sent, "\x00 ")) == plate.Key(registered)
}

// hostOf is the address part of a peer "host:port" (the key of the failure limit: behind a carrier
// NAT every terminal shares it, which is why the limit counts failures only).
func hostOf(peer string) string {
	if h, _, err := net.SplitHostPort(peer); err == nil {
		return h
	}
	return peer
}

// failLimiter blocks the addresses that fail registration or authentication too often. It estimates the
// failures of the last window by a sliding window over two fixed ones (the previous window's count,
// weighted by how much of it still overlaps, plus the current count), so that a burst across a window
// boundary counts once. Honest terminals do not fail, so the limit can be far below what a carrier NAT
// of hundreds of terminals sends in registrations.
type failLimiter struct {
	p FailPolicy

	mu        sync.Mutex
	m         map[string]*failCount
	lastPrune time.Time
}

type failCount struct {
	start     time.Time // of the current window
	cur, prev int
	until     time.Time // blocked until
}

// maxTracked bounds the limiter's memory; beyond it, new addresses are not tracked until a prune.
const maxTracked = 100000

func newFailLimiter(p FailPolicy) *failLimiter {
	return &failLimiter{p: p, m: map[string]*failCount{}}
}

// blocked reports whether addr is blocked at now.
func (l *failLimiter) blocked(addr string, now time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	c := l.m[addr]
	return c != nil && now.Before(c.until)
}

// fail counts a failure of addr at now and reports whether it blocked the address.
func (l *failLimiter) fail(addr string, now time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if now.Sub(l.lastPrune) >= l.p.Window {
		l.prune(now)
	}
	c := l.m[addr]
	if c == nil {
		if len(l.m) >= maxTracked {
			return false
		}
		c = &failCount{start: now}
		l.m[addr] = c
	}
	if now.Before(c.until) {
		return false // already blocked: attempts are refused without counting
	}
	switch el := now.Sub(c.start); {
	case el >= 2*l.p.Window:
		c.start, c.cur, c.prev = now, 0, 0
	case el >= l.p.Window:
		c.start, c.prev, c.cur = c.start.Add(l.p.Window), c.cur, 0
	}
	c.cur++
	if l.p.Reached(c.prev, c.cur, c.start, now) {
		c.until, c.cur, c.prev = now.Add(l.p.Block), 0, 0
		return true
	}
	return false
}

// prune forgets addresses neither blocked nor failing in the last two windows.
func (l *failLimiter) prune(now time.Time) {
	l.lastPrune = now
	for a, c := range l.m {
		if !now.Before(c.until) && now.Sub(c.start) >= 2*l.p.Window {
			delete(l.m, a)
		}
	}
}

// conflict is a refused attempt to take over a live session's terminal, kept on the live session: it
// becomes an alarm only if the live session is heard from again. A session that is in fact half-open
// (its terminal reconnected through a rebinding NAT) stays silent and is replaced; the terminal's own
// reconnection must not alarm the dispatchers.
type conflict struct {
	peer  string
	msgID uint16
	at    time.Time
}

// Conflict is an identity-conflict alarm to raise: another connection claimed a terminal (with a
// matching identity or auth code) while the terminal's live session went on talking.
type Conflict struct {
	Terminal Terminal
	Peer     string // the other connection's address
	MsgID    uint16 // 0x0100 or 0x0102
	At       time.Time
	Attempts int // refused attempts since the last alarm of this terminal (this one included)
}
