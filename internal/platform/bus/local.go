package bus

import (
	"context"
	"sync"
	"time"
)

// Local is the in-process bus: what a single node has always done, and what tests use to run several
// nodes in one process without a NATS server. Nodes made with Attach share one hub.
type Local struct {
	node string
	hub  *Hub
}

// Hub is the shared state of Local buses.
type Hub struct {
	mu      sync.Mutex
	subs    map[*localSub]struct{}
	resp    map[string]func(context.Context, []byte) []byte
	notes   map[*localSub]struct{} // Listen's, apart from the streams' subscribers
	buckets map[string]*localKV
	now     func() time.Time
}

// NewHub returns an empty hub.
func NewHub() *Hub {
	return &Hub{subs: map[*localSub]struct{}{}, resp: map[string]func(context.Context, []byte) []byte{},
		notes: map[*localSub]struct{}{}, buckets: map[string]*localKV{}, now: time.Now}
}

// NewLocal returns a bus of one node on a hub of its own.
func NewLocal(node string) *Local { return NewHub().Attach(node) }

// Attach returns the bus of node on h.
func (h *Hub) Attach(node string) *Local { return &Local{node: node, hub: h} }

type localSub struct {
	pattern string
	ch      chan localMsg
	done    chan struct{}
}

type localMsg struct {
	subject string
	data    []byte
}

func (b *Local) Node() string { return b.node }

// Publish hands the message to every subscriber's queue; a subscriber that is not draining its
// queue (4096 messages) blocks the publisher, as a full stream would.
func (b *Local) Publish(ctx context.Context, subject string, data []byte) error {
	b.hub.mu.Lock()
	var to []*localSub
	for s := range b.hub.subs {
		if Match(s.pattern, subject) {
			to = append(to, s)
		}
	}
	b.hub.mu.Unlock()
	for _, s := range to {
		select {
		case s.ch <- localMsg{subject, data}:
		case <-s.done:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

func (b *Local) Subscribe(pattern string, fn func(subject string, data []byte)) (func(), error) {
	return b.follow(b.hub.subs, pattern, fn), nil
}

// Notify never waits: a listener whose queue (4096 messages) is full loses the message.
func (b *Local) Notify(subject string, data []byte) error {
	b.hub.mu.Lock()
	defer b.hub.mu.Unlock()
	for s := range b.hub.notes {
		if Match(s.pattern, subject) {
			select {
			case s.ch <- localMsg{subject, data}:
			default:
			}
		}
	}
	return nil
}

func (b *Local) Listen(subject string, fn func(data []byte)) (func(), error) {
	return b.follow(b.hub.notes, subject, func(_ string, data []byte) { fn(data) }), nil
}

// follow adds a subscriber of pattern to set and calls fn for its messages until stopped.
func (b *Local) follow(set map[*localSub]struct{}, pattern string, fn func(subject string, data []byte)) func() {
	s := &localSub{pattern: pattern, ch: make(chan localMsg, 4096), done: make(chan struct{})}
	b.hub.mu.Lock()
	set[s] = struct{}{}
	b.hub.mu.Unlock()
	go func() {
		for {
			select {
			case m := <-s.ch:
				fn(m.subject, m.data)
			case <-s.done:
				return
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			b.hub.mu.Lock()
			delete(set, s)
			b.hub.mu.Unlock()
			close(s.done)
		})
	}
}

func (b *Local) Request(ctx context.Context, subject string, data []byte) ([]byte, error) {
	b.hub.mu.Lock()
	fn := b.hub.resp[subject]
	b.hub.mu.Unlock()
	if fn == nil {
		return nil, ErrNoResponder
	}
	return fn(ctx, data), nil
}

func (b *Local) Respond(subject string, fn func(ctx context.Context, data []byte) []byte) (func(), error) {
	b.hub.mu.Lock()
	b.hub.resp[subject] = fn
	b.hub.mu.Unlock()
	return func() {
		b.hub.mu.Lock()
		delete(b.hub.resp, subject)
		b.hub.mu.Unlock()
	}, nil
}

func (b *Local) KV(_ context.Context, name string, ttl time.Duration) (KV, error) {
	b.hub.mu.Lock()
	defer b.hub.mu.Unlock()
	kv := b.hub.buckets[name]
	if kv != nil && ttl != 0 {
		kv.mu.Lock()
		kv.ttl = ttl
		kv.mu.Unlock()
	}
	if kv == nil {
		kv = &localKV{ttl: ttl, now: b.hub.now, m: map[string]localEntry{}}
		b.hub.buckets[name] = kv
	}
	return kv, nil
}

func (b *Local) Close() error { return nil }

type localKV struct {
	ttl time.Duration
	now func() time.Time

	mu  sync.Mutex
	rev uint64
	m   map[string]localEntry
}

type localEntry struct {
	value   []byte
	rev     uint64
	written time.Time
}

// live returns key's entry unless absent or expired (caller holds mu).
func (kv *localKV) live(key string) (localEntry, bool) {
	e, ok := kv.m[key]
	if ok && kv.ttl > 0 && kv.now().Sub(e.written) >= kv.ttl {
		delete(kv.m, key)
		return localEntry{}, false
	}
	return e, ok
}

func (kv *localKV) put(key string, value []byte) uint64 {
	kv.rev++
	kv.m[key] = localEntry{value: append([]byte(nil), value...), rev: kv.rev, written: kv.now()}
	return kv.rev
}

func (kv *localKV) Get(_ context.Context, key string) ([]byte, uint64, error) {
	kv.mu.Lock()
	defer kv.mu.Unlock()
	e, ok := kv.live(key)
	if !ok {
		return nil, 0, ErrNotFound
	}
	return e.value, e.rev, nil
}

func (kv *localKV) Create(_ context.Context, key string, value []byte) (uint64, error) {
	kv.mu.Lock()
	defer kv.mu.Unlock()
	if _, ok := kv.live(key); ok {
		return 0, ErrExists
	}
	return kv.put(key, value), nil
}

func (kv *localKV) Update(_ context.Context, key string, value []byte, rev uint64) (uint64, error) {
	kv.mu.Lock()
	defer kv.mu.Unlock()
	if e, ok := kv.live(key); !ok || e.rev != rev {
		return 0, ErrConflict
	}
	return kv.put(key, value), nil
}

func (kv *localKV) Delete(_ context.Context, key string, rev uint64) error {
	kv.mu.Lock()
	defer kv.mu.Unlock()
	e, ok := kv.live(key)
	if !ok {
		return nil
	}
	if e.rev != rev {
		return ErrConflict
	}
	delete(kv.m, key)
	return nil
}

func (kv *localKV) Keys(_ context.Context) ([]string, error) {
	kv.mu.Lock()
	defer kv.mu.Unlock()
	var out []string
	for k := range kv.m {
		if _, ok := kv.live(k); ok {
			out = append(out, k)
		}
	}
	return out, nil
}

// Prefix is the subjects' first token.
func (b *Local) Prefix() string { return "tw" }
