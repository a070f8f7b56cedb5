package cluster

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"

	"tankwatch/internal/platform/bus"
	"tankwatch/internal/telemetry"
)

// A node gone from the bus (crashed: nothing released, its beat key still there) frees its terminals at
// once; a node that is there keeps them.
func TestGoneNodeReleasesAtOnce(t *testing.T) {
	hub := bus.NewHub()
	ctx := context.Background()
	var ns []*Node
	for _, name := range []string{"a", "b"} {
		n := New(hub.Attach(name), "tw", Config{HeartbeatWindow: 90 * time.Second}, func([]telemetry.Report) {}, nil, nil)
		if err := n.Start(ctx); err != nil {
			t.Fatal(err)
		}
		ns = append(ns, n)
	}
	a, b := ns[0], ns[1]
	t.Cleanup(b.Stop) // a crashes below
	now := time.Date(2026, 3, 1, 8, 0, 0, 0, time.UTC)
	if h, _ := a.Claim(ctx, 9, now); h != "" {
		t.Fatalf("first claim: %q", h)
	}
	if h, _ := b.Claim(ctx, 9, now.Add(time.Second)); h != "a" {
		t.Fatalf("claim while a is connected: %q", h)
	}
	a.crash()
	if _, _, err := b.nodes.Get(ctx, nodeKey("a")); err != nil {
		t.Fatalf("a's beat key should still be there: %v", err)
	}
	if h, err := b.Claim(ctx, 9, now.Add(2*time.Second)); h != "" || err != nil {
		t.Fatalf("claim after a left the bus: %q %v", h, err)
	}
}

// natsNodes starts nodes on the real NATS server of TANKWATCH_TEST_NATS under a prefix of their own,
// and returns them with their buses; the stream and buckets are deleted at the end.
func natsNodes(t *testing.T, cfg Config, names ...string) ([]*Node, []*bus.NATS) {
	t.Helper()
	url := os.Getenv("TANKWATCH_TEST_NATS")
	if url == "" {
		t.Skip("TANKWATCH_TEST_NATS not set")
	}
	ctx := context.Background()
	prefix := bus.RandomPrefix("twa")
	var nodes []*Node
	var buses []*bus.NATS
	for _, name := range names {
		b, err := bus.DialNATS(ctx, bus.NATSConfig{URL: url, Node: name, Prefix: prefix})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = b.Close() })
		n := New(b, prefix, cfg, func([]telemetry.Report) {}, nil, nil)
		if err := n.Start(ctx); err != nil {
			t.Fatal(err)
		}
		nodes, buses = append(nodes, n), append(buses, b)
	}
	t.Cleanup(func() {
		last := buses[len(buses)-1]
		nodes[len(nodes)-1].Stop()
		if err := last.Destroy(ctx); err != nil {
			t.Error(err)
		}
	})
	return nodes, buses
}

// On a real NATS server, a node whose connection closes without a word (what kill -9 does) frees its
// terminals before its beat key expires: the server answers "no responders" for it.
func TestClosedConnectionReleasesOnNATS(t *testing.T) {
	ns, buses := natsNodes(t, Config{HeartbeatWindow: 90 * time.Second, NodeTTL: time.Minute}, "a", "b")
	a, b := ns[0], ns[1]
	ctx := context.Background()
	now := time.Now()
	if h, err := a.Claim(ctx, 5, now); h != "" || err != nil {
		t.Fatalf("claim on a: %q %v", h, err)
	}
	if h, _ := b.Claim(ctx, 5, now); h != "a" {
		t.Fatalf("claim on b while a is connected: %q", h)
	}
	_ = buses[0].Close() // the connection goes, nothing is released or unsubscribed first
	waitFor(t, func() bool {
		h, err := b.Claim(ctx, 5, now)
		if err != nil {
			t.Fatal(err)
		}
		return h == ""
	})
	if _, _, err := b.nodes.Get(ctx, nodeKey("a")); err != nil {
		t.Fatalf("taken over after a's key expired, not on the connection's loss: %v", err)
	}
}

// A node that is connected but does not answer (hung) is not taken for gone: its terminals stay
// refused until its beat key expires.
func TestHungNodeKeepsTerminalsUntilItsKeyExpiresOnNATS(t *testing.T) {
	ns, buses := natsNodes(t, Config{HeartbeatWindow: 90 * time.Second, NodeTTL: 3 * time.Second}, "a", "b")
	a, b := ns[0], ns[1]
	ctx := context.Background()
	now := time.Now()
	if h, err := a.Claim(ctx, 6, now); h != "" || err != nil {
		t.Fatalf("claim on a: %q %v", h, err)
	}
	a.crash() // beats no more and serves nothing…
	// …but its connection stays, with a subscriber on its alive subject that never answers
	block := make(chan struct{})
	t.Cleanup(func() { close(block) })
	stop, err := buses[0].Respond(aliveSubject(a.prefix, "a"), func(ctx context.Context, _ []byte) []byte {
		select {
		case <-ctx.Done():
		case <-block:
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	if h, _ := b.Claim(ctx, 6, now); h != "a" {
		t.Fatalf("claim on b while a hangs with its key there: %q, want a", h)
	}
	waitFor(t, func() bool {
		_, _, err := b.nodes.Get(ctx, nodeKey("a"))
		return errors.Is(err, bus.ErrNotFound)
	})
	if h, err := b.Claim(ctx, 6, now); h != "" || err != nil {
		t.Fatalf("claim once a's key expired: %q %v", h, err)
	}
}

// A node restarted under its name is alive, but an entry written by its former life (another life id
// than its key's) is not held: another node takes that terminal at once, inheriting its tail (D120).
// What the new life claims is held as usual.
func TestRestartedNodeFormerLife(t *testing.T) {
	hub := bus.NewHub()
	ctx := context.Background()
	start := func(name string) *Node {
		n := New(hub.Attach(name), "tw", Config{HeartbeatWindow: 90 * time.Second}, func([]telemetry.Report) {}, nil, nil)
		if err := n.Start(ctx); err != nil {
			t.Fatal(err)
		}
		return n
	}
	a, b := start("a"), start("b")
	t.Cleanup(b.Stop)
	now := time.Date(2026, 3, 1, 8, 0, 0, 0, time.UTC) // any clock: lives are told apart by their ids
	if h, _ := a.Claim(ctx, 9, now); h != "" {
		t.Fatalf("first claim: %q", h)
	}
	a.crash()
	a2 := start("a") // restarted under the same name
	t.Cleanup(a2.Stop)
	now = now.Add(time.Second) // well inside the heartbeat window of the former life's entry
	if h, err := b.Holder(ctx, 9, now); h != "" || err != nil {
		t.Fatalf("holder of a former life's terminal: %q %v", h, err)
	}
	if !b.holderGone(ctx, owner{node: "a", heard: now, life: a.life}, nil) || b.holderGone(ctx, owner{node: "a", heard: now, life: a2.life}, nil) ||
		b.holderGone(ctx, owner{node: "a", heard: now}, nil) {
		t.Error("an entry is gone exactly when its life id is not its node's present one (none: an older node's, present)")
	}
	if h, _ := a2.Claim(ctx, 10, now); h != "" {
		t.Fatalf("the new life's claim: %q", h)
	}
	if h, _ := b.Holder(ctx, 10, now); h != "a" {
		t.Errorf("holder of the new life's terminal: %q", h)
	}
	if h, err := b.Claim(ctx, 9, now); h != "" || err != nil {
		t.Errorf("claim of a former life's terminal: %q %v", h, err)
	}
}
