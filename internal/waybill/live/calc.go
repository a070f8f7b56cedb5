// Package live is the waybill map (monitoring_waybill, 04-42): the cars on active waybills with their
// live position, route, next destination, remaining distance and ETA (D47).
package live

import (
	"math"

	"tankwatch/internal/station"
	"tankwatch/internal/waybill"
)

// ETA parameters (D47).
const (
	// MovingKmh: a position at or above this speed counts as moving (the live state's threshold).
	MovingKmh = 5.0
	// DefaultKmh is the speed assumed before departure or while the trip has too little movement.
	DefaultKmh = 50.0
	// MinMovingMinutes and MinMovingKm: below either the trip's own average is not trusted.
	MinMovingMinutes = 10.0
	MinMovingKm      = 5.0
	// MaxGapMs: an interval between two positions longer than this (no data) counts for neither
	// distance nor time.
	MaxGapMs = 10 * 60_000
)

// Point is a coordinate in degrees.
type Point = station.Point

// KmBetween is the great-circle distance in kilometres.
func KmBetween(a, b Point) float64 { return station.DistanceM(a, b) / 1000 }

// RouteKm is the remaining distance from `from` through the stops in order: the sum of the
// great-circle legs (D47: no road network; the straight legs underestimate the road by 10–30 %).
func RouteKm(from Point, stops []Point) float64 {
	km, at := 0.0, from
	for _, s := range stops {
		km += KmBetween(at, s)
		at = s
	}
	return km
}

// Sample is one located position of the trip's track.
type Sample struct {
	T        int64 // Unix ms
	Lng, Lat float64
	Kmh      float64
}

// Moving accumulates a trip's moving distance and time from its positions in time order. The zero
// value is empty; feed it with Add (positions older than the last one are ignored).
type Moving struct {
	Last     Sample
	Has      bool
	Km       float64 // distance driven while moving
	MovingMs int64   // time spent moving
}

// Add takes the next position: the interval from the previous one counts as moving when the new
// position's speed is at or above MovingKmh, and not at all when it is longer than MaxGapMs.
func (m *Moving) Add(s Sample) {
	if m.Has && s.T <= m.Last.T {
		return
	}
	if m.Has {
		dt := s.T - m.Last.T
		if dt <= MaxGapMs && s.Kmh >= MovingKmh {
			m.Km += KmBetween(Point{Lng: m.Last.Lng, Lat: m.Last.Lat}, Point{Lng: s.Lng, Lat: s.Lat})
			m.MovingMs += dt
		}
	}
	m.Last, m.Has = s, true
}

// Speed is the average moving speed in km/h and whether the trip's own figure is used (true), or the
// default because there is too little movement (false).
func (m *Moving) Speed() (float64, bool) {
	minutes := float64(m.MovingMs) / 60_000
	if minutes < MinMovingMinutes || m.Km < MinMovingKm {
		return DefaultKmh, false
	}
	return m.Km / (minutes / 60), true
}

// EtaMs is when a car at speed kmh covers km from now (Unix ms); now when km is 0.
func EtaMs(now int64, km, kmh float64) int64 {
	if km <= 0 {
		return now
	}
	if kmh <= 0 {
		kmh = DefaultKmh
	}
	return now + int64(math.Round(km/kmh*3_600_000))
}

// Round1 rounds to one decimal.
func Round1(v float64) float64 { return math.Round(v*10) / 10 }

// Stop is a destination of the route: its order, place and progress (waybill.Dest*).
type Stop struct {
	Seq   int
	At    Point
	State int
}

// Progress is where a trip stands on its route.
type Progress struct {
	NextSeq int     // the next destination not yet reached (0: every destination reached)
	NextKm  float64 // remaining distance to it
	FinalKm float64 // remaining distance through every destination not yet reached
	// Departed: the car has left the depot (IN_TRANSIT or later); before that the route starts with
	// the depot.
	Departed bool
}

// Plan is the progress of a trip in state s with the car at pos (nil: no position; before departure
// the car is then taken to be at the depot; after it nothing is known and ok is false).
func Plan(s waybill.State, pos *Point, depot Point, stops []Stop) (Progress, bool) {
	p := Progress{Departed: s >= waybill.InTransit}
	var pending []Point
	for _, st := range stops {
		if st.State == waybill.DestPending {
			if p.NextSeq == 0 {
				p.NextSeq = st.Seq
			}
			pending = append(pending, st.At)
		}
	}
	if len(pending) == 0 {
		return p, true // stopped at (or past) the last destination: nothing remains
	}
	from := depot
	if !p.Departed {
		if pos != nil {
			// to the depot first, then on
			p.NextKm = KmBetween(*pos, depot)
		}
	} else {
		if pos == nil {
			return p, false
		}
		from = *pos
	}
	p.NextKm += KmBetween(from, pending[0])
	p.FinalKm = p.NextKm + RouteKm(pending[0], pending[1:])
	return p, true
}
