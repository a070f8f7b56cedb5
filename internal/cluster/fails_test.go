package cluster

import (
	"context"
	"testing"
	"time"

	"tankwatch/internal/jt808/gateway"
)

// On a real NATS server, failures of one address on two nodes add up to one limit: neither node's
// share reaches it, together they block the address on both. Other addresses are not touched.
func TestFailuresCountAcrossNodesOnNATS(t *testing.T) {
	ns, _ := natsNodes(t, Config{HeartbeatWindow: 90 * time.Second}, "a", "b")
	a, b := ns[0], ns[1]
	ctx := context.Background()
	p := gateway.FailPolicy{Limit: 4, Window: time.Minute, Block: time.Minute}
	at := time.Now() // one instant for every count: the estimate does not depend on where in the window it falls
	fail := func(n *Node, addr string) bool {
		t.Helper()
		blocked, err := n.countFailure(ctx, addr, at, p)
		if err != nil {
			t.Fatal(err)
		}
		return blocked
	}
	blocked := func(n *Node, addr string) bool {
		t.Helper()
		ok, err := n.Blocked(ctx, addr, p)
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}
	for i, n := range []*Node{b, a, b} {
		if fail(n, "10.0.0.1") {
			t.Fatalf("failure %d blocked the address below the limit", i+1)
		}
	}
	if blocked(a, "10.0.0.1") || blocked(b, "10.0.0.1") {
		t.Fatal("blocked with 3 failures of 4")
	}
	if !fail(a, "10.0.0.1") {
		t.Fatal("the fourth failure, on a, did not block the address")
	}
	if !blocked(a, "10.0.0.1") || !blocked(b, "10.0.0.1") {
		t.Fatal("the address is not blocked on both nodes")
	}
	if fail(b, "10.0.0.1") {
		t.Fatal("a failure of a blocked address blocked it again")
	}
	if fail(a, "fe80::1%eth0") || blocked(b, "fe80::1%eth0") || blocked(b, "10.0.0.2") {
		t.Fatal("another address is blocked")
	}
}
