// Package cluster makes the nodes of one deployment one platform over the bus (internal/platform/bus):
// every node's committed reports reach every other node's live state; one live session per terminal
// across the nodes; a command for a terminal goes to the node that holds it. docs/DECISIONS.md D87.
package cluster

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"tankwatch/internal/jt808/gateway"
	"tankwatch/internal/platform/bus"
	"tankwatch/internal/telemetry"
)

// Config tunes a node.
type Config struct {
	// HeartbeatWindow is the gateway's (D25): a session heard from within it is live.
	HeartbeatWindow time.Duration
	// Refresh is how often the node rewrites its sessions' last-heard times; 0 = HeartbeatWindow/4.
	Refresh time.Duration
	// CommandTimeout is the gateway's answer wait; a forwarded command waits this plus a margin.
	CommandTimeout time.Duration
	// NodeTTL is how long a node that stopped beating (killed, cut off) keeps its terminals: past it
	// another node accepts them at once, without waiting for the heartbeat window; 0 = 10 s.
	NodeTTL time.Duration
	// Queue is how many committed batches wait for the bus before new ones are dropped from the
	// other nodes' live view (never from the store); 0 = 1024.
	Queue int
	// Partitions is how many partitions the cars' work is split into (work.go); 0 = Partitions. Every
	// node of a deployment must use the same number.
	Partitions int
	// Worker is this node's engines when it has the worker role; nil: it reads no partition.
	Worker Worker
	// DeadTail is how far around a dead node's last word a terminal taken over from it has its car's
	// reports judged again from the store (deadtail.go); 0 = 5 min.
	DeadTail time.Duration
	// Gaps keeps this node's gaps in the store while they wait for the bus, and gives the sweep and a
	// takeover those of the nodes that are gone (gapstore.go); nil: gaps are kept in memory only.
	Gaps GapStore
	// Orphaned is how long after its last word a dead node's terminal that no node took over has its
	// tail judged by the sweep of the node that reads partition 0 (orphans.go); 0 = HeartbeatWindow/2,
	// at most HeartbeatWindow. The bucket forgets an entry 2 × HeartbeatWindow after its last write:
	// the sweep must come first.
	Orphaned time.Duration
}

// Node is this node on the bus.
type Node struct {
	bus    bus.Bus
	prefix string
	cfg    Config
	log    *slog.Logger
	apply  func([]telemetry.Report)
	gw     *gateway.Server

	owners bus.KV
	nodes  bus.KV // n-<node> of every running node, rewritten every NodeTTL/3 (beat.go)
	// beatRev is the revision of this node's key (written by Start, then only by beatLoop)
	beatRev uint64
	mu      sync.Mutex
	held    map[int64]uint64 // terminals this node holds → the revision of its entry

	lmu  sync.Mutex
	last map[int64]lastSeen // per car: where its newest report was committed (Mine)

	fails failBuckets // the failure limit across the nodes (fails.go)

	out  chan []telemetry.Report
	stop []func()
	wg   sync.WaitGroup

	// work done once (work.go)
	queues     bus.Queues // nil: the bus has no durable queues, each node judges its own commits
	partKV     bus.KV
	workRev    uint64
	pmu        sync.Mutex
	reading    map[int]*heldPart
	gmu        sync.Mutex
	gaps       map[int64]Gap
	inherited  map[int64]inherited        // terminal → the dead holder's tail to judge (deadtail.go), under gmu
	deadGaps   map[GapOwner]map[int64]Gap // the stored gaps of the dead lives inherited from, by car, under gmu
	stored     map[int64]Gap              // this life's gaps as last saved in the store; flushGaps's only
	started    time.Time
	life       string // drawn at New: tells this life's owners entries from a former one's of the name (D120)
	cancelWork context.CancelFunc
	workDone   sync.WaitGroup

	m metrics
}

type metrics struct {
	published, received, dropped, failed, bytes atomic.Int64
	workFailed, judged, orphans, storedGaps     atomic.Int64
}

// New returns the node; prefix is the subjects' first token (the bus adapter's). apply receives the
// other nodes' committed reports (Live.Apply); gw is this node's gateway (nil: no gateway here).
func New(b bus.Bus, prefix string, cfg Config, apply func([]telemetry.Report), gw *gateway.Server, log *slog.Logger) *Node {
	if cfg.HeartbeatWindow <= 0 {
		cfg.HeartbeatWindow = 90 * time.Second
	}
	if cfg.Refresh <= 0 {
		cfg.Refresh = cfg.HeartbeatWindow / 4
	}
	if cfg.CommandTimeout <= 0 {
		cfg.CommandTimeout = 15 * time.Second
	}
	if cfg.NodeTTL <= 0 {
		cfg.NodeTTL = 10 * time.Second
	}
	if cfg.Queue <= 0 {
		cfg.Queue = 1024
	}
	if cfg.Partitions <= 0 {
		cfg.Partitions = Partitions
	}
	if cfg.DeadTail <= 0 {
		cfg.DeadTail = 5 * time.Minute
	}
	if cfg.Orphaned <= 0 || cfg.Orphaned > cfg.HeartbeatWindow {
		cfg.Orphaned = cfg.HeartbeatWindow / 2
	}
	if log == nil {
		log = slog.Default()
	}
	return &Node{bus: b, prefix: prefix, cfg: cfg, log: log.With("component", "cluster", "node", b.Node()), apply: apply, gw: gw,
		held: map[int64]uint64{}, last: map[int64]lastSeen{}, out: make(chan []telemetry.Report, cfg.Queue),
		reading: map[int]*heldPart{}, gaps: map[int64]Gap{}, inherited: map[int64]inherited{}, deadGaps: map[GapOwner]map[int64]Gap{}, stored: map[int64]Gap{},
		started: time.Now(), life: newLife()}
}

// newLife is a random life id (eight hex digits).
func newLife() string {
	var b [4]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (Go 1.24)
	return hex.EncodeToString(b[:])
}

// Start opens the owners bucket, follows the other nodes' reports, serves forwarded commands and
// refreshes this node's sessions until Stop. Call it before the gateway serves.
func (n *Node) Start(ctx context.Context) error {
	kv, err := n.bus.KV(ctx, "owners", 2*n.cfg.HeartbeatWindow)
	if err != nil {
		return err
	}
	n.owners = kv
	if n.nodes, err = n.bus.KV(ctx, "nodes", n.cfg.NodeTTL); err != nil {
		return err
	}
	if err := n.beat(ctx); err != nil {
		return err
	}
	stopAlive, err := n.serveAlive()
	if err != nil {
		return err
	}
	n.stop = append(n.stop, stopAlive)
	if err := n.startWork(ctx); err != nil {
		return err
	}
	stop, err := n.bus.Subscribe(n.prefix+".rep.*", n.received)
	if err != nil {
		return err
	}
	n.stop = append(n.stop, stop)
	if n.gw != nil {
		stop, err := n.bus.Respond(n.prefix+".cmd."+n.bus.Node(), n.serveCommand)
		if err != nil {
			n.Stop()
			return err
		}
		n.stop = append(n.stop, stop)
		if _, _, err := n.failKVs(ctx, n.gw.FailPolicy()); err != nil {
			n.Stop()
			return err
		}
		if stop, err = n.serveConflicts(); err != nil {
			n.Stop()
			return err
		}
		n.stop = append(n.stop, stop)
		n.gw.UseCluster(n)
	}
	runCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	n.stop = append(n.stop, cancel)
	n.wg.Add(3)
	go func() { defer n.wg.Done(); n.publishLoop(runCtx) }()
	go func() { defer n.wg.Done(); n.beatLoop(runCtx) }()
	go func() { defer n.wg.Done(); n.refreshLoop(runCtx) }()
	return nil
}

// Stop stops following and serving, gives up what this node holds and waits for its goroutines.
// Call it after the gateway and the writer stopped: the last commits still reach the other nodes.
func (n *Node) Stop() {
	n.StopWork()
	close(n.out)
	for i := len(n.stop) - 1; i >= 0; i-- {
		n.stop[i]()
	}
	n.stop = nil
	n.wg.Wait()
	n.releaseAll()
	n.unbeat()
}

// Collectors are the node's metrics.
func (n *Node) Collectors() []prometheus.Collector {
	c := func(name, help string, v *atomic.Int64) prometheus.Collector {
		return prometheus.NewCounterFunc(prometheus.CounterOpts{Name: name, Help: help}, func() float64 { return float64(v.Load()) })
	}
	return []prometheus.Collector{
		c("tankwatch_bus_batches_published_total", "Committed report batches this node published to the other nodes.", &n.m.published),
		c("tankwatch_bus_batches_received_total", "Committed report batches of other nodes applied to this node's live state.", &n.m.received),
		c("tankwatch_bus_batches_dropped_total", "Committed batches not published because the bus fell behind (only the other nodes' live view misses them, until the cars' next reports).", &n.m.dropped),
		c("tankwatch_bus_publish_failures_total", "Batches the bus refused or lost on publishing.", &n.m.failed),
		c("tankwatch_bus_published_bytes_total", "Bytes of report batches published.", &n.m.bytes),
		c("tankwatch_work_publish_failures_total", "Partition messages the bus did not take (their reports are judged from the store once it does).", &n.m.workFailed),
		c("tankwatch_work_reports_judged_total", "Reports of the partitions this node holds judged by its engines.", &n.m.judged),
		c("tankwatch_work_orphans_swept_total", "Terminals of dead nodes that never came back whose tails this node had judged from the store.", &n.m.orphans),
	}
}
