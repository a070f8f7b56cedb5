//go:build linux

package gateway

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"tankwatch/internal/jt808"
	"tankwatch/internal/telemetry"
)

// handed is how many sessions the node's reactor has handed to a goroutine (the loop served the rest).
func (e *env) handed() int64 {
	e.t.Helper()
	e.srv.mu.Lock()
	defer e.srv.mu.Unlock()
	for s := range e.srv.conns {
		if s.poll != nil {
			return s.poll.handed.Load()
		}
	}
	e.t.Fatal("no session in the reactor")
	return 0
}

// handedAgain waits until the reactor has handed a session to a goroutine since before.
func (e *env) handedAgain(before int64, what string) {
	e.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for e.handed() == before {
		if time.Now().After(deadline) {
			e.t.Fatalf("%s: the reactor's loop kept the session for 5 s instead of handing it to a goroutine", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// rested waits until the terminal's session has no goroutine serving it (the one that served its
// authentication has ended), so that its next bytes are the reactor loop's to serve.
func (e *env) rested(id int64) {
	e.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		e.srv.mu.Lock()
		s := e.srv.byTerm[id]
		e.srv.mu.Unlock()
		if s != nil && s.state.Load() == idle {
			return
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("terminal %d's session still served by a goroutine after 5 s", id)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestReportsServedOnTheLoop: a report that comes whole is served by the reactor's loop itself, with
// no goroutine woken for it (D115).
func TestReportsServedOnTheLoop(t *testing.T) {
	e := start(t, Config{IdleTimeout: time.Hour}, true, nil)
	c := e.dial(jt808.V2013, term1.Phone)
	c.login()
	e.rested(term1.ID)
	before := e.handed()
	for i := range 50 {
		c.ack(c.send(location(int32(i))), jt808.MsgLocation, jt808.ResultOK)
	}
	if n := e.handed() - before; n > 5 {
		t.Errorf("%d of 50 whole reports handed to a goroutine; the loop serves them itself", n)
	}
}

// TestHalfFrameHoldsUpNoOne: a terminal that stops in the middle of a frame waits for its rest on a
// goroutine of its own; the other terminals' reports are answered meanwhile.
func TestHalfFrameHoldsUpNoOne(t *testing.T) {
	e := start(t, Config{IdleTimeout: time.Hour}, true, nil)
	a := e.dial(jt808.V2013, term1.Phone)
	a.login()
	b := e.dial(jt808.V2019, term2.Phone)
	b.login()
	wire, serials := a.reports(1)
	e.rested(term1.ID)
	before := e.handed()
	a.write(wire[:len(wire)/2])
	e.handedAgain(before, "half a frame")
	for i := range 10 {
		b.ack(b.send(location(int32(i))), jt808.MsgLocation, jt808.ResultOK)
	}
	a.write(wire[len(wire)/2:])
	a.ack(serials[0], jt808.MsgLocation, jt808.ResultOK)
}

// TestSlowHookHoldsUpNoOne: a frame whose handling waits (here a 0x0107 whose hook is stuck) is
// handled on a goroutine of its own; the other terminals' reports are answered meanwhile.
func TestSlowHookHoldsUpNoOne(t *testing.T) {
	e := start(t, Config{IdleTimeout: time.Hour}, true, nil)
	entered, release := make(chan struct{}, 1), make(chan struct{})
	e.srv.OnAttributes(func(AttributesReport) {
		entered <- struct{}{}
		<-release
	})
	a := e.dial(jt808.V2013, term1.Phone)
	a.login()
	b := e.dial(jt808.V2019, term2.Phone)
	b.login()
	a.send(&jt808.Attributes{Type: 2, Manufacturer: "70111", Model: "TW-808T", TerminalID: "T000001", ICCID: "89860000000000000001"})
	select {
	case <-entered:
	case <-time.After(5 * time.Second):
		t.Fatal("the 0x0107's hook was not called within 5 s")
	}
	for i := range 10 {
		b.ack(b.send(location(int32(i))), jt808.MsgLocation, jt808.ResultOK)
	}
	close(release)
	a.ack(a.send(location(1)), jt808.MsgLocation, jt808.ResultOK)
}

// fullSink commits at once until full is set; then TrySubmit refuses and Submit waits for room.
type fullSink struct {
	full atomic.Bool
	room chan struct{}
}

func (s *fullSink) Submit(ctx context.Context, _ []telemetry.Report, _ []telemetry.Frame, done func(error)) error {
	if s.full.Load() {
		select {
		case <-s.room:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	done(nil)
	return nil
}

func (s *fullSink) TrySubmit(_ []telemetry.Report, _ []telemetry.Frame, done func(error)) error {
	if s.full.Load() {
		return telemetry.ErrQueueFull
	}
	done(nil)
	return nil
}

// TestFullSinkHoldsUpNoOne: a report the sink has no room for waits on its session's goroutine, not on
// the reactor's loop: the other terminals' heartbeats are answered meanwhile, and the report is
// acknowledged once the sink takes it.
func TestFullSinkHoldsUpNoOne(t *testing.T) {
	sink := &fullSink{room: make(chan struct{})}
	e := startWith(t, Config{IdleTimeout: time.Hour}, sink, nil)
	a := e.dial(jt808.V2013, term1.Phone)
	a.login()
	b := e.dial(jt808.V2019, term2.Phone)
	b.login()
	sink.full.Store(true)
	e.rested(term1.ID)
	before := e.handed()
	serial := a.send(location(1))
	e.handedAgain(before, "a report the sink has no room for")
	for range 5 {
		b.ack(b.send(&jt808.Empty{ID: jt808.MsgHeartbeat}), jt808.MsgHeartbeat, jt808.ResultOK)
	}
	sink.full.Store(false)
	close(sink.room)
	a.ack(serial, jt808.MsgLocation, jt808.ResultOK)
}
