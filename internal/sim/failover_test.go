package sim

import (
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"tankwatch/internal/fleet"
	"tankwatch/internal/jt808"
)

// ackLog is the reports the fleet saw acknowledged, by phone and device time (Unix ms).
type ackLog struct {
	mu   sync.Mutex
	seen map[string]bool
}

func (l *ackLog) add(phone string, at time.Time) {
	l.mu.Lock()
	l.seen[phoneKey(phone)+"/"+at.UTC().Format(time.RFC3339)] = true
	l.mu.Unlock()
}

func (l *ackLog) has(key string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.seen[key]
}

func reportKey(phone string, at time.Time) string { return phone + "/" + at.UTC().Format(time.RFC3339) }

// waitUntil polls cond until it holds, failing after a generous deadline (a hang guard, not a timing
// assertion).
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestGatewayFailover: terminals spread over two gateways; the first one acknowledges nothing and is
// closed mid-run. Its terminals move to the second one, authenticate there with the code they hold,
// and every report the first one received goes up again and is acknowledged: none is lost.
func TestGatewayFailover(t *testing.T) {
	a, b := newFakeGateway(t), newFakeGateway(t)
	a.ack = func(string, uint16) bool { return false }
	acks := &ackLog{seen: map[string]bool{}}
	f := startFleet(t, Config{Gateway: a.addr() + ", " + b.addr(), Vehicles: 4, Seed: 3, Speedup: 50, Epoch: workEpoch,
		AckTimeout: 50 * time.Millisecond, Backoff: 10 * time.Millisecond, OnAck: acks.add})
	onA := map[string]bool{phoneKey(fleet.DemoTerminalPhone(0)): true, phoneKey(fleet.DemoTerminalPhone(2)): true}

	// Until both of A's terminals have reported there (the others must not have: they start on B).
	var atA []string
	reported := map[string]bool{}
	for len(reported) < 2 {
		e := a.next(func(e gwEvent) bool { return len(e.locs) > 0 })
		if !onA[e.phone] {
			t.Fatalf("terminal %s reported to A; vehicles 1 and 3 start on B", e.phone)
		}
		reported[e.phone] = true
		for _, l := range e.locs {
			atA = append(atA, reportKey(e.phone, l.Time))
		}
	}
	a.close()
	for drained := false; !drained; { // what A received before it closed
		select {
		case e := <-a.events:
			for _, l := range e.locs {
				atA = append(atA, reportKey(e.phone, l.Time))
			}
		default:
			drained = true
		}
	}

	authAtB := map[string]bool{}
	for len(authAtB) < 2 {
		e := b.next(func(e gwEvent) bool { return onA[e.phone] && (e.reg != nil || e.auth != nil) })
		if e.reg != nil {
			t.Fatalf("%s registered again at B instead of authenticating with its code", e.phone)
		}
		authAtB[e.phone] = true
	}
	waitUntil(t, "every report A received to be acknowledged by B", func() bool {
		for _, k := range atA {
			if !acks.has(k) {
				return false
			}
		}
		return true
	})
	if s := f.Stats(); s.Blind == 0 || s.Authenticated != 4 {
		t.Errorf("stats after the failover: %v", s)
	}
}

// TestGatewayRefusedMovesOn: a terminal whose first address refuses connections goes on to the next.
func TestGatewayRefusedMovesOn(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := ln.Addr().String()
	ln.Close()
	b := newFakeGateway(t)
	startFleet(t, Config{Gateway: closed + "," + b.addr(), Vehicles: 2, Seed: 4, Speedup: 50, Epoch: workEpoch,
		AckTimeout: 50 * time.Millisecond, Backoff: 10 * time.Millisecond})
	authed := map[string]bool{}
	for len(authed) < 2 {
		e := b.next(func(e gwEvent) bool { return e.h.MsgID == jt808.MsgAuth })
		authed[e.phone] = true
	}
	if !authed[phoneKey(fleet.DemoTerminalPhone(0))] {
		t.Errorf("vehicle 0 (first on the refusing address) never reached the second gateway: %v", authed)
	}
}

func TestGatewayListChecked(t *testing.T) {
	for _, list := range []string{"127.0.0.1:1,nohost", " , ", "127.0.0.1"} {
		if _, err := Start(t.Context(), Config{Gateway: list, Vehicles: 1}); err == nil || !strings.Contains(err.Error(), "gateway") {
			t.Errorf("gateway list %q: %v", list, err)
		}
	}
	if got := Gateways(" a:1, b:2 ,,c:3"); strings.Join(got, "|") != "a:1|b:2|c:3" {
		t.Errorf("Gateways: %q", got)
	}
}
