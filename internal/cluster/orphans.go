package cluster

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"tankwatch/internal/platform/bus"
	"tankwatch/internal/platform/loop"
)

// D101 judges a dead gateway's unpublished tail when the node that takes its terminal over sees the
// terminal's first report. A terminal that never comes back (the truck was switched off after its
// last reports) is taken over by nobody, and its tail would be judged by nobody. The node that reads
// partition 0 sweeps for such orphans (D117). Once a node has left (its key gone from the nodes
// bucket, or its connection to the bus: alive.go), or when this node starts to sweep, it reads the
// owners bucket Orphaned later. An entry that still names a node that is gone, last heard more than
// Orphaned ago, becomes a gap of the terminal's car around its last word, published to the car's
// partition like any gap; the entry is then deleted by its revision, so that a node that took the
// terminal over in the meantime keeps it (and judges the tail itself). A terminal that comes back
// after the sweep creates a fresh entry and inherits nothing: its tail was judged. Reading back a
// tail twice (the sweep and a late takeover) is harmless, as in D101.

// sweeper is the orphan sweep's state, used only by sweepLoop's goroutine.
type sweeper struct {
	nodes map[string]bool // the node keys seen at the last pass; nil: not sweeping
	due   time.Time       // when to read the owners bucket; zero: no reason to
}

func (n *Node) sweepLoop(ctx context.Context) {
	var s sweeper
	loop.Every(ctx, n.cfg.Refresh, func() { n.sweepPass(ctx, &s, time.Now()) })
}

// sweepPass notices nodes that left and reads the owners bucket when one has been gone Orphaned.
func (n *Node) sweepPass(ctx context.Context, s *sweeper, now time.Time) {
	if !n.Holds(0) { // car 0's partition is partition 0
		*s = sweeper{} // another worker sweeps; should this one read partition 0 again, it starts afresh
		return
	}
	keys, err := n.nodes.Keys(ctx)
	if err != nil {
		return // judged again on the next pass
	}
	seen := map[string]bool{}
	for _, k := range keys {
		if node, ok := strings.CutPrefix(k, "n-"); ok && n.connected(ctx, node) {
			seen[node] = true // a killed node's key outlives it by NodeTTL; its connection does not (D96)
		}
	}
	if s.nodes == nil {
		s.due = now.Add(n.cfg.Orphaned) // nodes that died before this one swept
	}
	for node := range s.nodes {
		if !seen[node] && (s.due.IsZero() || s.due.After(now.Add(n.cfg.Orphaned))) {
			s.due = now.Add(n.cfg.Orphaned)
		}
	}
	s.nodes = seen
	if !s.due.IsZero() && !now.Before(s.due) {
		s.due = n.sweep(ctx, now)
	}
}

// orphan is an entry of a dead node's terminal, to judge and delete.
type orphan struct {
	key string
	rev uint64
	gap Gap
}

// sweep judges and deletes the orphaned entries; it returns when to sweep again (zero: no need).
func (n *Node) sweep(ctx context.Context, now time.Time) (again time.Time) {
	later := func(t time.Time) {
		if again.IsZero() || t.Before(again) {
			again = t
		}
	}
	keys, err := n.owners.Keys(ctx)
	if err != nil {
		if ctx.Err() == nil {
			n.log.Warn("bus: owners not listed; orphaned terminals swept later", "err", err)
		}
		return now.Add(n.cfg.Refresh)
	}
	me, gone := n.bus.Node(), map[string]bool{}
	by := map[int][]orphan{}
	for _, key := range keys {
		id, err := strconv.ParseInt(strings.TrimPrefix(key, "t"), 10, 64)
		if err != nil || ctx.Err() != nil {
			continue
		}
		v, rev, err := n.owners.Get(ctx, key)
		if err != nil {
			continue // deleted since the listing, or judged on the next sweep
		}
		o, ok := decodeOwner(v)
		if !ok {
			continue
		}
		dead, known := gone[o.node]
		switch {
		case o.node == me:
			dead = o.heard.Before(n.started) // a former life's entry under this node's name
		case !known:
			dead = !n.alive(ctx, o.node)
			gone[o.node] = dead
		}
		if !dead {
			continue
		}
		if wait := o.heard.Add(n.cfg.Orphaned); now.Before(wait) {
			later(wait.Add(n.cfg.Refresh)) // its terminal may still come back and be taken over
			continue
		}
		car, err := n.cfg.Worker.CarOf(ctx, id, o.heard.UnixMilli())
		if err != nil {
			later(now.Add(n.cfg.Refresh))
			continue
		}
		tail := n.cfg.DeadTail.Milliseconds()
		g := Gap{CarID: car, From: o.heard.UnixMilli() - tail, To: max(now.UnixMilli(), o.heard.UnixMilli()) + tail}
		p := -1 // no car: nothing of it reached a partition, the entry only goes
		if car != 0 {
			p = n.partition(car)
		}
		by[p] = append(by[p], orphan{key: key, rev: rev, gap: g})
	}
	for p, os := range by {
		if p >= 0 {
			gaps := make([]Gap, len(os))
			for i, o := range os {
				gaps[i] = o.gap
			}
			if !n.sendWork(ctx, p, workMsg{Gaps: gaps}) {
				later(now.Add(n.cfg.Refresh))
				continue
			}
		}
		for _, o := range os {
			if err := n.owners.Delete(ctx, o.key, o.rev); err != nil && !errors.Is(err, bus.ErrConflict) {
				later(now.Add(n.cfg.Refresh)) // read back again on the next sweep: harmless
			}
		}
		n.m.orphans.Add(int64(len(os)))
		n.log.Info("terminals of a node that is gone never came back: their cars' reports around their last word are judged from the store",
			"terminals", len(os), "partition", p)
	}
	return again
}

// Orphans is how many orphaned terminals this node's sweeps judged and deleted.
func (n *Node) Orphans() int64 { return n.m.orphans.Load() }
