package telemetry

import (
	"context"
	"sync"
)

// An engine that falls behind catches up from the store instead of dropping (DESIGN §2): a car whose
// reports did not fit the engine's queue is marked behind with the oldest row time not judged; its
// queued reports are skipped (and lower the mark), and a catch-up pass reads its reports back from
// the store (ReadBack) from there, in time order. Behind is that set of marks, shared by the alarm
// and tank events engines so that they keep one rule: every car a pass does not finish stays marked
// with where it must resume.

// Behind is an engine's cars waiting for a catch-up: car → the oldest row time not judged. Safe for
// concurrent use (the writer marks, the engine's goroutine skips and catches up).
type Behind struct {
	mu sync.Mutex
	m  map[int64]int64
}

// RowTime is a report's row time in the history tables (Unix ms): its device time, else when it was
// received.
func RowTime(r *Report) int64 {
	if r.Time.IsZero() {
		return r.Received.UnixMilli()
	}
	return r.Time.UnixMilli()
}

func (b *Behind) mark(carID, t int64) {
	if carID == 0 {
		return
	}
	if b.m == nil {
		b.m = map[int64]int64{}
	}
	if cur, ok := b.m[carID]; !ok || t < cur {
		b.m[carID] = t
	}
}

// Mark lowers the car's mark to t (marking it behind).
func (b *Behind) Mark(carID, t int64) {
	b.mu.Lock()
	b.mark(carID, t)
	b.mu.Unlock()
}

// MarkAll marks the cars of reports behind from their oldest row time (a batch that did not fit).
func (b *Behind) MarkAll(reports []Report) {
	b.mu.Lock()
	for i := range reports {
		b.mark(reports[i].CarID, RowTime(&reports[i]))
	}
	b.mu.Unlock()
}

// Skip lists the cars of batch that are behind, after lowering their marks to the batch's reports:
// the engine skips their reports, the catch-up reads them from the store in order. nil when none.
func (b *Behind) Skip(batch []Report) map[int64]bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	var skip map[int64]bool
	for i := range batch {
		r := &batch[i]
		if _, ok := b.m[r.CarID]; ok {
			b.mark(r.CarID, RowTime(r))
			if skip == nil {
				skip = map[int64]bool{}
			}
			skip[r.CarID] = true
		}
	}
	return skip
}

// Len is how many cars are behind.
func (b *Behind) Len() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.m)
}

// Pass is one catch-up pass. It first judges what is queued on q (committed before what overflowed:
// judged, or for cars behind skipped and marked, so that the store is read from the oldest report
// not judged), then takes every mark — reports committed from now on come through the queue again —
// and catches each car up from its mark. A car not finished stays marked: from next when there is
// more to read, from its mark when it failed; after a failure the cars not reached keep their marks
// and the failure is returned.
func (b *Behind) Pass(ctx context.Context, q chan Queued, judge func(context.Context, []Report),
	car func(ctx context.Context, carID, mark int64) (next int64, more bool, err error)) error {
	for range cap(q) {
		select {
		case batch := <-q:
			judge(ctx, batch.Reports)
			batch.Finish()
			continue
		default:
		}
		break
	}
	b.mu.Lock()
	marks := b.m
	b.m = map[int64]int64{}
	b.mu.Unlock()
	var failed error
	for id, mark := range marks {
		if failed != nil {
			b.Mark(id, mark)
			continue
		}
		next, more, err := car(ctx, id, mark)
		if err != nil {
			failed = err
			b.Mark(id, mark)
		} else if more {
			b.Mark(id, next)
		}
	}
	return failed
}
