// Package waybill is the chain a trip follows from depot to station (DOMAIN.md §1–2): waybills, their
// states and the loss of each trip.
package waybill

import "math"

// AllowancePct is the road-transport loss allowance of GB/T 11085 as commonly applied (DOMAIN.md §2):
// 0.01 % up to 50 km, plus 0.01 % for each further 50 km or part of it. A trip of 0 km (or an unknown
// distance, negative) gets the first step.
func AllowancePct(km float64) float64 {
	steps := 1.0
	if km > 50 {
		steps = math.Ceil(km / 50)
	}
	return 0.01 * steps
}

// Loss is a trip's loss at 20 °C.
type Loss struct {
	ShippedV20  float64 // litres
	ReceivedV20 float64 // litres
	LossL       float64 // shipped − received (negative: the station received more than was shipped)
	RatePct     float64 // loss / shipped · 100; 0 when nothing was shipped
	AllowedPct  float64 // AllowancePct(km)
	Over        bool    // the rate is above the allowance
}

// LossOf computes a trip's loss from its shipped and received V20 and its loaded distance.
func LossOf(shippedV20, receivedV20, km float64) Loss {
	l := Loss{ShippedV20: shippedV20, ReceivedV20: receivedV20, LossL: shippedV20 - receivedV20, AllowedPct: AllowancePct(km)}
	if shippedV20 > 0 {
		l.RatePct = l.LossL / shippedV20 * 100
	}
	l.Over = l.RatePct > l.AllowedPct+1e-12
	return l
}

// TonKm is the ton-kilometres of one loaded trip: its tonnes times its loaded kilometres.
func TonKm(tonnes, km float64) float64 {
	if tonnes <= 0 || km <= 0 {
		return 0
	}
	return tonnes * km
}
