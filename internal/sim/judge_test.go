package sim

import (
	"fmt"
	"math"
	"os"
	"strconv"
	"testing"
	"time"

	"tankwatch/internal/tank"
	"tankwatch/internal/tank/judge"
)

// judgeRun is what the level detector made of some simulated vehicle-days.
type judgeRun struct {
	days      int
	vehicles  int
	km        float64
	trips     int // departures from the home depot with a load
	events    map[string]int
	injected  int // thefts and valve drains started
	detected  int // of them, followed within an hour by a theft / drop event of the same vehicle
	falseHits []string
	missed    []string // injected drains not detected
}

// runJudge drives vehicles first..first+n-1 for days through the detector (the compartments with the
// demo table, every station and depot fenced as the demo seed fences them).
func runJudge(t *testing.T, seed int64, first, n, days int, misbehave float64, cfg judge.Config) judgeRun {
	t.Helper()
	comps := make([]tank.Compartment, Compartments)
	for c := range comps {
		comps[c] = tank.Compartment{No: c + 1, Product: tank.ProductDiesel0, CapacityL: CompartmentLitres, HeightMM: TankHeightMM, Strap: demoStrap}
	}
	out := judgeRun{days: days, vehicles: n, events: map[string]int{}}
	for idx := first; idx < first+n; idx++ {
		v := newVehicle(idx, seed, testEpoch, 10*time.Second, misbehave, 0)
		d := judge.New(cfg)
		startKm := v.mileage
		var pending []time.Time // injected drains not yet detected
		wasDepot := true
		var blind [][]byte
		feed := func(body []byte) {
			dec := decodeBody(t, body)
			p := dec.point()
			station, name := fenceOf(p)
			if atDepot := station != 0 && DemoPlaces[station-1].Kind == KindDepot; wasDepot && !atDepot && v.loaded() > 1000 {
				out.trips++
				wasDepot = false
			} else if atDepot {
				wasDepot = true
			}
			in := judge.Input{T: dec.loc.Time.UnixMilli(), Speed: dec.loc.Speed, Located: true, Lat: int32(math.Round(p.lat * 1e6)),
				Lon: int32(math.Round(p.lon * 1e6)), StationID: int64(station), StationName: name, State: dec.ext.Tank,
				Readings: tank.Convert(comps, dec.ext.Levels)}
			for _, e := range d.Step(&in) {
				if e.End {
					continue
				}
				out.events[e.Kind]++
				if !judge.Suspicious(e.Kind) {
					continue
				}
				// one event may cover two drains of the same stop (a valve, then a hose)
				matched := false
				rest := pending[:0]
				for _, at := range pending {
					if !at.After(time.UnixMilli(e.EndAt)) && time.UnixMilli(e.StartAt).Sub(at) < time.Hour {
						out.detected++
						matched = true
					} else {
						rest = append(rest, at)
					}
				}
				pending = rest
				if !matched {
					out.falseHits = append(out.falseHits, fmt.Sprintf("vehicle %d %s at %s: %.0f → %.0f L (station %d)", idx, e.Kind,
						time.UnixMilli(e.StartAt).In(time.UTC).Format(time.DateTime), e.BeforeL, e.AfterL, e.StationID))
				}
			}
		}
		for v.now.Before(testEpoch.Add(time.Duration(days) * 24 * time.Hour)) {
			s := v.step()
			if s.incidents&(1<<IncidentTheft|1<<IncidentValve) != 0 {
				out.injected++
				pending = append(pending, s.at)
			}
			if s.body == nil {
				continue
			}
			if !s.online { // kept by the terminal and uploaded as a blind-area batch once back
				blind = append(blind, s.body)
				continue
			}
			for _, body := range append(blind, s.body) {
				feed(body)
			}
			blind = blind[:0]
		}
		out.km += v.mileage - startKm
		for _, at := range pending {
			out.missed = append(out.missed, fmt.Sprintf("vehicle %d drain at %s", idx, at.In(time.UTC).Format(time.DateTime)))
		}
	}
	return out
}

// fenceOf is the demo place whose fence holds p (index+1; 0 none): depots 500 m, stations 150 m, as
// internal/station's demo seed fences them.
func fenceOf(p point) (int, string) {
	for i, pl := range DemoPlaces {
		r := 150.0
		if pl.Kind == KindDepot {
			r = 500
		}
		if math.Abs(pl.Lat-p.lat) < 0.01 && math.Abs(pl.Lon-p.lon) < 0.01 && distance(p, pl.point()) <= r {
			return i + 1, pl.Name
		}
	}
	return 0, ""
}

// TestJudgeHonestAndTheft: on a fixed seed the honest fleet's probe noise and sloshing raise no
// abnormal-unloading event while every load and unload is seen, and injected thefts are found.
func TestJudgeHonestAndTheft(t *testing.T) {
	t.Parallel()
	honest := runJudge(t, 11, 0, 6, 2, 0, judge.Config{})
	t.Logf("honest: %d trips, %.0f km, events %v", honest.trips, honest.km, honest.events)
	if len(honest.falseHits) > 0 {
		t.Errorf("false alarms on honest trips: %v", honest.falseHits)
	}
	if honest.events[judge.KindLoad] < honest.trips || honest.events[judge.KindUnload] < honest.trips || honest.trips < 6 {
		t.Errorf("loads %d, unloads %d for %d trips", honest.events[judge.KindLoad], honest.events[judge.KindUnload], honest.trips)
	}
	for _, k := range []string{judge.KindSensorJump, judge.KindSensorStuck, judge.KindSensorMissing} {
		if honest.events[k] > 0 {
			t.Errorf("healthy probes reported %s %d times", k, honest.events[k])
		}
	}
	thief := runJudge(t, 11, 0, 6, 2, 40, judge.Config{})
	t.Logf("misbehaving: %d drains injected, %d detected, events %v, unmatched %v", thief.injected, thief.detected, thief.events,
		thief.falseHits[:min(len(thief.falseHits), 10)])
	if thief.injected == 0 || thief.detected != thief.injected {
		t.Errorf("detected %d of %d injected drains; missed %v", thief.detected, thief.injected, thief.missed)
	}
}

// TestJudgeFalseAlarmMeasure measures the false-alarm rate of the level detector on many honest
// vehicle-days and its detection rate of injected drains (docs/PERFORMANCE.md):
//
//	TANKWATCH_JUDGE_MEASURE=1 go test -run TestJudgeFalseAlarmMeasure -v -timeout 30m ./internal/sim/
//
// TANKWATCH_JUDGE_VEHICLES and TANKWATCH_JUDGE_DAYS change the size (default 60 vehicles × 10 days);
// TANKWATCH_JUDGE_DROP the threshold (default 50 L).
func TestJudgeFalseAlarmMeasure(t *testing.T) {
	if os.Getenv("TANKWATCH_JUDGE_MEASURE") == "" {
		t.Skip("set TANKWATCH_JUDGE_MEASURE=1 to measure")
	}
	env := func(k string, def int) int {
		if n, err := strconv.Atoi(os.Getenv(k)); err == nil && n > 0 {
			return n
		}
		return def
	}
	vehicles, days := env("TANKWATCH_JUDGE_VEHICLES", 60), env("TANKWATCH_JUDGE_DAYS", 10)
	cfg := judge.Config{DropL: float64(env("TANKWATCH_JUDGE_DROP", 50))}
	start := time.Now()
	h := runJudge(t, 2026, 0, vehicles, days, 0, cfg)
	falses := len(h.falseHits)
	t.Logf("honest: %d vehicles × %d days, %d trips, %.0f km, events %v (%.1f s)", vehicles, days, h.trips, h.km, h.events, time.Since(start).Seconds())
	t.Logf("false abnormal-unloading events: %d = %.2f per 1,000 trips = %.2f per 10,000 km", falses,
		float64(falses)/float64(max(h.trips, 1))*1000, float64(falses)/math.Max(h.km, 1)*10000)
	for _, f := range h.falseHits[:min(len(h.falseHits), 20)] {
		t.Log("  ", f)
	}
	m := runJudge(t, 2026, 0, vehicles, days, 10, cfg)
	t.Logf("misbehave 10: %d drains injected (theft 200–500 L, valve 40 L/min for 8–15 min), %d detected = %.1f %%; other suspicious events %d",
		m.injected, m.detected, float64(m.detected)/float64(max(m.injected, 1))*100, len(m.falseHits))
	for _, f := range m.falseHits[:min(len(m.falseHits), 20)] {
		t.Log("  ", f)
	}
}
