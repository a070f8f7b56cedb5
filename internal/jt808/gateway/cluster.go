package gateway

import (
	"context"
	"time"

	"tankwatch/internal/jt808"
	"tankwatch/internal/telemetry"
)

// Cluster is the other nodes of a deployment as the gateway needs them (internal/cluster implements
// it over the bus, docs/DECISIONS.md D87): one live session per terminal across the nodes, by the
// rules this node applies to its own connections (D25), and commands for terminals held elsewhere.
type Cluster interface {
	// Holder names another node whose session of terminalID was heard within the heartbeat window
	// before now; "" when there is none.
	Holder(ctx context.Context, terminalID int64, now time.Time) (string, error)
	// Claim makes this node the holder of terminalID unless another node's session of it is live;
	// then it names that node and changes nothing.
	Claim(ctx context.Context, terminalID int64, now time.Time) (string, error)
	// Release gives terminalID up: its session here closed. It must not block.
	Release(terminalID int64)
	// Ask sends a command for a terminal with no session here through the node that holds it;
	// handled is false when no node does.
	Ask(ctx context.Context, terminalID int64, msg jt808.Message, c *telemetry.Command) (reply jt808.Message, handled bool, err error)
}

// UseCluster makes the gateway one of several nodes. Set it before Serve.
func (s *Server) UseCluster(c Cluster) { s.cluster = c }

// Reachable reports whether a command can reach the terminal now: its session is here, or another
// node's session of it is live and the command goes through that node (Cluster.Ask). Video and
// calibration ask this rather than Online, so that a console on any node reaches a truck on any other.
func (s *Server) Reachable(ctx context.Context, terminalID int64) bool {
	if s.Online(terminalID) {
		return true
	}
	return s.clusterHolder(ctx, terminalID, s.cfg.Now(), false) != nil
}

// remoteSession stands for a live session on another node in the refusal paths, which name the
// live session's peer.
func (s *Server) remoteSession(node string) *session {
	return &session{srv: s, peer: "node " + node, node: node}
}

// ConflictForwarder is a Cluster that can tell the holding node of a refused attempt on its terminal
// (internal/cluster): the identity-conflict alarm is that node's to raise, where the live session is.
type ConflictForwarder interface {
	// Attempted tells node that peer tried msgID for terminalID at at and was refused. It must not block.
	Attempted(node string, terminalID int64, peer string, msgID uint16, at time.Time)
}

// AttemptedHere is a refused attempt on another node against a terminal whose session is here: it
// counts and alarms as one on this node would (attempted). A terminal no longer held here is
// forgotten: its session ended, so no conflict is left to alarm.
func (s *Server) AttemptedHere(terminalID int64, peer string, msgID uint16, at time.Time) {
	s.mu.Lock()
	live := s.byTerm[terminalID]
	s.mu.Unlock()
	if live != nil {
		s.attempted(terminalID, live, &session{peer: peer}, msgID, at)
	}
}

// clusterHolder is liveOther's question to the other nodes. A bus that does not answer does not
// stop terminals from connecting: the node then judges by its own sessions, as a single node does.
func (s *Server) clusterHolder(ctx context.Context, terminalID int64, now time.Time, claim bool) *session {
	if s.cluster == nil {
		return nil
	}
	ask := s.cluster.Holder
	if claim {
		ask = s.cluster.Claim
	}
	var node string
	err := offStack(func() error {
		var err error
		node, err = ask(ctx, terminalID, now)
		return err
	})
	if err != nil {
		s.log.Warn("bus: who holds the terminal is unknown; judging by this node's sessions", "terminal", terminalID, "err", err)
		return nil
	}
	if node == "" {
		return nil
	}
	return s.remoteSession(node)
}

// Held is a session this node holds, for the refresh of its claim.
type Held struct {
	TerminalID int64
	Heard      time.Time // the last valid frame (the gateway's clock)
}

// Held lists the authenticated sessions of this node.
func (s *Server) Held() []Held {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Held, 0, len(s.byTerm))
	for id, sess := range s.byTerm {
		out = append(out, Held{TerminalID: id, Heard: time.Unix(0, sess.heard.Load())})
	}
	return out
}

// Evict closes the session of terminalID here: another node took the terminal over after this
// session fell silent (a half-open connection).
func (s *Server) Evict(terminalID int64) {
	s.mu.Lock()
	sess := s.byTerm[terminalID]
	s.mu.Unlock()
	if sess != nil {
		sess.logger().Info("session closed: the terminal connected to another node")
		sess.close()
	}
}

// AskHere is Ask without forwarding: the node that holds the terminal answers a forwarded command
// with it.
func (s *Server) AskHere(ctx context.Context, terminalID int64, msg jt808.Message, c *telemetry.Command) (jt808.Message, error) {
	return s.ask(ctx, terminalID, msg, c, false)
}

// FailSharer is a Cluster that counts failed registrations and authentications per address across
// the nodes (internal/cluster): a guesser spreading its attempts over N nodes meets the limit once,
// not N times, and an address blocked on one node is blocked on all.
type FailSharer interface {
	// Failed counts a failure of addr at at under the policy, blocking addr on every node when it
	// reaches the limit. It must not block.
	Failed(addr string, at time.Time, p FailPolicy)
	// Blocked reports whether addr is blocked across the nodes.
	Blocked(ctx context.Context, addr string, p FailPolicy) (bool, error)
}

// FailPolicy is the failure limit of Config (FailLimit, FailWindow, FailBlock).
type FailPolicy struct {
	Limit         int
	Window, Block time.Duration
}

// Reached reports whether failures reach the limit, by the sliding-window estimate every limiter
// uses (this gateway's own and the cluster's count across the nodes): the previous window's count
// weighted by the part of it still within the last Window before now, plus the count of the current
// window, which started at start (≤ now < start+Window).
func (p FailPolicy) Reached(prev, cur int, start, now time.Time) bool {
	overlap := 1 - float64(now.Sub(start))/float64(p.Window)
	return float64(prev)*overlap+float64(cur) >= float64(p.Limit)
}

// FailPolicy is this gateway's failure limit.
func (s *Server) FailPolicy() FailPolicy {
	return FailPolicy{Limit: s.cfg.FailLimit, Window: s.cfg.FailWindow, Block: s.cfg.FailBlock}
}

// shareFailure counts a failure of addr on the other nodes too.
func (s *Server) shareFailure(addr string, now time.Time) {
	if f, ok := s.cluster.(FailSharer); ok {
		f.Failed(addr, now, s.FailPolicy())
	}
}

// blockedAddr reports whether addr is blocked here or across the nodes. A bus that does not answer
// leaves the judgement to this node's own limiter.
func (s *Server) blockedAddr(ctx context.Context, addr string, now time.Time) bool {
	if s.fails.blocked(addr, now) {
		return true
	}
	f, ok := s.cluster.(FailSharer)
	if !ok {
		return false
	}
	var blocked bool
	err := offStack(func() error {
		var err error
		blocked, err = f.Blocked(ctx, addr, s.FailPolicy())
		return err
	})
	if err != nil {
		s.log.Warn("bus: whether the address is blocked on other nodes is unknown; judging by this node's count", "address", addr, "err", err)
	}
	return err == nil && blocked
}
