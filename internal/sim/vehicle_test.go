package sim

import (
	"bytes"
	"math"
	"testing"
	"time"

	"tankwatch/internal/jt808"
	"tankwatch/internal/tank"
)

// testEpoch is 04:00 in China: vehicles start the day resting.
var testEpoch = time.Date(2026, 3, 2, 4, 0, 0, 0, jt808.CST)

type decoded struct {
	loc jt808.Location
	ext tank.Extract
}

func decodeBody(t *testing.T, body []byte) decoded {
	t.Helper()
	var d decoded
	if err := d.loc.DecodeBody(body, jt808.V2013); err != nil {
		t.Fatalf("report does not decode: %v", err)
	}
	ext, err := tank.FromItems(d.loc.NItems, func(i int) (byte, []byte) { return d.loc.Items[i].ID, d.loc.Items[i].Value })
	if err != nil {
		t.Fatalf("tank items do not decode: %v", err)
	}
	d.ext = ext
	return d
}

func (d decoded) point() point { return point{d.loc.LatDeg(), d.loc.LonDeg()} }

func nearPlace(p point, within float64) bool {
	deg := within / mPerDegLat * 1.5
	for _, pl := range DemoPlaces {
		if math.Abs(pl.Lat-p.lat) < deg && math.Abs(pl.Lon-p.lon) < 2*deg && distance(p, pl.point()) < within {
			return true
		}
	}
	return false
}

// TestVehicleDays runs the demo vehicles for three simulated days, well behaved and misbehaving:
// every report decodes with its tank items, stays in the region, moves no further than its speed
// allows, and shows the day's work and the incidents.
func TestVehicleDays(t *testing.T) {
	for _, mis := range []float64{0, 1, 50} {
		var incidents [nIncidents]int
		var seen struct{ speeding, broken, valveAway, longPark, help, offline, unloads, loads int }
		for idx := range 12 {
			v := newVehicle(idx, 7, testEpoch, 10*time.Second, mis, 0)
			box, _ := RegionBox(v.region)
			var prev *decoded
			var stoppedSince time.Time
			for v.now.Before(testEpoch.Add(72 * time.Hour)) {
				s := v.step()
				for k := range nIncidents {
					if s.incidents&(1<<k) != 0 {
						incidents[k]++
					}
				}
				if !s.online && v.ph != restPhase {
					seen.offline++
				}
				if s.body == nil {
					prev = nil
					continue
				}
				d := decodeBody(t, s.body)
				if !box.Contains(d.loc.LatDeg(), d.loc.LonDeg()) {
					t.Fatalf("vehicle %d (%s) at %v outside its region", idx, v.region, d.point())
				}
				if d.ext.Tank == nil || d.ext.Tank.Compartments != 3 || d.ext.Levels == nil || d.ext.Levels.N != 3 {
					t.Fatalf("vehicle %d: tank items %+v", idx, d.ext)
				}
				locked := true
				total := 0.0
				for c := range 3 {
					for k := range tank.Kinds {
						locked = locked && d.ext.Tank.Devices[c][k]&tank.DevLocked != 0
					}
					lv := d.ext.Levels.Probes[c]
					total += float64(lv.VolumeL)
					if lv.VolumeL > CompartmentLitres || math.Abs(float64(lv.LevelMM)-float64(lv.VolumeL)/CompartmentLitres*TankHeightMM) > 1 {
						t.Fatalf("vehicle %d: level %+v does not follow the volume", idx, lv)
					}
				}
				if d.loc.DoorLocked() != locked {
					t.Fatalf("vehicle %d: door-locked bit %v with devices locked %v", idx, d.loc.DoorLocked(), locked)
				}
				// the load bit follows the true volume; the probes read it through sloshing and their
				// own (linear) calibration
				if want := v.loaded() >= 0.85*3*CompartmentLitres; (d.loc.Load() == jt808.LoadFull) != want {
					t.Fatalf("vehicle %d: load state %d with %.0f L", idx, d.loc.Load(), total)
				}
				if (d.loc.Alarm&2 != 0) != (d.loc.Speed > 800) {
					t.Fatalf("vehicle %d: overspeed bit %v at %.1f km/h", idx, d.loc.Alarm&2 != 0, d.loc.SpeedKmh())
				}
				if prev != nil {
					dt := d.loc.Time.Sub(prev.loc.Time).Seconds()
					if got, max := distance(prev.point(), d.point()), d.loc.SpeedKmh()/3.6*(dt+1)+0.5; got > max {
						t.Fatalf("vehicle %d moved %.1f m in %.0f s at %.1f km/h", idx, got, dt, d.loc.SpeedKmh())
					}
				}
				if d.loc.Speed > 800 {
					seen.speeding++
				}
				if d.ext.Tank.Seal == tank.SealBroken {
					seen.broken++
				}
				if d.ext.Help != nil {
					seen.help++
				}
				open := false
				for c := range 3 {
					open = open || d.ext.Tank.Devices[c][tank.DischargeValve]&tank.DevOpen != 0
				}
				far := d.loc.Speed == 0 && !nearPlace(d.point(), 2000)
				if open && far && d.loc.Speed == 0 {
					seen.valveAway++
				}
				if d.loc.Speed == 0 && far && !d.loc.ACC() {
					if prev == nil || prev.loc.Speed != 0 || stoppedSince.IsZero() {
						stoppedSince = d.loc.Time
					}
					if d.loc.Time.Sub(stoppedSince) >= 2*time.Hour {
						seen.longPark++
						stoppedSince = time.Time{}
					}
				} else {
					stoppedSince = time.Time{}
				}
				if prev != nil && prev.loc.Speed > 0 && d.loc.Speed == 0 && open && !far {
					seen.unloads++
				}
				if prev != nil && prev.ext.Tank.Seal != tank.SealSealed && d.ext.Tank.Seal == tank.SealSealed && total > 20000 {
					seen.loads++
				}
				prev = &d
			}
		}
		t.Logf("misbehave %v: incidents %v, seen %+v", mis, incidents, seen)
		if seen.loads < 12 || seen.unloads < 12 {
			t.Errorf("misbehave %v: %d loads and %d unloads in three days of 12 vehicles", mis, seen.loads, seen.unloads)
		}
		if mis == 0 {
			if incidents != [nIncidents]int{} || seen.speeding+seen.broken+seen.help+seen.valveAway+seen.longPark+seen.offline > 0 {
				t.Errorf("a perfectly behaved fleet misbehaved: %v %+v", incidents, seen)
			}
			continue
		}
		if mis == 50 {
			for k := range nIncidents {
				if incidents[k] == 0 && k != IncidentMalformed {
					t.Errorf("misbehave 50: no %s in three days", k)
				}
			}
			if seen.speeding == 0 || seen.broken == 0 || seen.help == 0 || seen.valveAway == 0 || seen.longPark == 0 || seen.offline == 0 {
				t.Errorf("misbehave 50: incidents not visible in the reports: %+v", seen)
			}
		}
	}
}

func TestVehicleDeterministic(t *testing.T) {
	run := func(seed int64) [][]byte {
		v := newVehicle(5, seed, testEpoch.Add(5*time.Hour), 10*time.Second, 5, 0)
		var out [][]byte
		for len(out) < 3000 {
			if s := v.step(); s.body != nil {
				out = append(out, s.body)
			}
		}
		return out
	}
	a, b, c := run(42), run(42), run(43)
	for i := range a {
		if !bytes.Equal(a[i], b[i]) {
			t.Fatalf("report %d differs with the same seed", i)
		}
	}
	same := 0
	for i := range a {
		if bytes.Equal(a[i], c[i]) {
			same++
		}
	}
	if same > len(a)/10 {
		t.Errorf("%d of %d reports equal with another seed", same, len(a))
	}
}

func TestApplyLock(t *testing.T) {
	v := newVehicle(0, 1, testEpoch.Add(6*time.Hour), 10*time.Second, 0, 0)
	v.seal = tank.SealSealed
	v.applyLock(tank.HelpUnlock, 0b010, v.now)
	for c := range 3 {
		if got := v.dev[c][tank.ManholeCover]&tank.DevLocked != 0; got != (c != 1) {
			t.Errorf("compartment %d locked %v after unlocking compartment 2", c+1, got)
		}
	}
	if v.seal != tank.SealUnsealed || v.allLocked() {
		t.Errorf("seal %d, all locked %v after an unlock", v.seal, v.allLocked())
	}
	v.applyLock(tank.HelpLock, 0, v.now)
	if !v.allLocked() {
		t.Error("not all locked after locking all")
	}
}

// TestVehicleHelpEvery: with HelpEvery a driver asks at once, then every period, unlock and lock in
// turn with a new request ID each time, resting or not; a perfectly behaved fleet otherwise.
func TestVehicleHelpEvery(t *testing.T) {
	for idx := range 4 {
		v := newVehicle(idx, 7, testEpoch, 10*time.Second, 0, 0)
		v.helpEvery = 3 * time.Hour
		var got []tank.Help
		var at []time.Time
		for v.now.Before(testEpoch.Add(24 * time.Hour)) {
			s := v.step()
			if s.body == nil {
				continue
			}
			if d := decodeBody(t, s.body); d.ext.Help != nil {
				got, at = append(got, *d.ext.Help), append(at, s.at)
			}
		}
		if len(got) < 8 || len(got) > 9 {
			t.Fatalf("vehicle %d: %d help requests in a day, want 8 (every 3 h)", idx, len(got))
		}
		for i, h := range got {
			want := tank.HelpUnlock
			if i%2 == 1 {
				want = tank.HelpLock
			}
			if h.Type != want || h.RequestID != uint16(i+1) {
				t.Errorf("vehicle %d request %d: %+v", idx, i, h)
			}
			if i > 0 && at[i].Sub(at[i-1]) < 3*time.Hour {
				t.Errorf("vehicle %d: requests %d and %d only %v apart", idx, i-1, i, at[i].Sub(at[i-1]))
			}
		}
	}
}

// With DayAtStart the fleet is out working whatever the hour it starts; without, nobody drives at
// 03:30.
func TestDayAtStartDrivesAtAnyHour(t *testing.T) {
	day := time.Date(2026, 3, 2, 0, 0, 0, 0, jt808.CST)
	for h := range 24 {
		at := day.Add(time.Duration(h)*time.Hour + 30*time.Minute)
		working, workingByClock := 0, 0
		for i := range 30 {
			if newVehicle(i, 7, at, 10*time.Second, 0, workShift(true, at)).ph != restPhase {
				working++
			}
			if newVehicle(i, 7, at, 10*time.Second, 0, workShift(false, at)).ph != restPhase {
				workingByClock++
			}
		}
		if working != 30 {
			t.Errorf("%02d:30: %d of 30 vehicles working with DayAtStart", h, working)
		}
		if h == 3 && workingByClock != 0 {
			t.Errorf("03:30 by the clock: %d working", workingByClock)
		}
	}
}
