package cluster

import (
	"context"
	"time"

	"tankwatch/internal/telemetry"
)

// A gateway that dies takes with it the commits it had not yet published to the work stream (its
// queue and its gaps are memory): those reports are stored, and acknowledged to their terminals, but
// no worker saw them. The node that takes such a terminal over — its entry in the owners bucket names
// a node that is gone (alive.go), or a former life of this node's name — judges the car's reports
// around the dead node's last word again from the store: the car's first report committed here
// opens a gap for it (work.go) from the entry's last-heard time minus DeadTail, which its own reports
// join, so that its partition reads the dead node's tail back before anything this node commits for
// the car (docs/DECISIONS.md D101). The engines ignore what they judged already, and what they
// store is kept once by its keys: reading back reports that were published is harmless.

// inherited is a terminal taken over from a dead holder, waiting for its first report here.
type inherited struct {
	from, to int64 // row times (Unix ms) to read back
	at       time.Time
	of       GapOwner // the dead life whose stored gaps (n.deadGaps) reach further back
}

// inherit notes that terminalID was taken over from o's entry, when its holder is gone (holderGone).
func (n *Node) inherit(ctx context.Context, terminalID int64, o owner, now time.Time) {
	if n.queues == nil {
		return // every node judges its own commits (D87): nothing was waiting for a bus
	}
	if !n.holderGone(ctx, o, nil) {
		return // its holder lives: what it committed reaches the work stream
	}
	g := inherited{at: now, of: GapOwner{Prefix: n.prefix, Node: o.node, Life: o.life}}
	g.from, g.to = n.tailOf(o, now)
	n.loadDeadGaps(ctx, g.of)
	n.gmu.Lock()
	n.inherited[terminalID] = g
	n.gmu.Unlock()
	n.log.Info("terminal taken over from a node that is gone: its car's reports around its last word are judged again from the store",
		"terminal", terminalID, "from", o.node, "last_heard", o.heard)
}

// holderGone reports whether the node o names is gone: another node that no longer answers, or an
// entry written by a former life of its node (this node's own included: another life id, or for an
// entry without one, last heard before this node started; D120). lives, when not nil, keeps what was
// learnt of each node for the next calls.
func (n *Node) holderGone(ctx context.Context, o owner, lives map[string]nodeLife) bool {
	if o.node == n.bus.Node() && o.life == "" { // an older version's entry under this node's name
		return o.heard.Before(n.started)
	}
	if o.node == n.bus.Node() {
		return formerLife(o.life, n.life)
	}
	l, known := lives[o.node]
	if !known {
		l.alive, l.life = n.aliveLife(ctx, o.node)
		if lives != nil {
			lives[o.node] = l
		}
	}
	return !l.alive || formerLife(o.life, l.life)
}

// nodeLife is whether a node is alive, and its present life id.
type nodeLife struct {
	alive bool
	life  string
}

// tailOf is the span of row times (Unix ms) read back for a terminal whose holder died: DeadTail
// around its last word, up to now.
func (n *Node) tailOf(o owner, now time.Time) (from, to int64) {
	tail := n.cfg.DeadTail.Milliseconds()
	return o.heard.UnixMilli() - tail, max(now.UnixMilli(), o.heard.UnixMilli()) + tail
}

// inheritedGap turns the terminal's pending takeover into a gap of r's car, which r then joins. Call
// with gmu held.
func (n *Node) inheritedGap(r *telemetry.Report) {
	g, ok := n.inherited[r.TerminalID]
	if !ok {
		return
	}
	delete(n.inherited, r.TerminalID)
	if sg, ok := n.deadGaps[g.of][r.CarID]; ok { // a gap the dead life kept in the store: from its start
		g.from, g.to = min(g.from, sg.From), max(g.to, sg.To)
	}
	if cur, ok := n.gaps[r.CarID]; ok {
		g.from, g.to = min(g.from, cur.From), max(g.to, cur.To)
	}
	n.gaps[r.CarID] = Gap{CarID: r.CarID, From: g.from, To: g.to}
}

// forgetInherited drops takeovers whose terminal sent nothing for twice the heartbeat window (its
// session is gone). Call with gmu held.
func (n *Node) forgetInherited(now time.Time) {
	for id, g := range n.inherited {
		if now.Sub(g.at) > 2*n.cfg.HeartbeatWindow {
			delete(n.inherited, id)
		}
	}
	if len(n.inherited) == 0 {
		clear(n.deadGaps)
	}
}

// loadDeadGaps reads the gaps a dead life kept in the store, once for all its terminals taken over
// here. Unread (no store, or it failed), the takeover reads back the tail only; the sweep publishes the
// stored gaps later, which the rules then take only for what is newer than they judged.
func (n *Node) loadDeadGaps(ctx context.Context, of GapOwner) {
	if n.cfg.Gaps == nil {
		return
	}
	n.gmu.Lock()
	_, ok := n.deadGaps[of]
	n.gmu.Unlock()
	if ok {
		return
	}
	gaps, err := n.cfg.Gaps.Of(ctx, of)
	if err != nil {
		n.log.Warn("store: a dead node's gaps not read; its terminals' tails only are judged again", "node", of.Node, "err", err)
		return
	}
	by := make(map[int64]Gap, len(gaps))
	for _, g := range gaps {
		by[g.CarID] = g
	}
	n.gmu.Lock()
	n.deadGaps[of] = by
	n.gmu.Unlock()
}
