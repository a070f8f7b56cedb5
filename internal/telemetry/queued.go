package telemetry

import "context"

// Queued is a committed batch on an engine's queue. Done, when set, is closed once the engine has
// judged it: a worker acknowledges a batch of its partition only then (docs/DECISIONS.md D97).
type Queued struct {
	Reports []Report
	Done    chan struct{}
	// Forget, when set, names cars whose state the engine drops before it judges Reports: a worker
	// takes over a partition another node judged, and what it knew of those cars is stale (D105).
	Forget func(carID int64) bool
	// Err, when set, receives the engine's failure to do what the item asked before Done is closed.
	Err *error
}

// Finish tells the waiting caller, if any, that the batch was judged.
func (q Queued) Finish() {
	if q.Done != nil {
		close(q.Done)
	}
}

// JudgeWait puts reports on q, waiting for room rather than overflowing (the caller's stream is the
// backlog), and waits until the engine has judged them; ctx ends both waits. An error the engine
// reports (what it decided could not be stored) is returned: the worker's batch is delivered again.
func JudgeWait(ctx context.Context, q chan<- Queued, reports []Report) error {
	var err error
	if werr := wait(ctx, q, Queued{Reports: reports, Done: make(chan struct{}), Err: &err}); werr != nil {
		return werr
	}
	return err
}

// ForgetWait has the engine of q drop its state of the cars forget names, in order with the batches
// it judges, and waits until it has.
func ForgetWait(ctx context.Context, q chan<- Queued, forget func(carID int64) bool) error {
	var err error
	if werr := wait(ctx, q, Queued{Forget: forget, Done: make(chan struct{}), Err: &err}); werr != nil {
		return werr
	}
	return err
}

func wait(ctx context.Context, q chan<- Queued, it Queued) error {
	select {
	case q <- it:
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case <-it.Done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
