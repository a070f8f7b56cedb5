package judge

import (
	"context"

	"tankwatch/internal/telemetry"
)

// forget drops the detectors of the cars forget names: their partition was judged on another node
// (D105), and what this engine knew of them is stale. Each is rebuilt from the store before its next
// report (thaw).
func (e *Engine) forget(forget func(carID int64) bool) {
	for id := range e.cars {
		if forget(id) {
			delete(e.cars, id)
			e.cold[id] = true
		}
	}
	for _, c := range e.reg.All() {
		if forget(c.ID) {
			e.cold[c.ID] = true
		}
	}
}

// takeOverLookback is how much of a moved car's stored course rebuilds its detector: the rolling
// window and an opening or a fall going on (a theft is confirmed minutes after the level began to
// fall, and its "before" is the level then).
const takeOverLookback = 30 * 60 * 1000

// thaw rebuilds a forgotten car's detector before r, the first report it judges here: it starts from
// the tank state stored takeOverLookback before r and is stepped through the car's stored reports up
// to r, what it finds there dropped (the other node found and stored it). Not from the newest stored
// state: the partition's reports still to judge were stored before they reach this node, so the
// newest state would put the detector past them all and they would be skipped.
func (e *Engine) thaw(ctx context.Context, r *telemetry.Report) error {
	if !e.cold[r.CarID] {
		return nil
	}
	car, ok := e.car(r.CarID)
	if !ok {
		return nil // judge skips it: not in the registry yet
	}
	at := telemetry.RowTime(r)
	from := at - takeOverLookback
	course, _, err := telemetry.ReadBack(ctx, e.d.DB, r.CarID, car.Compartments, from, at-1, catchUpRows)
	if err != nil {
		return err
	}
	if err := e.seed(ctx, &car, from); err != nil {
		return err
	}
	delete(e.cold, r.CarID)
	for i := range course {
		_, _ = e.judge(&course[i])
	}
	return nil
}

// Forget is the partitioned worker's notice that it now reads the partition of the cars forget names
// (D105): the engine drops their detectors, in order with the batches it judges, and returns once it
// has.
func (e *Engine) Forget(ctx context.Context, forget func(carID int64) bool) error {
	return telemetry.ForgetWait(ctx, e.q, forget)
}
