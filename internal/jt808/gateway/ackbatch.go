package gateway

import (
	"fmt"
	"sync"

	"tankwatch/internal/jt808"
)

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

// ackCommitted acknowledges a committed report: held for the end of the commit when the sink says
// when that is, written at once otherwise.
func (s *session) ackCommitted(a ack) bool {
	if !s.srv.batchAcks {
		return s.sendAck(a)
	}
	out := jt808.Header{Version: a.h.Version, ProtoVersion: a.h.ProtoVersion, Phone: a.h.Phone, Serial: s.nextSerial(1)}
	m := &jt808.GeneralReply{Platform: true, Serial: a.h.Serial, ReplyID: a.h.MsgID, Result: a.result}
	var buf [32]byte
	wire, err := jt808.AppendMessage(buf[:0], out, m)
	if err != nil {
		s.logger().Error("reply not encoded", "msg", fmt.Sprintf("0x%04x", m.MsgID()), "err", err)
		return false
	}
	s.wmu.Lock()
	if !s.room(len(wire)) {
		return false
	}
	s.pend = append(s.pend, wire...)
	if !a.readAt.IsZero() {
		s.stamps = append(s.stamps, a.readAt)
	}
	hold := !s.flushing && !s.held // a flush under way writes it; a session held already is listed
	s.held = s.held || hold
	s.wmu.Unlock()
	if hold {
		b := &s.srv.acks
		b.mu.Lock()
		b.held = append(b.held, s)
		b.mu.Unlock()
	}
	return true
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
