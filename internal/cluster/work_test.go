package cluster

import (
	"bytes"
	"context"
	"encoding/gob"
	"errors"
	"testing"
	"time"

	"tankwatch/internal/platform/bus"
	"tankwatch/internal/telemetry"
)

// queues records the work published, or refuses it while down.
type queues struct {
	down bool
	got  map[string][]workMsg
}

func (q *queues) PublishWork(_ context.Context, subject string, data []byte) error {
	if q.down {
		return errors.New("bus down")
	}
	var m workMsg
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&m); err != nil {
		return err
	}
	q.got[subject] = append(q.got[subject], m)
	return nil
}

func (q *queues) ConsumeWork(string, string, func(context.Context, []byte) error) (func(), error) {
	return nil, errors.New("not read here")
}

// gapsNode is a node of 4 partitions whose work goes to q (down at first), keeping its gaps in store
// when not nil; rep is a report of a car s seconds after a start, ms that time in Unix ms.
func gapsNode(store GapStore) (n *Node, q *queues, rep func(car int64, s int) telemetry.Report, ms func(s int) int64) {
	n = New(bus.NewLocal("g"), "tw", Config{Partitions: 4, Gaps: store}, func([]telemetry.Report) {}, nil, nil)
	q = &queues{down: true, got: map[string][]workMsg{}}
	n.queues = q
	t0 := time.Date(2026, 3, 1, 8, 0, 0, 0, time.UTC)
	rep = func(car int64, s int) telemetry.Report {
		return telemetry.Report{CarID: car, Time: t0.Add(time.Duration(s) * time.Second)}
	}
	ms = func(s int) int64 { return t0.Add(time.Duration(s) * time.Second).UnixMilli() }
	return n, q, rep, ms
}

// TestWorkGaps: reports the bus did not take become a gap per car; the car's later reports join the
// gap instead of overtaking it, other cars' go out as usual, and the gap reaches the car's partition
// once the bus takes messages again.
func TestWorkGaps(t *testing.T) {
	ctx := context.Background()
	n, q, rep, ms := gapsNode(nil)

	n.publishWork(ctx, []telemetry.Report{rep(1, 1), rep(2, 2), rep(1, 3)})
	q.down = false
	n.publishWork(ctx, []telemetry.Report{rep(1, 4), rep(3, 5), rep(0, 6)})
	if got := q.got["tw.work.3"]; len(got) != 1 || len(got[0].Reports) != 1 || got[0].Reports[0].CarID != 3 {
		t.Fatalf("car 3's partition: %+v", got)
	}
	if len(q.got["tw.work.1"])+len(q.got["tw.work.2"]) != 0 {
		t.Fatalf("cars 1 and 2 overtook their gaps: %+v", q.got)
	}
	n.flushGaps(ctx)
	if got := q.got["tw.work.1"]; len(got) != 1 || len(got[0].Gaps) != 1 || got[0].Gaps[0] != (Gap{CarID: 1, From: ms(1), To: ms(4)}) {
		t.Errorf("car 1's gap: %+v", got)
	}
	if got := q.got["tw.work.2"]; len(got) != 1 || len(got[0].Gaps) != 1 || got[0].Gaps[0] != (Gap{CarID: 2, From: ms(2), To: ms(2)}) {
		t.Errorf("car 2's gap: %+v", got)
	}
	// gap sent: car 1's reports go out as reports again
	n.publishWork(ctx, []telemetry.Report{rep(1, 7)})
	if got := q.got["tw.work.1"]; len(got) != 2 || len(got[1].Reports) != 1 {
		t.Errorf("car 1 after its gap: %+v", got)
	}
	if len(n.gaps) != 0 {
		t.Errorf("gaps left: %+v", n.gaps)
	}
}
