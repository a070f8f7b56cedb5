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
// bucket, or its connection to the bus: alive.go) or restarted under its name (its key's life id
// changed, D120), or when this node starts to sweep, it reads the owners bucket Orphaned later. An
// entry that still names a node that is gone (or its former life), last heard more than
// Orphaned ago, becomes a gap of the terminal's car around its last word, published to the car's
// partition like any gap; the entry is then deleted by its revision, so that a node that took the
// terminal over in the meantime keeps it (and judges the tail itself). A terminal that comes back
// after the sweep creates a fresh entry and inherits nothing: its tail was judged. Reading back a
// tail twice (the sweep and a late takeover) is harmless, as in D101.

// sweeper is the orphan sweep's state, used only by sweepLoop's goroutine.
type sweeper struct {
	nodes map[string]string // the live nodes seen at the last pass, with their life ids; nil: not sweeping
	due   time.Time         // when to read the owners bucket; zero: no reason to
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
	seen := map[string]string{}
	for _, k := range keys {
		if node, ok := strings.CutPrefix(k, "n-"); ok {
			// a killed node's key outlives it by NodeTTL; its connection does not (D96)
			if alive, life := n.aliveLife(ctx, node); alive {
				seen[node] = life
			}
		}
	}
	if s.nodes == nil {
		s.due = now.Add(n.cfg.Orphaned) // nodes that died before this one swept
	}
	for node, life := range s.nodes {
		// gone, or restarted under its name: its former life's terminals may never come back (D120)
		if cur, ok := seen[node]; !ok || cur != life {
			s.due = earlier(s.due, now.Add(n.cfg.Orphaned))
		}
	}
	s.nodes = seen
	if !s.due.IsZero() && !now.Before(s.due) {
		s.due = n.sweep(ctx, now)
	}
}

// earlier is the earlier of a and b, a zero time being none.
func earlier(a, b time.Time) time.Time {
	if a.IsZero() || !b.IsZero() && b.Before(a) {
		return b
	}
	return a
}

// orphan is an entry of a dead node's terminal, to judge and delete.
type orphan struct {
	key string
	rev uint64
	gap Gap
}

// sweep judges and deletes the orphaned entries; it returns when to sweep again (zero: no need).
func (n *Node) sweep(ctx context.Context, now time.Time) (again time.Time) {
	keys, err := n.owners.Keys(ctx)
	if err != nil {
		if ctx.Err() == nil {
			n.log.Warn("bus: owners not listed; orphaned terminals swept later", "err", err)
		}
		return now.Add(n.cfg.Refresh)
	}
	lives := map[string]nodeLife{} // per other node, asked once a sweep
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
		if !n.holderGone(ctx, o, lives) {
			continue
		}
		if wait := o.heard.Add(n.cfg.Orphaned); now.Before(wait) {
			again = earlier(again, wait.Add(n.cfg.Refresh)) // its terminal may still come back and be taken over
			continue
		}
		car, err := n.cfg.Worker.CarOf(ctx, id, o.heard.UnixMilli())
		if err != nil {
			again = earlier(again, now.Add(n.cfg.Refresh))
			continue
		}
		g := Gap{CarID: car}
		g.From, g.To = n.tailOf(o, now)
		p := -1 // no car: nothing of it reached a partition, the entry only goes
		if car != 0 {
			p = n.partition(car)
		}
		by[p] = append(by[p], orphan{key: key, rev: rev, gap: g})
	}
	swept := 0
	for p, os := range by {
		if p >= 0 {
			gaps := make([]Gap, len(os))
			for i, o := range os {
				gaps[i] = o.gap
			}
			if !n.sendWork(ctx, p, workMsg{Gaps: gaps}) {
				again = earlier(again, now.Add(n.cfg.Refresh))
				continue
			}
		}
		for _, o := range os {
			err := n.owners.Delete(ctx, o.key, o.rev)
			switch {
			case err == nil:
				swept++
			case errors.Is(err, bus.ErrConflict): // taken over since the listing: its new node judges it too
			default:
				again = earlier(again, now.Add(n.cfg.Refresh)) // read back again on the next sweep: harmless
			}
		}
	}
	again = earlier(again, n.sweepGaps(ctx, now, lives))
	if swept > 0 {
		n.m.orphans.Add(int64(swept))
		n.log.Info("terminals of a node that is gone never came back: their cars' reports around their last word are judged from the store",
			"terminals", swept)
	}
	return again
}

// sweepGaps publishes the gaps that nodes now gone kept in the store (gapstore.go), then deletes
// them; it returns when to sweep again (zero: no need). A gap a takeover judged already is judged
// again here: harmless, as reading back a tail twice.
func (n *Node) sweepGaps(ctx context.Context, now time.Time, lives map[string]nodeLife) (again time.Time) {
	if n.cfg.Gaps == nil {
		return time.Time{}
	}
	owners, err := n.cfg.Gaps.Owners(ctx, n.prefix)
	if err != nil {
		n.log.Warn("store: kept gaps not listed; swept later", "err", err)
		return now.Add(n.cfg.Refresh)
	}
	for _, of := range owners {
		if !n.holderGone(ctx, owner{node: of.Node, life: of.Life, heard: now}, lives) {
			continue // a live node publishes its own
		}
		gaps, err := n.cfg.Gaps.Of(ctx, of)
		if err != nil {
			again = earlier(again, now.Add(n.cfg.Refresh))
			continue
		}
		by := map[int][]Gap{}
		for _, g := range gaps {
			by[n.partition(g.CarID)] = append(by[n.partition(g.CarID)], g)
		}
		for p, gs := range by {
			if !n.sendWork(ctx, p, workMsg{Gaps: gs}) {
				again = earlier(again, now.Add(n.cfg.Refresh))
				continue
			}
			if err := n.cfg.Gaps.Drop(ctx, of, gs); err != nil {
				again = earlier(again, now.Add(n.cfg.Refresh)) // published again on the next sweep: harmless
				continue
			}
			n.m.storedGaps.Add(int64(len(gs)))
		}
		n.log.Info("a node that is gone had kept gaps in the store: its cars' reports in them are judged from the store",
			"node", of.Node, "cars", len(gaps))
	}
	return again
}

// StoredGapsJudged is how many gaps kept by nodes now gone this node's sweeps published.
func (n *Node) StoredGapsJudged() int64 { return n.m.storedGaps.Load() }

// Orphans is how many orphaned terminals this node's sweeps judged and deleted.
func (n *Node) Orphans() int64 { return n.m.orphans.Load() }
