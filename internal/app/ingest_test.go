package app_test

import (
	"context"
	"maps"
	"strings"
	"sync"
	"testing"
	"time"

	"tankwatch/internal/platform/db"
	"tankwatch/internal/sim"
)

// acked collects the reports the simulated terminals saw acknowledged: the promise under test is that
// each of them is in the store, whatever happened to the server afterwards.
type acked struct {
	mu   sync.Mutex
	seen map[string]map[int64]bool // phone without leading zeros → device time (ms)
	n    int
}

func newAcked() *acked { return &acked{seen: map[string]map[int64]bool{}} }

func (a *acked) add(phone string, at time.Time) {
	phone = strings.TrimLeft(phone, "0")
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.seen[phone] == nil {
		a.seen[phone] = map[int64]bool{}
	}
	if !a.seen[phone][at.UnixMilli()] {
		a.seen[phone][at.UnixMilli()] = true
		a.n++
	}
}

func (a *acked) count() int { a.mu.Lock(); defer a.mu.Unlock(); return a.n }

// snapshot is a copy of the reports acknowledged so far.
func (a *acked) snapshot() *acked {
	a.mu.Lock()
	defer a.mu.Unlock()
	c := newAcked()
	for phone, ts := range a.seen {
		c.seen[phone] = maps.Clone(ts)
	}
	c.n = a.n
	return c
}

// missing returns how many acknowledged reports the store lacks (and an example).
func (a *acked) missing(t *testing.T, d *db.DB) (int, string) {
	t.Helper()
	ctx := context.Background()
	var rows []struct {
		Phone string `bun:"phone"`
		T     int64  `bun:"t"`
	}
	if err := d.NewSelect().TableExpr("positions AS p").ColumnExpr("tm.phone, p.t").
		Join("JOIN terminals AS tm ON tm.id = p.terminal_id").Scan(ctx, &rows); err != nil {
		t.Fatal(err)
	}
	stored := map[string]map[int64]bool{}
	for _, r := range rows {
		p := strings.TrimLeft(r.Phone, "0")
		if stored[p] == nil {
			stored[p] = map[int64]bool{}
		}
		stored[p][r.T] = true
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	n, example := 0, ""
	for phone, ts := range a.seen {
		for at := range ts {
			if !stored[phone][at] {
				n++
				example = phone + " " + time.UnixMilli(at).UTC().Format(time.RFC3339)
			}
		}
	}
	return n, example
}

// drive starts a well-behaved simulated fleet of n terminals against gateway, reporting fast.
func drive(t *testing.T, gateway string, n int, a *acked) *sim.Fleet {
	t.Helper()
	f, err := sim.Start(context.Background(), sim.Config{Gateway: gateway, Vehicles: n, Interval: 2 * time.Second, Speedup: 20, DayAtStart: true,
		Seed: 7, Misbehave: 0, AckTimeout: 2 * time.Second, Backoff: 100 * time.Millisecond, OnAck: a.add})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.Stop)
	return f
}

// waitFor polls cond until it holds or the test's deadline budget (2 min) runs out.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
