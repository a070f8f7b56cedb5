package cluster

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"sync"
	"time"

	"tankwatch/internal/jt808/gateway"
	"tankwatch/internal/platform/bus"
)

// The gateway's failure limit (D25) across the nodes: failed registrations and authentications per
// address are counted in the bucket <prefix>_fails, one key per address and window ("a<address>.w<n>",
// the window's number since the epoch), written by compare-and-set and forgotten two windows after their
// last write; the estimate is the gateway's own (FailPolicy.Reached: the previous window's count
// weighted by its overlap, plus the current one). The node whose failure reaches the limit writes "a<address>" into
// <prefix>_blocks, which forgets it after the block time: every node refuses the address meanwhile.
// Each node's own limiter goes on as before, so a bus that does not answer only loses the sharing.

type failBuckets struct {
	mu             sync.Mutex
	counts, blocks bus.KV
}

// failKVs opens the buckets (once: at Start on a gateway node) with the policy's expiries. Every node
// of a platform should run the same policy; the last node to open a bucket sets its expiry.
func (n *Node) failKVs(ctx context.Context, p gateway.FailPolicy) (counts, blocks bus.KV, err error) {
	f := &n.fails
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.counts == nil {
		c, err := n.bus.KV(ctx, "fails", 2*p.Window)
		if err != nil {
			return nil, nil, err
		}
		b, err := n.bus.KV(ctx, "blocks", p.Block)
		if err != nil {
			return nil, nil, err
		}
		f.counts, f.blocks = c, b
	}
	return f.counts, f.blocks, nil
}

// addrKey makes an address a bucket key: letters, digits, "-" and "." stay, the rest (IPv6 colons,
// zones) become "_".
func addrKey(addr string) string {
	return "a" + strings.Map(func(r rune) rune {
		if r == '.' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			return r
		}
		return '_'
	}, addr)
}

// Failed counts the failure in the background.
func (n *Node) Failed(addr string, at time.Time, p gateway.FailPolicy) {
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		blocked, err := n.countFailure(ctx, addr, at, p)
		switch {
		case err != nil:
			n.log.Warn("bus: failure not counted across the nodes; this node's own limit still applies", "address", addr, "err", err)
		case blocked:
			n.log.Warn("address blocked on every node: too many failed registrations and authentications across the nodes",
				"address", addr, "limit", p.Limit, "window", p.Window, "blocked_for", p.Block)
		}
	}()
}

// countFailure adds one failure of addr at at and blocks the address when the estimate reaches the
// limit; it reports whether this call blocked it.
func (n *Node) countFailure(ctx context.Context, addr string, at time.Time, p gateway.FailPolicy) (bool, error) {
	counts, blocks, err := n.failKVs(ctx, p)
	if err != nil {
		return false, err
	}
	w := at.UnixNano() / int64(p.Window)
	cur, err := increment(ctx, counts, addrKey(addr)+".w"+strconv.FormatInt(w, 10))
	if err != nil {
		return false, err
	}
	prev, err := counter(ctx, counts, addrKey(addr)+".w"+strconv.FormatInt(w-1, 10))
	if err != nil {
		return false, err
	}
	if !p.Reached(prev, cur, time.Unix(0, w*int64(p.Window)), at) {
		return false, nil
	}
	_, err = blocks.Create(ctx, addrKey(addr), []byte(strconv.FormatInt(at.UnixMilli(), 10)))
	if errors.Is(err, bus.ErrExists) {
		return false, nil // blocked already, by another node's count
	}
	return err == nil, err
}

// increment adds one to the counter key by compare-and-set and returns the new count.
func increment(ctx context.Context, kv bus.KV, key string) (int, error) {
	for range 10 {
		v, rev, err := kv.Get(ctx, key)
		if errors.Is(err, bus.ErrNotFound) {
			if _, err = kv.Create(ctx, key, []byte("1")); errors.Is(err, bus.ErrExists) {
				continue
			}
			return 1, err
		}
		if err != nil {
			return 0, err
		}
		c, _ := strconv.Atoi(string(v))
		if _, err = kv.Update(ctx, key, []byte(strconv.Itoa(c+1)), rev); errors.Is(err, bus.ErrConflict) {
			continue
		}
		return c + 1, err
	}
	return 0, errors.New("cluster: a failure counter kept changing")
}

// counter is the count of key (0 when absent).
func counter(ctx context.Context, kv bus.KV, key string) (int, error) {
	v, _, err := kv.Get(ctx, key)
	if errors.Is(err, bus.ErrNotFound) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	c, _ := strconv.Atoi(string(v))
	return c, nil
}

// Blocked reports whether a node blocked addr within the block time.
func (n *Node) Blocked(ctx context.Context, addr string, p gateway.FailPolicy) (bool, error) {
	_, blocks, err := n.failKVs(ctx, p)
	if err != nil {
		return false, err
	}
	_, _, err = blocks.Get(ctx, addrKey(addr))
	if errors.Is(err, bus.ErrNotFound) {
		return false, nil
	}
	return err == nil, err
}
