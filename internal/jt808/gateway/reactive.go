package gateway

import "time"

// start begins reading a new connection: in the reactor when there is one and the connection is a
// socket, as a goroutine otherwise.
func (s *session) start(r *reactor) {
	sp := s.begin()
	if r == nil || s.rc == nil {
		go s.runWith(sp)
		return
	}
	s.poll, s.sp = r, sp
	s.readFn = func(fd uintptr) bool {
		s.got = readInto(fd, s.sp)
		return true // never wait in Go's poller: an empty socket ends the goroutine (serve)
	}
	if !r.add(s) {
		go s.runWith(sp)
		return
	}
	s.wake() // bytes that came before the socket joined the set raised no edge
}

// wake makes sure a goroutine reads the session: one is started if none is serving it, else the one
// serving it reads once more before it ends. It does nothing for a session that reads as a goroutine
// of its own, or has ended.
func (s *session) wake() {
	if s.rid.Load() == 0 {
		return
	}
	for {
		switch st := s.state.Load(); st {
		case idle:
			if s.state.CompareAndSwap(idle, serving) {
				go s.serve()
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

// serve reads and handles frames until the socket has nothing more, then ends; it is run by wake, one
// at a time per session. The same as runWith, but it parks by returning instead of waiting in a read.
func (s *session) serve() {
	sp := s.sp
	for {
		if sp.Idle() {
			sp.Release()
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

// rest ends a serving goroutine whose socket was found empty; false when an edge came meanwhile (the
// bytes it announced may have been read already: reading once more finds out).
func (s *session) rest() bool {
	if s.state.CompareAndSwap(serving, idle) {
		return true
	}
	s.state.Store(serving)
	return false
}

// end is runWith's deferred work for a session in the reactor.
func (s *session) end() {
	s.state.Store(ended)
	s.poll.remove(s)
	s.finish()
	s.srv.wg.Done()
}

// expired wakes a session in the reactor whose read deadline has passed: no read is waiting to fail,
// so its goroutine's read finds the deadline (the janitor calls it).
func (s *session) expired(now time.Time) bool {
	return s.rid.Load() != 0 && s.state.Load() == idle && now.UnixNano() >= s.readBy.Load()
}
