// Package bus carries what the nodes of one TankWatch deployment tell each other: committed reports
// (a stream every node follows), requests to the node that holds a terminal's session, and a
// key-value bucket of who holds which terminal. Two adapters: Local (one process, the default) and
// NATS JetStream (--bus nats://…). DESIGN.md §1–2, docs/DECISIONS.md D87.
package bus

import (
	"context"
	"errors"
	"time"
)

// Bus is the transport between nodes. Subjects are dot-separated tokens; patterns use the NATS
// wildcards "*" (one token) and ">" (the rest).
type Bus interface {
	// Node is this node's name (--node-id).
	Node() string
	// Publish appends data to the stream on subject. It does not wait for subscribers; it may wait
	// for the stream's acknowledgement.
	Publish(ctx context.Context, subject string, data []byte) error
	// Subscribe calls fn, on one goroutine and in stream order, for every message published on a
	// subject matching pattern from now on, this node's own included. Stop with the returned func.
	Subscribe(pattern string, fn func(subject string, data []byte)) (stop func(), err error)
	// Request sends data to the responder of subject and waits for its answer (ErrNoResponder when
	// nobody serves subject).
	Request(ctx context.Context, subject string, data []byte) ([]byte, error)
	// Respond serves requests on subject; fn's answer goes back to the requester.
	Respond(subject string, fn func(ctx context.Context, data []byte) []byte) (stop func(), err error)
	// Notify sends data to the listeners of subject now, outside every stream: nothing is kept, a
	// listener that is not there or not keeping up loses it (live media between nodes, D119). A
	// message of any size arrives whole or not at all (D131).
	Notify(subject string, data []byte) error
	// Listen calls fn, on one goroutine and in the order sent, for what Notify sends on subject from
	// now on. Stop with the returned func.
	Listen(subject string, fn func(data []byte)) (stop func(), err error)
	// KV opens (creating it when needed) the bucket name, whose entries vanish ttl after their last
	// write; ttl 0 opens the bucket with the expiry it has (none when it is created here).
	KV(ctx context.Context, name string, ttl time.Duration) (KV, error)
	Close() error
}

// KV is a key-value bucket with compare-and-set by revision. Keys are tokens of letters, digits,
// "-", "_" and ".".
type KV interface {
	// Get returns the value and revision of key (ErrNotFound when absent or expired).
	Get(ctx context.Context, key string) ([]byte, uint64, error)
	// Create writes key when it is absent (ErrExists otherwise) and returns the new revision.
	Create(ctx context.Context, key string, value []byte) (uint64, error)
	// Update writes key when its revision is rev (ErrConflict otherwise) and returns the new one.
	Update(ctx context.Context, key string, value []byte, rev uint64) (uint64, error)
	// Delete removes key when its revision is rev (ErrConflict otherwise; absent is no error).
	Delete(ctx context.Context, key string, rev uint64) error
	// Keys lists the keys that are present, in no particular order.
	Keys(ctx context.Context) ([]string, error)
}

// Queues is what a bus offers for work done once across the nodes (D97): a durable queue per
// subject whose position survives the node that reads it. NATS has it; the in-process bus does not
// (one node judges its own commits, catching up from the store).
type Queues interface {
	// PublishWork appends data to the work stream on subject (<prefix>.work.…); it is kept until a
	// consumer acknowledges it.
	PublishWork(ctx context.Context, subject string, data []byte) error
	// ConsumeWork reads subject through the durable consumer named durable, one message at a time and
	// in order, whichever node reads it: fn's nil acknowledges the message, an error has it delivered
	// again. A message whose fn runs for longer than the acknowledgement wait without returning is
	// kept alive (in progress); one whose reader died is delivered again after that wait. stop ends
	// reading and waits for fn's call under way.
	ConsumeWork(subject, durable string, fn func(ctx context.Context, data []byte) error) (stop func(), err error)
}

// Errors of KV and Request.
var (
	ErrNotFound    = errors.New("bus: key not found")
	ErrExists      = errors.New("bus: key exists")
	ErrConflict    = errors.New("bus: key changed meanwhile")
	ErrNoResponder = errors.New("bus: no node serves this subject")
)

// Match reports whether subject matches the pattern (NATS wildcards).
func Match(pattern, subject string) bool {
	for {
		pt, prest, pmore := cut(pattern)
		st, srest, smore := cut(subject)
		switch {
		case pt == ">":
			return st != ""
		case pt != "*" && pt != st, st == "":
			return false
		case !pmore || !smore:
			return !pmore && !smore
		}
		pattern, subject = prest, srest
	}
}

func cut(s string) (token, rest string, more bool) {
	for i := 0; i < len(s); i++ {
		if s[i] == '.' {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}
