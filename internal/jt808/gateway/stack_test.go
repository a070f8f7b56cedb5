package gateway

import (
	"fmt"
	"runtime"
	"testing"

	"tankwatch/internal/jt808"
)

// TestSessionStacksStaySmall: with thousands of terminals connected, a reader goroutine per session was
// most of the gateway's memory (4 KiB of stack each). After registering, authenticating and reporting
// (with a tank item), an idle session must hold no goroutine at all: its socket waits in the reactor.
func TestSessionStacksStaySmall(t *testing.T) {
	if raceEnabled {
		t.Skip("stack frames are larger under the race detector; make test-go runs this test without it too")
	}
	const n = 300
	e := startWith(t, Config{}, ackSink{}, nil)
	before := stackInuse()
	goroutines := runtime.NumGoroutine()
	var clients []*client // kept open
	for i := range n {
		term := Terminal{ID: int64(100 + i), CarID: int64(1000 + i), GroupID: 3, Phone: fmt.Sprintf("0139%08d", i), DeviceID: fmt.Sprintf("S%06d", i), Protocol: 2013}
		e.reg.mu.Lock()
		e.reg.terms[term.Phone[1:]] = term
		e.reg.mu.Unlock()
		c := e.dial(jt808.V2013, term.Phone)
		clients = append(clients, c)
		c.login()
		for j := range 3 {
			loc := location(22543096 + int32(j))
			loc.AddItem(0xE1, []byte{1, 3, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 1})
			c.ack(c.send(loc), jt808.MsgLocation, jt808.ResultOK)
		}
	}
	after := stackInuse()
	per := (int64(after) - int64(before)) / n
	more := runtime.NumGoroutine() - goroutines
	t.Logf("stack per session after traffic: %d bytes, %d more goroutines (%d sessions)", per, more, n)
	// The test's own client goroutines and a little: it was 4 KiB with a reader goroutine per session,
	// and 8.3 KiB when the reader parked below a 552-byte frame and decoded every message in one 3.4 KiB
	// frame.
	if per > 512 || more > n/10 {
		t.Errorf("each session keeps %d bytes of stack (%d goroutines for %d sessions), want no goroutine while idle", per, more, n)
	}
}

// stackInuse is the stack memory in use once the collector has had the chance to shrink stacks.
func stackInuse() uint64 {
	var m runtime.MemStats
	for range 3 {
		runtime.GC()
	}
	runtime.ReadMemStats(&m)
	return m.StackInuse
}
