package gateway

import (
	"bytes"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"tankwatch/internal/jt808"
)

func TestIdentityMatches(t *testing.T) {
	car := Terminal{DeviceID: "T000001", Plate: "苏A·12345", CarID: 1}
	vin := Terminal{DeviceID: "T000001", Plate: "苏A·12345", VIN: "LFWADRJF011002346", CarID: 1}
	for _, c := range []struct {
		name string
		t    Terminal
		m    jt808.Register
		want bool
	}{
		{"ID and plate", car, jt808.Register{TerminalID: "T000001", PlateColor: jt808.PlateYellow, Plate: "苏A·12345"}, true},
		{"plate without the dot", car, jt808.Register{TerminalID: "T000001", PlateColor: jt808.PlateYellow, Plate: "苏A12345"}, true},
		{"plate in lower case with a space", car, jt808.Register{TerminalID: "T000001", PlateColor: jt808.PlateBlue, Plate: "苏a 12345"}, true},
		{"ID in lower case", car, jt808.Register{TerminalID: "t000001", PlateColor: jt808.PlateYellow, Plate: "苏A12345"}, true},
		{"wrong ID", car, jt808.Register{TerminalID: "T000002", PlateColor: jt808.PlateYellow, Plate: "苏A12345"}, false},
		{"no ID", car, jt808.Register{PlateColor: jt808.PlateYellow, Plate: "苏A12345"}, false},
		{"wrong plate", car, jt808.Register{TerminalID: "T000001", PlateColor: jt808.PlateYellow, Plate: "苏A12346"}, false},
		{"no plate sent", car, jt808.Register{TerminalID: "T000001", PlateColor: jt808.PlateYellow}, false},
		{"colour 0 does not skip the plate", car, jt808.Register{TerminalID: "T000001", PlateColor: jt808.PlateNone, Plate: "anything"}, false},
		{"colour 0 with the car's VIN", vin, jt808.Register{TerminalID: "T000001", PlateColor: jt808.PlateNone, Plate: "lfwadrjf011002346"}, true},
		{"colour 0 with another VIN", vin, jt808.Register{TerminalID: "T000001", PlateColor: jt808.PlateNone, Plate: "LFWADRJF011002347"}, false},
		{"registry without an ID", Terminal{Plate: "苏A·12345"}, jt808.Register{PlateColor: jt808.PlateYellow, Plate: "苏A12345"}, false},
		{"no car: the ID decides", Terminal{DeviceID: "T000001"}, jt808.Register{TerminalID: "T000001", Plate: "x"}, true},
	} {
		if got := identityMatches(c.t, &c.m); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

func TestFailLimiter(t *testing.T) {
	t0 := time.Date(2026, 11, 25, 8, 0, 0, 0, time.UTC)
	l := newFailLimiter(FailPolicy{Limit: 3, Window: time.Minute, Block: 5 * time.Minute})
	at := func(d time.Duration) time.Time { return t0.Add(d) }
	if l.fail("a", at(0)) || l.fail("a", at(time.Second)) {
		t.Fatal("blocked before the limit")
	}
	if l.blocked("a", at(2*time.Second)) || l.blocked("b", at(2*time.Second)) {
		t.Fatal("blocked at 2 failures")
	}
	if !l.fail("a", at(3*time.Second)) || !l.blocked("a", at(3*time.Second)) {
		t.Fatal("the third failure in a minute does not block")
	}
	if l.blocked("b", at(3*time.Second)) {
		t.Fatal("another address blocked")
	}
	if !l.blocked("a", at(5*time.Minute+2*time.Second)) || l.blocked("a", at(5*time.Minute+3*time.Second)) {
		t.Fatal("the block does not last exactly FailBlock")
	}
	// two failures just before a window ends and one just after: still three within a minute
	l.fail("c", at(50*time.Second))
	l.fail("c", at(55*time.Second))
	if !l.fail("c", at(65*time.Second)) {
		t.Error("failures across a window boundary are not counted together")
	}
	// spread out, they never block
	for i := range 100 {
		if l.fail("d", at(time.Duration(i)*40*time.Second)) {
			t.Fatalf("blocked at failure %d, one every 40 s", i)
		}
	}
}

// clock is a settable clock for Config.Now.
type clock struct{ ns atomic.Int64 }

func newClock() *clock {
	c := &clock{}
	c.ns.Store(time.Date(2026, 11, 25, 8, 0, 0, 0, time.UTC).UnixNano())
	return c
}

func (c *clock) now() time.Time          { return time.Unix(0, c.ns.Load()) }
func (c *clock) advance(d time.Duration) { c.ns.Add(int64(d)) }

// rawReply reads the next frame from the gateway as the bytes on the wire.
func (c *client) rawReply() []byte {
	c.t.Helper()
	_ = c.conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	raw, err := c.sp.Next()
	if err != nil {
		c.t.Fatal(err)
	}
	return append([]byte(nil), raw...)
}

// A stranger who knows a terminal's phone number but not its terminal ID hears exactly what a number
// that does not exist hears.
func TestStrangerWithPhoneOnly(t *testing.T) {
	known := start(t, Config{}, true, nil)
	unknown := start(t, Config{}, true, nil)
	delete(unknown.reg.terms, "13800138001")
	var replies [][]byte
	for _, e := range []*env{known, unknown} {
		c := dial(t, e.addr, jt808.V2013, term1.Phone)
		c.send(&jt808.Register{Province: 44, City: 307, Manufacturer: "70111", Model: "TW-808T", TerminalID: "T999999",
			PlateColor: jt808.PlateYellow, Plate: term1.Plate})
		replies = append(replies, c.rawReply())
	}
	if !bytes.Equal(replies[0], replies[1]) {
		t.Fatalf("known number, wrong ID: % x\nunknown number:        % x", replies[0], replies[1])
	}
	f, _, err := jt808.DecodeFrame(nil, replies[0])
	var r jt808.RegisterReply
	if err != nil || r.DecodeBody(f.Body, f.Header.Version) != nil || r.Result != jt808.RegisterTerminalUnknown || r.AuthCode != "" {
		t.Fatalf("reply %+v %v", r, err)
	}
	if known.reg.code(term1.ID) != "" {
		t.Error("a code was issued")
	}
	for _, e := range []*env{known, unknown} {
		reason := map[*env]string{known: refuseIdentity, unknown: refuseUnknown}[e]
		if got := value(t, e.srv.m.refusals.WithLabelValues(reason)); got != 1 {
			t.Errorf("refusals{%s} = %v", reason, got)
		}
	}
}

// A takeover with the right phone, terminal ID, plate and even the auth code is refused while the
// real terminal's session is live; the real session goes on, its code is unchanged, and one
// identity-conflict alarm names the other connection.
func TestTakeoverRefusedWhileLive(t *testing.T) {
	e := start(t, Config{FailLimit: 3}, true, nil) // refusals for a live session do not count as failures
	var mu sync.Mutex
	var raised []Conflict
	e.srv.OnConflict(func(c Conflict) { mu.Lock(); raised = append(raised, c); mu.Unlock() })
	real := e.dial(jt808.V2013, term1.Phone)
	real.login()
	code := e.reg.code(term1.ID)

	for round := range 2 {
		thief := e.dial(jt808.V2013, term1.Phone)
		if r, _ := thief.registerAs(term1.DeviceID, term1.Plate); r.Result != jt808.RegisterTerminalUnknown || r.AuthCode != "" {
			t.Fatalf("round %d: takeover registration answered %+v", round, r)
		}
		if e.reg.code(term1.ID) != code {
			t.Fatal("the refused registration changed the auth code")
		}
		serial := thief.send(&jt808.Auth{AuthCode: code}) // sniffed off the wire
		thief.ack(serial, jt808.MsgAuth, jt808.ResultFailure)
		thief.closed()
		// the real terminal still reports, acknowledged and stored under its own session
		serial = real.send(location(int32(22543096 + round)))
		real.ack(serial, jt808.MsgLocation, jt808.ResultOK)
		if sub := e.sink.next(t, withReports); sub.reports[0].TerminalID != term1.ID {
			t.Fatalf("report of terminal %d", sub.reports[0].TerminalID)
		}
	}
	if !e.srv.Online(term1.ID) || e.reg.code(term1.ID) != code {
		t.Error("the real session or its code did not survive")
	}
	// raised when the real session talked on, once for both rounds (ConflictEvery)
	if got := value(t, e.srv.m.conflicts); got != 1 {
		t.Errorf("conflict alarms %v, want 1", got)
	}
	if got := value(t, e.srv.m.refusals.WithLabelValues(refuseLive)); got != 4 {
		t.Errorf("refusals{live_session} = %v, want 4", got)
	}
	if got := value(t, e.srv.m.blocked); got != 0 {
		t.Errorf("the address was blocked for attempts on a live session (what a rebound NAT's terminals all do)")
	}
	waitFor(t, func() bool { mu.Lock(); defer mu.Unlock(); return len(raised) == 1 })
	c := raised[0]
	if c.Terminal.ID != term1.ID || c.Terminal.CarID != term1.CarID || c.MsgID != jt808.MsgRegister || c.Attempts != 2 {
		t.Errorf("conflict %+v", c)
	}
	if host, _, err := net.SplitHostPort(c.Peer); err != nil || host != "127.0.0.1" || c.Peer == real.conn.LocalAddr().String() {
		t.Errorf("conflict names %q, not the other connection", c.Peer)
	}
}

// A terminal whose connection dropped registers and authenticates again as before.
func TestReRegisterAfterDrop(t *testing.T) {
	e := start(t, Config{}, true, nil)
	first := e.dial(jt808.V2019, term2.Phone)
	first.login()
	_ = first.conn.Close()
	waitFor(t, func() bool { return !e.srv.Online(term2.ID) })
	again := e.dial(jt808.V2019, term2.Phone)
	again.login()
	serial := again.send(location(1))
	again.ack(serial, jt808.MsgLocation, jt808.ResultOK)
	if got := value(t, e.srv.m.conflicts); got != 0 {
		t.Errorf("conflict alarms %v", got)
	}
}

// Half-open: the terminal reconnected through a NAT that rebound, the server still holds the old
// connection. Refused while the old one could be live; once it has been silent a heartbeat window the
// new one gets through, the old one is closed, and no alarm is raised (the old one never talked on).
func TestHalfOpenReplacedAfterHeartbeatWindow(t *testing.T) {
	clk := newClock()
	e := start(t, Config{Now: clk.now, HeartbeatWindow: time.Minute}, true, nil)
	old := e.dial(jt808.V2013, term1.Phone)
	old.login()
	nu := e.dial(jt808.V2013, term1.Phone)
	clk.advance(59 * time.Second)
	if r, _ := nu.registerAs(term1.DeviceID, term1.Plate); r.Result != jt808.RegisterTerminalUnknown {
		t.Fatalf("within the window: %+v", r)
	}
	clk.advance(time.Second)
	nu.login()
	old.closed()
	serial := nu.send(location(5))
	nu.ack(serial, jt808.MsgLocation, jt808.ResultOK)
	if !e.srv.Online(term1.ID) {
		t.Error("not online")
	}
	if got := value(t, e.srv.m.conflicts); got != 0 {
		t.Errorf("conflict alarms %v for a terminal's own reconnection", got)
	}
}

func dialFrom(t *testing.T, local, addr string, version jt808.Version, phone string) *client {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(local)}}
	conn, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return &client{t: t, conn: conn, sp: jt808.NewSplitter(conn, 0), version: version, phone: jt808.MustPhone(phone)}
}

// Failed registrations and authentications are limited per address; successes never count, and other
// addresses are not affected.
func TestFailLimitPerAddress(t *testing.T) {
	clk := newClock()
	e := start(t, Config{Now: clk.now, FailLimit: 3, FailBlock: 5 * time.Minute}, true, nil)
	honest := e.dial(jt808.V2013, term2.Phone)
	for range 10 { // successes from the address do not count
		honest.register()
	}
	guesser := dialFrom(t, "127.0.0.1", e.addr, jt808.V2013, term1.Phone)
	for _, id := range []string{"A000001", "A000002"} {
		if r, _ := guesser.registerAs(id, term1.Plate); r.Result != jt808.RegisterTerminalUnknown {
			t.Fatalf("guess %s: %+v", id, r)
		}
	}
	wrong := e.dial(jt808.V2013, term3.Phone)
	serial := wrong.send(&jt808.Auth{AuthCode: "guessed"})
	wrong.ack(serial, jt808.MsgAuth, jt808.ResultFailure) // the third failure: 127.0.0.1 is blocked
	if got := value(t, e.srv.m.blocked); got != 1 {
		t.Fatalf("blocked %v", got)
	}
	// now even the right identity from 127.0.0.1 is refused, with the same answer
	if r, _ := guesser.registerAs(term1.DeviceID, term1.Plate); r.Result != jt808.RegisterTerminalUnknown {
		t.Fatalf("blocked address registered: %+v", r)
	}
	if got := value(t, e.srv.m.refusals.WithLabelValues(refuseLimited)); got != 1 {
		t.Errorf("refusals{rate_limited} = %v", got)
	}
	// another address is served
	other := dialFrom(t, "127.0.0.2", e.addr, jt808.V2013, term1.Phone)
	other.termID, other.plate = term1.DeviceID, term1.Plate
	other.login()
	// after the block, 127.0.0.1 is served again
	clk.advance(5 * time.Minute)
	again := e.dial(jt808.V2011, term3.Phone)
	again.login()
}

// A connection that does not authenticate within AuthTimeout is closed, even while it sends valid
// frames; an authenticated one is not.
func TestUnauthenticatedConnectionClosed(t *testing.T) {
	e := start(t, Config{AuthTimeout: 100 * time.Millisecond}, true, nil)
	ok := e.dial(jt808.V2013, term1.Phone)
	ok.login()
	idler := e.dial(jt808.V2013, term2.Phone)
	idler.register() // a valid frame, and a code, but no authentication
	idler.closed()
	if got := value(t, e.srv.m.authClosed); got != 1 {
		t.Errorf("auth timeouts %v", got)
	}
	// ok opened before idler, so its authentication deadline has passed too
	serial := ok.send(&jt808.Empty{ID: jt808.MsgHeartbeat})
	ok.ack(serial, jt808.MsgHeartbeat, jt808.ResultOK)
	waitFor(t, func() bool { return e.srv.Sessions() == 1 })
}

// TestFailPolicyReached: the sliding-window estimate shared by this gateway's limiter and the
// cluster's count across the nodes (internal/cluster/fails.go).
func TestFailPolicyReached(t *testing.T) {
	p := FailPolicy{Limit: 10, Window: time.Minute}
	start := time.Date(2026, 11, 27, 8, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		prev, cur int
		into      time.Duration // since the current window's start
		want      bool
	}{
		{0, 9, 0, false},
		{0, 10, 0, true},
		{10, 0, 0, true},                  // the whole previous window still overlaps
		{10, 0, time.Second, false},       // 10 × 59/60
		{10, 5, 30 * time.Second, true},   // 10 × ½ + 5
		{10, 4, 30 * time.Second, false},  // 10 × ½ + 4
		{20, 1, 45 * time.Second, false},  // 20 × ¼ + 1
		{20, 5, 45 * time.Second, true},   // 20 × ¼ + 5
		{100, 9, 59 * time.Second, true},  // 100 × 1/60 + 9 ≈ 10.7
		{100, 8, 59 * time.Second, false}, // ≈ 9.7
	} {
		if got := p.Reached(c.prev, c.cur, start, start.Add(c.into)); got != c.want {
			t.Errorf("prev %d, cur %d, %v into the window: %v, want %v", c.prev, c.cur, c.into, got, c.want)
		}
	}
}
