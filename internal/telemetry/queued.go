package telemetry

import "context"

// Queued is a committed batch on an engine's queue. Done, when set, is closed once the engine has
// judged it: a worker acknowledges a batch of its partition only then (docs/DECISIONS.md D97).
type Queued struct {
	Reports []Report
	Done    chan struct{}
}

// Finish tells the waiting caller, if any, that the batch was judged.
func (q Queued) Finish() {
	if q.Done != nil {
		close(q.Done)
	}
}

// JudgeWait puts reports on q, waiting for room rather than overflowing (the caller's stream is the
// backlog), and waits until the engine has judged them; ctx ends both waits.
func JudgeWait(ctx context.Context, q chan<- Queued, reports []Report) error {
	it := Queued{Reports: reports, Done: make(chan struct{})}
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
