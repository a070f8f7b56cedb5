//go:build linux

package gateway

import (
	"os"
	"sync"
	"sync/atomic"
	"syscall"
)

// reactor holds the idle sessions' sockets in one epoll set, so that a connected terminal between two
// reports costs no goroutine: a session's goroutine (and its stack, most of an idle terminal's memory)
// exists only while the session has bytes to read (session.serve). The set is registered edge-triggered;
// an edge wakes the session (session.wake), whose goroutine reads until the socket is empty. The
// goroutines that serve woken sessions stay for the next one (run): one started per wake-up cost its
// start, the growth of its stack and its exit, about 2 µs a report (docs/PERFORMANCE.md, D112).
// The loop itself serves a woken session while nothing can wait (session.serveInline, D115): most
// reports then wake no goroutine at all.
//
// The epoll set's own descriptor waits in Go's poller like a socket (an epoll descriptor is readable
// while it holds events), so no thread blocks in epoll_wait, and closing it ends the loop.
type reactor struct {
	f    *os.File
	rc   syscall.RawConn
	epfd int

	mu   sync.Mutex
	byID map[uint32]*session // a stale event (a session gone, its descriptor number reused) finds nothing
	next uint32
	done chan struct{}

	work    chan *session // a woken session, to a goroutine waiting for one (unbuffered)
	waiting atomic.Int32  // goroutines waiting on work
	handed  atomic.Int64  // sessions handed to a goroutine (run): the loop served the others itself (tests)
	quit    chan struct{} // closed with the set: waiting goroutines end
}

// maxWaiting bounds the goroutines kept waiting for a woken session: a few serve at once on a node (a
// frame's handling does not wait on the store), and a burst that needed more (a registration storm's
// lookups) leaves no more than these behind.
const maxWaiting = 32

// newReactor returns nil when the system refuses an epoll set; the sessions then read as goroutines.
func newReactor() *reactor {
	fd, err := syscall.EpollCreate1(syscall.EPOLL_CLOEXEC)
	if err != nil {
		return nil
	}
	if err := syscall.SetNonblock(fd, true); err != nil {
		_ = syscall.Close(fd)
		return nil
	}
	f := os.NewFile(uintptr(fd), "epoll")
	rc, err := f.SyscallConn()
	if err != nil {
		_ = f.Close()
		return nil
	}
	r := &reactor{f: f, rc: rc, epfd: fd, byID: map[uint32]*session{}, done: make(chan struct{}),
		work: make(chan *session), quit: make(chan struct{})}
	go r.loop()
	return r
}

// add puts the session's socket in the set; false when it cannot be (the session then reads as a
// goroutine).
func (r *reactor) add(s *session) bool {
	r.mu.Lock()
	r.next++
	for r.next == 0 || r.byID[r.next] != nil {
		r.next++
	}
	id := r.next
	r.byID[id] = s
	r.mu.Unlock()
	// syscall declares EPOLLET as the negative int 0x80000000; negated, it is the flag as a uint32.
	ev := syscall.EpollEvent{Events: syscall.EPOLLIN | syscall.EPOLLRDHUP | -syscall.EPOLLET, Fd: int32(id)}
	var err error
	if cerr := s.rc.Control(func(fd uintptr) { err = syscall.EpollCtl(r.epfd, syscall.EPOLL_CTL_ADD, int(fd), &ev) }); cerr != nil {
		err = cerr
	}
	if err != nil {
		r.forget(id)
		return false
	}
	s.rid.Store(id)
	return true
}

// remove takes the session's socket out of the set while the socket is still open (Control holds it),
// so that the descriptor's number, once reused, cannot be removed by mistake. A socket already closed
// left the set with its close.
func (r *reactor) remove(s *session) {
	id := s.rid.Load()
	if id == 0 {
		return
	}
	_ = s.rc.Control(func(fd uintptr) {
		_ = syscall.EpollCtl(r.epfd, syscall.EPOLL_CTL_DEL, int(fd), nil)
	})
	r.forget(id)
}

func (r *reactor) forget(id uint32) {
	r.mu.Lock()
	delete(r.byID, id)
	r.mu.Unlock()
}

// loop hands each edge to its session until the set is closed.
func (r *reactor) loop() {
	defer close(r.done)
	events := make([]syscall.EpollEvent, 256)
	var woken []*session
	drain := func(fd uintptr) bool {
		for {
			n, err := epollLook(int(fd), events)
			if err == syscall.EINTR {
				continue
			}
			if n <= 0 {
				return false // nothing: wait in Go's poller for the next events
			}
			r.mu.Lock()
			for _, ev := range events[:n] {
				if s := r.byID[uint32(ev.Fd)]; s != nil {
					if ev.Events&(syscall.EPOLLRDHUP|syscall.EPOLLHUP|syscall.EPOLLERR) != 0 {
						s.hup.Store(true) // before the wake: its reads go on to the end (serve)
					}
					woken = append(woken, s)
				}
			}
			r.mu.Unlock()
			for i, s := range woken {
				s.woken(true)
				woken[i] = nil
			}
			woken = woken[:0]
			if n < len(events) {
				// The set was emptied: wait in Go's poller, without one more epoll_wait to find it
				// empty. An event that comes meanwhile makes the set's descriptor readable again
				// (the kernel wakes the set's pollers at each new event), so the wait does not miss it.
				return false
			}
		}
	}
	for r.rc.Read(drain) == nil {
	}
}

// run serves a woken session on a goroutine that waits for one, or on a new one when none does.
func (r *reactor) run(s *session) {
	r.handed.Add(1)
	select {
	case r.work <- s:
	default:
		go r.serve(s)
	}
}

// serve serves woken sessions one after the other, and ends when maxWaiting others already wait.
func (r *reactor) serve(s *session) {
	for {
		s.serve()
		if r.waiting.Add(1) > maxWaiting {
			r.waiting.Add(-1)
			return
		}
		select {
		case s = <-r.work:
			r.waiting.Add(-1)
		case <-r.quit:
			return
		}
	}
}

// close ends the loop and the goroutines waiting for a session; the sessions still in the set are the
// caller's to close.
func (r *reactor) close() {
	_ = r.f.Close()
	<-r.done
	close(r.quit)
}
