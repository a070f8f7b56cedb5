package judge

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkWindow is what each level reading costs the detector's smoothing: the rolling median and
// its noise estimate over a window of 180 samples (the default three minutes of readings every
// second), noisy (driving) or one value repeated (parked).
func BenchmarkWindow(b *testing.B) {
	b.Run("noisy", func(b *testing.B) { benchWindow(b, 20) })
	b.Run("parked", func(b *testing.B) { benchWindow(b, 0) })
}

func benchWindow(b *testing.B, noise float64) {
	rng := rand.New(rand.NewPCG(3, 4))
	w := make([]sample, 180)
	for i := range w {
		v := 8000 + float64(int(rng.Float64()*noise))
		w[i] = sample{t: int64(i) * 1000, vol: v, v20: v * 0.99}
	}
	cfg := &Config{DropL: 50}
	b.ReportAllocs()
	for b.Loop() {
		_ = median(w)
		_, _ = tolerance(cfg, w)
	}
}
