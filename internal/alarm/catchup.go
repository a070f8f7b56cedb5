package alarm

import (
	"context"
	"math"

	"tankwatch/internal/telemetry"
)

// An engine that falls behind catches up from the store instead of dropping (DESIGN §2): a car whose
// reports did not fit the queue is marked behind with the oldest row time not judged; its queued
// reports are skipped (and lower the mark), and a catch-up pass reads its reports back from the
// store (telemetry.ReadBack) from there, in time order, through the same rules.

// catchUpRows is how many stored reports one catch-up reads per car at most (it goes on next pass).
const catchUpRows = 2000

// markBehind lowers r's car's mark to r's row time. Call with bmu held.
func (e *Engine) markBehind(r *telemetry.Report) {
	if r.CarID == 0 {
		return
	}
	t := reportTime(r)
	if cur, ok := e.behind[r.CarID]; !ok || t < cur {
		e.behind[r.CarID] = t
	}
}

// Behind is how many cars wait for a catch-up (tests wait on it).
func (e *Engine) Behind() int {
	e.bmu.Lock()
	defer e.bmu.Unlock()
	return len(e.behind)
}

// CatchUp reads the reports of the cars marked behind back from the store and judges them in order
// (the run goroutine calls it every CatchUpEvery; tests call it directly, never concurrently with a
// running engine).
func (e *Engine) CatchUp(ctx context.Context) error {
	// what is queued was committed before what overflowed: judged (or, for cars behind, skipped and
	// marked) first, so that the store is read from the oldest report not judged
	for range cap(e.q) {
		select {
		case batch := <-e.q:
			e.Evaluate(ctx, batch.Reports)
			batch.Finish()
			continue
		default:
		}
		break
	}
	e.bmu.Lock()
	marks := e.behind
	e.behind = map[int64]int64{} // reports committed from now on come through the queue again
	e.bmu.Unlock()
	var failed error
	for id, mark := range marks {
		if failed != nil {
			e.remark(id, mark)
			continue
		}
		next, more, err := e.catchUpCar(ctx, id, mark)
		if err != nil {
			failed = err
			e.remark(id, mark)
		} else if more {
			e.remark(id, next)
		}
	}
	return failed
}

func (e *Engine) remark(carID, t int64) {
	e.bmu.Lock()
	if cur, ok := e.behind[carID]; !ok || t < cur {
		e.behind[carID] = t
	}
	e.bmu.Unlock()
}

// catchUpCar judges the car's stored reports from mark on (after what it judged last, when that is
// later: older reports would be ignored by the rules anyway); next is where the following pass starts.
func (e *Engine) catchUpCar(ctx context.Context, carID, mark int64) (next int64, more bool, err error) {
	car, ok := e.car(carID)
	if !ok {
		return 0, false, nil
	}
	st := e.stateOf(carID)
	after := mark - 1
	if st.seen {
		after = max(after, st.lastT)
	}
	reports, more, err := telemetry.ReadBack(ctx, e.d.Service.db, carID, car.Compartments, after, math.MaxInt64, catchUpRows)
	if err != nil {
		return 0, false, err
	}
	var work []decided
	for i := range reports {
		e.caught.Add(1)
		work = e.judge(ctx, &reports[i], work)
	}
	if n := len(reports); n > 0 {
		st.readTo = max(st.readTo, reportTime(&reports[n-1]))
	}
	e.apply(ctx, work)
	return st.readTo + 1, more, nil
}
