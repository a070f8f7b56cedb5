//go:build linux

package main

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"tankwatch/internal/sim"
)

// TestSimulatedFleet runs a few simulated terminals (the code `tankwatch sim` runs) against the floor
// server in both acknowledgement modes: every terminal must register, authenticate and get its
// reports acknowledged (the simulator settles a report only on a 0x8001 result 0 carrying its frame's
// serial and message ID), and reports_total must count what was acknowledged, no more than was sent.
func TestSimulatedFleet(t *testing.T) {
	for _, batch := range []bool{true, false} {
		t.Run("batch="+strconv.FormatBool(batch), func(t *testing.T) {
			s := &server{batch: batch}
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			done := make(chan struct{})
			go s.serve(ln)
			if batch {
				go s.flushLoop(flushEvery, done)
			}
			mux := http.NewServeMux()
			mux.HandleFunc("GET /metrics", s.metrics)
			web := httptest.NewServer(mux)
			defer func() { ln.Close(); close(done); web.Close() }()

			const vehicles = 3
			f, err := sim.Start(context.Background(), sim.Config{Gateway: ln.Addr().String(), Vehicles: vehicles,
				Interval: time.Second, Speedup: 20, Misbehave: 0, DayAtStart: true})
			if err != nil {
				t.Fatal(err)
			}
			defer f.Stop()

			deadline := time.Now().Add(20 * time.Second) // a hang guard, not a timing assertion
			for {
				st := f.Stats()
				m := metrics(t, web.URL)
				if m["reports_total"] < st.Acked {
					t.Fatalf("reports_total %d, but the simulator had %d acknowledged", m["reports_total"], st.Acked)
				}
				if st.Authenticated == vehicles && m["sessions"] == vehicles && m["connections"] == vehicles && st.Acked >= 10*vehicles {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("simulator %v; server %v", st, m)
				}
				time.Sleep(50 * time.Millisecond)
			}
			f.Stop()
			for time.Now().Before(deadline) && metrics(t, web.URL)["connections"] != 0 {
				time.Sleep(10 * time.Millisecond)
			}
			// the simulator counts a report sent after its write: only now are its counters complete
			st, m := f.Stats(), metrics(t, web.URL)
			if m["connections"] != 0 || m["sessions"] != 0 {
				t.Fatalf("after the simulator stopped: %v", m)
			}
			if m["reports_total"] < st.Acked || m["reports_total"] > st.Sent+st.Resent {
				t.Fatalf("reports_total %d, simulator acknowledged %d of %d sent (+%d again)", m["reports_total"], st.Acked, st.Sent, st.Resent)
			}
		})
	}
}

// metrics reads GET /metrics as name → value.
func metrics(t *testing.T, base string) map[string]int64 {
	t.Helper()
	res, err := http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]int64{}
	for line := range strings.Lines(string(b)) {
		name, v, ok := strings.Cut(strings.TrimSpace(line), " ")
		n, err := strconv.ParseInt(v, 10, 64)
		if !ok || err != nil {
			t.Fatalf("metrics line %q", line)
		}
		m[name] = n
	}
	if _, ok := m["reports_total"]; !ok {
		t.Fatalf("no reports_total in %q", b)
	}
	return m
}
