package judge

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"tankwatch/internal/tank"
)

// leg is a stretch of a scripted trip: for dur seconds the car moves at speed (km/h) inside station
// (0: outside every fence) while compartment 1's volume goes linearly from the previous leg's end to
// vol; noise is the amplitude (L) of random sloshing added to each reading; open sets compartment 1's
// discharge valve open; silent sends nothing (a gap).
type leg struct {
	dur     int
	speed   float64
	station int64
	vol     float64
	noise   float64
	open    bool
	silent  bool
	stuckMM int // > 0: the raw level is this whatever the volume
	spike   float64
	drop2   bool // compartment 2 absent from the readings
}

func run(t *testing.T, cfg Config, start float64, legs []leg) []Event {
	t.Helper()
	d := New(cfg)
	rng := rand.New(rand.NewPCG(1, 2))
	now, vol := int64(1_700_000_000_000), start
	var out []Event
	for _, g := range legs {
		from := vol
		for s := 0; s < g.dur; s += 10 {
			now += 10_000
			vol = from + (g.vol-from)*float64(s+10)/float64(g.dur)
			if g.silent {
				continue
			}
			v := vol + g.noise*(rng.Float64()*2-1)
			if g.spike != 0 && s == g.dur/2 {
				v += g.spike
			}
			mm := uint16(math.Round(v / 10))
			if g.stuckMM > 0 {
				mm = uint16(g.stuckMM)
			}
			st := tank.State{Compartments: 2}
			for c := range 2 {
				for k := range tank.Kinds {
					st.Devices[c][k] = tank.DevInstalled
				}
			}
			if g.open {
				st.Devices[0][tank.DischargeValve] |= tank.DevOpen
			}
			rs := []tank.Reading{{Compartment: 1, LevelMM: mm, VolumeL: v, V20L: v * 0.99}}
			if !g.drop2 {
				rs = append(rs, tank.Reading{Compartment: 2, LevelMM: uint16(500 + rng.IntN(3)), VolumeL: 5000, V20L: 4950})
			}
			in := Input{T: now, Speed: uint16(g.speed * 10), Located: true, Lat: 30_000_000, Lon: 120_000_000,
				StationID: g.station, State: &st, Readings: rs, Expected: []int{1, 2}}
			if g.station != 0 {
				in.StationName = "S"
			}
			out = append(out, d.Step(&in)...)
		}
	}
	return out
}

func kinds(evs []Event) []string {
	var k []string
	for _, e := range evs {
		if e.End {
			k = append(k, e.Kind+"/end")
		} else {
			k = append(k, e.Kind)
		}
	}
	return k
}

func TestDetector(t *testing.T) {
	const full = 9000.0
	cases := []struct {
		name  string
		cfg   Config
		start float64
		legs  []leg
		want  []string
		check func(t *testing.T, evs []Event)
	}{
		{name: "sloshing while driving raises nothing", start: full,
			legs: []leg{{dur: 7200, speed: 70, vol: full, noise: 120}}},
		{name: "standing still with probe noise raises nothing", start: full,
			legs: []leg{{dur: 7200, vol: full, noise: 8}}},
		{name: "load at the depot", start: 0,
			legs: []leg{{dur: 300, station: 7}, {dur: 600, station: 7, vol: full, open: true}, {dur: 600, station: 7, vol: full}, {dur: 600, speed: 60, vol: full, noise: 60}},
			want: []string{"valveOpen", "valveOpen/end", "load"},
			check: func(t *testing.T, evs []Event) {
				e := evs[2]
				if e.StationID != 7 || math.Abs(e.BeforeL) > 1 || math.Abs(e.AfterL-full) > 20 || math.Abs(e.AfterV20-full*0.99) > 20 {
					t.Errorf("load %+v", e)
				}
			}},
		{name: "unload at a station", start: full,
			legs: []leg{{dur: 600, speed: 60, vol: full, noise: 60}, {dur: 120, station: 3, vol: full}, {dur: 1200, station: 3, open: true, vol: 0}, {dur: 60, station: 3}, {dur: 600, speed: 60, vol: 0}},
			want: []string{"valveOpen", "valveOpen/end", "unload"},
			check: func(t *testing.T, evs []Event) {
				e := evs[2]
				if e.StationID != 3 || e.StationName != "S" || math.Abs(e.BeforeL-full) > 20 || math.Abs(e.AfterL) > 20 || e.EndAt <= e.StartAt {
					t.Errorf("unload %+v", e)
				}
			}},
		{name: "parked drain outside fences is theft", start: full,
			legs:  []leg{{dur: 600, speed: 60, vol: full, noise: 60}, {dur: 300, vol: full, noise: 5}, {dur: 420, vol: full - 300, noise: 5}, {dur: 600, vol: full - 300, noise: 5}},
			want:  []string{"theft"},
			check: func(t *testing.T, evs []Event) { checkLoss(t, evs[0], 300, "parked") }},
		{name: "drain with a valve open outside fences is theft", start: full,
			legs:  []leg{{dur: 300, vol: full, noise: 5}, {dur: 420, vol: full - 400, noise: 5, open: true}, {dur: 600, speed: 50, vol: full - 400, noise: 60}},
			want:  []string{"valveOpen", "valveOpen/end", "theft"},
			check: func(t *testing.T, evs []Event) { checkLoss(t, evs[2], 400, "opening") }},
		{name: "a sustained fall while moving", start: full,
			legs:  []leg{{dur: 600, speed: 70, vol: full, noise: 80}, {dur: 900, speed: 70, vol: full - 500, noise: 80}, {dur: 900, speed: 70, vol: full - 500, noise: 80}},
			want:  []string{"dropMoving"},
			check: func(t *testing.T, evs []Event) { checkLoss(t, evs[0], 500, "") }},
		{name: "a fall across a silence outside fences", start: full,
			legs:  []leg{{dur: 600, vol: full, noise: 5}, {dur: 3600, vol: full - 250, silent: true}, {dur: 600, vol: full - 250, noise: 5}},
			want:  []string{"dropOutside"},
			check: func(t *testing.T, evs []Event) { checkLoss(t, evs[0], 250, "") }},
		{name: "a fall below the car's threshold is nothing", start: full,
			legs: []leg{{dur: 600, vol: full, noise: 5}, {dur: 300, vol: full - 30, noise: 5}, {dur: 900, vol: full - 30, noise: 5}}},
		{name: "the car's own threshold", cfg: Config{DropL: 500}, start: full,
			legs: []leg{{dur: 600, vol: full, noise: 5}, {dur: 300, vol: full - 300, noise: 5}, {dur: 900, vol: full - 300, noise: 5}}},
		{name: "a jump that returns is a sensor fault, not a load", start: full,
			legs: []leg{{dur: 600, speed: 60, vol: full, noise: 20}, {dur: 600, speed: 60, vol: full, noise: 20, spike: 3000}},
			want: []string{"sensorJump"}},
		{name: "a stuck probe while moving", start: full,
			legs: []leg{{dur: 600, speed: 60, vol: full, noise: 20}, {dur: 2400, speed: 60, vol: full, stuckMM: 880}, {dur: 120, speed: 60, vol: full, noise: 20}},
			want: []string{"sensorStuck", "sensorStuck/end"}},
		{name: "a listed compartment missing from the reports", start: full,
			legs: []leg{{dur: 300, vol: full, noise: 5}, {dur: 900, vol: full, noise: 5, drop2: true}, {dur: 120, vol: full, noise: 5}},
			want: []string{"sensorMissing", "sensorMissing/end"},
			check: func(t *testing.T, evs []Event) {
				if evs[0].Compartment != 2 {
					t.Errorf("missing %+v", evs[0])
				}
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			evs := run(t, c.cfg, c.start, c.legs)
			got := kinds(evs)
			if len(got) != len(c.want) {
				t.Fatalf("events %v, want %v (%+v)", got, c.want, evs)
			}
			for i := range got {
				if got[i] != c.want[i] {
					t.Fatalf("events %v, want %v", got, c.want)
				}
			}
			if c.check != nil {
				c.check(t, evs)
			}
		})
	}
}

func checkLoss(t *testing.T, e Event, litres float64, detail string) {
	t.Helper()
	if loss := e.BeforeL - e.AfterL; math.Abs(loss-litres) > litres/10 {
		t.Errorf("%s lost %.0f L, want about %.0f (%+v)", e.Kind, loss, litres, e)
	}
	if e.BeforeV20-e.AfterV20 <= 0 || e.StationID != 0 || e.Detail != detail || e.EndAt < e.StartAt {
		t.Errorf("%s %+v, detail want %q", e.Kind, e, detail)
	}
}

func TestDetectorIgnoresOlderReports(t *testing.T) {
	d := New(Config{})
	in := Input{T: 2000, Readings: []tank.Reading{{Compartment: 1, VolumeL: 100, V20L: 100}}}
	d.Step(&in)
	st := tank.State{Compartments: 1}
	st.Devices[0][tank.ManholeCover] = tank.DevOpen
	old := Input{T: 1000, State: &st}
	if evs := d.Step(&old); evs != nil {
		t.Fatalf("older report judged: %v", evs)
	}
}

func TestOpenOutside(t *testing.T) {
	d := New(Config{})
	st := tank.State{Compartments: 3}
	st.Devices[1][tank.ManholeCover] = tank.DevInstalled | tank.DevOpen
	evs := d.Step(&Input{T: 1, Located: true, Lat: 1, Lon: 1, State: &st})
	if got := d.OpenOutside(); len(got) != 1 || got[0] != 2 || len(evs) != 1 || evs[0].Kind != KindCoverOpen || evs[0].Device != tank.ManholeCover {
		t.Fatalf("open outside %v, events %+v", got, evs)
	}
	d.Step(&Input{T: 2, Located: true, Lat: 1, Lon: 1, StationID: 5, State: &st})
	if got := d.OpenOutside(); got != nil {
		t.Fatalf("inside a fence: %v", got)
	}
}

// TestNthMatchesSort: selection gives what sorting gives, for every k, with ties and odd sizes.
func TestNthMatchesSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 1; n <= 90; n++ {
		for range 20 {
			a := make([]float64, n)
			for i := range a {
				a[i] = float64(rng.IntN(n/2+1)) + []float64{0, 0.5}[rng.IntN(2)]
			}
			sorted := slices.Sorted(slices.Values(a))
			for k := range n {
				b := slices.Clone(a)
				if got := nth(b, k); got != sorted[k] {
					t.Fatalf("n=%d k=%d: %v, want %v (%v)", n, k, got, sorted[k], a)
				}
				if k > 0 && slices.Max(b[:k]) > sorted[k] {
					t.Fatalf("n=%d k=%d: a larger value before k: %v", n, k, b)
				}
			}
		}
	}
}
