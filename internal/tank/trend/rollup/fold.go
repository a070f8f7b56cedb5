// Package rollup keeps the trend summaries of level readings and positions (DECISIONS D38): five-minute
// and hourly slices per car (and compartment) with the count, the first and last reading's time and
// value, and the minimum and maximum of each value. Until migration 00042 insert triggers kept them,
// two upserts per inserted row; now whoever inserts the rows folds the rows it actually inserted into
// slices in memory and upserts each slice once (DECISIONS D99). The merge is the triggers' own: a
// slice's first value is the earliest reading's (on equal times the one inserted first), its last the
// latest's (on equal times the one inserted last), so folding a batch and merging it into the stored
// slice gives the same row as inserting the readings one by one.
package rollup

import (
	"cmp"
	"slices"
)

// Slice widths, ms; slices are aligned to the Unix epoch (b = t - t mod width).
const (
	FiveMinMS = int64(300_000)
	HourMS    = int64(3_600_000)
)

// quad is the first, last, minimum and maximum of one value over a slice.
type quad[T int64 | float64] struct{ first, last, lo, hi T }

func (q *quad[T]) start(v T) { *q = quad[T]{v, v, v, v} }

// add takes v read at time t into q of a slice whose first and last readings were at t0 and t1 before.
func (q *quad[T]) add(v T, t, t0, t1 int64) {
	if t < t0 {
		q.first = v
	}
	if t >= t1 {
		q.last = v
	}
	q.lo, q.hi = min(q.lo, v), max(q.hi, v)
}

// Speed is one slice of a car's speed (1/10 km/h).
type Speed struct {
	CarID, B  int64
	N, T0, T1 int64
	sp        quad[int64]
}

// Level is one slice of a car's compartment: level mm, volume and V20 litres, temperature 0.1 °C.
type Level struct {
	CarID, B, Compartment int64
	N, T0, T1             int64
	lv, tp                quad[int64]
	vo, vs                quad[float64]
}

// LevelValues are the summarised values of one level reading.
type LevelValues struct {
	LevelMM, TempDC int64
	VolumeL, V20L   float64
}

type speedKey struct{ car, b int64 }
type levelKey struct{ car, b, comp int64 }

// Fold gathers inserted rows, in the order they were inserted, into slices of both widths. The zero
// value is ready; Reset empties it for the next batch keeping its memory.
type Fold struct {
	speed   [2][]Speed // five-minute, hourly
	level   [2][]Level
	speedAt [2]map[speedKey]int32
	levelAt [2]map[levelKey]int32
}

var widths = [2]int64{FiveMinMS, HourMS}

// Reset empties f.
func (f *Fold) Reset() {
	for w := range widths {
		f.speed[w], f.level[w] = f.speed[w][:0], f.level[w][:0]
		clear(f.speedAt[w])
		clear(f.levelAt[w])
	}
}

// Empty tells whether nothing was added since the last Reset.
func (f *Fold) Empty() bool { return len(f.speed[0]) == 0 && len(f.level[0]) == 0 }

// AddSpeed takes one inserted positions row.
func (f *Fold) AddSpeed(carID, t, speed int64) {
	for w, width := range widths {
		k := speedKey{carID, t - t%width}
		if f.speedAt[w] == nil {
			f.speedAt[w] = map[speedKey]int32{}
		}
		i, ok := f.speedAt[w][k]
		if !ok {
			s := Speed{CarID: carID, B: k.b, N: 1, T0: t, T1: t}
			s.sp.start(speed)
			f.speedAt[w][k] = int32(len(f.speed[w]))
			f.speed[w] = append(f.speed[w], s)
			continue
		}
		s := &f.speed[w][i]
		s.sp.add(speed, t, s.T0, s.T1)
		s.N, s.T0, s.T1 = s.N+1, min(s.T0, t), max(s.T1, t)
	}
}

// AddLevel takes one inserted level_readings row.
func (f *Fold) AddLevel(carID, t, compartment int64, v LevelValues) {
	for w, width := range widths {
		k := levelKey{carID, t - t%width, compartment}
		if f.levelAt[w] == nil {
			f.levelAt[w] = map[levelKey]int32{}
		}
		i, ok := f.levelAt[w][k]
		if !ok {
			l := Level{CarID: carID, B: k.b, Compartment: compartment, N: 1, T0: t, T1: t}
			l.lv.start(v.LevelMM)
			l.tp.start(v.TempDC)
			l.vo.start(v.VolumeL)
			l.vs.start(v.V20L)
			f.levelAt[w][k] = int32(len(f.level[w]))
			f.level[w] = append(f.level[w], l)
			continue
		}
		l := &f.level[w][i]
		l.lv.add(v.LevelMM, t, l.T0, l.T1)
		l.tp.add(v.TempDC, t, l.T0, l.T1)
		l.vo.add(v.VolumeL, t, l.T0, l.T1)
		l.vs.add(v.V20L, t, l.T0, l.T1)
		l.N, l.T0, l.T1 = l.N+1, min(l.T0, t), max(l.T1, t)
	}
}

// Table is the slices of one rollup table as the values of its rows (len(Cols) per row, flattened),
// in primary-key order: concurrent writers lock shared slices in the same order, and neighbouring rows
// share pages. From TakeRows, Args is nil and the rows are kept typed (AppendCopy encodes them).
type Table struct {
	Name string
	Cols []string
	Args []any

	speed []Speed
	level []Level
}

// Rows is the number of rows in t.
func (t *Table) Rows() int {
	if t.Args == nil {
		return len(t.speed) + len(t.level)
	}
	return len(t.Args) / len(t.Cols)
}

// Take returns the folded slices as the rows of the four rollup tables (tables without rows left out)
// and empties f.
func (f *Fold) Take() []Table {
	out := f.TakeRows()
	for i := range out {
		out[i].box()
	}
	return out
}

// TakeRows is Take without Args: the tables hold f's own slices, valid until the next Add.
func (f *Fold) TakeRows() []Table {
	var out []Table
	for w, suffix := range []string{"", "_h"} {
		if sp := f.speed[w]; len(sp) > 0 {
			slices.SortFunc(sp, func(a, b Speed) int { return cmp.Or(cmp.Compare(a.CarID, b.CarID), cmp.Compare(a.B, b.B)) })
			out = append(out, Table{Name: "speed_rollup" + suffix, Cols: SpeedCols, speed: sp})
		}
		if lv := f.level[w]; len(lv) > 0 {
			slices.SortFunc(lv, func(a, b Level) int {
				return cmp.Or(cmp.Compare(a.CarID, b.CarID), cmp.Compare(a.B, b.B), cmp.Compare(a.Compartment, b.Compartment))
			})
			out = append(out, Table{Name: "level_rollup" + suffix, Cols: LevelCols, level: lv})
		}
	}
	f.Reset()
	return out
}

// box fills Args from the typed rows and lets go of them (they belong to the fold).
func (t *Table) box() {
	if t.Args != nil {
		return
	}
	t.Args = make([]any, 0, t.Rows()*len(t.Cols))
	for i := range t.speed {
		s := &t.speed[i]
		t.Args = append(t.Args, s.CarID, s.B, s.N, s.T0, s.T1, s.sp.first, s.sp.last, s.sp.lo, s.sp.hi)
	}
	for i := range t.level {
		l := &t.level[i]
		t.Args = append(t.Args, l.CarID, l.B, l.Compartment, l.N, l.T0, l.T1,
			l.lv.first, l.lv.last, l.lv.lo, l.lv.hi, l.vo.first, l.vo.last, l.vo.lo, l.vo.hi,
			l.vs.first, l.vs.last, l.vs.lo, l.vs.hi, l.tp.first, l.tp.last, l.tp.lo, l.tp.hi)
	}
	t.speed, t.level = nil, nil
}
