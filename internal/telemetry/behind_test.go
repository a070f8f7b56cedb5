package telemetry

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestBehindPass: a pass judges what is queued first (its cars behind are skipped and lower their
// marks), catches every car up from its mark, and leaves marked every car it does not finish: more
// to read (from where it stopped), the one that failed and every car not reached after it (from
// their marks).
func TestBehindPass(t *testing.T) {
	ctx := context.Background()
	at := func(ms int64) Report { return Report{CarID: 0, Time: time.UnixMilli(ms)} }
	rep := func(car, ms int64) Report { r := at(ms); r.CarID = car; return r }
	var b Behind
	q := make(chan Queued, 4)
	b.MarkAll([]Report{rep(1, 500), rep(2, 700), rep(3, 900), rep(0, 100)})
	q <- Queued{Reports: []Report{rep(1, 200), rep(4, 300)}} // queued before the overflow
	var judged []Report
	judge := func(_ context.Context, rs []Report) {
		skip := b.Skip(rs)
		for _, r := range rs {
			if !skip[r.CarID] {
				judged = append(judged, r)
			}
		}
	}
	fail := errors.New("store gone")
	seen := map[int64]int64{}
	var order []int64
	err := b.Pass(ctx, q, judge, func(_ context.Context, car, mark int64) (int64, bool, error) {
		seen[car] = mark
		order = append(order, car)
		if len(seen) == 2 {
			return 0, false, fail // the second car the pass takes fails
		}
		return mark + 1000, true, nil // more to read
	})
	if !errors.Is(err, fail) {
		t.Fatalf("pass: %v", err)
	}
	if len(judged) != 1 || judged[0].CarID != 4 {
		t.Errorf("queued reports judged: %+v (car 1's skipped, car 4's judged)", judged)
	}
	if len(seen) != 2 {
		t.Fatalf("cars caught up before the failure: %v", seen)
	}
	want := map[int64]int64{1: 200, 2: 700, 3: 900} // car 1's mark lowered by its queued report
	for car, mark := range seen {
		if want[car] != mark {
			t.Errorf("car %d caught up from %d, want %d", car, mark, want[car])
		}
	}
	// the first car resumes where it stopped, the failed one and the one not reached from their marks
	if b.Len() != 3 {
		t.Fatalf("%d cars behind after the pass, want 3", b.Len())
	}
	next := map[int64]int64{}
	if err := b.Pass(ctx, q, judge, func(_ context.Context, car, mark int64) (int64, bool, error) {
		next[car] = mark
		return 0, false, nil
	}); err != nil {
		t.Fatal(err)
	}
	for car, mark := range next {
		w := want[car]
		if car == order[0] {
			w += 1000 // it had more to read from there
		}
		if mark != w {
			t.Errorf("car %d resumed from %d, want %d", car, mark, w)
		}
	}
	if len(next) != 3 || b.Len() != 0 {
		t.Errorf("second pass took %v and left %d behind", next, b.Len())
	}
}
