package cluster

import (
	"context"
	"os"
	"testing"
	"time"

	"tankwatch/internal/platform/bus"
	"tankwatch/internal/telemetry"
)

// crash stops a node as kill -9 would: nothing released, its keys left to expire.
func (n *Node) crash() {
	close(n.out)
	for i := len(n.stop) - 1; i >= 0; i-- {
		n.stop[i]()
	}
	n.stop = nil
	n.wg.Wait()
}

// On a real NATS server, a node that dies without a word frees its terminals well before the
// heartbeat window: at once, when NATS answers its liveness probe with "no responders" (D96), and
// otherwise once its beat key expires.
func TestKilledNodeOnNATS(t *testing.T) {
	url := os.Getenv("TANKWATCH_TEST_NATS")
	if url == "" {
		t.Skip("TANKWATCH_TEST_NATS not set")
	}
	ctx := context.Background()
	prefix := bus.RandomPrefix("twt")
	cfg := Config{HeartbeatWindow: 90 * time.Second, NodeTTL: 2 * time.Second}
	var buses []*bus.NATS
	var nodes []*Node
	for _, name := range []string{"a", "b"} {
		b, err := bus.DialNATS(ctx, bus.NATSConfig{URL: url, Node: name, Prefix: prefix})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = b.Close() })
		buses = append(buses, b)
		n := New(b, prefix, cfg, func([]telemetry.Report) {}, nil, nil)
		if err := n.Start(ctx); err != nil {
			t.Fatal(err)
		}
		nodes = append(nodes, n)
	}
	t.Cleanup(func() {
		nodes[1].Stop()
		if err := buses[1].Destroy(ctx); err != nil {
			t.Error(err)
		}
	})
	a, b := nodes[0], nodes[1]
	now := time.Now()
	if h, err := a.Claim(ctx, 5, now); h != "" || err != nil {
		t.Fatalf("claim on a: %q %v", h, err)
	}
	if h, _ := b.Claim(ctx, 5, now); h != "a" {
		t.Fatalf("claim on b while a lives: %q", h)
	}
	// a beats: it holds
	if h, _ := b.Holder(ctx, 5, now); h != "a" {
		t.Fatalf("holder while a lives: %q", h)
	}
	a.crash()
	killed := time.Now()
	deadline := killed.Add(20 * time.Second)
	for {
		h, err := b.Claim(ctx, 5, now)
		if err != nil {
			t.Fatal(err)
		}
		if h == "" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("a's terminal was never freed after a died")
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Logf("a's terminal taken over %v after a died", time.Since(killed).Round(100*time.Millisecond))
}
