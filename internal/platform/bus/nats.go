package bus

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// NATSConfig names the server and this node's place on it.
type NATSConfig struct {
	URL    string // nats://host:4222 (several, comma-separated)
	Node   string
	Prefix string // first token of every subject, and of the stream and bucket names; "" = "tw"
	// StreamAge is how long the report stream keeps messages (a node that was away catches up on
	// its live view from the store, not from here); 0 = 10 minutes.
	StreamAge time.Duration
	Log       *slog.Logger
}

// NATS is the JetStream adapter.
type NATS struct {
	cfg    NATSConfig
	nc     *nats.Conn
	js     jetstream.JetStream
	stream jetstream.Stream
	work   jetstream.Stream // <PREFIX>_WORK: committed reports by partition, kept until acknowledged (D97)
	ctx    context.Context
	cancel context.CancelFunc

	mu      sync.Mutex
	buckets []string
	notes   atomic.Uint64 // Notify's messages sent in parts, for their ids
}

// DialNATS connects to the server and creates (or updates) the report stream.
func DialNATS(ctx context.Context, cfg NATSConfig) (*NATS, error) {
	if cfg.Prefix == "" {
		cfg.Prefix = "tw"
	}
	if cfg.StreamAge <= 0 {
		cfg.StreamAge = 10 * time.Minute
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	log := cfg.Log
	nc, err := nats.Connect(cfg.URL, nats.Name("tankwatch "+cfg.Node), nats.MaxReconnects(-1),
		nats.DisconnectErrHandler(func(_ *nats.Conn, err error) {
			if err != nil { // nil: this node closed it
				log.Warn("bus: NATS connection lost", "err", err)
			}
		}),
		nats.ReconnectHandler(func(c *nats.Conn) { log.Info("bus: NATS reconnected", "server", c.ConnectedUrl()) }))
	if err != nil {
		return nil, fmt.Errorf("bus: connect %s: %w", cfg.URL, err)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		nc.Close()
		return nil, fmt.Errorf("bus: JetStream: %w", err)
	}
	st, err := js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{Name: streamName(cfg.Prefix), Subjects: []string{cfg.Prefix + ".rep.>"},
		MaxAge: cfg.StreamAge, Storage: jetstream.FileStorage, Discard: jetstream.DiscardOld})
	if err != nil {
		nc.Close()
		return nil, fmt.Errorf("bus: report stream on %s: %w", cfg.URL, err)
	}
	// a work queue: each message stays until the one consumer of its partition acknowledges it, a day
	// at most (a deployment whose workers are all down that long has its alarms judged no more)
	wk, err := js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{Name: workStreamName(cfg.Prefix), Subjects: []string{cfg.Prefix + ".work.>"},
		Retention: jetstream.WorkQueuePolicy, MaxAge: 24 * time.Hour, Storage: jetstream.FileStorage, Discard: jetstream.DiscardOld})
	if err != nil {
		nc.Close()
		return nil, fmt.Errorf("bus: work stream on %s: %w", cfg.URL, err)
	}
	b := &NATS{cfg: cfg, nc: nc, js: js, stream: st, work: wk}
	b.ctx, b.cancel = context.WithCancel(context.Background())
	return b, nil
}

func streamName(prefix string) string { return strings.ToUpper(prefix) + "_REPORTS" }

func workStreamName(prefix string) string { return strings.ToUpper(prefix) + "_WORK" }

// workAckWait is how long a message read by a node that died stays unacknowledged before it is
// delivered again; a live reader keeps a long judgement alive every third of it.
const workAckWait = 15 * time.Second

func (b *NATS) PublishWork(ctx context.Context, subject string, data []byte) error {
	_, err := b.js.Publish(ctx, subject, data)
	return err
}

// ConsumeWork reads through a durable pull consumer with one message in flight: the partition's
// order holds, and two nodes that both believe they hold it never judge two of its batches at once.
func (b *NATS) ConsumeWork(subject, durable string, fn func(ctx context.Context, data []byte) error) (func(), error) {
	c, err := b.work.CreateOrUpdateConsumer(b.ctx, jetstream.ConsumerConfig{Durable: durable, FilterSubject: subject,
		AckPolicy: jetstream.AckExplicitPolicy, MaxAckPending: 1, AckWait: workAckWait, DeliverPolicy: jetstream.DeliverAllPolicy})
	if err != nil {
		return nil, fmt.Errorf("bus: work consumer %s: %w", durable, err)
	}
	ctx, cancel := context.WithCancel(b.ctx)
	var running sync.WaitGroup
	var mu sync.Mutex
	stopped := false
	cc, err := c.Consume(func(m jetstream.Msg) {
		mu.Lock()
		if stopped {
			mu.Unlock()
			_ = m.Nak() // stopping: the next holder reads it
			return
		}
		running.Add(1)
		mu.Unlock()
		defer running.Done()
		keep := time.NewTicker(workAckWait / 3)
		defer keep.Stop()
		res := make(chan error, 1)
		go func() { res <- fn(ctx, m.Data()) }()
		for {
			select {
			case err := <-res:
				if err != nil {
					b.cfg.Log.Warn("bus: work not done, delivered again", "subject", m.Subject(), "err", err)
					_ = m.NakWithDelay(time.Second)
				} else if err := m.DoubleAck(ctx); err != nil && ctx.Err() == nil {
					b.cfg.Log.Warn("bus: work not acknowledged; it is delivered again", "subject", m.Subject(), "err", err)
				}
				return
			case <-keep.C:
				_ = m.InProgress()
			}
		}
	}, jetstream.PullMaxMessages(1))
	if err != nil {
		cancel()
		return nil, fmt.Errorf("bus: work consumer %s: %w", durable, err)
	}
	return func() {
		cc.Stop()
		mu.Lock()
		stopped = true
		mu.Unlock()
		// the judgement under way is let finish (then acknowledged) rather than judged again elsewhere
		idle := make(chan struct{})
		go func() { running.Wait(); close(idle) }()
		select {
		case <-idle:
		case <-time.After(workAckWait / 3):
		}
		cancel()
		<-idle
	}, nil
}

func (b *NATS) Node() string { return b.cfg.Node }

// Prefix is the subjects' first token.
func (b *NATS) Prefix() string { return b.cfg.Prefix }

func (b *NATS) Publish(ctx context.Context, subject string, data []byte) error {
	_, err := b.js.Publish(ctx, subject, data)
	return err
}

// Subscribe follows the stream with an ordered consumer from the next message on: it recreates
// itself after a gap or a reconnection, so fn sees messages in order and never twice.
func (b *NATS) Subscribe(pattern string, fn func(subject string, data []byte)) (func(), error) {
	c, err := b.stream.OrderedConsumer(b.ctx, jetstream.OrderedConsumerConfig{FilterSubjects: []string{pattern},
		DeliverPolicy: jetstream.DeliverNewPolicy})
	if err != nil {
		return nil, fmt.Errorf("bus: follow %s: %w", pattern, err)
	}
	cc, err := c.Consume(func(m jetstream.Msg) { fn(m.Subject(), m.Data()) })
	if err != nil {
		return nil, fmt.Errorf("bus: follow %s: %w", pattern, err)
	}
	return cc.Stop, nil
}

func (b *NATS) Request(ctx context.Context, subject string, data []byte) ([]byte, error) {
	m, err := b.nc.RequestWithContext(ctx, subject, data)
	if errors.Is(err, nats.ErrNoResponders) {
		return nil, ErrNoResponder
	}
	if err != nil {
		return nil, err
	}
	return m.Data, nil
}

// Respond answers each request on a goroutine of its own: answers (a terminal's reply to a command)
// can take seconds.
func (b *NATS) Respond(subject string, fn func(ctx context.Context, data []byte) []byte) (func(), error) {
	sub, err := b.nc.Subscribe(subject, func(m *nats.Msg) {
		go func() {
			if err := m.Respond(fn(b.ctx, m.Data)); err != nil {
				b.cfg.Log.Warn("bus: answer not sent", "subject", subject, "err", err)
			}
		}()
	})
	if err != nil {
		return nil, fmt.Errorf("bus: serve %s: %w", subject, err)
	}
	// the server must know the subscription before anyone is told this node serves it
	if err := b.nc.Flush(); err != nil {
		_ = sub.Unsubscribe()
		return nil, fmt.Errorf("bus: serve %s: %w", subject, err)
	}
	return func() { _ = sub.Unsubscribe() }, nil
}

// Above the server's max_payload the message goes in parts (parts.go).
func (b *NATS) Notify(subject string, data []byte) error {
	size := int(b.nc.MaxPayload()) - partRoom
	if len(data) <= size || size <= 0 {
		return b.nc.Publish(subject, data)
	}
	parts := splitParts(data, size)
	if len(parts) > maxParts {
		return fmt.Errorf("bus: notify %s: %d bytes is more than %d parts", subject, len(data), maxParts)
	}
	id := b.cfg.Node + "." + strconv.FormatUint(b.notes.Add(1), 36)
	for i, p := range parts {
		m := &nats.Msg{Subject: subject, Data: p, Header: nats.Header{partHeader: []string{partValue(id, i, len(parts))}}}
		if err := b.nc.PublishMsg(m); err != nil {
			return err
		}
	}
	return nil
}

// Listen is a plain subscription: the server drops what a listener too slow to read it would hold
// (NATS's slow-consumer limits), as Notify promises.
func (b *NATS) Listen(subject string, fn func(data []byte)) (func(), error) {
	var parts assembler
	sub, err := b.nc.Subscribe(subject, func(m *nats.Msg) {
		if h := m.Header.Get(partHeader); h != "" {
			if whole, ok := parts.add(h, m.Data); ok {
				fn(whole)
			}
			return
		}
		fn(m.Data)
	})
	if err != nil {
		return nil, fmt.Errorf("bus: listen %s: %w", subject, err)
	}
	// the server must know the listener before its sender is told to send
	if err := b.nc.Flush(); err != nil {
		_ = sub.Unsubscribe()
		return nil, fmt.Errorf("bus: listen %s: %w", subject, err)
	}
	return func() { _ = sub.Unsubscribe() }, nil
}

// KV opens the bucket <prefix>_<name> in memory: what it holds (who holds which terminal) is rebuilt
// by the nodes' refreshes if the server restarts.
func (b *NATS) KV(ctx context.Context, name string, ttl time.Duration) (KV, error) {
	bucket := b.cfg.Prefix + "_" + name
	var kv jetstream.KeyValue
	var err error
	if ttl == 0 { // open it as it is (a reader must not change the writers' expiry)
		kv, err = b.js.KeyValue(ctx, bucket)
	}
	if ttl != 0 || errors.Is(err, jetstream.ErrBucketNotFound) {
		kv, err = b.js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: bucket, TTL: ttl, Storage: jetstream.MemoryStorage})
	}
	if err != nil {
		return nil, fmt.Errorf("bus: bucket %s: %w", bucket, err)
	}
	b.mu.Lock()
	b.buckets = append(b.buckets, bucket)
	b.mu.Unlock()
	return natsKV{kv}, nil
}

// Close drains the connection: answers under way are sent first.
func (b *NATS) Close() error {
	b.cancel()
	return b.nc.Drain()
}

// Closed reports whether the connection is closed (Close drains it first: until then what is
// published still goes out).
func (b *NATS) Closed() bool { return b.nc.IsClosed() }

// Destroy deletes the stream and the buckets this bus opened (tests give every run its own prefix).
func (b *NATS) Destroy(ctx context.Context) error {
	b.mu.Lock()
	buckets := b.buckets
	b.mu.Unlock()
	errs := []error{b.js.DeleteStream(ctx, streamName(b.cfg.Prefix)), b.js.DeleteStream(ctx, workStreamName(b.cfg.Prefix))}
	for _, k := range buckets {
		if err := b.js.DeleteKeyValue(ctx, k); err != nil && !errors.Is(err, jetstream.ErrBucketNotFound) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

type natsKV struct{ kv jetstream.KeyValue }

func (k natsKV) Keys(ctx context.Context) ([]string, error) {
	keys, err := k.kv.Keys(ctx)
	if errors.Is(err, jetstream.ErrNoKeysFound) {
		return nil, nil
	}
	return keys, err
}

func (k natsKV) Get(ctx context.Context, key string) ([]byte, uint64, error) {
	e, err := k.kv.Get(ctx, key)
	if errors.Is(err, jetstream.ErrKeyNotFound) || errors.Is(err, jetstream.ErrKeyDeleted) {
		return nil, 0, ErrNotFound
	}
	if err != nil {
		return nil, 0, err
	}
	return e.Value(), e.Revision(), nil
}

func (k natsKV) Create(ctx context.Context, key string, value []byte) (uint64, error) {
	rev, err := k.kv.Create(ctx, key, value)
	if errors.Is(err, jetstream.ErrKeyExists) {
		return 0, ErrExists
	}
	return rev, err
}

func (k natsKV) Update(ctx context.Context, key string, value []byte, rev uint64) (uint64, error) {
	n, err := k.kv.Update(ctx, key, value, rev)
	if errors.Is(err, jetstream.ErrKeyRevisionMismatch) || errors.Is(err, jetstream.ErrKeyExists) {
		return 0, ErrConflict
	}
	return n, err
}

func (k natsKV) Delete(ctx context.Context, key string, rev uint64) error {
	err := k.kv.Delete(ctx, key, jetstream.LastRevision(rev))
	if errors.Is(err, jetstream.ErrKeyRevisionMismatch) || errors.Is(err, jetstream.ErrKeyExists) {
		return ErrConflict
	}
	return err
}

// RandomPrefix is base followed by random hex: the prefix of a test run, so that parallel runs on one
// server do not share streams or buckets.
func RandomPrefix(base string) string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return base + hex.EncodeToString(b[:])
}
