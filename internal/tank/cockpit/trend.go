package cockpit

import (
	"math"
	"sync"
)

// Trend window: a truck's total volume is compared with its value at least TrendMinSpan and at most
// TrendWindow before its newest reading; a change of at least TrendMinLitres is a rise or a fall.
const (
	TrendWindowMS  = 5 * 60_000
	TrendMinSpanMS = 20_000
	TrendMinLitres = 30.0
	trendKeep      = 24 // samples kept per car (a report every 10 s fills 4 minutes)
)

type sample struct {
	t   int64 // ms of the level reading
	vol float64
}

// tracker keeps the recent total volumes of every truck, fed by the committed reports (Observe) and
// by the summary's own reads (the same reading twice is one sample).
type tracker struct {
	mu   sync.Mutex
	cars map[int64][]sample // oldest first
}

func newTracker() *tracker { return &tracker{cars: map[int64][]sample{}} }

// add records the car's total volume at t (ms); an older or repeated time is ignored.
func (k *tracker) add(carID, t int64, vol float64) {
	k.mu.Lock()
	defer k.mu.Unlock()
	s := k.cars[carID]
	if n := len(s); n > 0 && t <= s[n-1].t {
		return
	}
	// drop what lies outside the window, and keep at most trendKeep
	from := 0
	for from < len(s) && s[from].t < t-TrendWindowMS {
		from++
	}
	s = append(s[from:], sample{t, vol})
	if len(s) > trendKeep {
		s = s[len(s)-trendKeep:]
	}
	k.cars[carID] = s
}

// trend is the direction of the car's total volume (Trend*) as of its newest sample, which must lie
// within the window before now (ms). It also returns the rate in litres per minute (0 when unknown).
func (k *tracker) trend(carID, now int64) (int, float64) {
	k.mu.Lock()
	defer k.mu.Unlock()
	return trendOf(k.cars[carID], now)
}

// trendOf is the pure part of trend.
func trendOf(s []sample, now int64) (int, float64) {
	n := len(s)
	if n < 2 {
		return TrendUnknown, 0
	}
	last := s[n-1]
	if now-last.t > TrendWindowMS {
		return TrendUnknown, 0
	}
	// the oldest sample within the window that is at least TrendMinSpan before the newest
	for _, o := range s[:n-1] {
		if last.t-o.t > TrendWindowMS || last.t-o.t < TrendMinSpanMS {
			continue
		}
		d := last.vol - o.vol
		rate := math.Round(d/(float64(last.t-o.t)/60_000)*10) / 10
		switch {
		case d >= TrendMinLitres:
			return TrendRising, rate
		case d <= -TrendMinLitres:
			return TrendFalling, rate
		}
		return TrendSteady, rate
	}
	return TrendUnknown, 0
}
