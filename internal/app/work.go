package app

import (
	"context"

	"tankwatch/internal/tank"
	"tankwatch/internal/telemetry"
)

// Work done once (D97). Alone, a node's engines follow its own commits. With a bus that has durable
// queues, the engines follow the partitions of cars this node holds as a worker instead, and a node
// without the worker role judges nothing: every commit is judged by the one worker of its car's
// partition.

// engineFeed is an engine's subscription to the writer: this node's commits, unless partitioned.
func (a *App) engineFeed(f func([]telemetry.Report)) func([]telemetry.Report) {
	return func(reports []telemetry.Report) {
		if !a.Devices.partitioned.Load() {
			f(reports)
		}
	}
}

// engines is the cluster's Worker: this node's engines fed by its partitions.
type engines struct{ a *App }

// Judge returns once the alarm, tank events and waybill process engines judged the batch and the
// lock events and help requests it carried are filed. Lock events and help requests are filed here,
// not through their queues (which drop when full): a failure to file them is returned, and the batch
// is delivered again rather than acknowledged. Judging a batch again raises nothing twice: the
// engines ignore what they judged already (and dedupe alarms at the insert, D91), lock events and
// help requests are kept once by their keys.
func (w engines) Judge(ctx context.Context, reports []telemetry.Report) error {
	a := w.a
	return together(ctx, reports, a.Alarms.Engine.Judge, a.TankJudge.Engine.Judge, a.waybillProcess.Engine.Judge,
		a.lockEvents.Queue.File, a.Devices.Help.File)
}

// Forget has the alarm, tank events and waybill process engines drop what they know of the cars of a
// partition this node is about to read (D105).
func (w engines) Forget(ctx context.Context, forget func(carID int64) bool) error {
	a := w.a
	return together(ctx, forget, a.Alarms.Engine.Forget, a.TankJudge.Engine.Forget, a.waybillProcess.Engine.Forget)
}

// together runs every f with arg at once and returns the first failure once all have returned.
func together[T any](ctx context.Context, arg T, fs ...func(context.Context, T) error) error {
	errs := make(chan error, len(fs))
	for _, f := range fs {
		go func() { errs <- f(ctx, arg) }()
	}
	var first error
	for range fs {
		if err := <-errs; err != nil && first == nil {
			first = err
		}
	}
	return first
}

// catchUpRows is how many reports one read-back of a gap takes at a time.
const catchUpRows = 2000

// CatchUp judges a gap (reports a node could not publish) from the store.
func (w engines) CatchUp(ctx context.Context, carID, from, to int64) error {
	n := len(w.a.TankCatalog.Compartments(carID))
	if n == 0 {
		n = tank.MaxCompartments
	}
	for after := from - 1; ; {
		reports, more, err := telemetry.ReadBack(ctx, w.a.DB, carID, n, after, to, catchUpRows)
		if err != nil {
			return err
		}
		if len(reports) > 0 {
			if err := w.Judge(ctx, reports); err != nil {
				return err
			}
			after = reports[len(reports)-1].Time.UnixMilli()
		}
		if !more || len(reports) == 0 {
			return nil
		}
	}
}

// CarOf is the car the terminal was bound to at the time (the orphan sweep's, D117); 0 when none.
func (w engines) CarOf(ctx context.Context, terminalID, at int64) (int64, error) {
	return w.a.Fleet.CarAt(ctx, terminalID, at)
}
