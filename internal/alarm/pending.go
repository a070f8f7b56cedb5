package alarm

import (
	"errors"
	"maps"
)

// maxUnstored bounds the decisions kept while the store refuses them (a store down for long): past
// it the oldest are dropped, logged and counted (Lost).
const maxUnstored = 20_000

// Lost is how many decisions were dropped because the store refused them for too long.
func (e *Engine) Lost() int64 { return e.lost.Load() }

// dropUnstored forgets the kept decisions of the cars forget names (a partition taken over, D105):
// the batches that made them were not acknowledged (errUnstored), so another node judged them since
// and stored what it decided.
func (e *Engine) dropUnstored(forget func(carID int64) bool) {
	kept := e.unstored[:0]
	for _, w := range e.unstored {
		if !forget(w.car.ID) {
			kept = append(kept, w)
		}
	}
	clear(e.unstored[len(kept):])
	e.unstored = kept
}

// errUnstored is a worker's batch result while decisions wait for the store: the batch is delivered
// again (its reports are skipped as judged; the decisions are stored first) rather than acknowledged.
var errUnstored = errors.New("alarm engine: decisions not stored yet")

// withUnstored puts the decisions the store refused before work, in the order they were made: an
// episode's start is stored before its end.
func (e *Engine) withUnstored(work []decided) []decided {
	if len(e.unstored) == 0 {
		return work
	}
	all := append(e.unstored, work...)
	e.unstored = nil
	return all
}

// keepUnstored keeps work, which the store refused, for the next apply.
func (e *Engine) keepUnstored(work []decided, err error) {
	if n := len(work) - maxUnstored; n > 0 {
		e.lost.Add(int64(n))
		e.log.Error("alarm engine: the store refuses alarms for long; the oldest decisions dropped", "dropped", n, "err", err)
		work = work[n:]
	}
	e.unstored = work
	e.log.Warn("alarm engine: storing alarms failed; kept and stored again", "decisions", len(work), "err", err)
}

// carSnap is what apply changes of a car's state from what the store answers (records' ids), taken
// before the transaction: a transaction rolled back leaves the state as the decisions left it, and
// applying them again gives the same ids.
type carSnap struct {
	st     *carState
	open   map[string]int64
	auID   int64
	parkID int64
}

type snapshots []carSnap

func snapshot(work []decided) snapshots {
	var out snapshots
	seen := map[*carState]bool{}
	for i := range work {
		st := work[i].st
		if seen[st] {
			continue
		}
		seen[st] = true
		out = append(out, carSnap{st: st, open: maps.Clone(st.open), auID: st.au.id, parkID: st.parkID})
	}
	return out
}

func (s snapshots) restore() {
	for _, c := range s {
		c.st.open, c.st.au.id, c.st.parkID = c.open, c.auID, c.parkID
	}
}
