package gateway

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Server accepts terminal connections and keeps one session per connection.
type Server struct {
	cfg  Config
	reg  Registry
	sink Sink
	cmds CommandLog
	pass PassDecoder
	log  *slog.Logger
	m    *metrics

	onAuth     atomic.Pointer[func(Terminal)]
	onConflict atomic.Pointer[func(Conflict)]
	onUpgrade  atomic.Pointer[func(UpgradeReport)]
	onAttrs    atomic.Pointer[func(AttributesReport)]
	fails      *failLimiter
	cluster    Cluster // the other nodes (cluster.go); nil: this node is alone

	mu        sync.Mutex
	conns     map[*session]struct{}
	byTerm    map[int64]*session  // authenticated sessions by terminal ID
	attempts  map[int64]int       // takeover attempts refused since the terminal's last conflict alarm
	conflicts map[int64]time.Time // last identity-conflict alarm per terminal
	wg        sync.WaitGroup      // sessions (their goroutines, or their time in the reactor)

	try       trySink  // the sink, when it can refuse instead of waiting (serveInline)
	batchAcks bool     // the sink tells when a commit's callbacks are over: acks are written per commit
	acks      ackBatch // sessions holding acks of the commit under way (ackbatch.go)
}

// New returns a gateway. pass may be nil (only tank.PassTank pass-through is decoded); metrics may be
// nil. cmds is needed only for Send.
func New(cfg Config, reg Registry, sink Sink, cmds CommandLog, pass PassDecoder, log *slog.Logger, metrics prometheus.Registerer) *Server {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := &Server{cfg: cfg.withDefaults(), reg: reg, sink: sink, cmds: cmds, pass: pass, log: log.With("component", "jt808"),
		m: newMetrics(), conns: map[*session]struct{}{}, byTerm: map[int64]*session{}, attempts: map[int64]int{}, conflicts: map[int64]time.Time{}}
	s.fails = newFailLimiter(s.FailPolicy())
	s.try, _ = sink.(trySink)
	if b, ok := sink.(batchSink); ok {
		s.batchAcks = true
		b.OnBatchDone(s.flushAcks)
	}
	if err := s.m.register(metrics); err != nil {
		s.log.Error("metrics not registered", "err", err)
	}
	return s
}

// OnAuthenticated registers f to be called, on a goroutine of its own, each time a terminal has
// authenticated and been answered: the moment to send it what waited while it was offline. f may send
// commands through the gateway (the session is serving by then). Set it before Serve.
func (s *Server) OnAuthenticated(f func(Terminal)) { s.onAuth.Store(&f) }

// OnConflict registers f to be called, on a goroutine of its own, for each identity-conflict alarm:
// another connection claimed a terminal while its live session went on talking (at most one per
// terminal per Config.ConflictEvery). Set it before Serve.
func (s *Server) OnConflict(f func(Conflict)) { s.onConflict.Store(&f) }

// MaxConns is the session cap in force (Config.MaxConns after defaults).
func (s *Server) MaxConns() int { return s.cfg.MaxConns }

// Serve accepts connections on ln until ctx ends, then closes ln and every session and waits for the
// session goroutines. Acknowledgements of reports not yet committed are not sent.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := context.AfterFunc(ctx, func() { _ = ln.Close() })
	defer stop()
	poll := newReactor() // idle sessions' sockets (reactor_linux.go); nil: a goroutine per session
	if poll != nil {
		defer poll.close()
	}
	janitor := make(chan struct{})
	go func() { defer close(janitor); s.janitor(ctx) }()
	defer func() {
		s.mu.Lock()
		all := make([]*session, 0, len(s.conns))
		for c := range s.conns {
			all = append(all, c)
		}
		s.mu.Unlock()
		for _, c := range all {
			c.close()
		}
		s.wg.Wait()
		<-janitor
	}()
	var backoff time.Duration
	for {
		conn, err := ln.Accept()
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() || errors.Is(err, syscall.EMFILE) {
				backoff = min(max(2*backoff, 5*time.Millisecond), time.Second)
				s.log.Warn("accept", "err", err, "retry_in", backoff)
				select {
				case <-time.After(backoff):
					continue
				case <-ctx.Done():
					return nil
				}
			}
			return err
		}
		backoff = 0
		s.mu.Lock()
		full := len(s.conns) >= s.cfg.MaxConns
		var sess *session
		if !full {
			sess = newSession(ctx, s, conn)
			s.conns[sess] = struct{}{}
			s.wg.Add(1)
		}
		s.mu.Unlock()
		if full {
			s.m.rejected.Inc()
			_ = conn.Close()
			continue
		}
		s.m.sessions.Inc()
		sess.start(poll)
	}
}

// Online reports whether the terminal has an authenticated session.
func (s *Server) Online(terminalID int64) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.byTerm[terminalID]
	return ok
}

// Sessions returns the number of open connections, authenticated or not.
func (s *Server) Sessions() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.conns)
}

// liveOther returns the live session of terminalID on another connection than sess: one heard from
// within the heartbeat window. nil: none, or only a silent one (half-open; the next authentication
// replaces it).
func (s *Server) liveOther(terminalID int64, sess *session, now time.Time) *session {
	s.mu.Lock()
	other := s.liveOtherLocked(terminalID, sess, now)
	s.mu.Unlock()
	if other == nil {
		other = s.clusterHolder(sess.ctx, terminalID, now, false)
	}
	return other
}

func (s *Server) liveOtherLocked(terminalID int64, sess *session, now time.Time) *session {
	old := s.byTerm[terminalID]
	if old == nil || old == sess || now.Sub(time.Unix(0, old.heard.Load())) >= s.cfg.HeartbeatWindow {
		return nil
	}
	return old
}

// claim makes sess the live session of its terminal and closes the one it replaces, unless another
// connection's session of the terminal is live: that one is returned and nothing changes.
func (s *Server) claim(sess *session, live liveInfo, now time.Time) *session {
	terminalID := live.term.ID
	if s.cluster != nil {
		s.mu.Lock()
		other := s.liveOtherLocked(terminalID, sess, now)
		s.mu.Unlock()
		if other != nil {
			return other
		}
		if other := s.clusterHolder(sess.ctx, terminalID, now, true); other != nil {
			return other
		}
	}
	s.mu.Lock()
	if other := s.liveOtherLocked(terminalID, sess, now); other != nil {
		s.mu.Unlock()
		return other
	}
	delete(s.attempts, terminalID) // attempts against a session that fell silent were its own reconnection
	old := s.byTerm[terminalID]
	if sess.bound != 0 && sess.bound != terminalID && s.byTerm[sess.bound] == sess {
		delete(s.byTerm, sess.bound)
		s.m.online.Dec()
		s.release(sess.bound)
	}
	if old == nil {
		s.m.online.Inc()
	}
	s.byTerm[terminalID] = sess
	sess.bound, sess.live = terminalID, live
	s.mu.Unlock()
	if old != nil && old != sess {
		old.logger().Info("session replaced by a new authenticated connection", "new_peer", sess.peer)
		old.close()
	}
	return nil
}

// attempted records a refused attempt by claimer to take over terminalID, whose session live is live.
// The alarm waits until live is heard from again (conflict). A live session on another node is that
// node's to count and alarm (AttemptedHere there).
func (s *Server) attempted(terminalID int64, live, claimer *session, msgID uint16, now time.Time) {
	if live.node != "" {
		if f, ok := s.cluster.(ConflictForwarder); ok {
			f.Attempted(live.node, terminalID, claimer.peer, msgID, now)
		}
		return
	}
	s.mu.Lock()
	s.attempts[terminalID]++
	s.mu.Unlock()
	live.conflict.CompareAndSwap(nil, &conflict{peer: claimer.peer, msgID: msgID, at: now})
}

// raiseConflict runs on live's reading goroutine when it is heard from after a refused takeover
// attempt: it raises the identity-conflict alarm, at most once per terminal per ConflictEvery.
func (s *Server) raiseConflict(live *session, c *conflict) {
	id := live.term.ID
	s.mu.Lock()
	if last, ok := s.conflicts[id]; ok && c.at.Sub(last) < s.cfg.ConflictEvery {
		s.mu.Unlock()
		return // logged at the attempt; the attempts count on into the next alarm
	}
	n := max(s.attempts[id], 1)
	s.conflicts[id] = c.at
	delete(s.attempts, id)
	s.mu.Unlock()
	s.m.conflicts.Inc()
	live.logger().Warn("identity conflict: another connection claimed this terminal while its session is live",
		"other_peer", c.peer, "msg", fmt.Sprintf("0x%04x", c.msgID), "attempts", n)
	if hook := s.onConflict.Load(); hook != nil {
		go (*hook)(Conflict{Terminal: live.term, Peer: c.peer, MsgID: c.msgID, At: c.at, Attempts: n})
	}
}

// drop forgets a finished session.
func (s *Server) drop(sess *session) {
	s.mu.Lock()
	delete(s.conns, sess)
	if sess.bound != 0 && s.byTerm[sess.bound] == sess {
		delete(s.byTerm, sess.bound)
		s.m.online.Dec()
		s.release(sess.bound)
	}
	s.mu.Unlock()
	s.m.sessions.Dec()
}

// release tells the other nodes that this node no longer holds terminalID.
func (s *Server) release(terminalID int64) {
	if s.cluster != nil {
		s.cluster.Release(terminalID)
	}
}

// janitor asks for missing sub-packages of every session that holds partial messages, and wakes the
// sessions in the reactor whose read deadline has passed (they are waiting in no read that would fail).
func (s *Server) janitor(ctx context.Context) {
	tick := time.NewTicker(min(time.Second, max(s.cfg.ReassemblyTimeout/2, 10*time.Millisecond)))
	defer tick.Stop()
	var list, late []*session
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		list, late = list[:0], late[:0]
		wall := time.Now()
		s.mu.Lock()
		for c := range s.conns {
			if c.partial.Load() {
				list = append(list, c)
			}
			if c.expired(wall) {
				late = append(late, c)
			}
		}
		s.mu.Unlock()
		now := s.cfg.Now()
		for _, c := range list {
			c.requestMissing(now)
		}
		for _, c := range late {
			c.wake()
		}
	}
}
