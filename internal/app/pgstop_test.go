package app_test

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/url"
	"os"
	"runtime"
	"sync"
	"testing"
	"time"

	"tankwatch/internal/app"
	"tankwatch/internal/platform/config"
	"tankwatch/internal/platform/db/dbtest"
)

// pgProxy stands between the server and PostgreSQL so a test can take the database away from this
// server alone (stopping the shared PostgreSQL would break every other test running in parallel).
// Cut closes every open connection and refuses new ones, as a stopped server would.
type pgProxy struct {
	ln     net.Listener
	target string
	mu     sync.Mutex
	down   bool
	conns  map[net.Conn]bool
}

func startProxy(t *testing.T, target string) *pgProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &pgProxy{ln: ln, target: target, conns: map[net.Conn]bool{}}
	t.Cleanup(func() { _ = ln.Close(); p.Cut() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go p.serve(c)
		}
	}()
	return p
}

func (p *pgProxy) track(cs ...net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.down {
		return false
	}
	for _, c := range cs {
		p.conns[c] = true
	}
	return true
}

func (p *pgProxy) serve(c net.Conn) {
	up, err := net.Dial("tcp", p.target)
	if err != nil || !p.track(c, up) {
		_ = c.Close()
		if up != nil {
			_ = up.Close()
		}
		return
	}
	go func() { _, _ = io.Copy(up, c); _ = up.Close() }()
	_, _ = io.Copy(c, up)
	_ = c.Close()
}

// Cut drops every connection and refuses new ones until Restore.
func (p *pgProxy) Cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.down = true
	for c := range p.conns {
		_ = c.Close()
	}
	p.conns = map[net.Conn]bool{}
}

func (p *pgProxy) Restore() { p.mu.Lock(); p.down = false; p.mu.Unlock() }

// TestPostgresOutageDuringIngest takes PostgreSQL away while terminals report: the gateway stops
// acknowledging, the writer's queue stays within its bound (the gateway stops reading instead of
// buffering), and once the database is back everything catches up with no acknowledged report lost.
func TestPostgresOutageDuringIngest(t *testing.T) {
	if os.Getenv("TANKWATCH_TEST_PG") == "" {
		t.Skip("TANKWATCH_TEST_PG not set")
	}
	t.Parallel()
	dsn := dbtest.SchemaDSN(t)
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	proxy := startProxy(t, u.Host)
	u.Host = proxy.ln.Addr().String()
	const queue = 600
	cfg := config.Config{DB: u.String(), Demo: true, DemoVehicles: 30, JT808: "127.0.0.1:0", Theme: "tankcar",
		TerminalIdle: time.Minute, HistoryQueue: queue}
	ctx := context.Background()
	d, err := app.OpenStore(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	a := app.New(cfg, d, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err := a.Bootstrap(ctx, io.Discard); err != nil {
		t.Fatal(err)
	}
	if err := a.StartDevices(ctx); err != nil {
		t.Fatal(err)
	}
	defer a.StopDevices()

	ack := newAcked()
	f := drive(t, a.Devices.GatewayAddr(), 30, ack)
	waitFor(t, "300 acknowledged reports", func() bool { return ack.count() >= 300 })

	proxy.Cut()
	w := a.Devices.Writer
	waitFor(t, "the writer to fail and the gateway to block on a full queue", func() bool {
		s := w.Stats()
		return s.Retrying && s.Blocked > 0
	})
	committed, acks := w.Stats().CommittedReports, ack.count()
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	time.Sleep(2 * time.Second) // an observation window: nothing may be committed or acknowledged in it
	runtime.ReadMemStats(&m1)
	s := w.Stats()
	if s.CommittedReports != committed || ack.count() != acks {
		t.Fatalf("during the outage: committed %d → %d, acknowledged %d → %d; want no change", committed, s.CommittedReports, acks, ack.count())
	}
	if s.Queued > queue {
		t.Fatalf("writer queue %d exceeds its bound %d", s.Queued, queue)
	}
	t.Logf("outage: %d queued (bound %d), %d submissions blocked, heap %d → %d KiB, last error %q",
		s.Queued, queue, s.Blocked, m0.HeapInuse>>10, m1.HeapInuse>>10, s.LastError)

	proxy.Restore()
	waitFor(t, "acknowledgements to resume", func() bool { return ack.count() >= acks+300 })
	f.Stop()
	waitFor(t, "the writer to drain", func() bool { s := w.Stats(); return s.Queued == 0 && !s.Retrying })
	if n, example := ack.missing(t, d); n > 0 {
		t.Fatalf("%d of %d acknowledged reports are not in the store (e.g. %s)", n, ack.count(), example)
	}
	t.Logf("caught up: %d acknowledged reports, all stored; writer committed %d", ack.count(), w.Stats().CommittedReports)
}
