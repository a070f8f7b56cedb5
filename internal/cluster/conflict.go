package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"tankwatch/internal/platform/bus"
)

// A terminal live on node A and claimed by another connection on node B is refused on B (owners.go);
// the identity-conflict alarm is A's to raise, because only A sees whether the live session talks on
// (the rule of D25: a session that stays silent was the terminal's own half-open connection, and its
// reconnection must not alarm). So B tells A of the attempt on tw.conflict.<A>, and A's gateway counts
// it as one of its own (gateway.AttemptedHere): one alarm, on the holder, at most once per terminal
// per --jt808-conflict-alarm-every.

// attempt is a refused claim, as sent to the holder.
type attempt struct {
	Terminal int64     `json:"terminal"`
	Peer     string    `json:"peer"`
	Msg      uint16    `json:"msg"`
	At       time.Time `json:"at"`
}

func conflictSubject(prefix, node string) string { return prefix + ".conflict." + node }

// Attempted tells node, in the background, that peer's msgID for terminalID was refused here at at.
func (n *Node) Attempted(node string, terminalID int64, peer string, msgID uint16, at time.Time) {
	data, err := json.Marshal(attempt{Terminal: terminalID, Peer: peer + " (node " + n.bus.Node() + ")", Msg: msgID, At: at})
	if err != nil {
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if _, err := n.bus.Request(ctx, conflictSubject(n.prefix, node), data); err != nil && !errors.Is(err, bus.ErrNoResponder) {
			n.log.Warn("bus: refused claim not passed to the terminal's holder; it raises no conflict alarm for it",
				"terminal", terminalID, "holder", node, "err", err)
		}
	}()
}

// serveConflicts hands the attempts other nodes refused against this node's terminals to its gateway.
func (n *Node) serveConflicts() (stop func(), err error) {
	return n.bus.Respond(conflictSubject(n.prefix, n.bus.Node()), func(_ context.Context, data []byte) []byte {
		var a attempt
		if json.Unmarshal(data, &a) == nil && a.Terminal != 0 {
			n.gw.AttemptedHere(a.Terminal, a.Peer, a.Msg, a.At)
		}
		return nil
	})
}
