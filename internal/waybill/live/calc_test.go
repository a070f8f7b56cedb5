package live

import (
	"math"
	"testing"

	"tankwatch/internal/waybill"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

// One degree of latitude is 111.195 km on the haversine sphere (R = 6371.0088 km).
const degKm = 111.195

func TestRouteKm(t *testing.T) {
	o := Point{Lng: 121, Lat: 31}
	cases := []struct {
		name  string
		stops []Point
		want  float64
	}{
		{"no stops", nil, 0},
		{"one leg north", []Point{{Lng: 121, Lat: 32}}, degKm},
		{"two legs there and back", []Point{{Lng: 121, Lat: 32}, {Lng: 121, Lat: 31}}, 2 * degKm},
		{"same place", []Point{o}, 0},
	}
	for _, c := range cases {
		if got := RouteKm(o, c.stops); !near(got, c.want, 0.1) {
			t.Errorf("%s: %.3f km, want %.3f", c.name, got, c.want)
		}
	}
}

func TestMovingSpeed(t *testing.T) {
	min := int64(60_000)
	// a car going north at 0.01° (1.112 km) a minute = 66.7 km/h
	north := func(n int, t0 int64, lat0, kmh float64) []Sample {
		var out []Sample
		for i := range n {
			out = append(out, Sample{T: t0 + int64(i)*min, Lng: 121, Lat: lat0 + float64(i)*0.01, Kmh: kmh})
		}
		return out
	}
	cases := []struct {
		name     string
		samples  []Sample
		wantKmh  float64
		wantTrip bool
		wantKm   float64
	}{
		{"no positions", nil, DefaultKmh, false, 0},
		{"no movement: standing at the depot", func() []Sample {
			var s []Sample
			for i := range 60 {
				s = append(s, Sample{T: int64(i) * min, Lng: 121, Lat: 31})
			}
			return s
		}(), DefaultKmh, false, 0},
		{"too little movement (5 min)", north(6, 0, 31, 60), DefaultKmh, false, 5 * 1.112},
		{"steady 30 minutes", north(31, 0, 31, 60), 66.7, true, 30 * 1.112},
		{"stops do not count: 30 min moving, 30 min standing", append(north(31, 0, 31, 60),
			func() []Sample {
				var s []Sample
				for i := 1; i <= 30; i++ {
					s = append(s, Sample{T: 30*min + int64(i)*min, Lng: 121, Lat: 31.30, Kmh: 0})
				}
				return s
			}()...), 66.7, true, 30 * 1.112},
		{"a gap of an hour counts for nothing", append(north(16, 0, 31, 60), north(16, 75*min, 32, 60)...), 66.7, true, 30 * 1.112},
		{"out of order positions are ignored", append(north(31, 0, 31, 60), Sample{T: 5 * min, Lng: 100, Lat: 10, Kmh: 80}), 66.7, true, 30 * 1.112},
	}
	for _, c := range cases {
		var m Moving
		for _, s := range c.samples {
			m.Add(s)
		}
		kmh, trip := m.Speed()
		if !near(kmh, c.wantKmh, 0.2) || trip != c.wantTrip || !near(m.Km, c.wantKm, 0.05) {
			t.Errorf("%s: %.2f km/h trip=%v %.3f km, want %.2f %v %.3f", c.name, kmh, trip, m.Km, c.wantKmh, c.wantTrip, c.wantKm)
		}
	}
}

func TestEtaMs(t *testing.T) {
	cases := []struct {
		name    string
		km, kmh float64
		want    int64
	}{
		{"nothing left", 0, 60, 1000},
		{"60 km at 60 km/h", 60, 60, 1000 + 3_600_000},
		{"15 km at 60 km/h", 15, 60, 1000 + 900_000},
		{"no speed: default", DefaultKmh, 0, 1000 + 3_600_000},
	}
	for _, c := range cases {
		if got := EtaMs(1000, c.km, c.kmh); got != c.want {
			t.Errorf("%s: %d, want %d", c.name, got, c.want)
		}
	}
}

func TestPlan(t *testing.T) {
	depot := Point{Lng: 121, Lat: 31}
	d1 := Point{Lng: 121, Lat: 32}
	d2 := Point{Lng: 121, Lat: 33}
	half := Point{Lng: 121, Lat: 31.5}
	two := func(s1, s2 int) []Stop {
		return []Stop{{Seq: 1, At: d1, State: s1}, {Seq: 2, At: d2, State: s2}}
	}
	cases := []struct {
		name            string
		state           waybill.State
		pos             *Point
		stops           []Stop
		ok              bool
		next            int
		nextKm, finalKm float64
	}{
		{"dispatched, car away from the depot: via the depot", waybill.Dispatched, &half, two(0, 0), true, 1, 1.5 * degKm, 2.5 * degKm},
		{"loading at the depot without a position", waybill.Loading, nil, two(0, 0), true, 1, degKm, 2 * degKm},
		{"in transit halfway to the first", waybill.InTransit, &half, two(0, 0), true, 1, 0.5 * degKm, 1.5 * degKm},
		{"in transit without a position: unknown", waybill.InTransit, nil, two(0, 0), false, 1, 0, 0},
		{"first reached, on to the second", waybill.InTransit, &d1, two(waybill.DestReceived, 0), true, 2, degKm, degKm},
		{"stopped at the only destination", waybill.Unloading, &d1, []Stop{{Seq: 1, At: d1, State: waybill.DestUnloading}}, true, 0, 0, 0},
		{"arrived at the first of two (engine marked it)", waybill.Arrived, &d1, two(waybill.DestArrived, 0), true, 2, degKm, degKm},
	}
	for _, c := range cases {
		p, ok := Plan(c.state, c.pos, depot, c.stops)
		if ok != c.ok || p.NextSeq != c.next || !near(p.NextKm, c.nextKm, 0.2) || !near(p.FinalKm, c.finalKm, 0.2) {
			t.Errorf("%s: %+v ok=%v, want next %d %.1f/%.1f km ok=%v", c.name, p, ok, c.next, c.nextKm, c.finalKm, c.ok)
		}
	}
}
