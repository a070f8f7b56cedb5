package trend

import (
	"encoding/json"
	"math"
	"testing"
)

func flat(n int, t0, step int64, v float64) []Slice {
	out := make([]Slice, n)
	for i := range out {
		out[i] = Reading(t0+int64(i)*step, v)
	}
	return out
}

func vals(s *Series) []float64 { return s.V[0] }

func hasValue(s *Series, v float64) bool {
	for _, x := range s.V[0] {
		if x == v {
			return true
		}
	}
	return false
}

func gaps(s *Series) int {
	n := 0
	for _, x := range s.V[0] {
		if math.IsNaN(x) {
			n++
		}
	}
	return n
}

func TestBuildKeepsOneReadingDrop(t *testing.T) {
	// a day of 10-second readings at 9000 L with one reading at 6000 L in the middle; buckets of 2 h.
	rs := flat(8640, 0, 10_000, 9000)
	rs[4321] = Reading(rs[4321].T0, 6000)
	s := Build(rs, 1, 0, 2*3600_000)
	if !hasValue(s, 6000) {
		t.Fatalf("the dip is hidden: %v", vals(s))
	}
	if s.Len() > 12*4 {
		t.Fatalf("%d points for 12 buckets", s.Len())
	}
	if gaps(s) != 0 {
		t.Fatalf("gaps in a continuous series: %v", vals(s))
	}
}

func TestBuildDropOrder(t *testing.T) {
	// a falling bucket shows its maximum before its minimum; a rising one the minimum first.
	fall := []Slice{Reading(0, 100), Reading(10, 120), Reading(20, 40), Reading(30, 50)}
	s := Build(fall, 1, 0, 1000)
	want := []float64{100, 120, 40, 50}
	if got := vals(s); len(got) != 4 || got[1] != want[1] || got[2] != want[2] {
		t.Fatalf("falling bucket: %v, want %v", got, want)
	}
	rise := []Slice{Reading(0, 50), Reading(10, 40), Reading(20, 120), Reading(30, 100)}
	s = Build(rise, 1, 0, 1000)
	if got := vals(s); got[1] != 40 || got[2] != 120 || got[3] != 100 {
		t.Fatalf("rising bucket: %v", got)
	}
	for i := 1; i < s.Len(); i++ {
		if s.T[i] < s.T[i-1] {
			t.Fatalf("time goes back: %v", s.T)
		}
	}
}

func TestBuildBucketEdges(t *testing.T) {
	// readings exactly on a bucket's start belong to that bucket, one ms before to the previous.
	rs := []Slice{Reading(999, 1), Reading(1000, 2), Reading(1999, 3), Reading(2000, 4)}
	s := Build(rs, 1, 0, 1000)
	// buckets: [0,1000) {999}, [1000,2000) {1000, 1999}, [2000, 3000) {2000}
	if got := vals(s); len(got) != 4 || got[0] != 1 || got[1] != 2 || got[2] != 3 || got[3] != 4 {
		t.Fatalf("edges: %v at %v", got, s.T)
	}
	// origin shifts the buckets.
	s = Build(rs, 1, 500, 1000)
	// [500,1500) {999,1000}, [1500,2500) {1999,2000}
	if s.Len() != 4 {
		t.Fatalf("shifted: %v", s.T)
	}
}

func TestBuildEmptyAndRaw(t *testing.T) {
	s := Build(nil, 4, 0, 1000)
	if s.Len() != 0 || len(s.V) != 4 {
		t.Fatalf("empty: %+v", s)
	}
	b, err := json.Marshal(s)
	if err != nil || string(b) != `{"t":[],"v":[[],[],[],[]]}` {
		t.Fatalf("empty JSON %s %v", b, err)
	}
	rs := flat(5, 0, 10_000, 7)
	s = Build(rs, 1, 0, 0)
	if s.Len() != 5 {
		t.Fatalf("raw: %d points", s.Len())
	}
}

func TestBuildGapsAreGaps(t *testing.T) {
	rs := append(flat(10, 0, 10_000, 1), flat(10, 3600_000, 10_000, 2)...) // an hour without readings
	for _, width := range []int64{0, 60_000, 20 * 60_000} {
		s := Build(rs, 1, 0, width)
		if gaps(s) != 1 {
			t.Fatalf("width %d: %d gaps in %v", width, gaps(s), vals(s))
		}
		b, _ := json.Marshal(s)
		if !json.Valid(b) {
			t.Fatalf("invalid JSON %s", b)
		}
	}
	// silences up to GapMS are joined.
	rs = append(flat(10, 0, 10_000, 1), flat(10, 90_000+GapMS, 10_000, 2)...)
	if s := Build(rs, 1, 0, 0); gaps(s) != 0 {
		t.Fatalf("a %d ms silence broke the line", GapMS)
	}
}

func TestBuildDoesNotChangeInputs(t *testing.T) {
	rs := []Slice{Reading(0, 5), Reading(1, 1), Reading(2, 9)}
	Build(rs, 1, 0, 100)
	if rs[0].Min[0] != 5 || rs[0].Max[0] != 5 || rs[0].Last[0] != 5 {
		t.Fatalf("input changed: %+v", rs[0])
	}
}

func TestPlanFor(t *testing.T) {
	day := int64(24 * 3600_000)
	cases := []struct {
		name      string
		span      int64
		max, rows int
		rollup    bool
		raw       bool
	}{
		{"month", 30 * day, 1500, -1, true, false},
		{"day", day, 1500, -1, false, false},
		{"two days", 2 * day, 1500, -1, true, false},
		{"hour few rows", 3600_000, 1500, 360, false, true},
		{"hour many rows", 3600_000, 1500, 3600, false, false},
	}
	for _, c := range cases {
		p := PlanFor(0, c.span, c.max, c.rows)
		if p.Rollup != c.rollup || (p.Width == 0) != c.raw {
			t.Errorf("%s: %+v", c.name, p)
		}
		if p.Rollup && p.Width%RollupMS != 0 {
			t.Errorf("%s: width %d not a multiple of the rollup", c.name, p.Width)
		}
		if p.Width > 0 && c.span/p.Width > int64(c.max/4)+1 {
			t.Errorf("%s: %d buckets for %d points", c.name, c.span/p.Width, c.max)
		}
	}
}

func TestCheckRange(t *testing.T) {
	day := int64(24 * 3600_000)
	for _, c := range []struct {
		s, e int64
		mp   int
		ok   bool
	}{
		{1, 2, 0, true}, {0, 2, 0, false}, {1, 0, 0, false}, {5, 5, 0, false}, {6, 5, 0, false},
		{1, 1 + 93*day, 0, true}, {1, 2 + 93*day, 0, false}, {1, 2, 50, false}, {1, 2, 30000, false},
	} {
		_, err := CheckRange(timeOf(c.s), timeOf(c.e), c.mp)
		if (err == nil) != c.ok {
			t.Errorf("%+v: %v", c, err)
		}
	}
}
