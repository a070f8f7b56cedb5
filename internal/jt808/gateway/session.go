package gateway

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"sync"
	"sync/atomic"
	"syscall"
	"tankwatch/internal/tank"
	"time"

	"tankwatch/internal/jt808"
)

// session is one terminal connection. The goroutine reading it owns the reading side (term, authed,
// bad counters): serve, for the life of the connection, or, in the reactor, while there are bytes to
// read (one at a time, started by wake). A write goes out at once from its caller when the socket takes it without waiting;
// otherwise it goes through the outbox, drained by a short-lived flush goroutine, so that the history
// writer's commit callback never waits on a slow socket.
type session struct {
	srv    *Server
	conn   net.Conn
	rc     syscall.RawConn // conn's socket (readable_linux.go); nil when it is none, or not on Linux
	peer   string
	host   string          // the peer's address without port (the failure limit's key)
	node   string          // a live session on another node (remoteSession): that node's name
	ctx    context.Context // ends when the session closes
	cancel context.CancelFunc
	serial atomic.Uint32       // platform serial numbers, per session, wrapping at 16 bits
	who    atomic.Pointer[who] // set at authentication: what the session's log lines name

	heard    atomic.Int64             // cfg.Now() of the last valid frame, Unix ns (liveness)
	conflict atomic.Pointer[conflict] // a refused takeover of this session's terminal, alarmed if it talks on
	authBy   time.Time                // wall time by which the connection must have authenticated

	// reading side
	term      Terminal
	authed    bool
	phone     jt808.Phone // the authenticated header phone
	bad       int         // malformed frames in a row
	malformed int         // malformed frames in total (log rate limit)
	tankBad   int
	defects   int         // messages kept despite a defect (log rate limit)
	lastTank  *tank.State // the newest full tank state (0xE1), base for partial lock-sensor states

	// set at authentication for Send; guarded by srv.mu
	bound int64
	live  liveInfo

	rmu     sync.Mutex
	re      jt808.Reassembler
	partial atomic.Bool // re holds partial messages (the janitor looks only at these)

	wmu      sync.Mutex
	pend     []byte
	stamps   []time.Time // read times of the acks in pend
	flushing bool
	held     bool // pend holds acks of the commit under way, written when it ends (ackbatch.go)
	closing  bool // close once pend is written
	closed   bool

	pmu     sync.Mutex
	waiters map[waitKey]*waiter

	upg atomic.Pointer[transfer] // the firmware upgrade under way (upgrade.go)

	// reading (reactive.go); in the reactor (reactor_linux.go), no goroutine while idle
	poll   *reactor
	rid    atomic.Uint32 // the session's id in poll's set; 0: one goroutine reads it all along
	state  atomic.Int32  // idle, serving, serving with an edge since, or ended (wake)
	readBy atomic.Int64  // the read deadline, Unix ns: the janitor wakes the session once it has passed
	sp     *jt808.Splitter
	readFn func(fd uintptr) bool // RawConn.Read's callback, built once
	got    bool                  // the last readFn read something (bytes, the end or an error)
	short  bool                  // and fewer bytes than it had room for (reactor: the socket was emptied)
	hup    atomic.Bool           // the reactor saw the peer hang up, or an error: read to the end
	inline bool                  // served on the reactor's loop: a submission must not wait (serveInline)
	later  *deferred             // a submission the sink had no room for while inline: submitted first by serve
}

// session.state in the reactor.
const (
	idle int32 = iota
	serving
	servingAgain // an edge came while serving: read again before going idle
	ended
)

// liveInfo is what Send needs of an authenticated session.
type liveInfo struct {
	term    Terminal
	phone   jt808.Phone
	version jt808.Version
	proto   byte
}

func newSession(parent context.Context, srv *Server, conn net.Conn) *session {
	ctx, cancel := context.WithCancel(parent)
	s := &session{srv: srv, conn: conn, rc: rawConn(conn), peer: conn.RemoteAddr().String(), ctx: ctx, cancel: cancel}
	s.host = hostOf(s.peer)
	s.re.Timeout = srv.cfg.ReassemblyTimeout
	return s
}

// who names an authenticated session in its log lines.
type who struct {
	terminal int64
	phone    string
}

// logger is safe from any goroutine: the flusher and the writer's commit callback log too. It is built
// when a line is logged (rarely) rather than kept per session: a handler with preformatted attributes
// is about a kilobyte, times every connected terminal.
func (s *session) logger() *slog.Logger {
	if w := s.who.Load(); w != nil {
		return s.srv.log.With("peer", s.peer, "terminal", w.terminal, "phone", w.phone)
	}
	return s.srv.log.With("peer", s.peer)
}

func (s *session) nextSerial(n int) uint16 {
	return uint16(s.serial.Add(uint32(n)) - uint32(n))
}

// frameBufs holds unescaped frames while they are handled; nothing of a frame outlives its handling
// (reports, raw frames and reassembled parts are copies), so thousands of idle sessions need not each
// keep one.
var frameBufs = sync.Pool{New: func() any { return new([]byte) }}

// readOne handles what one read of a frame gave; false ends the session.
func (s *session) readOne(raw []byte, err error) bool {
	if err != nil {
		if errors.Is(err, jt808.ErrTooLong) {
			return s.malformedFrame(err)
		}
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			if s.unauthenticatedTooLong() {
				return false
			}
			s.logger().Info("idle terminal disconnected", "authenticated", s.authed)
		}
		return false
	}
	if s.unauthenticatedTooLong() {
		return false
	}
	cfg := &s.srv.cfg
	now := cfg.Now()
	buf := frameBufs.Get().(*[]byte)
	defer frameBufs.Put(buf)
	var f jt808.Frame
	f, *buf, err = jt808.DecodeFrame((*buf)[:0], raw)
	if err != nil {
		return s.malformedFrame(err)
	}
	s.bad = 0
	s.heard.Store(now.UnixNano())
	if s.authed && s.conflict.Load() != nil { // a load, not a swap, on the per-frame path: nearly always nil
		if c := s.conflict.Swap(nil); c != nil {
			s.srv.raiseConflict(s, c) // the live session talks on: the other connection was not its terminal
		}
	}
	s.setReadDeadline()
	s.srv.m.frames.WithLabelValues(msgLabel(f.Header.MsgID)).Inc()
	return s.frame(now, raw, f)
}

// setReadDeadline gives the connection IdleTimeout to send its next frame, but no later than its
// authentication deadline while it has not authenticated.
func (s *session) setReadDeadline() {
	d := time.Now().Add(s.srv.cfg.IdleTimeout)
	if !s.authed && s.authBy.Before(d) {
		d = s.authBy
	}
	s.deadline(d)
}

// deadline sets the session's read deadline: in the reactor, only readBy, which serve and the janitor
// check (a socket deadline set per frame was a timer update per report); outside it, the socket's.
func (s *session) deadline(t time.Time) {
	s.readBy.Store(t.UnixNano())
	if s.rid.Load() == 0 {
		_ = s.conn.SetReadDeadline(t)
	}
}

// unauthenticatedTooLong reports (and counts, and logs) a connection that has not authenticated within
// AuthTimeout: a device connection held open without authenticating only takes a terminal slot.
func (s *session) unauthenticatedTooLong() bool {
	if s.authed || time.Now().Before(s.authBy) {
		return false
	}
	s.srv.m.authClosed.Inc()
	s.logger().Info("connection closed: not authenticated in time", "auth_timeout", s.srv.cfg.AuthTimeout)
	return true
}

// logEvery counts one more event of a connection in *n and says whether to log it: the first five,
// then every 100th, so that a terminal that keeps sending the same defect cannot flood the log.
func logEvery(n *int) bool {
	*n++
	return *n <= 5 || *n%100 == 0
}

// malformedFrame counts and logs (first 5, then every 100th) a dropped frame; false closes the session.
func (s *session) malformedFrame(err error) bool {
	s.srv.m.malformed.Inc()
	s.bad++
	if logEvery(&s.malformed) {
		s.logger().Warn("malformed frame dropped", "err", err, "count", s.malformed)
	}
	if s.bad >= s.srv.cfg.MaxBadFrames {
		s.logger().Warn("closing a connection that sends only malformed frames", "in_a_row", s.bad)
		return false
	}
	return true
}

// end runs when the reading side stops: the session leaves the reactor (while its socket is still
// open, reactor.remove), then closes once its queued replies are written.
func (s *session) end() {
	s.state.Store(ended)
	s.poll.remove(s)
	s.closeAfterFlush()
	s.cancel()
	s.srv.drop(s)
	s.rmu.Lock()
	s.re = jt808.Reassembler{}
	s.rmu.Unlock()
	s.partial.Store(false)
	s.srv.wg.Done()
}

// enqueue writes wire bytes, or queues them for the flusher; readAt is set for acks (latency metric).
// It reports false when the session is closing or had to be dropped because the terminal does not
// read fast enough.
func (s *session) enqueue(wire []byte, readAt time.Time) bool { return s.queue(wire, readAt, false) }

// queue is enqueue; with hold, the bytes wait in pend for the end of the commit under way, when
// flushAcks writes the session's queue at once (ackbatch.go), unless a flush writes them first.
func (s *session) queue(wire []byte, readAt time.Time, hold bool) bool {
	s.wmu.Lock()
	if !s.room(len(wire)) {
		return false
	}
	if !hold && !s.flushing && len(s.pend) == 0 && s.rc != nil {
		// Nothing queued or being written, so bytes written from here keep their order. A reply then
		// costs one write from the caller instead of a goroutine start, a wake-up and a write; what
		// the socket does not take at once goes to the flusher, so the caller never waits on a slow
		// terminal. The write is non-blocking, so holding wmu across it is brief.
		n := tryWrite(s.rc, wire)
		if n == len(wire) {
			s.wmu.Unlock()
			if !readAt.IsZero() {
				s.observeAcks([]time.Time{readAt})
			}
			return true
		}
		wire = wire[n:]
	}
	s.pend = append(s.pend, wire...) // a copy: callers reuse wire (upgrade.go)
	if !readAt.IsZero() {
		s.stamps = append(s.stamps, readAt)
	}
	list := false
	switch {
	case s.flushing: // the flush under way writes them
	case hold:
		list, s.held = !s.held, true
	default:
		s.flushing = true
		go s.flush()
	}
	s.wmu.Unlock()
	if list {
		s.srv.acks.add(s)
	}
	return true
}

// room reports, with wmu held, whether n more bytes may be queued; when not (the session is closing,
// or its terminal does not read its replies and is dropped) it releases wmu.
func (s *session) room(n int) bool {
	if s.closed || s.closing {
		s.wmu.Unlock()
		return false
	}
	if unsent := len(s.pend); unsent+n > s.srv.cfg.MaxOutbox {
		s.wmu.Unlock()
		s.logger().Warn("terminal does not read its replies; closing", "unsent_bytes", unsent)
		s.close()
		return false
	}
	return true
}

// writePending writes what is queued, while nothing is being written, in one non-blocking write and
// leaves what the socket did not take to the flusher. Called with wmu held; releases it.
func (s *session) writePending() {
	if s.rc != nil {
		n := tryWrite(s.rc, s.pend)
		if n == len(s.pend) {
			stamps := s.stamps
			s.pend, s.stamps = nil, nil
			s.wmu.Unlock()
			s.observeAcks(stamps)
			return
		}
		s.pend = s.pend[n:]
	}
	s.flushing = true
	s.wmu.Unlock()
	go s.flush()
}

// observeAcks counts written acks and their latency from the reads of their reports.
func (s *session) observeAcks(stamps []time.Time) {
	if len(stamps) == 0 {
		return
	}
	now := s.srv.cfg.Now()
	for _, t := range stamps {
		s.srv.m.ackLatency.Observe(now.Sub(t).Seconds())
	}
	s.srv.m.acks.Add(float64(len(stamps)))
}

// flush writes what is queued until nothing is. The queue's slices go with each write: a session
// that is not writing holds no buffer (thousands of terminals connected, a reply every few seconds).
func (s *session) flush() {
	wrote := false
	for {
		s.wmu.Lock()
		if len(s.pend) == 0 || s.closed {
			if wrote && !s.closed && s.rc != nil {
				// The deadline set for the blocking write would fail the next direct write once it
				// has passed, sending every later ack through a flusher again.
				_ = s.conn.SetWriteDeadline(time.Time{})
			}
			s.flushing = false
			closeNow := s.closing && !s.closed
			s.wmu.Unlock()
			if closeNow {
				s.close()
			}
			return
		}
		buf, stamps := s.pend, s.stamps
		s.pend, s.stamps = nil, nil
		s.wmu.Unlock()
		_ = s.conn.SetWriteDeadline(time.Now().Add(s.srv.cfg.WriteTimeout))
		if _, err := s.conn.Write(buf); err != nil {
			s.logger().Info("write failed; closing", "err", err)
			s.wmu.Lock()
			s.flushing = false
			s.wmu.Unlock()
			s.close()
			return
		}
		wrote = true
		s.observeAcks(stamps)
	}
}

// closeAfterFlush closes the connection once the queued replies are written (logout, refused auth).
func (s *session) closeAfterFlush() {
	s.wmu.Lock()
	s.closing = true
	if !s.flushing && !s.closed && len(s.pend) > 0 {
		s.flushing = true // acks held for the commit's end: the flusher writes them, then closes
		s.wmu.Unlock()
		go s.flush()
		return
	}
	now := !s.flushing && !s.closed
	s.wmu.Unlock()
	if now {
		s.close()
	}
}

// close drops the connection now; queued bytes are lost.
func (s *session) close() {
	s.wmu.Lock()
	if s.closed {
		s.wmu.Unlock()
		return
	}
	s.closed = true
	s.pend, s.stamps = nil, nil
	s.wmu.Unlock()
	s.cancel()
	_ = s.conn.Close()
	s.wake() // in the reactor, no goroutine is waiting in a read to see the close: one is started
}

// requestMissing sends 0x8003 for sub-packaged messages that went quiet.
func (s *session) requestMissing(now time.Time) {
	s.rmu.Lock()
	rs := s.re.Missing(now)
	n, _ := s.re.Pending()
	s.partial.Store(n > 0)
	s.rmu.Unlock()
	for _, r := range rs {
		h := jt808.Header{Version: r.Version, Phone: r.Phone, Serial: s.nextSerial(1)}
		if r.Version == jt808.V2019 {
			h.ProtoVersion = 1
		}
		wire, err := jt808.AppendMessage(nil, h, &r.Request)
		if err != nil {
			s.logger().Warn("0x8003 not encoded", "err", err)
			continue
		}
		s.enqueue(wire, time.Time{})
	}
}
