package cluster

import (
	"bytes"
	"context"
	"encoding/gob"
	"strings"
	"time"

	"tankwatch/internal/telemetry"
)

// Committed reports travel as one message per commit on <prefix>.rep.<node>, gob-encoded
// (docs/PERFORMANCE.md, "Bus encoding"): every node needs every car for its live view, so the
// batch, not the car, is the unit.

// Committed takes a committed batch (a Writer subscriber: it runs on the writer goroutine, so it
// only queues). The other nodes' live view is a cache: when the bus falls behind, batches are
// dropped and counted rather than slowing ingest.
func (n *Node) Committed(reports []telemetry.Report) {
	n.noteLast(reports, true)
	defer func() { _ = recover() }() // Stop closed the queue: nothing more goes out
	select {
	case n.out <- reports:
	default:
		n.m.dropped.Add(1)
		if n.queues != nil {
			n.addGaps(reports) // the work is judged from the store (work.go)
		}
	}
}

func (n *Node) publishLoop(ctx context.Context) {
	subject := n.prefix + ".rep." + n.bus.Node()
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		var reports []telemetry.Report
		select {
		case r, ok := <-n.out:
			if !ok {
				if n.queues != nil {
					n.flushGaps(ctx)
				}
				return
			}
			reports = r
		case <-tick.C:
			if n.queues != nil {
				n.flushGaps(ctx)
			}
			continue
		}
		if n.queues != nil {
			n.publishWork(ctx, reports)
			n.flushGaps(ctx)
		}
		data, err := encodeReports(reports)
		if err != nil {
			n.m.failed.Add(1)
			n.log.Error("bus: batch not encoded", "reports", len(reports), "err", err)
			continue
		}
		if err := n.bus.Publish(ctx, subject, data); err != nil {
			n.m.failed.Add(1)
			n.log.Warn("bus: batch not published", "reports", len(reports), "err", err)
			continue
		}
		n.m.published.Add(1)
		n.m.bytes.Add(int64(len(data)))
	}
}

// received applies another node's batch to the live state.
func (n *Node) received(subject string, data []byte) {
	if strings.TrimPrefix(subject, n.prefix+".rep.") == n.bus.Node() {
		return
	}
	reports, err := decodeReports(data)
	if err != nil {
		n.log.Warn("bus: batch not decoded", "subject", subject, "err", err)
		return
	}
	n.m.received.Add(1)
	n.noteLast(reports, false)
	n.apply(reports)
}

func encodeReports(reports []telemetry.Report) ([]byte, error) {
	var b bytes.Buffer
	err := gob.NewEncoder(&b).Encode(reports)
	return b.Bytes(), err
}

func decodeReports(data []byte) ([]telemetry.Report, error) {
	var out []telemetry.Report
	err := gob.NewDecoder(bytes.NewReader(data)).Decode(&out)
	return out, err
}

// lastSeen is where a car's newest report (by received time) was committed.
type lastSeen struct {
	received int64 // Unix ms
	here     bool
}

func (n *Node) noteLast(reports []telemetry.Report, here bool) {
	n.lmu.Lock()
	defer n.lmu.Unlock()
	for i := range reports {
		r := &reports[i]
		if r.CarID == 0 {
			continue
		}
		ms := r.Received.UnixMilli()
		if cur, ok := n.last[r.CarID]; !ok || ms >= cur.received {
			n.last[r.CarID] = lastSeen{received: ms, here: here}
		}
	}
}

// Mine reports whether this node judges the car's offline rule, so that an offline alarm is raised
// once across the nodes: with partitions, the holder of its partition; otherwise the node that
// committed the car's newest report since it started.
func (n *Node) Mine(carID int64) bool {
	if n.queues != nil {
		return n.Holds(carID)
	}
	n.lmu.Lock()
	defer n.lmu.Unlock()
	return n.last[carID].here
}
