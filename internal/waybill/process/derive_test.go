package process

import (
	"testing"

	"tankwatch/internal/station"
	"tankwatch/internal/tank"
	"tankwatch/internal/waybill"
)

// Places of the tests: a depot, two stations (circles of 300 m) and the road between them.
var (
	depotAt = [2]int32{31_000_000, 121_000_000}
	st1At   = [2]int32{31_300_000, 121_300_000}
	st2At   = [2]int32{31_400_000, 121_400_000}
	roadAt  = [2]int32{31_150_000, 121_150_000}
)

func circle(t testing.TB, id int64, at [2]int32) place {
	t.Helper()
	f, err := station.NewCircle(station.Point{Lng: float64(at[1]) / 1e6, Lat: float64(at[0]) / 1e6}, 300)
	if err != nil {
		t.Fatal(err)
	}
	return place{id: id, name: "p", fence: f, ok: true}
}

// closed is a sealed truck of 3 compartments: everything closed and locked.
func closed(seal tank.Seal) *tank.State {
	s := &tank.State{Compartments: 3, Seal: seal}
	for c := range 3 {
		for k := range tank.Kinds {
			s.Devices[c][k] = tank.DevInstalled | tank.DevLocked
		}
	}
	return s
}

func opened(seal tank.Seal, comp, kind int) *tank.State {
	s := closed(seal)
	s.Devices[comp-1][kind] = tank.DevInstalled | tank.DevOpen
	return s
}

func levels(v ...float64) []tank.Reading {
	out := make([]tank.Reading, len(v))
	for i, x := range v {
		out[i] = tank.Reading{Compartment: uint8(i + 1), VolumeL: x, V20L: x}
	}
	return out
}

// rep is one report: time (s), where (nil: no position), tank state, readings.
type rep struct {
	t   int64
	at  *[2]int32
	st  *tank.State
	lv  []tank.Reading
	exp []waybill.Evidence // evidence of the actions expected (0 for an unload end)
}

func newTrip(t testing.TB, state waybill.State, dests int) (*carState, *active) {
	w := &active{id: 1, carID: 7, no: "W1", state: state, depot: circle(t, 10, depotAt)}
	w.dests = append(w.dests, dest{seq: 1, st: circle(t, 11, st1At)})
	if dests > 1 {
		w.dests[0].comps = 0b011
		w.dests = append(w.dests, dest{seq: 2, st: circle(t, 12, st2At), comps: 0b100})
	}
	return &carState{wb: []*active{w}}, w
}

func run(t *testing.T, c *carState, w *active, reps []rep) {
	t.Helper()
	cfg := Config{}
	cfg.defaults()
	for i, r := range reps {
		in := input{t: r.t * 1000, tank: r.st, readings: r.lv}
		if r.at != nil {
			in.located, in.lat, in.lon = true, r.at[0], r.at[1]
		}
		out := derive(&cfg, c, &in, nil)
		var got []waybill.Evidence
		for _, a := range out {
			if a.kind == actUnloadEnd {
				got = append(got, 0)
			} else {
				got = append(got, a.move.Evidence)
			}
		}
		if len(got) != len(r.exp) {
			t.Fatalf("report %d (t=%d, state %s): got %v, want %v", i, r.t, w.state, got, r.exp)
		}
		for j := range got {
			if got[j] != r.exp[j] {
				t.Fatalf("report %d (t=%d): got %v, want %v", i, r.t, got, r.exp)
			}
		}
	}
}

func TestDeriveWholeTrip(t *testing.T) {
	c, w := newTrip(t, waybill.Dispatched, 1)
	run(t, c, w, []rep{
		{t: 1, at: &roadAt, st: closed(tank.SealNone)},                                                      // on the way to the depot
		{t: 2, at: &depotAt, st: closed(tank.SealNone)},                                                     // inside, nothing open
		{t: 3, at: &depotAt, st: opened(tank.SealNone, 1, tank.ManholeCover), exp: ev(waybill.EvLoadStart)}, // loading
		{t: 4, at: &depotAt, st: opened(tank.SealNone, 2, tank.ManholeCover)},                               // still loading
		{t: 5, at: &depotAt, st: closed(tank.SealSealed)},                                                   // sealed before the load record: not yet
	})
	if w.state != waybill.Loading {
		t.Fatalf("state %s", w.state)
	}
	w.state = waybill.Loaded // the load record (H3) moved it
	run(t, c, w, []rep{
		{t: 6, at: &depotAt, st: closed(tank.SealSealed), lv: levels(8000, 8000, 8000), exp: ev(waybill.EvSealed)},
		{t: 7, at: &roadAt, st: closed(tank.SealSealed), lv: levels(8000, 8000, 8000), exp: ev(waybill.EvDepotExit)},
		{t: 8, at: &roadAt, st: closed(tank.SealSealed), lv: levels(7990, 8005, 8000)},
		{t: 9, st: closed(tank.SealSealed), lv: levels(8000, 8000, 8000)}, // no position: the last one counts
		{t: 10, at: &roadAt, st: closed(tank.SealSealed), lv: levels(8000, 8000, 8000)},
		{t: 11, at: &st1At, st: closed(tank.SealSealed), lv: levels(8000, 8000, 8000), exp: ev(waybill.EvArrive)},
		{t: 12, at: &st1At, st: closed(tank.SealUnsealed), lv: levels(8000, 8000, 8000), exp: ev(waybill.EvUnseal)},
		{t: 13, at: &st1At, st: opened(tank.SealUnsealed, 1, tank.DischargeValve), lv: levels(7000, 8000, 8000), exp: ev(waybill.EvUnloadStart)},
		{t: 14, at: &st1At, st: opened(tank.SealUnsealed, 1, tank.DischargeValve), lv: levels(0, 8000, 8000)},
		{t: 15, at: &st1At, st: closed(tank.SealUnsealed), lv: levels(0, 0, 0)},             // valves closed, the level still moving
		{t: 16, at: &st1At, st: closed(tank.SealUnsealed), lv: levels(0, 0, 0)},             // steady once
		{t: 17, at: &st1At, st: closed(tank.SealUnsealed), lv: levels(0, 0, 0), exp: ev(0)}, // steady twice: ended
		{t: 18, at: &st1At, st: closed(tank.SealUnsealed), lv: levels(0, 0, 0)},
	})
	if w.state != waybill.Unloading || w.dests[0].ended != 17000 {
		t.Fatalf("state %s, ended %d", w.state, w.dests[0].ended)
	}
}

func ev(e ...waybill.Evidence) []waybill.Evidence { return e }

func TestDeriveUnloadStartCarriesTheVolumeBefore(t *testing.T) {
	c, w := newTrip(t, waybill.Arrived, 1)
	cfg := Config{}
	cfg.defaults()
	w.dests[0].state = waybill.DestArrived
	derive(&cfg, c, &input{t: 1, located: true, lat: st1At[0], lon: st1At[1], tank: closed(tank.SealUnsealed), readings: levels(5000, 4000, 3000)}, nil)
	out := derive(&cfg, c, &input{t: 2, located: true, lat: st1At[0], lon: st1At[1], tank: opened(tank.SealUnsealed, 2, tank.BottomValve),
		readings: levels(5000, 3000, 3000)}, nil)
	if len(out) != 1 || out[0].move.Evidence != waybill.EvUnloadStart || out[0].move.VolumeL != 12000 || out[0].move.Compartment != 2 {
		t.Fatalf("%+v", out)
	}
	if out[0].move.Cause != waybill.CauseReport || out[0].move.DestSeq != 1 || out[0].move.StationID != 11 {
		t.Fatalf("%+v", out[0].move)
	}
}

func TestDeriveLateDuplicateAndOutOfOrderReportsChangeNothing(t *testing.T) {
	c, w := newTrip(t, waybill.Dispatched, 1)
	run(t, c, w, []rep{
		{t: 10, at: &depotAt, st: closed(tank.SealNone)},
		{t: 10, at: &depotAt, st: opened(tank.SealNone, 1, tank.ManholeCover)}, // same time: a duplicate
		{t: 5, at: &depotAt, st: opened(tank.SealNone, 1, tank.ManholeCover)},  // late
		{t: 11, at: &depotAt, st: opened(tank.SealNone, 1, tank.ManholeCover), exp: ev(waybill.EvLoadStart)},
		{t: 11, at: &depotAt, st: opened(tank.SealNone, 1, tank.ManholeCover)}, // the same again
		{t: 12, at: &depotAt, st: opened(tank.SealNone, 1, tank.ManholeCover)}, // a duplicate opening: already LOADING
	})
	// a late report from the road cannot make the car leave the depot
	w.state = waybill.Sealed
	run(t, c, w, []rep{
		{t: 9, at: &roadAt, st: closed(tank.SealSealed)},
		{t: 13, at: &depotAt, st: closed(tank.SealSealed)},
		{t: 14, at: &roadAt, st: closed(tank.SealSealed), exp: ev(waybill.EvDepotExit)},
		{t: 12, at: &depotAt, st: closed(tank.SealSealed)}, // late, back in the depot: ignored
		{t: 15, at: &depotAt, st: closed(tank.SealSealed)}, // really back: IN_TRANSIT stays (only forward)
		{t: 16, at: &roadAt, st: closed(tank.SealSealed)},
	})
	if w.state != waybill.InTransit {
		t.Fatalf("state %s", w.state)
	}
}

func TestDeriveWrongOrders(t *testing.T) {
	// PLANNED is not followed at all; a DISPATCHED car opening outside the depot does not load
	c, w := newTrip(t, waybill.Dispatched, 1)
	run(t, c, w, []rep{
		{t: 1, at: &roadAt, st: opened(tank.SealNone, 1, tank.ManholeCover)},
		{t: 2, at: &st1At, st: opened(tank.SealNone, 1, tank.DischargeValve)}, // at the destination before loading
		{t: 3, at: &depotAt, st: closed(tank.SealSealed)},                     // sealed without LOADED
		{t: 4, at: &roadAt, st: closed(tank.SealSealed)},                      // left without loading: not a trip
	})
	if w.state != waybill.Dispatched {
		t.Fatalf("state %s", w.state)
	}
	// leaving LOADED without the seal: IN_TRANSIT, marked left unsealed by Apply
	w.state = waybill.Loaded
	run(t, c, w, []rep{
		{t: 5, at: &depotAt, st: opened(tank.SealNone, 1, tank.ManholeCover)},
		{t: 6, at: &roadAt, st: closed(tank.SealNone), exp: ev(waybill.EvDepotExit)},
	})
	if st := waybill.Apply(waybill.Loaded, false, waybill.EvDepotExit); !st.LeftUnsealed {
		t.Fatal("not left unsealed")
	}
	// a discharge valve at the destination before the arrival was seen in the same report: arrival, then unloading next report
	run(t, c, w, []rep{
		{t: 7, at: &st1At, st: opened(tank.SealNone, 1, tank.DischargeValve), exp: ev(waybill.EvArrive)},
		{t: 8, at: &st1At, st: opened(tank.SealNone, 1, tank.DischargeValve), exp: ev(waybill.EvUnloadStart)},
		{t: 9, at: &roadAt, st: opened(tank.SealNone, 1, tank.DischargeValve), exp: ev(0)}, // drove off: the unloading ended
	})
}

func TestDeriveOpeningOnTheWayOncePerEpisode(t *testing.T) {
	c, w := newTrip(t, waybill.InTransit, 1)
	run(t, c, w, []rep{
		{t: 1, at: &roadAt, st: closed(tank.SealSealed), lv: levels(8000, 8000, 8000)},
		{t: 2, at: &roadAt, st: opened(tank.SealSealed, 2, tank.DischargeValve), lv: levels(8000, 7990, 8000), exp: ev(waybill.EvOpeningOnWay)},
		{t: 3, at: &roadAt, st: opened(tank.SealSealed, 2, tank.DischargeValve), lv: levels(8000, 7900, 8000)}, // same episode
		{t: 4, st: opened(tank.SealSealed, 2, tank.DischargeValve), lv: levels(8000, 7890, 8000)},              // no position, same
		{t: 5, at: &roadAt, st: closed(tank.SealSealed), lv: levels(8000, 7890, 8000)},                         // closed: episode over
		{t: 6, at: &roadAt, st: closed(tank.SealBroken), lv: levels(8000, 7890, 8000), exp: ev(waybill.EvOpeningOnWay)},
		{t: 7, at: &roadAt, st: closed(tank.SealBroken), lv: levels(8000, 7890, 8000)},
	})
	if w.state != waybill.InTransit || !w.flagged {
		t.Fatalf("state %s flagged %v", w.state, w.flagged)
	}
}

func TestDeriveLevelDropOnTheWay(t *testing.T) {
	c, w := newTrip(t, waybill.InTransit, 1)
	reps := []rep{}
	for i := int64(1); i <= 40; i++ { // sloshing swings single readings by 120 L: within the noise
		d := float64(i%2) * 120
		reps = append(reps, rep{t: i, at: &roadAt, st: closed(tank.SealSealed), lv: levels(8000-d, 8000, 8000)})
	}
	// 200 L gone: the median of fifteen holds until most readings show it, then three in a row
	for i := int64(41); i <= 49; i++ {
		reps = append(reps, rep{t: i, at: &roadAt, st: closed(tank.SealSealed), lv: levels(7800, 8000, 8000)})
	}
	reps = append(reps,
		rep{t: 50, at: &roadAt, st: closed(tank.SealSealed), lv: levels(7800, 8000, 8000), exp: ev(waybill.EvOpeningOnWay)},
		rep{t: 51, at: &roadAt, st: closed(tank.SealSealed), lv: levels(7800, 8000, 8000)},
	)
	run(t, c, w, reps)
	if !w.flagged {
		t.Fatal("not flagged")
	}
}

func TestDeriveTwoDestinations(t *testing.T) {
	c, w := newTrip(t, waybill.InTransit, 2)
	run(t, c, w, []rep{
		{t: 1, at: &st1At, st: closed(tank.SealSealed), lv: levels(8000, 8000, 8000), exp: ev(waybill.EvArrive)},
		{t: 2, at: &st1At, st: opened(tank.SealUnsealed, 3, tank.DischargeValve), lv: levels(8000, 8000, 8000), exp: ev(waybill.EvUnseal)}, // compartment 3 goes to stop 2
		{t: 3, at: &st1At, st: opened(tank.SealUnsealed, 1, tank.DischargeValve), lv: levels(4000, 8000, 8000), exp: ev(waybill.EvUnloadStart)},
		{t: 4, at: &st1At, st: closed(tank.SealUnsealed), lv: levels(0, 0, 8000)},
		{t: 5, at: &roadAt, st: closed(tank.SealUnsealed), lv: levels(0, 0, 8000), exp: ev(0)}, // left: ended
		{t: 6, at: &roadAt, st: closed(tank.SealUnsealed), lv: levels(0, 0, 8000)},             // the seal stays open by right; the level is what is left
		{t: 7, at: &roadAt, st: closed(tank.SealUnsealed), lv: levels(0, 0, 8000)},
		{t: 8, at: &roadAt, st: closed(tank.SealUnsealed), lv: levels(0, 0, 8000)},
		{t: 9, at: &roadAt, st: opened(tank.SealUnsealed, 3, tank.ManholeCover), lv: levels(0, 0, 8000), exp: ev(waybill.EvOpeningOnWay)},
		{t: 10, at: &st2At, st: closed(tank.SealUnsealed), lv: levels(0, 0, 8000), exp: ev(waybill.EvArrive)},
		{t: 11, at: &st2At, st: opened(tank.SealUnsealed, 3, tank.DischargeValve), lv: levels(0, 0, 7000), exp: ev(waybill.EvUnloadStart)},
		{t: 12, at: &st2At, st: closed(tank.SealUnsealed), lv: levels(0, 0, 0)},
		{t: 13, at: &st2At, st: closed(tank.SealUnsealed), lv: levels(0, 0, 0)},
		{t: 14, at: &st2At, st: closed(tank.SealUnsealed), lv: levels(0, 0, 0), exp: ev(0)},
	})
	if w.state != waybill.Unloading || w.dests[1].ended == 0 {
		t.Fatalf("state %s", w.state)
	}
}

func TestDeriveCarWithoutWaybill(t *testing.T) {
	c := &carState{}
	cfg := Config{}
	cfg.defaults()
	out := derive(&cfg, c, &input{t: 1, located: true, lat: depotAt[0], lon: depotAt[1], tank: opened(tank.SealBroken, 1, tank.DischargeValve)}, nil)
	if len(out) != 0 || c.lastT != 1 || !c.hasTank {
		t.Fatalf("%+v", out)
	}
}

type fenceAt struct{ lat int32 }

func (f fenceAt) StationAt(_ string, lat, _ int32) (int64, string, bool) {
	return 99, "x", lat == f.lat
}

// TestOpeningInsideAnotherStationIsNotOnTheWay: an opening inside another station's fence is left to
// the alarm engine; driving off with it still open is on the way.
func TestOpeningInsideAnotherStationIsNotOnTheWay(t *testing.T) {
	other := [2]int32{31_200_000, 121_200_000}
	e := NewEngine(Deps{Stations: fenceAt{lat: other[0]}}, EngineConfig{}, nil)
	c := e.carOf(7)
	_, w := newTrip(t, waybill.InTransit, 1)
	c.wb = []*active{w}
	in := input{t: 1000, located: true, lat: other[0], lon: other[1], tank: opened(tank.SealSealed, 1, tank.DischargeValve)}
	if out := e.step(c, &in, nil); len(out) != 0 {
		t.Fatalf("inside another station: %+v", out)
	}
	in = input{t: 2000, located: true, lat: roadAt[0], lon: roadAt[1], tank: opened(tank.SealSealed, 1, tank.DischargeValve)}
	if out := e.step(c, &in, nil); len(out) != 1 || out[0].move.Evidence != waybill.EvOpeningOnWay {
		t.Fatalf("driving off open: %+v", out)
	}
}
