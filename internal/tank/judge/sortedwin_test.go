package judge

import (
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"
)

// same is bit equality, except that NaN equals NaN and the two zeros are one (they compare equal and
// the selection may leave either in front).
func same(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || (math.IsNaN(a) && math.IsNaN(b)) || (a == 0 && b == 0)
}

// TestSortedWinMatchesSelection drives the sorted window the way the detector does (push the newest,
// cut the old by time keeping MinSamples, empty it after a gap) over random series and checks its
// median and tolerance against median and tolerance of the window itself after every reading.
func TestSortedWinMatchesSelection(t *testing.T) {
	kinds := []struct {
		name string
		gen  func(rng *rand.Rand, i int, prev sample) (vol, v20 float64)
	}{
		{"noisy", func(rng *rand.Rand, _ int, _ sample) (float64, float64) {
			v := 8000 + rng.NormFloat64()*20
			return v, v * 0.99
		}},
		{"parked one value", func(_ *rand.Rand, _ int, _ sample) (float64, float64) { return 5321.5, 5300.25 }},
		{"few values, many ties", func(rng *rand.Rand, _ int, _ sample) (float64, float64) {
			v := float64(4000 + rng.IntN(4)*10)
			return v, float64(rng.IntN(3)) * 7 // v20 0 now and then: judged falls back to vol
		}},
		{"draining with sloshing", func(rng *rand.Rand, i int, _ sample) (float64, float64) {
			v := 9000 - float64(i)*3.7 + rng.NormFloat64()*40
			return v, v * 0.985
		}},
		{"steps", func(rng *rand.Rand, i int, prev sample) (float64, float64) {
			if rng.IntN(40) == 0 {
				return prev.vol + float64(rng.IntN(2000)-1000), 0
			}
			return prev.vol, prev.v20
		}},
		{"odd values", func(rng *rand.Rand, _ int, _ sample) (float64, float64) {
			switch rng.IntN(30) {
			case 0:
				return 100, math.NaN()
			case 1:
				return 100, math.Inf(1)
			case 2:
				return -1e308, 1e308
			case 3:
				return 0, math.Copysign(0, -1)
			}
			v := rng.Float64() * 1000
			return v, v
		}},
	}
	for _, k := range kinds {
		for seed := range uint64(20) {
			rng := rand.New(rand.NewPCG(seed, 7))
			cfg := Config{DropL: float64(10 + rng.IntN(200)), WindowMs: int64(5_000 + rng.IntN(200_000)),
				MinSamples: 1 + rng.IntN(8)}.withDefaults()
			var win []sample
			var sw sortedWin
			var prev sample
			tm := int64(0)
			checked := 0
			for i := range 1500 {
				tm += int64(200 + rng.IntN(3000))
				if rng.IntN(300) == 0 { // a gap
					win = win[:0]
					sw.reset()
				}
				vol, v20 := k.gen(rng, i, prev)
				s := sample{t: tm, vol: vol, v20: v20}
				prev = s
				sw.push(win, s)
				win = append(win, s)
				cut := 0
				for cut < len(win)-cfg.MinSamples && tm-win[cut].t > cfg.WindowMs {
					cut++
				}
				sw.cut(win, cut)
				win = win[cut:]
				if len(win) < 3 {
					continue
				}
				if !sw.sync(win) {
					if slices.IndexFunc(win, func(s sample) bool { return !plain(s) }) < 0 {
						t.Fatalf("%s seed %d step %d: no sorted values for a plain window", k.name, seed, i)
					}
					continue
				}
				checked++
				want := median(slices.Clone(win))
				got := sw.median(tm)
				if got.t != want.t || !same(got.vol, want.vol) || !same(got.v20, want.v20) {
					t.Fatalf("%s seed %d step %d (n=%d): median %+v, selection %+v", k.name, seed, i, len(win), got, want)
				}
				wt, wn := tolerance(&cfg, slices.Clone(win))
				gt, gn := sw.tolerance(&cfg)
				if !same(gt, wt) || !same(gn, wn) {
					t.Fatalf("%s seed %d step %d (n=%d): tolerance %v/%v, selection %v/%v", k.name, seed, i, len(win), gt, gn, wt, wn)
				}
			}
			if checked == 0 {
				t.Fatalf("%s seed %d: nothing compared", k.name, seed)
			}
		}
	}
}

// TestSortedWinKeepsOrderWithoutRebuilds checks that plain windows are kept by insertions and
// removals alone (a value not found on removal would fall back to a rebuild and hide a bug).
func TestSortedWinKeepsOrderWithoutRebuilds(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var win []sample
	var sw sortedWin
	sw.reset()
	for i := range 5000 {
		v := float64(rng.IntN(50))
		s := sample{t: int64(i) * 1000, vol: v, v20: v * 0.97}
		sw.push(win, s)
		win = append(win, s)
		cut := 0
		for cut < len(win)-5 && s.t-win[cut].t > 180_000 {
			cut++
		}
		sw.cut(win, cut)
		win = win[cut:]
		if !sw.ok {
			t.Fatalf("step %d: sorted values dropped", i)
		}
		if len(sw.vol) != len(win) || len(sw.v20) != len(win) || len(sw.diff) != len(win)-1 {
			t.Fatalf("step %d: %d/%d/%d sorted values for %d samples", i, len(sw.vol), len(sw.v20), len(sw.diff), len(win))
		}
		if !slices.IsSorted(sw.vol) || !slices.IsSorted(sw.v20) || !slices.IsSorted(sw.diff) {
			t.Fatalf("step %d: out of order", i)
		}
	}
}

// TestAfterIsTheUpperBound: the branch-free search gives the first index above x for every length,
// with runs of equal values, and x below, inside and above the values.
func TestAfterIsTheUpperBound(t *testing.T) {
	for n := range 40 {
		a := make([]float64, n)
		for i := range a {
			a[i] = float64(i / 3) // runs of three equal values
		}
		for x := -1.0; x <= float64(n/3)+1; x += 0.5 {
			want := sort.Search(n, func(i int) bool { return a[i] > x })
			if got := after(a, x); got != want {
				t.Fatalf("after(%v, %v) = %d, want %d", a, x, got, want)
			}
		}
	}
}
