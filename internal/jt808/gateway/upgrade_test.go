package gateway

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"tankwatch/internal/fleet"
	"tankwatch/internal/jt808"
	"tankwatch/internal/sim"
	"tankwatch/internal/telemetry"
)

// commitSink commits everything at once and counts the 0x0005 frames it stored.
type commitSink struct {
	mu      sync.Mutex
	resends int
}

func (s *commitSink) Submit(_ context.Context, _ []telemetry.Report, frames []telemetry.Frame, done func(error)) error {
	s.mu.Lock()
	for _, f := range frames {
		if f.MsgID == jt808.MsgUpgradeResend {
			s.resends++
		}
	}
	s.mu.Unlock()
	done(nil)
	return nil
}

// TestUpgradeToSimulator pushes 300 KB of random bytes through the real gateway over TCP to a simulated
// terminal and checks that the package arrives byte-identical, in 2013 and 2019, with sub-packages lost
// on the way (asked for again with 0x0005; the last one lost too, which only the platform's timeout
// sends again), and that the terminal's 0x0108 comes back.
func TestUpgradeToSimulator(t *testing.T) {
	pkg := make([]byte, 300<<10)
	if _, err := rand.Read(pkg); err != nil {
		t.Fatal(err)
	}
	want := sha256.Sum256(pkg)
	total := (len(pkg) + 40 + UpgradePart - 1) / UpgradePart
	cases := []struct {
		name     string
		protocol int
		drop     []int
		resends  bool
	}{
		{"2013 no loss", 2013, nil, false},
		{"2019 no loss", 2019, nil, false},
		{"2013 lost and asked for", 2013, []int{1, 2, 9, 10, 11, 12, 13, 14, 15, 16, 17, 150, total - 1}, true},
		{"2019 lost, the last one too", 2019, []int{5, 77, total}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			idx := 0
			for fleet.DemoProtocol(idx) != tc.protocol {
				idx++
			}
			phone := fleet.DemoTerminalPhone(idx)
			sink := &commitSink{}
			e := startWith(t, Config{CommandTimeout: time.Second}, sink, nil)
			term := Terminal{ID: 500, CarID: 600, GroupID: 3, Phone: phone, DeviceID: fleet.DemoTerminalID(idx),
				Plate: fleet.DemoFleet(idx + 1)[idx].Plate, Protocol: tc.protocol}
			e.reg.mu.Lock()
			e.reg.terms[strings.TrimLeft(phone, "0")] = term
			e.reg.mu.Unlock()
			results := make(chan UpgradeReport, 4)
			e.srv.OnUpgradeResult(func(r UpgradeReport) { results <- r })
			got := make(chan *jt808.Upgrade, 1)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			truck, err := sim.Start(ctx, sim.Config{Gateway: e.addr, Vehicles: 1, First: idx, Interval: time.Minute, DayAtStart: true, // at night (Beijing) a parked truck stays off the air
				UpgradeDrop: tc.drop, OnUpgrade: func(_ string, u *jt808.Upgrade) { got <- u }})
			if err != nil {
				t.Fatal(err)
			}
			defer truck.Stop()
			deadline := time.Now().Add(10 * time.Second)
			for !e.srv.Online(term.ID) {
				if time.Now().After(deadline) {
					t.Fatal("the simulated terminal did not authenticate")
				}
				time.Sleep(20 * time.Millisecond)
			}
			var last [2]int
			err = e.srv.Upgrade(ctx, term.ID, UpgradeFile{Type: jt808.UpgradeTerminal, Manufacturer: "70111", Version: "TW-808T 2.1.0",
				Size: int64(len(pkg)), Data: bytes.NewReader(pkg)}, func(acked, n int) { last = [2]int{acked, n} })
			if err != nil {
				t.Fatalf("upgrade: %v", err)
			}
			if last != [2]int{total, total} {
				t.Errorf("last progress %v, want %d of %d", last, total, total)
			}
			select {
			case u := <-got:
				if sha256.Sum256(u.Package) != want || u.Version != "TW-808T 2.1.0" || u.Manufacturer != "70111" {
					t.Fatalf("package arrived different: %d bytes, version %q", len(u.Package), u.Version)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("the terminal did not install the package")
			}
			select {
			case r := <-results:
				if r.TerminalID != term.ID || r.Result != jt808.UpgradeSuccess || r.Type != jt808.UpgradeTerminal {
					t.Fatalf("0x0108 %+v", r)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("no 0x0108")
			}
			if v := truck.Firmware(0); v != "TW-808T 2.1.0" {
				t.Errorf("terminal reports firmware %q", v)
			}
			sink.mu.Lock()
			resends := sink.resends
			sink.mu.Unlock()
			if (resends > 0) != tc.resends {
				t.Errorf("%d 0x0005 requests, want some: %v", resends, tc.resends)
			}
		})
	}
}

// TestUpgradeRefusals: offline, busy and a terminal that answers a sub-package with a failure.
func TestUpgradeRefusals(t *testing.T) {
	e := start(t, Config{CommandTimeout: time.Second}, true, nil)
	f := UpgradeFile{Manufacturer: "70111", Version: "1", Size: 3000, Data: bytes.NewReader(make([]byte, 3000))}
	if err := e.srv.Upgrade(context.Background(), term1.ID, f, nil); !errors.Is(err, ErrOffline) {
		t.Fatalf("offline: %v", err)
	}
	c := e.dial(jt808.V2013, term1.Phone)
	c.login()
	done := make(chan error, 1)
	go func() { done <- e.srv.Upgrade(context.Background(), term1.ID, f, nil) }()
	fr := c.read()
	for fr.Header.MsgID != jt808.MsgUpgrade {
		fr = c.read()
	}
	if !fr.Header.Subpackaged || fr.Header.Index != 1 || fr.Header.Total != 4 || len(fr.Body) != UpgradePart {
		t.Fatalf("first sub-package %+v, %d bytes", fr.Header, len(fr.Body))
	}
	if err := e.srv.Upgrade(context.Background(), term1.ID, f, nil); !errors.Is(err, ErrBusy) {
		t.Fatalf("second upgrade at once: %v", err)
	}
	c.send(&jt808.GeneralReply{Serial: fr.Header.Serial, ReplyID: jt808.MsgUpgrade, Result: jt808.ResultFailure})
	if err := <-done; !errors.Is(err, ErrRejected) {
		t.Fatalf("refused sub-package: %v", err)
	}
	long := f
	long.Manufacturer = "123456"
	if err := e.srv.Upgrade(context.Background(), term1.ID, long, nil); err == nil || errors.Is(err, ErrOffline) {
		t.Fatalf("6-byte manufacturer for a 2013 terminal: %v", err)
	}
}

// TestUpgradeTimeout: a terminal that never answers fails the transfer after the bounded re-sends.
func TestUpgradeTimeout(t *testing.T) {
	e := start(t, Config{CommandTimeout: 200 * time.Millisecond}, true, nil)
	c := e.dial(jt808.V2013, term1.Phone)
	c.login()
	_ = c.conn.SetReadDeadline(time.Now().Add(time.Minute))
	go func() { // reads everything, answers nothing
		for {
			if _, err := c.sp.Next(); err != nil && !errors.Is(err, jt808.ErrTooLong) {
				return
			}
		}
	}()
	f := UpgradeFile{Manufacturer: "70111", Version: "1", Size: 20000, Data: bytes.NewReader(make([]byte, 20000))}
	if err := e.srv.Upgrade(context.Background(), term1.ID, f, nil); !errors.Is(err, ErrTimeout) {
		t.Fatalf("silent terminal: %v", err)
	}
}
