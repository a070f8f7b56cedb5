//go:build linux

package gateway

import (
	"errors"
	"net"
	"sync"
	"syscall"
	"testing"
	"time"

	"tankwatch/internal/jt808"
)

// dialSlowReader connects a terminal whose socket receive buffer is a few kilobytes, and shrinks the
// server side's send buffer the same way once it is authenticated (serverSide): a terminal that does
// not read fills both after a few hundred acks instead of megabytes.
func (e *env) dialSlowReader(phone string) *client {
	e.t.Helper()
	d := net.Dialer{Control: func(_, _ string, rc syscall.RawConn) error {
		var serr error
		if err := rc.Control(func(fd uintptr) {
			serr = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096)
		}); err != nil {
			return err
		}
		return serr
	}}
	conn, err := d.Dial("tcp", e.addr)
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() { _ = conn.Close() })
	c := &client{t: e.t, conn: conn, sp: jt808.NewSplitter(conn, 0), version: jt808.V2013, phone: jt808.MustPhone(phone)}
	if t, ok, _ := e.reg.Terminal(e.t.Context(), phone); ok {
		c.termID, c.plate = t.DeviceID, t.Plate
	}
	return c
}

// serverSide returns the authenticated session of terminal id with a small socket send buffer.
func (e *env) serverSide(id int64) *session {
	e.t.Helper()
	e.srv.mu.Lock()
	s := e.srv.byTerm[id]
	e.srv.mu.Unlock()
	if s == nil {
		e.t.Fatalf("terminal %d has no session", id)
	}
	if err := s.conn.(*net.TCPConn).SetWriteBuffer(4096); err != nil {
		e.t.Fatal(err)
	}
	return s
}

// TestAcksKeepOrderAcrossDirectWritesAndFlusher: the history writer's commit callback writes acks
// itself while the socket takes them; once a terminal stops reading, the rest queue for the flusher.
// The callback must never wait on that socket (it would if it wrote while the flusher is blocked in
// its write), and the terminal must get every ack once, in commit order, when it reads again.
func TestAcksKeepOrderAcrossDirectWritesAndFlusher(t *testing.T) {
	e := start(t, Config{MaxOutbox: 1 << 20, WriteTimeout: time.Minute}, false, nil)
	c := e.dialSlowReader(term1.Phone)
	e.login(t, c)
	s := e.serverSide(term1.ID)

	const n = 3000 // about 60 KB of acks: far more than the two small socket buffers hold
	wire, serials := c.reports(n)
	wrote := make(chan error, 1)
	go func() { _, err := c.conn.Write(wire); wrote <- err }()

	queued := 0 // commits after which bytes waited for the flusher
	for range n {
		sub := e.sink.next(t, withReports)
		called := make(chan struct{})
		go func() { sub.done(nil); close(called) }()
		select {
		case <-called:
		case <-time.After(20 * time.Second):
			t.Fatal("the commit callback waits on a terminal that does not read")
		}
		s.wmu.Lock()
		if s.flushing || len(s.pend) > 0 {
			queued++
		}
		s.wmu.Unlock()
	}
	if err := <-wrote; err != nil {
		t.Fatal(err)
	}
	if queued == 0 {
		t.Fatal("no ack ever waited for the flusher: the sockets never filled, the test shows nothing")
	}
	if queued == n {
		t.Fatal("no ack was written by the commit callback itself")
	}
	t.Logf("%d of %d commits left bytes for the flusher", queued, n)
	for _, serial := range serials {
		c.ack(serial, jt808.MsgLocation, jt808.ResultOK)
	}
}

// TestTerminalThatDoesNotReadIsDropped: acks written directly fill the socket, then the outbox; past
// MaxOutbox the session is closed, whoever wrote last.
func TestTerminalThatDoesNotReadIsDropped(t *testing.T) {
	e := startWith(t, Config{MaxOutbox: 4096, WriteTimeout: time.Minute}, ackSink{}, nil)
	c := e.dialSlowReader(term1.Phone)
	c.login()
	s := e.serverSide(term1.ID)
	wire, _ := c.reports(64)
	// The client's writes go into socket buffers of megabytes before the gateway has read them, so
	// only time bounds this loop: the gateway reads on, and after a few hundred acks drops the session.
	giveUp := time.Now().Add(30 * time.Second)
	_ = c.conn.SetWriteDeadline(giveUp)
	for {
		if time.Now().After(giveUp) {
			t.Fatal("the terminal was not dropped")
		}
		if _, err := c.conn.Write(wire); err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				t.Fatal("the gateway stopped reading instead of dropping the terminal")
			}
			break // reset by the gateway
		}
	}
	select {
	case <-s.ctx.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("session not ended")
	}
	s.wmu.Lock()
	defer s.wmu.Unlock()
	if !s.closed || s.pend != nil {
		t.Fatalf("closed %v, %d bytes still held", s.closed, len(s.pend))
	}
}

// TestAckWrittenByCommitCallback: while the socket has room, the commit callback writes the ack itself
// and counts it before it returns — no flusher goroutine is started for it.
func TestAckWrittenByCommitCallback(t *testing.T) {
	e := start(t, Config{}, false, nil)
	c := e.dial(jt808.V2013, term1.Phone)
	e.login(t, c)
	s := e.serverSide(term1.ID)
	m := e.srv.m
	for i := range 3 {
		serial := c.send(location(int32(i)))
		e.sink.next(t, withReports).done(nil)
		s.wmu.Lock()
		flushing := s.flushing
		s.wmu.Unlock()
		if got := value(t, m.acks); flushing || got != float64(i+1) || value(t, m.ackLatency) != float64(i+1) {
			t.Fatalf("after commit %d: flusher started %v, %v acks counted", i+1, flushing, got)
		}
		c.ack(serial, jt808.MsgLocation, jt808.ResultOK)
	}
}

// TestDirectWritesResumeAfterFlusher: the flusher's write deadline must not outlive its writes; once
// it had passed, every later direct write would fail on it and go through a flusher again.
func TestDirectWritesResumeAfterFlusher(t *testing.T) {
	const timeout = time.Second
	e := start(t, Config{WriteTimeout: timeout}, false, nil)
	c := e.dialSlowReader(term1.Phone)
	e.login(t, c)
	s := e.serverSide(term1.ID)
	const n = 1000
	wire, serials := c.reports(n)
	c.write(wire)
	queued := false
	for range n {
		e.sink.next(t, withReports).done(nil)
		s.wmu.Lock()
		queued = queued || s.flushing
		s.wmu.Unlock()
	}
	if !queued {
		t.Fatal("the flusher never ran: the test shows nothing")
	}
	for _, serial := range serials {
		c.ack(serial, jt808.MsgLocation, jt808.ResultOK)
	}
	time.Sleep(timeout + timeout/2) // past the deadline the flusher's last write had
	serial := c.send(location(1))
	e.sink.next(t, withReports).done(nil)
	s.wmu.Lock()
	flushing := s.flushing
	s.wmu.Unlock()
	if flushing {
		t.Fatal("the ack went through the flusher: the direct write failed on an old deadline")
	}
	c.ack(serial, jt808.MsgLocation, jt808.ResultOK)
	if got := value(t, e.srv.m.acks); got != n+1 {
		t.Fatalf("%v acks counted, want %d", got, n+1)
	}
}

// batchingSink is a fakeSink that tells when a commit's callbacks are over, as the history writer does.
type batchingSink struct {
	*fakeSink
	mu    sync.Mutex
	after []func()
}

func (b *batchingSink) OnBatchDone(fn func()) {
	b.mu.Lock()
	b.after = append(b.after, fn)
	b.mu.Unlock()
}

// batchDone runs what a writer runs once a commit's done callbacks have run.
func (b *batchingSink) batchDone() {
	b.mu.Lock()
	after := b.after
	b.mu.Unlock()
	for _, fn := range after {
		fn()
	}
}

// TestAcksHeldForTheCommit: with a sink that says when a commit's callbacks are over, the acks of one
// commit wait for its end and go out together, in the order of their reports (D108); a terminal that
// logs out meanwhile still gets what it was owed before the connection closes.
func TestAcksHeldForTheCommit(t *testing.T) {
	sink := &batchingSink{fakeSink: newSink(false)}
	e := startWith(t, Config{}, sink, nil)
	e.sink = sink.fakeSink
	if !e.srv.batchAcks {
		t.Fatal("the gateway did not take the sink's batch notice")
	}
	c := e.dial(jt808.V2013, term1.Phone)
	e.login(t, c)
	s := e.serverSide(term1.ID)
	m := e.srv.m
	var serials []uint16
	var subs []submission
	for i := range 3 {
		serials = append(serials, c.send(location(int32(i))))
		subs = append(subs, e.sink.next(t, withReports))
	}
	before := value(t, m.acks)
	for _, sub := range subs {
		sub.done(nil)
	}
	s.wmu.Lock()
	held, flushing, pending := s.held, s.flushing, len(s.pend)
	s.wmu.Unlock()
	if !held || flushing || pending == 0 || value(t, m.acks) != before {
		t.Fatalf("before the commit's end: held %v, flusher %v, %d bytes pending, %v acks written (want none)",
			held, flushing, pending, value(t, m.acks)-before)
	}
	sink.batchDone()
	for _, serial := range serials {
		c.ack(serial, jt808.MsgLocation, jt808.ResultOK)
	}
	if got := value(t, m.acks) - before; got != 3 {
		t.Errorf("%v acks counted, want 3", got)
	}

	// held acks and then a logout: the acks are written before the connection closes
	serial := c.send(location(9))
	e.sink.next(t, withReports).done(nil)
	out := c.send(&jt808.Empty{ID: jt808.MsgLogout})
	c.ack(serial, jt808.MsgLocation, jt808.ResultOK)
	c.ack(out, jt808.MsgLogout, jt808.ResultOK)
	c.closed()
}
