package events

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"tankwatch/internal/telemetry"
)

// Queue feeds the ingest from the history writer's committed batches (telemetry.Writer.Subscribe)
// without ever blocking the writer: Enqueue keeps the reports that carry lock events and a drain
// goroutine, started when there is work and gone when there is none, files them. A store failure is
// retried (Retries times, with a growing pause); what still fails, or what arrives while Limit events
// wait, is dropped, logged and counted (Dropped) — never silently.
type Queue struct {
	in  *Ingest
	log *slog.Logger

	Limit   int // lock-bearing reports waiting; 0 = 10,000
	Retries int // 0 = 5
	Pause   time.Duration

	mu      sync.Mutex
	pending []telemetry.Report
	running bool
	idle    *sync.Cond

	stored, dropped, failed atomic.Int64
}

// NewQueue returns a queue over in.
func NewQueue(in *Ingest, log *slog.Logger) *Queue {
	if log == nil {
		log = slog.Default()
	}
	q := &Queue{in: in, log: log, Pause: time.Second}
	q.idle = sync.NewCond(&q.mu)
	return q
}

// Enqueue is the writer's subscriber: quick, never blocking.
func (q *Queue) Enqueue(reports []telemetry.Report) {
	var mine []telemetry.Report
	for i := range reports {
		if reports[i].CarID != 0 && len(reports[i].Locks) > 0 {
			mine = append(mine, reports[i])
		}
	}
	if len(mine) == 0 {
		return
	}
	limit := q.Limit
	if limit <= 0 {
		limit = 10_000
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.pending)+len(mine) > limit {
		q.dropped.Add(int64(len(mine)))
		q.log.Warn("lock events: queue full, reports dropped", "reports", len(mine), "dropped", q.dropped.Load())
		return
	}
	q.pending = append(q.pending, mine...)
	if !q.running {
		q.running = true
		go q.drain()
	}
}

func (q *Queue) drain() {
	ctx := context.Background()
	retries := q.Retries
	if retries <= 0 {
		retries = 5
	}
	for {
		q.mu.Lock()
		batch := q.pending
		q.pending = nil
		if len(batch) == 0 {
			q.running = false
			q.idle.Broadcast()
			q.mu.Unlock()
			return
		}
		q.mu.Unlock()
		var err error
		for try := 0; try < retries; try++ {
			var n int
			if n, err = q.in.Store(ctx, batch); err == nil {
				q.stored.Add(int64(n))
				break
			}
			q.failed.Add(1)
			time.Sleep(q.Pause * time.Duration(try+1))
		}
		if err != nil {
			q.dropped.Add(int64(len(batch)))
			q.log.Error("lock events: could not be stored, reports dropped", "reports", len(batch), "err", err)
		}
	}
}

// File stores the lock events of reports at once, without the queue (the partitioned worker, D97,
// whose batch is acknowledged only when this returns nil): a failure is counted and returned, so that
// the batch is delivered again; nothing is dropped. Filing again what was filed is harmless (Store
// skips an event already filed, and raises no alarm for it).
func (q *Queue) File(ctx context.Context, reports []telemetry.Report) error {
	has := false
	for i := range reports {
		if reports[i].CarID != 0 && len(reports[i].Locks) > 0 {
			has = true
			break
		}
	}
	if !has {
		return nil
	}
	n, err := q.in.Store(ctx, reports)
	if err != nil {
		q.failed.Add(1)
		return fmt.Errorf("lock events not filed: %w", err)
	}
	q.stored.Add(int64(n))
	return nil
}

// Wait returns once every report enqueued so far is filed or dropped (tests, the demo).
func (q *Queue) Wait() {
	q.mu.Lock()
	for q.running {
		q.idle.Wait()
	}
	q.mu.Unlock()
}

// Stats: events stored, reports dropped, store attempts that failed.
func (q *Queue) Stats() (stored, dropped, failed int64) {
	return q.stored.Load(), q.dropped.Load(), q.failed.Load()
}
