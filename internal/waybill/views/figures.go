// Package views is the read side of the transport process (issue 15): the trips list and one trip's
// timeline (oilTransportProcess, transportProcess2, historyWaybill) and the finished trips with all
// their figures (transportRecord). It only reads; every figure shown is a stored column of the
// waybill or computed here from stored columns by the functions of this file (D46).
package views

import (
	"math"

	"tankwatch/internal/waybill"
)

// OutToArrivalMin is the out-to-arrival time (DOMAIN.md §1: leaving the depot → arriving at the first
// destination) in minutes, one decimal; -1 when either end is not known or the arrival is before
// the departure (a corrected trip), so that no made-up figure is shown.
func OutToArrivalMin(departAt, arriveAt int64) float64 {
	if departAt <= 0 || arriveAt <= 0 || arriveAt < departAt {
		return -1
	}
	return round1(float64(arriveAt-departAt) / 60000)
}

// Figures are the stored figures of one finished trip that the totals add up.
type Figures struct {
	ShippedV20, ShippedMassT, ReceivedV20, LossL, LoadedKm float64
	DepartAt, ArriveAt                                     int64
	Over                                                   bool
}

// Totals of a set of finished trips (the transportRecord totals row).
type Totals struct {
	Trips       int     `json:"trips"`
	ShippedV20  float64 `json:"shippedV20"`
	ReceivedV20 float64 `json:"receivedV20"`
	LossL       float64 `json:"lossL"`
	// LossRatePct is the loss of the set over its shipped V20 (not an average of the trips' rates).
	LossRatePct float64 `json:"lossRatePct"`
	OverCount   int     `json:"overCount"`
	LoadedKm    float64 `json:"loadedKm"`
	TonKm       float64 `json:"tonKm"`
	// AvgOutToArrivalMin is the average over the trips whose out-to-arrival time is known (-1: none).
	AvgOutToArrivalMin float64 `json:"avgOutToArrivalMin"`
	TimedTrips         int     `json:"timedTrips"`
}

// Summarize adds up a set of trips.
func Summarize(rows []Figures) Totals {
	var t Totals
	var minutes float64
	for _, r := range rows {
		t.Trips++
		t.ShippedV20 += r.ShippedV20
		t.ReceivedV20 += r.ReceivedV20
		t.LossL += r.LossL
		t.LoadedKm += r.LoadedKm
		t.TonKm += waybill.TonKm(r.ShippedMassT, r.LoadedKm)
		if r.Over {
			t.OverCount++
		}
		if m := OutToArrivalMin(r.DepartAt, r.ArriveAt); m >= 0 {
			minutes += float64(r.ArriveAt-r.DepartAt) / 60000
			t.TimedTrips++
		}
	}
	return t.finish(minutes)
}

// finish rounds the sums and derives the rate and the average.
func (t Totals) finish(minutes float64) Totals {
	if t.ShippedV20 > 0 {
		t.LossRatePct = round4(t.LossL / t.ShippedV20 * 100)
	}
	t.AvgOutToArrivalMin = -1
	if t.TimedTrips > 0 {
		t.AvgOutToArrivalMin = round1(minutes / float64(t.TimedTrips))
	}
	t.ShippedV20, t.ReceivedV20, t.LossL = round1(t.ShippedV20), round1(t.ReceivedV20), round1(t.LossL)
	t.LoadedKm, t.TonKm = round1(t.LoadedKm), round1(t.TonKm)
	return t
}

// Over says whether a finished trip's loss rate is above its allowance (the stored figures).
func Over(lossRatePct, allowedPct float64) bool { return lossRatePct > allowedPct+1e-12 }

func round1(v float64) float64 { return math.Round(v*10) / 10 }
func round4(v float64) float64 { return math.Round(v*10000) / 10000 }
