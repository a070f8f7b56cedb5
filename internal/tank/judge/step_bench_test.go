package judge

import (
	"math/rand/v2"
	"testing"

	"tankwatch/internal/tank"
)

// BenchmarkDetectorStep is what one report costs a car's level detector (the tank judge and the alarm
// engine's abnormal-unload rule each run one): a report a second with three compartments' levels and
// a tank state, driving (noisy levels) or parked (one value), the window full (180 readings).
func BenchmarkDetectorStep(b *testing.B) {
	b.Run("driving", func(b *testing.B) { benchStep(b, 20, 600) })
	b.Run("parked", func(b *testing.B) { benchStep(b, 0, 0) })
}

func benchStep(b *testing.B, noise float64, speed uint16) {
	rng := rand.New(rand.NewPCG(5, 6))
	const n = 4096
	ins := make([]Input, n)
	st := &tank.State{Compartments: 3}
	for i := range ins {
		rs := make([]tank.Reading, 3)
		for c := range rs {
			v := 8000 + float64(c)*1000 + float64(int(rng.Float64()*noise))
			rs[c] = tank.Reading{Compartment: uint8(c + 1), LevelMM: uint16(v / 10), VolumeL: v, V20L: v * 0.99}
		}
		ins[i] = Input{Speed: speed, Located: true, Lat: 30_000_000, Lon: 120_000_000, State: st, Readings: rs,
			Expected: []int{1, 2, 3}}
	}
	d := New(Config{DropL: 50})
	t := int64(1_700_000_000_000)
	for i := range 200 { // fill the window
		t += 1000
		in := ins[i%n]
		in.T = t
		d.Step(&in)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		t += 1000
		in := ins[i%n]
		in.T = t
		d.Step(&in)
		i++
	}
}
