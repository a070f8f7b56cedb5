package alarm

import (
	"context"
	"math"

	"tankwatch/internal/telemetry"
)

// An engine that falls behind catches up from the store instead of dropping (DESIGN §2,
// telemetry.Behind): a catch-up pass reads a car's reports back from the store (telemetry.ReadBack)
// from its mark, in time order, through the same rules.

// catchUpRows is how many stored reports one catch-up reads per car at most (it goes on next pass).
const catchUpRows = 2000

// Behind is how many cars wait for a catch-up (tests wait on it).
func (e *Engine) Behind() int { return e.behind.Len() }

// CatchUp reads the reports of the cars marked behind back from the store and judges them in order
// (the run goroutine calls it every CatchUpEvery; tests call it directly, never concurrently with a
// running engine); telemetry.Behind.Pass keeps every car it does not finish marked.
func (e *Engine) CatchUp(ctx context.Context) error {
	return e.behind.Pass(ctx, e.q, e.Evaluate, e.catchUpCar)
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
