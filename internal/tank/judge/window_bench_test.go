package judge

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkWindow is what each level reading costs the detector's smoothing: the rolling median and
// its noise estimate over a window of 60 samples (a minute of readings every second).
func BenchmarkWindow(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	w := make([]sample, 60)
	for i := range w {
		v := 8000 + rng.Float64()*20
		w[i] = sample{t: int64(i) * 1000, vol: v, v20: v * 0.99}
	}
	cfg := &Config{DropL: 50}
	b.ReportAllocs()
	for b.Loop() {
		_ = median(w)
		_, _ = tolerance(cfg, w)
	}
}
