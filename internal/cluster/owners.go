package cluster

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"tankwatch/internal/platform/bus"
	"tankwatch/internal/platform/loop"
)

// Who holds which terminal: key t<terminal id> in the bucket <prefix>_owners, value
// "<node> <last heard, Unix ms> <life>" (the life id of the node that wrote it, D120; none in an older
// node's entry). The holder rewrites it every Refresh with its session's last-heard
// time; the bucket forgets an entry 2 × HeartbeatWindow after its last write, so a node that died
// releases its terminals by silence. Every write is a compare-and-set on the entry's revision: two
// nodes never both believe they took a terminal over.

type owner struct {
	node  string
	heard time.Time
	life  string
}

func ownerKey(terminalID int64) string { return "t" + strconv.FormatInt(terminalID, 10) }

func (o owner) encode() []byte {
	return []byte(o.node + " " + strconv.FormatInt(o.heard.UnixMilli(), 10) + " " + o.life)
}

func decodeOwner(b []byte) (owner, bool) {
	node, rest, ok := strings.Cut(string(b), " ")
	ms, life, _ := strings.Cut(rest, " ")
	v, err := strconv.ParseInt(ms, 10, 64)
	if !ok || err != nil {
		return owner{}, false
	}
	return owner{node: node, heard: time.UnixMilli(v), life: life}, true
}

// live reports whether o's session counts as live at now (the gateway's rule, D25).
func (n *Node) live(o owner, now time.Time) bool {
	return o.node != n.bus.Node() && now.Sub(o.heard) < n.cfg.HeartbeatWindow
}

// Holder names another node whose session of the terminal is live.
func (n *Node) Holder(ctx context.Context, terminalID int64, now time.Time) (string, error) {
	v, _, err := n.owners.Get(ctx, ownerKey(terminalID))
	if errors.Is(err, bus.ErrNotFound) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	if o, ok := decodeOwner(v); ok && n.holds(ctx, o, now) {
		return o.node, nil
	}
	return "", nil
}

// Claim takes the terminal for this node unless another node's session of it is live. A silent
// session elsewhere (half-open: the terminal reconnected here) is taken over and its node closes it.
func (n *Node) Claim(ctx context.Context, terminalID int64, now time.Time) (string, error) {
	key := ownerKey(terminalID)
	mine := owner{node: n.bus.Node(), heard: now, life: n.life}.encode()
	for range 5 {
		v, rev, err := n.owners.Get(ctx, key)
		switch {
		case errors.Is(err, bus.ErrNotFound):
			rev, err = n.owners.Create(ctx, key, mine)
			if errors.Is(err, bus.ErrExists) {
				continue // another node was quicker: judge its entry
			}
			if err != nil {
				return "", err
			}
			n.hold(terminalID, rev)
			return "", nil
		case err != nil:
			return "", err
		}
		o, ok := decodeOwner(v)
		if ok && n.holds(ctx, o, now) {
			return o.node, nil
		}
		rev, err = n.owners.Update(ctx, key, mine, rev)
		if errors.Is(err, bus.ErrConflict) {
			continue
		}
		if err != nil {
			return "", err
		}
		n.hold(terminalID, rev)
		if ok {
			n.inherit(ctx, terminalID, o, now)
		}
		if ok && o.node != n.bus.Node() {
			n.log.Info("terminal taken over from another node: its session there was silent or the node is gone", "terminal", terminalID, "from", o.node,
				"last_heard", o.heard)
		}
		return "", nil
	}
	return "", errors.New("cluster: the terminal's entry kept changing")
}

func (n *Node) hold(terminalID int64, rev uint64) {
	n.mu.Lock()
	n.held[terminalID] = rev
	n.mu.Unlock()
}

// Release gives the terminal up; the entry is deleted in the background, only if it is still this
// node's write.
func (n *Node) Release(terminalID int64) {
	n.mu.Lock()
	rev, ok := n.held[terminalID]
	delete(n.held, terminalID)
	n.mu.Unlock()
	if !ok {
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := n.owners.Delete(ctx, ownerKey(terminalID), rev); err != nil && !errors.Is(err, bus.ErrConflict) {
			n.log.Warn("bus: released terminal's entry not deleted; it expires", "terminal", terminalID, "err", err)
		}
	}()
}

// releaseAll deletes the entries of what this node still holds (its gateway stopped).
func (n *Node) releaseAll() {
	n.mu.Lock()
	held := n.held
	n.held = map[int64]uint64{}
	n.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for id, rev := range held {
		if err := n.owners.Delete(ctx, ownerKey(id), rev); err != nil && !errors.Is(err, bus.ErrConflict) {
			n.log.Warn("bus: entry not deleted at stop; it expires", "terminal", id, "err", err)
		}
	}
}

func (n *Node) refreshLoop(ctx context.Context) {
	if n.gw == nil {
		return
	}
	loop.Every(ctx, n.cfg.Refresh, func() { n.refresh(ctx) })
}

// refresh rewrites the last-heard time of every session this node holds. An entry another node
// rewrote means the terminal connected there: the session here is closed.
func (n *Node) refresh(ctx context.Context) {
	for _, h := range n.gw.Held() {
		n.mu.Lock()
		rev, ok := n.held[h.TerminalID]
		n.mu.Unlock()
		if !ok {
			continue // claimed while the bus did not answer, or being released
		}
		key := ownerKey(h.TerminalID)
		val := owner{node: n.bus.Node(), heard: h.Heard, life: n.life}.encode()
		nrev, err := n.owners.Update(ctx, key, val, rev)
		if errors.Is(err, bus.ErrConflict) {
			v, _, gerr := n.owners.Get(ctx, key)
			if o, okv := decodeOwner(v); gerr == nil && okv && o.node != n.bus.Node() {
				n.mu.Lock()
				delete(n.held, h.TerminalID)
				n.mu.Unlock()
				n.gw.Evict(h.TerminalID)
				continue
			}
			// expired (this node was cut off longer than the bucket's TTL): write it again
			nrev, err = n.owners.Create(ctx, key, val)
		}
		if err != nil {
			if ctx.Err() == nil {
				n.log.Warn("bus: session refresh failed", "terminal", h.TerminalID, "err", err)
			}
			continue
		}
		n.mu.Lock()
		_, still := n.held[h.TerminalID]
		if still {
			n.held[h.TerminalID] = nrev
		}
		n.mu.Unlock()
		if !still { // released while this write was under way: undo it
			_ = n.owners.Delete(ctx, key, nrev)
		}
	}
}
