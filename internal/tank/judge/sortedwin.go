package judge

import (
	"math"
	"slices"
)

// sortedWin keeps the values the smoothing needs from a level's window in order, updated as readings
// enter and leave it, so that the rolling median and its noise estimate are read instead of selected:
// a binary search and a shift of at most the window per reading and per value, where median and
// tolerance copied the window and ran four selections over it (half of the server's CPU at ingest,
// docs/PERFORMANCE.md "fourth pass"). It holds the volumes, the V20 volumes and the differences of
// consecutive judged values of the window, and gives the same figures as median and tolerance, to
// the bit: the same values, only kept sorted.
//
// A window holding a sample whose values are not finite (or so large that a difference would
// overflow) is left to median and tolerance: with NaN there is no order to keep.
type sortedWin struct {
	vol, v20, diff []float64
	bad            int  // samples of the window that are not plain
	ok             bool // vol, v20 and diff hold the window (false: rebuild from it when bad is 0)
}

// plain reports whether a sample's values can be kept in order: finite, and small enough that the
// difference of two judged values is finite too.
func plain(s sample) bool {
	const lim = 1e300
	return math.Abs(s.vol) <= lim && math.Abs(s.v20) <= lim // false for NaN and ±Inf
}

// after is the first index of a whose value is above x (a holds no NaN). Equal values are inserted
// after and removed from the end of their run, so a parked car's window (one value repeated) shifts
// nothing.
func after(a []float64, x float64) int {
	lo, hi := 0, len(a)
	for lo < hi {
		h := int(uint(lo+hi) >> 1)
		if a[h] <= x {
			lo = h + 1
		} else {
			hi = h
		}
	}
	return lo
}

func insertSorted(a []float64, x float64) []float64 {
	return slices.Insert(a, after(a, x), x)
}

// removeSorted removes one value equal to x; ok is false when there is none (which would be a bug:
// the caller then rebuilds from the window rather than judge on a wrong median).
func removeSorted(a []float64, x float64) (_ []float64, ok bool) {
	i := after(a, x) - 1
	if i < 0 || a[i] != x {
		return a, false
	}
	return slices.Delete(a, i, i+1), true
}

// reset empties the window.
func (w *sortedWin) reset() {
	w.vol, w.v20, w.diff = w.vol[:0], w.v20[:0], w.diff[:0]
	w.bad, w.ok = 0, true
}

// push adds s, the newest sample, to a window whose samples were win (before s).
func (w *sortedWin) push(win []sample, s sample) {
	if !plain(s) {
		w.bad++
		w.ok = false
	}
	if !w.ok {
		return
	}
	w.vol = insertSorted(w.vol, s.vol)
	w.v20 = insertSorted(w.v20, s.v20)
	if n := len(win); n > 0 {
		w.diff = insertSorted(w.diff, s.judged()-win[n-1].judged())
	}
}

// cut removes the oldest k samples of win (the window before the cut).
func (w *sortedWin) cut(win []sample, k int) {
	for i := range k {
		if !plain(win[i]) {
			w.bad--
		}
		if !w.ok {
			continue
		}
		var ok1, ok2, ok3 bool
		w.vol, ok1 = removeSorted(w.vol, win[i].vol)
		w.v20, ok2 = removeSorted(w.v20, win[i].v20)
		ok3 = true
		if i+1 < len(win) {
			w.diff, ok3 = removeSorted(w.diff, win[i+1].judged()-win[i].judged())
		}
		w.ok = ok1 && ok2 && ok3
	}
}

// sync makes the sorted values hold win when they can (after the samples that were not plain left
// it) and reports whether they do.
func (w *sortedWin) sync(win []sample) bool {
	if w.ok {
		return true
	}
	if w.bad > 0 {
		return false
	}
	w.vol, w.v20, w.diff = w.vol[:0], w.v20[:0], w.diff[:0]
	for i, s := range win {
		w.vol = append(w.vol, s.vol)
		w.v20 = append(w.v20, s.v20)
		if i > 0 {
			w.diff = append(w.diff, s.judged()-win[i-1].judged())
		}
	}
	slices.Sort(w.vol)
	slices.Sort(w.v20)
	slices.Sort(w.diff)
	w.ok = true
	return true
}

// median is median(win) read from the sorted values; t is the newest sample's time.
func (w *sortedWin) median(t int64) sample {
	n := len(w.vol)
	m := sample{t: t, vol: w.vol[n/2], v20: w.v20[n/2]}
	if n%2 == 0 {
		m.vol, m.v20 = (w.vol[n/2-1]+m.vol)/2, (w.v20[n/2-1]+m.v20)/2
	}
	return m
}

// tolerance is tolerance(cfg, win) read from the sorted values. The absolute deviations from the
// differences' median m come in two runs already in order: below m they grow leftward, from m on
// rightward; the median deviation is the k-th smallest of the two runs, found by a binary search on
// how many of it come from the left run.
func (w *sortedWin) tolerance(cfg *Config) (tol, noise float64) {
	tol = max(cfg.DropL/4, 5)
	n := len(w.vol)
	if n < 4 {
		return tol, 0
	}
	d := w.diff
	p := len(d) / 2
	m := d[p]
	// left run L[i] = |d[p-1-i] - m|, i < p; right run R[j] = |d[p+j] - m|, j < len(d)-p
	left := func(i int) float64 { return math.Abs(d[p-1-i] - m) }
	right := func(j int) float64 { return math.Abs(d[p+j] - m) }
	na, nb := p, len(d)-p
	take := len(d)/2 + 1 // the k-th smallest, k = len(d)/2 as in tolerance: the first k+1 values
	// i values from the left and take-i from the right: the largest i whose left(i-1) is not above
	// right(take-i) (so the first take values are left[:i] and right[:take-i])
	lo, hi := max(0, take-nb), min(take, na)
	for lo < hi {
		i := int(uint(lo+hi+1) >> 1)
		if left(i-1) <= right(take-i) {
			lo = i
		} else {
			hi = i - 1
		}
	}
	i := lo
	var dev float64
	switch {
	case i == 0:
		dev = right(take - 1)
	case i == take:
		dev = left(i - 1)
	default:
		dev = max(left(i-1), right(take-i-1))
	}
	sigma := 1.4826 * dev / math.Sqrt2
	noise = 3 * 1.2533 * sigma / math.Sqrt(float64(n))
	return min(max(tol, noise), cfg.DropL), noise
}
