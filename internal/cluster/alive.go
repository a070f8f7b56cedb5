package cluster

import (
	"context"
	"errors"
	"time"

	"tankwatch/internal/platform/bus"
)

// A node's life has two witnesses. Its n-<node> key (beat.go) expires NodeTTL after its last beat:
// that catches a node that hangs or is cut off while its connection stays open. The bus itself sees
// the connection: a node killed (kill -9, its machine lost) closes its TCP connection to NATS, the
// server drops its subscriptions at once, and a request to its alive subject is answered "no
// responders" at once — the loss is known without waiting for the key to expire (D96). Only that
// answer counts as death: a probe that times out or fails otherwise takes the node as alive, as an
// unreadable key does, so a slow bus never hands a live terminal to a second connection.

// probeWait bounds the probe of a node whose key is still there: a node that does not answer within
// it (hung, or the bus slow) counts as alive.
const probeWait = 500 * time.Millisecond

func aliveSubject(prefix, node string) string { return prefix + ".alive." + node }

// serveAlive answers the other nodes' probes for as long as this node's bus connection is up.
func (n *Node) serveAlive() (stop func(), err error) {
	return n.bus.Respond(aliveSubject(n.prefix, n.bus.Node()), func(context.Context, []byte) []byte { return []byte{1} })
}

// connected reports whether node still has a connection to the bus: false only when the bus says
// nobody serves its alive subject.
func (n *Node) connected(ctx context.Context, node string) bool {
	ctx, cancel := context.WithTimeout(ctx, probeWait)
	defer cancel()
	_, err := n.bus.Request(ctx, aliveSubject(n.prefix, node), nil)
	return !errors.Is(err, bus.ErrNoResponder)
}
