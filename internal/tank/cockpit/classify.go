// Package cockpit is the liquid-level cockpit (spec route manager/cockpit, menu 04-04): the level
// state of a whole scope at a glance — trucks loaded / empty / loading / unloading, compartments by
// fill, station tanks by fill and days of cover, active tank alarms — computed from memory (the live
// state, the tank catalogue, the station fences, the gauges' newest states) plus two indexed alarm
// queries. The meanings are ours (the spec only names the page): docs/DECISIONS.md D39.
package cockpit

import (
	"tankwatch/internal/tank"
)

// Fill bands of a compartment or a station tank (share of its capacity).
const (
	BandEmpty   = "empty"   // < 5 %
	BandLow     = "low"     // 5 % to < 50 %
	BandMid     = "mid"     // 50 % to < 90 %
	BandHigh    = "high"    // ≥ 90 %
	BandUnknown = "unknown" // no capacity on the platform (tankInfo lists none), so no share
)

// Bands in the order the page draws them.
var Bands = []string{BandEmpty, BandLow, BandMid, BandHigh, BandUnknown}

// LoadedPct is the share of its capacity from which a truck counts as loaded (below: empty); the same
// 5 % is the empty band's upper bound.
const LoadedPct = 5.0

// BandOf is the fill band of volume in capacity (litres); capacity ≤ 0 is BandUnknown.
func BandOf(volume, capacity float64) string {
	if capacity <= 0 {
		return BandUnknown
	}
	p := volume / capacity * 100
	switch {
	case p < LoadedPct:
		return BandEmpty
	case p < 50:
		return BandLow
	case p < 90:
		return BandMid
	}
	return BandHigh
}

// BandOfPct is BandOf for a share already in percent (a station tank's FillPct); negative = unknown.
func BandOfPct(p float64, known bool) string {
	if !known || p < 0 {
		return BandUnknown
	}
	return BandOf(p, 100)
}

// Truck states: every truck in scope is in exactly one.
const (
	TruckLoading   = "loading"
	TruckUnloading = "unloading"
	TruckLoaded    = "loaded"
	TruckEmpty     = "empty"
	TruckUnknown   = "unknown" // neither level readings with a capacity nor the load status bits
)

// Trend of a truck's total volume over the last minutes (see tracker).
const (
	TrendUnknown = 0
	TrendSteady  = 1
	TrendRising  = 2
	TrendFalling = 3
)

// Fence kinds of the place a truck stands in.
const (
	FenceNone    = 0
	FenceDepot   = 1 // 油库 (station type yk): where trucks load
	FenceStation = 2 // any other station fence: where trucks unload
)

// TruckFacts is what the classification of one truck reads; Classify is pure.
type TruckFacts struct {
	Online      bool
	HasLevels   bool    // level readings exist
	Volume      float64 // total Vt of the readings, litres
	Capacity    float64 // total capacity of the read compartments; 0 when any is not known
	Load        string  // status bits 8–9 (telemetry.LiveLoad*), "" unknown
	ValveOpen   bool    // a discharge or bottom valve is open
	CoverOpen   bool    // a manhole or small manhole cover is open
	Fence       int     // Fence*
	Trend       int     // Trend*
	HasReported bool
}

// Classify puts a truck in one state (D39):
//   - loading: online, inside a depot fence, a valve or cover open, and the volume not known to fall;
//     or inside any station fence with a valve open and the volume rising;
//   - unloading: online, inside a station (not depot) fence with a discharge or bottom valve open and
//     the volume not known to rise; or inside a depot with a valve open and the volume falling;
//   - otherwise loaded / empty by volume against capacity (≥ 5 %), else by the load status bits
//     (half or full = loaded), else unknown.
//
// An offline truck is never loading or unloading (its state is old): it counts by its last volume.
// A valve open outside every fence is not a loading or unloading: it is the alarm engine's business.
func Classify(f TruckFacts) string {
	if f.Online && f.Fence != FenceNone {
		switch {
		case f.Fence == FenceDepot && (f.ValveOpen || f.CoverOpen) && f.Trend != TrendFalling:
			return TruckLoading
		case f.Fence == FenceDepot && f.ValveOpen && f.Trend == TrendFalling:
			return TruckUnloading
		case f.Fence == FenceStation && f.ValveOpen && f.Trend == TrendRising:
			return TruckLoading
		case f.Fence == FenceStation && f.ValveOpen:
			return TruckUnloading
		}
	}
	if f.HasLevels && f.Capacity > 0 {
		if f.Volume/f.Capacity*100 >= LoadedPct {
			return TruckLoaded
		}
		return TruckEmpty
	}
	switch f.Load {
	case "half", "full":
		return TruckLoaded
	case "empty":
		return TruckEmpty
	}
	return TruckUnknown
}

// Openings reads the lock state: whether a discharge or bottom valve, or a cover, is open.
func Openings(st tank.State) (valve, cover bool) {
	for c := range min(st.Compartments, tank.MaxCompartments) {
		d := st.Devices[c]
		valve = valve || d[tank.DischargeValve]&tank.DevOpen != 0 || d[tank.BottomValve]&tank.DevOpen != 0
		cover = cover || d[tank.ManholeCover]&tank.DevOpen != 0 || d[tank.SmallManholeCover]&tank.DevOpen != 0
	}
	return valve, cover
}
