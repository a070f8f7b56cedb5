package cluster

import (
	"bytes"
	"context"
	"encoding/gob"
	"errors"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"tankwatch/internal/platform/bus"
	"tankwatch/internal/platform/loop"
	"tankwatch/internal/telemetry"
)

// Work done once (alarms, tank events, lock events, help requests, waybill progress) is partitioned
// by car (docs/DECISIONS.md D97). Every node publishes its commits split by partition on
// <prefix>.work.<p> (a work-queue stream); the nodes with the worker role share the partitions,
// claimed in the bucket <prefix>_parts (key p<p> → holder), balanced over the live workers (key
// w-<node> in the nodes bucket); the holder of a partition reads it through the partition's one
// durable consumer, so whoever holds it next resumes where the last holder's acknowledgements stop,
// and acknowledges a batch only once every engine has judged it.

// Worker is this node's engines, fed by the partitions it holds.
type Worker interface {
	// Judge returns once every engine has judged the batch.
	Judge(ctx context.Context, reports []telemetry.Report) error
	// CatchUp judges the car's committed reports with a row time in [from, to] read back from the
	// store: what a node could not publish in time (a gap) is judged from there.
	CatchUp(ctx context.Context, carID, from, to int64) error
	// Forget drops what the engines know of the cars forget names (their partition is about to be
	// read here, and was read elsewhere) and returns once they have, before its first batch (D105).
	Forget(ctx context.Context, forget func(carID int64) bool) error
	// CarOf is the car the terminal was bound to at the time (Unix ms); 0 when none.
	CarOf(ctx context.Context, terminalID, at int64) (int64, error)
}

// Gap is a car's span of committed reports that were not published (the queue to the bus was full).
type Gap struct{ CarID, From, To int64 }

// workMsg is one message of a partition: a commit's reports of that partition, or gaps.
type workMsg struct {
	Reports []telemetry.Report
	Gaps    []Gap
}

// Partitions is the default number of partitions: enough to spread over a few dozen workers.
const Partitions = 32

// Partitioned reports whether the engines are fed by the partitions (the bus has durable queues)
// rather than by this node's own commits.
func (n *Node) Partitioned() bool { return n.queues != nil }

func (n *Node) partition(carID int64) int {
	p := carID % int64(n.cfg.Partitions)
	if p < 0 {
		p = -p
	}
	return int(p)
}

func partKey(p int) string         { return "p" + strconv.Itoa(p) }
func workerKey(node string) string { return "w-" + node }

// heldPart is a partition this node reads.
type heldPart struct {
	rev  uint64
	stop func()
}

// publishWork publishes a committed batch by partition. A car with a gap pending has its reports
// join the gap instead, so that its partition sees them in order.
func (n *Node) publishWork(ctx context.Context, reports []telemetry.Report) {
	by := map[int][]telemetry.Report{}
	n.gmu.Lock()
	for i := range reports {
		r := &reports[i]
		if r.CarID == 0 {
			continue
		}
		n.inheritedGap(r)
		if g, ok := n.gaps[r.CarID]; ok {
			t := telemetry.RowTime(r)
			n.gaps[r.CarID] = Gap{CarID: r.CarID, From: min(g.From, t), To: max(g.To, t)}
			continue
		}
		p := n.partition(r.CarID)
		by[p] = append(by[p], *r)
	}
	n.gmu.Unlock()
	for p, rs := range by {
		if !n.sendWork(ctx, p, workMsg{Reports: rs}) {
			n.addGaps(rs)
		}
	}
}

// addGaps records reports that did not reach their partition.
func (n *Node) addGaps(reports []telemetry.Report) {
	n.gmu.Lock()
	defer n.gmu.Unlock()
	for i := range reports {
		r := &reports[i]
		if r.CarID == 0 {
			continue
		}
		t := telemetry.RowTime(r)
		if g, ok := n.gaps[r.CarID]; ok {
			n.gaps[r.CarID] = Gap{CarID: r.CarID, From: min(g.From, t), To: max(g.To, t)}
		} else {
			n.gaps[r.CarID] = Gap{CarID: r.CarID, From: t, To: t}
		}
	}
}

// flushGaps publishes the gaps pending, one message per partition; they are kept in the store until
// the bus took them (gapstore.go).
func (n *Node) flushGaps(ctx context.Context) {
	n.gmu.Lock()
	n.forgetInherited(time.Now())
	if len(n.gaps) == 0 {
		n.gmu.Unlock()
		return
	}
	by := map[int][]Gap{}
	all := make([]Gap, 0, len(n.gaps))
	for _, g := range n.gaps {
		by[n.partition(g.CarID)] = append(by[n.partition(g.CarID)], g)
		all = append(all, g)
	}
	clear(n.gaps)
	n.gmu.Unlock()
	n.keepGaps(ctx, all)
	for p, gs := range by {
		if !n.sendWork(ctx, p, workMsg{Gaps: gs}) {
			n.gmu.Lock()
			for _, g := range gs {
				if cur, ok := n.gaps[g.CarID]; ok {
					g.From, g.To = min(g.From, cur.From), max(g.To, cur.To)
				}
				n.gaps[g.CarID] = g
			}
			n.gmu.Unlock()
			continue
		}
		n.dropGaps(ctx, gs)
	}
}

// self is this node life as the owner of its stored gaps.
func (n *Node) self() GapOwner { return GapOwner{Prefix: n.prefix, Node: n.bus.Node(), Life: n.life} }

// keepGaps saves the gaps that are not in the store as they are now. A store that refuses them
// leaves them in memory only, as before D125: saved on the next flush.
func (n *Node) keepGaps(ctx context.Context, gaps []Gap) {
	if n.cfg.Gaps == nil {
		return
	}
	var changed []Gap
	for _, g := range gaps {
		if n.stored[g.CarID] != g {
			changed = append(changed, g)
		}
	}
	if len(changed) == 0 {
		return
	}
	if err := n.cfg.Gaps.Save(ctx, n.self(), changed); err != nil {
		n.log.Warn("store: gaps not kept; kept in memory until the bus takes them", "cars", len(changed), "err", err)
		return
	}
	for _, g := range changed {
		n.stored[g.CarID] = g
	}
}

// dropGaps deletes the stored rows of gaps the bus took.
func (n *Node) dropGaps(ctx context.Context, gaps []Gap) {
	if n.cfg.Gaps == nil {
		return
	}
	var kept []Gap
	for _, g := range gaps {
		if _, ok := n.stored[g.CarID]; ok {
			kept = append(kept, g)
		}
	}
	if len(kept) == 0 {
		return
	}
	if err := n.cfg.Gaps.Drop(ctx, n.self(), kept); err != nil {
		// left in the store: judged once more by the sweep when this life ends, which is harmless
		n.log.Warn("store: published gaps not deleted", "cars", len(kept), "err", err)
	}
	for _, g := range kept {
		delete(n.stored, g.CarID)
	}
}

// sendWork publishes one partition message; false when the bus did not take it.
func (n *Node) sendWork(ctx context.Context, p int, m workMsg) bool {
	var b bytes.Buffer
	if err := gob.NewEncoder(&b).Encode(m); err != nil {
		n.log.Error("bus: work not encoded", "partition", p, "err", err)
		return true // nothing to retry: the store has the reports, no gap could be read either
	}
	pctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if err := n.queues.PublishWork(pctx, n.prefix+".work."+strconv.Itoa(p), b.Bytes()); err != nil {
		n.m.workFailed.Add(1)
		n.log.Warn("bus: work not published; judged from the store when the bus takes it again", "partition", p, "err", err)
		return false
	}
	return true
}

// handle judges one message of a partition.
func (n *Node) handle(ctx context.Context, data []byte) error {
	var m workMsg
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&m); err != nil {
		n.log.Error("bus: work message not decoded; skipped", "err", err)
		return nil // delivering it again would not decode it either
	}
	if len(m.Reports) > 0 {
		if err := n.cfg.Worker.Judge(ctx, m.Reports); err != nil {
			return err
		}
	}
	for _, g := range m.Gaps {
		if err := n.cfg.Worker.CatchUp(ctx, g.CarID, g.From, g.To); err != nil {
			return err
		}
	}
	n.m.judged.Add(int64(len(m.Reports)))
	return nil
}

// Judged is how many reports of its partitions this node's engines judged.
func (n *Node) Judged() int64 { return n.m.judged.Load() }

// Holds reports whether this node reads the partition of the car.
func (n *Node) Holds(carID int64) bool {
	n.pmu.Lock()
	defer n.pmu.Unlock()
	return n.reading[n.partition(carID)] != nil
}

// Share is the number of partitions and those this node holds, for work split by car the way the
// engines' is (the rollup marks, D113); parts is 0 when the engines are not partitioned.
func (n *Node) Share() (parts int, held []int) {
	if n.queues == nil {
		return 0, nil
	}
	return n.cfg.Partitions, n.HeldPartitions()
}

// HeldPartitions lists the partitions this node reads.
func (n *Node) HeldPartitions() []int {
	n.pmu.Lock()
	defer n.pmu.Unlock()
	var out []int
	for p := range n.reading {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

func (n *Node) assignLoop(ctx context.Context) {
	n.assign(ctx)
	loop.Every(ctx, n.cfg.NodeTTL/3, func() { n.assign(ctx) })
}

// assign keeps this worker's key and takes or gives partitions so that partition p is read by the
// p-th live worker (by name, modulo their number): a worker that joins takes its share from the
// others, which give it up first; a dead worker's partitions are taken over once its key expired.
func (n *Node) assign(ctx context.Context) {
	me := n.bus.Node()
	if err := n.keep(ctx, workerKey(me), &n.workRev); err != nil {
		n.log.Warn("bus: worker key not written", "err", err)
	}
	keys, err := n.nodes.Keys(ctx)
	if err != nil {
		if ctx.Err() == nil {
			n.log.Warn("bus: workers not listed; partitions kept as they are", "err", err)
		}
		return
	}
	workers := []string{me}
	for _, k := range keys {
		if w, ok := strings.CutPrefix(k, "w-"); ok && w != me {
			workers = append(workers, w)
		}
	}
	slices.Sort(workers)
	for p := range n.cfg.Partitions {
		if ctx.Err() != nil {
			return
		}
		want := workers[p%len(workers)]
		n.pmu.Lock()
		h := n.reading[p]
		n.pmu.Unlock()
		v, rev, err := n.partKV.Get(ctx, partKey(p))
		if err != nil && !errors.Is(err, bus.ErrNotFound) {
			continue
		}
		holder := string(v)
		switch {
		case h != nil && err == nil && holder == me && rev == h.rev:
			if want != me {
				n.release(p) // the wanted worker claims it on its next pass
			}
		case h != nil:
			// the entry is gone or another node's: this node was cut off and the partition moved
			n.log.Warn("bus: partition taken over by another worker", "partition", p, "holder", holder)
			n.drop(p)
		case want != me:
		case err == nil && holder != me && n.alive(ctx, holder):
			// its holder gives it up on its own pass
		default:
			n.claim(ctx, p, rev, err == nil)
		}
	}
}

// claim takes partition p (exists: over the entry at rev) and starts reading it.
func (n *Node) claim(ctx context.Context, p int, rev uint64, exists bool) {
	me := []byte(n.bus.Node())
	var err error
	if exists {
		rev, err = n.partKV.Update(ctx, partKey(p), me, rev)
	} else {
		rev, err = n.partKV.Create(ctx, partKey(p), me)
	}
	if err != nil {
		return // another worker was quicker: judged again on the next pass
	}
	// what the engines knew of the partition's cars is stale: another worker judged them since
	// (the one that died, or the one it was given to while this node read others)
	if err := n.cfg.Worker.Forget(ctx, func(carID int64) bool { return n.partition(carID) == p }); err != nil {
		n.log.Warn("bus: partition not taken: its cars' state not read", "partition", p, "err", err)
		_ = n.partKV.Delete(ctx, partKey(p), rev)
		return
	}
	stop, err := n.queues.ConsumeWork(n.prefix+".work."+strconv.Itoa(p), "work-"+strconv.Itoa(p), n.handle)
	if err != nil {
		n.log.Warn("bus: partition not read", "partition", p, "err", err)
		_ = n.partKV.Delete(ctx, partKey(p), rev)
		return
	}
	n.pmu.Lock()
	n.reading[p] = &heldPart{rev: rev, stop: stop}
	n.pmu.Unlock()
	n.log.Info("partition taken", "partition", p)
}

// drop stops reading partition p without touching its entry.
func (n *Node) drop(p int) *heldPart {
	n.pmu.Lock()
	h := n.reading[p]
	delete(n.reading, p)
	n.pmu.Unlock()
	if h != nil {
		h.stop()
	}
	return h
}

// release stops reading partition p (the batch under way finishes) and deletes its entry.
func (n *Node) release(p int) {
	if h := n.drop(p); h != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = n.partKV.Delete(ctx, partKey(p), h.rev)
	}
}

// StopWork gives up every partition (call before the engines stop: the batches under way finish).
func (n *Node) StopWork() {
	if n.cancelWork != nil {
		n.cancelWork()
		n.workDone.Wait()
		n.cancelWork = nil
	}
	for _, p := range n.HeldPartitions() {
		n.release(p)
	}
	if n.workRev != 0 {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = n.nodes.Delete(ctx, workerKey(n.bus.Node()), n.workRev)
	}
}

// startWork opens the partitions bucket and, on a worker, starts taking partitions.
func (n *Node) startWork(ctx context.Context) error {
	q, ok := n.bus.(bus.Queues)
	if !ok {
		return nil // the in-process bus: each node judges its own commits (D87)
	}
	n.queues = q
	if n.cfg.Worker == nil {
		return nil
	}
	parts, err := n.bus.KV(ctx, "parts", 0)
	if err != nil {
		return err
	}
	n.partKV = parts
	runCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	n.cancelWork = cancel
	n.workDone = sync.WaitGroup{}
	n.workDone.Add(2)
	go func() { defer n.workDone.Done(); n.assignLoop(runCtx) }()
	go func() { defer n.workDone.Done(); n.sweepLoop(runCtx) }()
	return nil
}
