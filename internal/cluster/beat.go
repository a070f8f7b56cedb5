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

// Every running node keeps n-<node> in the bucket <prefix>_nodes, rewritten every NodeTTL/3; the
// bucket forgets it NodeTTL after the last write. A terminal whose holder has no such key is free at
// once: a killed node's terminals are accepted elsewhere within NodeTTL, not after the heartbeat
// window. The value is "<beat, Unix ms> <life>", life being a random id a node draws when it starts:
// a node restarted under the same --node-id is alive, but an owners entry written with another life id
// is a former life's, whose terminal it does not hold (D120). Ids, not start times: the entries' times
// come from the gateway's clock, which need not be the one the node started by.

func nodeKey(node string) string { return "n-" + node }

// beat writes this node's key.
func (n *Node) beat(ctx context.Context) error { return n.keep(ctx, nodeKey(n.bus.Node()), &n.beatRev) }

// beatValue is this node's key's value at now.
func (n *Node) beatValue(now time.Time) []byte {
	return []byte(strconv.FormatInt(now.UnixMilli(), 10) + " " + n.life)
}

// lifeOf is the life id in a node key's value ("" when the value has none: an older node).
func lifeOf(v []byte) string {
	_, life, _ := strings.Cut(string(v), " ")
	return life
}

// keep rewrites key of the nodes bucket with the time and the life id, by compare-and-set on *rev (this
// node's last write of it), creating it when it expired or is a former life's of this node's name.
func (n *Node) keep(ctx context.Context, key string, rev *uint64) error {
	val := n.beatValue(time.Now())
	if *rev != 0 {
		r, err := n.nodes.Update(ctx, key, val, *rev)
		if err == nil {
			*rev = r
			return nil
		}
		if !errors.Is(err, bus.ErrConflict) {
			return err
		}
	}
	// first write, or the key expired (this node was cut off) or is a former life's of this name
	for range 3 {
		r, err := n.nodes.Create(ctx, key, val)
		if err == nil {
			*rev = r
			return nil
		}
		if !errors.Is(err, bus.ErrExists) {
			return err
		}
		if _, r, err = n.nodes.Get(ctx, key); err == nil {
			if r, err = n.nodes.Update(ctx, key, val, r); err == nil {
				*rev = r
				return nil
			}
		}
	}
	return errors.New("cluster: this node's key kept changing (two nodes with one --node-id?)")
}

func (n *Node) beatLoop(ctx context.Context) {
	loop.Every(ctx, n.cfg.NodeTTL/3, func() {
		if err := n.beat(ctx); err != nil && ctx.Err() == nil {
			n.log.Warn("bus: node beat failed; other nodes take this node's terminals over if it lasts", "err", err)
		}
	})
}

func (n *Node) unbeat() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if n.beatRev != 0 {
		_ = n.nodes.Delete(ctx, nodeKey(n.bus.Node()), n.beatRev)
	}
}

// alive reports whether node beats and is still connected to the bus (alive.go). When the bucket
// cannot be read the node is taken as alive: a bus that does not answer must not hand a live
// terminal to a second connection.
func (n *Node) alive(ctx context.Context, node string) bool {
	ok, _ := n.aliveLife(ctx, node)
	return ok
}

// aliveLife is alive, with the node's present life id when its key says ("" otherwise).
func (n *Node) aliveLife(ctx context.Context, node string) (bool, string) {
	v, _, err := n.nodes.Get(ctx, nodeKey(node))
	if errors.Is(err, bus.ErrNotFound) || !n.connected(ctx, node) {
		return false, ""
	}
	return true, lifeOf(v)
}

// formerLife reports whether an entry of life was written by another life of a node whose present
// life is present; an entry or a key without an id (an older node's) counts as present.
func formerLife(life, present string) bool { return life != "" && present != "" && life != present }

// holds reports whether o's node holds its terminal now: a live session (the gateway's rule) whose
// holder is not gone (holderGone: alive, and the entry its present life's).
func (n *Node) holds(ctx context.Context, o owner, now time.Time) bool {
	return n.live(o, now) && !n.holderGone(ctx, o, nil)
}
