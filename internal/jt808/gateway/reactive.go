package gateway

import (
	"os"
	"time"

	"tankwatch/internal/jt808"
)

// start begins reading a new connection: in the reactor when there is one and the connection is a
// socket, else by one goroutine for the life of the connection.
func (s *session) start(r *reactor) {
	cfg := &s.srv.cfg
	now := time.Now()
	s.authBy = now.Add(cfg.AuthTimeout)
	by := now.Add(min(cfg.HandshakeTimeout, cfg.IdleTimeout, cfg.AuthTimeout))
	s.readBy.Store(by.UnixNano())
	s.sp = jt808.NewSplitter((*splitterReads)(s), jt808.DefaultMaxFrame)
	s.poll = r
	s.readFn = func(fd uintptr) bool {
		s.got, s.short = readInto(fd, s.sp)
		// Nothing to read: a session in the reactor ends its goroutine (serve, rest); one that is
		// not waits in Go's poller.
		return s.got || s.rid.Load() != 0
	}
	if r == nil || s.rc == nil || !r.add(s) {
		s.deadline(by) // outside the reactor: the socket's too
		go s.serve()
		return
	}
	s.wake() // bytes that came before the socket joined the set raised no edge
}

// wake makes sure a goroutine reads the session: one is started if none is serving it, else the one
// serving it reads once more before it ends. It does nothing for a session outside the reactor (its
// goroutine reads all along), or one that has ended.
func (s *session) wake() { s.woken(false) }

// woken is wake; onLoop: called by the reactor's loop, which serves the session itself when the sink
// can refuse instead of waiting (serveInline), else hands it to a goroutine.
func (s *session) woken(onLoop bool) {
	if s.rid.Load() == 0 {
		return
	}
	for {
		switch st := s.state.Load(); st {
		case idle:
			if s.state.CompareAndSwap(idle, serving) {
				if onLoop && s.srv.try != nil {
					s.serveInline()
				} else {
					s.poll.run(s)
				}
				return
			}
		case serving:
			if s.state.CompareAndSwap(serving, servingAgain) {
				return
			}
		default:
			return
		}
	}
}

// serve reads and handles frames. Between frames it reads with the splitter's buffer given back: an
// idle terminal (most of them, most of the time) holds no read buffer. The read fills the splitter
// (readInto); a frame that came in pieces is completed by the splitter's own reads. In the reactor it
// ends when the socket has nothing more (rest); otherwise the read waits in Go's poller, with as
// little stack below it as possible (everything else happens in readOne). Without a socket (tests'
// pipes) the splitter reads the connection itself.
func (s *session) serve() {
	sp := s.sp
	if l := s.later; l != nil { // handed on by the loop: the sink had no room for this, and now it may wait
		s.later = nil
		if !s.submitted(s.srv.sink.Submit(s.ctx, l.reports, l.frames, l.done)) {
			s.end()
			return
		}
	}
	for {
		if s.rc != nil && sp.Idle() {
			sp.Release()
			if s.short && s.rid.Load() != 0 && !s.hup.Load() {
				// The last read had room to spare: the socket held no more. Rest without the read that
				// would find it empty; bytes that came since raised an edge, which wake has seen (rest
				// then fails) or will see. After a hang-up's edge, reads go on to the end of the
				// stream, which raises no edge of its own.
				s.short = false
				if s.rest() {
					return
				}
			}
			if s.rid.Load() != 0 && s.overdue(time.Now()) {
				// in the reactor the socket has no deadline of its own (session.deadline)
				s.readOne(nil, os.ErrDeadlineExceeded)
				s.end()
				return
			}
			if err := s.rc.Read(s.readFn); err != nil { // closed, or its deadline passed
				s.readOne(nil, err)
				s.end()
				return
			}
			if !s.got {
				if s.rest() {
					return
				}
				continue
			}
		}
		raw, err := sp.Next() // after a read, also when it found only the end or an error (sp is Idle then)
		if !s.readOne(raw, err) {
			s.end()
			return
		}
	}
}

// inlineFrames bounds the frames the reactor's loop handles for one session at one wake-up before it
// hands the session to a goroutine: a terminal that keeps its socket full cannot hold up the others.
const inlineFrames = 16

// serveInline serves a woken session on the reactor's loop: the common wake-up (a report or two that came
// whole) then costs no goroutine woken and no thread resumed, about a sixth of a report's CPU
// (docs/PERFORMANCE.md, D115). The loop serves every terminal of the node, so it hands the session to a
// goroutine (reactor.run, which goes on with serve) before anything that could wait: a frame that came
// in part (its rest is read with a deadline), a frame whose handling may wait on the store or on a hook
// (only positions, batches, heartbeats and pass-through are handled here), a submission the sink has
// no room for (the goroutine submits it first, waiting as Submit does), the end of the stream or a read
// error, a deadline passed, or inlineFrames frames.
func (s *session) serveInline() {
	s.inline = true
	handOn := s.serveOnLoop()
	s.inline = false
	if handOn {
		s.poll.run(s)
	}
}

// serveOnLoop is serveInline's loop; true hands the session on, false when it rested or ended.
func (s *session) serveOnLoop() bool {
	sp := s.sp
	for n := 0; n < inlineFrames && s.later == nil; {
		raw, whole := sp.Peek()
		if whole {
			if raw == nil || !quick(raw) {
				return true
			}
			raw, err := sp.Next()
			if !s.readOne(raw, err) {
				s.end()
				return false
			}
			n++
			continue
		}
		// Next would read: read here, without waiting.
		if sp.Idle() {
			if s.short && !s.hup.Load() {
				s.short = false // the last read emptied the socket (serve)
				if s.rest() {
					return false
				}
			}
			if s.overdue(time.Now()) {
				return true
			}
		} else if s.short {
			return true // part of a frame, and the socket held no more: its rest is waited for on a goroutine
		}
		if err := s.rc.Read(s.readFn); err != nil || (!s.got && !sp.Idle()) {
			return true
		}
		if !s.got && s.rest() {
			return false
		}
	}
	return true
}

// quick reports whether a frame's handling never waits: a position, a batch, a heartbeat or a
// pass-through (decoded, submitted, acknowledged). The message ID is the escaped frame's first two
// bytes unless one of them is an escape.
func quick(raw []byte) bool {
	if len(raw) < 2 || raw[0] == 0x7d || raw[1] == 0x7d {
		return false
	}
	switch uint16(raw[0])<<8 | uint16(raw[1]) {
	case jt808.MsgLocation, jt808.MsgBatch, jt808.MsgHeartbeat, jt808.MsgUplinkPassThrough:
		return true
	}
	return false
}

// rest ends a serving goroutine whose socket was found empty; false when an edge came meanwhile (the
// bytes it announced may have been read already: reading once more finds out).
func (s *session) rest() bool {
	if s.state.CompareAndSwap(serving, idle) {
		return true
	}
	s.state.Store(serving)
	return false
}

// expired wakes a session in the reactor whose read deadline has passed: no read is waiting to fail,
// so its goroutine's read finds the deadline (the janitor calls it).
func (s *session) expired(now time.Time) bool {
	return s.rid.Load() != 0 && s.state.Load() == idle && s.overdue(now)
}

// overdue reports whether the session's read deadline has passed.
func (s *session) overdue(now time.Time) bool { return now.UnixNano() >= s.readBy.Load() }

// splitterReads is the session's connection as its splitter reads it to complete a frame that came in
// pieces: such a read may leave bytes in the socket, so the session's last read no longer says the
// socket was emptied.
type splitterReads session

func (r *splitterReads) Read(b []byte) (int, error) {
	r.short = false
	if r.rid.Load() == 0 {
		return r.conn.Read(b)
	}
	// In the reactor the socket has no deadline but for this read (session.deadline).
	_ = r.conn.SetReadDeadline(time.Unix(0, r.readBy.Load()))
	n, err := r.conn.Read(b)
	_ = r.conn.SetReadDeadline(time.Time{})
	return n, err
}
