package ground

import (
	"math"
	"time"
)

// Hysteresis of the threshold episodes: an episode opens past the threshold and closes only once the
// figure is back by this margin, so a tank hovering at the threshold does not open and close one event
// per poll.
const (
	stockMarginPct = 2.0  // lowStock closes above pct + 2 points
	waterMarginMM  = 2.0  // water closes below max − 2 mm
	coverMargin    = 1.10 // lowCover closes above 110 % of the minimum
)

// lowStock says whether a tank at fillPct is in a low-stock episode, given whether one is open.
func lowStock(open bool, fillPct, thresholdPct float64) bool {
	if thresholdPct <= 0 {
		return false
	}
	if open {
		return fillPct < thresholdPct+stockMarginPct
	}
	return fillPct < thresholdPct
}

// highWater says whether a tank with waterMM is in a water episode.
func highWater(open bool, waterMM, maxMM float64) bool {
	if maxMM <= 0 {
		return false
	}
	if open {
		return waterMM > maxMM-waterMarginMM
	}
	return waterMM > maxMM
}

// lowCoverOn says whether a tank with days of cover (−1: unknown) is in a low-cover episode.
func lowCoverOn(open bool, days, minDays float64) bool {
	if minDays <= 0 || days < 0 {
		return open && days < 0 // unknown keeps an open episode open rather than closing it on no data
	}
	if open {
		return days < minDays*coverMargin
	}
	return days < minDays
}

// Sales are the falls between consecutive readings: a rise (a delivery, thermal expansion) is not a
// sale, so deliveries are excluded by construction. salesRate turns the sales of a window into an
// average per day; fewer than minSalesSpan of data is too little to tell (−1).
const minSalesSpanMS = int64(6 * 3600 * 1000)

// daysOfCover is volume / average daily sales; −1 when unknown (too short a history, or no sales).
func daysOfCover(volume, sold float64, spanMS int64) float64 {
	if spanMS < minSalesSpanMS || sold <= 0 {
		return -1
	}
	perDay := sold / (float64(spanMS) / 86_400_000)
	return math.Round(volume/perDay*100) / 100
}

// Leak fall from inventory alone (D37). A window of at least leakWindow of readings with no delivery
// is a leak suspicion when
//   - every step between consecutive readings is a fall no larger than leakMaxStep (a sale at a pump
//     moves tens of litres in one step; a leak moves a litre or two between polls), and no step is a
//     rise larger than leakMaxRise (a delivery or noise);
//   - the temperature-compensated volume falls at a rate of at least leakMinRate L/h over the window
//     (the TC volume, so that a tank cooling overnight does not look like a leak);
//   - the fall is steady: a straight line fits it with a residual RMS below leakMaxRMS litres.
//
// With a gauge's inventory resolution of about 1 L and polls every minute, 1.5 L/h over 3 h (4.5 L)
// is the smallest fall this can tell from noise; the 0.76 L/h of DOMAIN.md §4 is what the gauge's own
// static test (203) reaches, whose failures are the leakTest events.
const (
	leakWindowMS = int64(3 * 3600 * 1000)
	leakMinRate  = 1.5  // L/h
	leakMaxRate  = 40.0 // L/h: faster than this is a sale pattern or a sudden loss, not a seep
	leakMaxStep  = 8.0  // L between consecutive readings
	leakMaxRise  = 3.0  // L: gauge noise between two polls stays well under it
	leakMaxRMS   = 1.5  // L
	leakMinPts   = 6
	leakEvery    = 5 * time.Minute
)

type point struct {
	t int64   // ms
	v float64 // TC volume, L
}

// leakFall judges a window of readings (oldest first, covering at least leakWindowMS, none during a
// delivery) and returns the fitted fall rate in L/h (positive = loss) and whether it is a leak
// suspicion.
func leakFall(pts []point) (float64, bool) {
	if len(pts) < leakMinPts || pts[len(pts)-1].t-pts[0].t < leakWindowMS {
		return 0, false
	}
	for i := 1; i < len(pts); i++ {
		d := pts[i].v - pts[i-1].v
		if d < -leakMaxStep || d > leakMaxRise {
			return 0, false
		}
	}
	// least squares v = a + b·h
	n := float64(len(pts))
	var sx, sy, sxx, sxy float64
	for _, p := range pts {
		x := float64(p.t-pts[0].t) / 3_600_000
		sx += x
		sy += p.v
		sxx += x * x
		sxy += x * p.v
	}
	den := n*sxx - sx*sx
	if den == 0 {
		return 0, false
	}
	b := (n*sxy - sx*sy) / den
	a := (sy - b*sx) / n
	var ss float64
	for _, p := range pts {
		x := float64(p.t-pts[0].t) / 3_600_000
		r := p.v - (a + b*x)
		ss += r * r
	}
	rms := math.Sqrt(ss / n)
	rate := -b
	return rate, rate >= leakMinRate && rate <= leakMaxRate && rms <= leakMaxRMS
}
