// Package trend answers the level trend charts (issue 14): a car's compartments (levelChart) and a
// station ground tank (hbase/levelChart2) over any period, downsampled on the server so that a drop
// stays visible (DECISIONS D38).
package trend

import (
	"math"
	"strconv"
)

// GapMS is the longest silence drawn as a line: two readings further apart than this are separated by
// a gap (a null point), never joined by an interpolated line.
const GapMS = 15 * 60 * 1000

// Slice is one reading or a summary of consecutive readings of one series set (k values each): the
// first and last reading's time and values, and the minimum and maximum of every value. A reading is a
// Slice with N 1 and all four the same.
type Slice struct {
	N                     int
	T0, T1                int64
	First, Last, Min, Max []float64
}

// Reading returns the Slice of one reading.
func Reading(t int64, v ...float64) Slice {
	return Slice{N: 1, T0: t, T1: t, First: v, Last: v, Min: v, Max: v}
}

// merge folds b (later in time than a) into a. a's slices are copied on the first merge so a reading's
// values are never changed in place.
func (a *Slice) merge(b Slice, owned bool) {
	if !owned {
		a.First = append([]float64(nil), a.First...)
		a.Last = append([]float64(nil), a.Last...)
		a.Min = append([]float64(nil), a.Min...)
		a.Max = append([]float64(nil), a.Max...)
	}
	a.N += b.N
	if b.T0 < a.T0 {
		a.T0 = b.T0
		copy(a.First, b.First)
	}
	if b.T1 >= a.T1 {
		a.T1 = b.T1
		copy(a.Last, b.Last)
	}
	for i := range a.Min {
		a.Min[i] = math.Min(a.Min[i], b.Min[i])
		a.Max[i] = math.Max(a.Max[i], b.Max[i])
	}
}

// Series is a chart series set on one time axis: T the times (Unix ms), V[k] the k-th value at each
// time; NaN (JSON null) marks a gap.
type Series struct {
	T []int64 `json:"t"`
	V []Vals  `json:"v"`
}

// Vals is a value column; NaN encodes as null.
type Vals []float64

// MarshalJSON writes the values with at most 3 decimals, NaN as null.
func (v Vals) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, len(v)*8+2)
	b = append(b, '[')
	for i, x := range v {
		if i > 0 {
			b = append(b, ',')
		}
		if math.IsNaN(x) || math.IsInf(x, 0) {
			b = append(b, "null"...)
			continue
		}
		b = strconv.AppendFloat(b, math.Round(x*1000)/1000, 'f', -1, 64)
	}
	return append(b, ']'), nil
}

func newSeries(k, capacity int) *Series {
	s := &Series{T: make([]int64, 0, capacity), V: make([]Vals, k)}
	for i := range s.V {
		s.V[i] = make(Vals, 0, capacity)
	}
	return s
}

func (s *Series) add(t int64, v func(i int) float64) {
	s.T = append(s.T, t)
	for i := range s.V {
		s.V[i] = append(s.V[i], v(i))
	}
}

// Len is the number of points (gaps included).
func (s *Series) Len() int { return len(s.T) }

// Build draws slices (in time order, k values each) as a series. width 0 draws every slice as it is
// (raw readings, or summaries already as wide as wanted); width > 0 first merges the slices into
// buckets of width ms aligned to origin. A bucket of one reading is one point, of two its two
// readings, of more its first, its minimum and maximum (in the order that follows the bucket's
// direction: a falling bucket shows its maximum first, a rising or flat one its minimum first, so a
// single low reading between equal neighbours shows as a dip) and its last. Readings more than GapMS
// apart are separated by a null point.
func Build(slices []Slice, k int, origin, width int64) *Series {
	out := newSeries(k, len(slices)+16)
	var cur Slice
	var have, owned bool
	var curBucket, lastT int64
	first := true
	flush := func() {
		if !have {
			return
		}
		if !first && cur.T0-lastT > GapMS {
			out.add(lastT+(cur.T0-lastT)/2, func(int) float64 { return math.NaN() })
		}
		first = false
		emit(out, cur)
		lastT = cur.T1
		have, owned = false, false
	}
	for _, s := range slices {
		if width <= 0 {
			cur, have = s, true
			flush()
			continue
		}
		b := floorDiv(s.T0-origin, width)
		if have && b == curBucket {
			cur.merge(s, owned)
			owned = true
			continue
		}
		flush()
		cur, have, curBucket = s, true, b
	}
	flush()
	return out
}

func emit(out *Series, s Slice) {
	switch {
	case s.N == 1 || s.T0 == s.T1:
		out.add(s.T0, func(i int) float64 { return s.First[i] })
	case s.N == 2:
		out.add(s.T0, func(i int) float64 { return s.First[i] })
		out.add(s.T1, func(i int) float64 { return s.Last[i] })
	default:
		d := s.T1 - s.T0
		out.add(s.T0, func(i int) float64 { return s.First[i] })
		out.add(s.T0+d/3, func(i int) float64 {
			if s.First[i] > s.Last[i] {
				return s.Max[i]
			}
			return s.Min[i]
		})
		out.add(s.T0+2*d/3, func(i int) float64 {
			if s.First[i] > s.Last[i] {
				return s.Min[i]
			}
			return s.Max[i]
		})
		out.add(s.T1, func(i int) float64 { return s.Last[i] })
	}
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// The widths of the stored summaries (migration 00018): five minutes and an hour.
const (
	RollupMS = 5 * 60 * 1000
	HourMS   = 60 * 60 * 1000
)

// Plan is how a period is read and drawn.
type Plan struct {
	Rollup bool  // read the summaries (else the raw readings)
	Unit   int64 // the summaries' width: RollupMS or HourMS
	Width  int64 // bucket width in ms (0: raw points)
	Origin int64 // buckets are aligned to Origin
}

// PlanFor chooses for the period [start, end] and at most maxPoints points per series: buckets of a
// width that gives maxPoints/4 buckets (each draws up to 4 points); summaries when that width is at
// least a rollup's (the hourly one from an hour, else the five-minute one; then a multiple of it, aligned to the epoch so no summary straddles two buckets),
// raw readings otherwise. rows is the number of raw readings per series when known (-1 unknown): a
// period with no more readings than maxPoints is drawn raw.
func PlanFor(start, end int64, maxPoints int, rows int) Plan {
	buckets := int64(max(1, maxPoints/4))
	width := (end - start + buckets - 1) / buckets
	if width < 1 {
		width = 1
	}
	for _, unit := range []int64{HourMS, RollupMS} {
		if width >= unit {
			width = (width + unit - 1) / unit * unit
			return Plan{Rollup: true, Unit: unit, Width: width, Origin: 0}
		}
	}
	if rows >= 0 && rows <= maxPoints {
		return Plan{}
	}
	return Plan{Width: width, Origin: start}
}
