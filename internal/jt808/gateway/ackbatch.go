package gateway

import "sync"

// A commit of the history writer acknowledges a report of most terminals, and under load several of
// some (a terminal reporting faster than the writer commits, a blind-area catch-up): written one by
// one, each ack is a system call that also wakes the terminal's side. When the sink says when a
// commit's callbacks are over (batchSink, the history writer), the acks of a commit are queued per
// session and each session's are written at once, in one non-blocking write, when the commit's
// callbacks have run (docs/DECISIONS.md D108).

// batchSink is a Sink that calls fn on the goroutine that ran a batch's done callbacks, after them.
type batchSink interface {
	OnBatchDone(fn func())
}

// ackBatch is the sessions holding acks of the commit under way.
type ackBatch struct {
	mu    sync.Mutex
	held  []*session
	spare []*session
}

// add lists s, whose queue holds acks of the commit under way.
func (b *ackBatch) add(s *session) {
	b.mu.Lock()
	b.held = append(b.held, s)
	b.mu.Unlock()
}

// flushAcks writes the acks held during a commit, one write per session (the sink calls it once a
// commit's callbacks have run).
func (srv *Server) flushAcks() {
	b := &srv.acks
	b.mu.Lock()
	held := b.held
	b.held, b.spare = b.spare[:0], nil
	b.mu.Unlock()
	for i, s := range held {
		s.wmu.Lock()
		s.held = false
		if s.closed || s.flushing || len(s.pend) == 0 {
			s.wmu.Unlock()
		} else {
			s.writePending() // unlocks
		}
		held[i] = nil
	}
	b.mu.Lock()
	if b.spare == nil {
		b.spare = held[:0]
	}
	b.mu.Unlock()
}
