package alarm

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"tankwatch/internal/fleet"
	"tankwatch/internal/tank"
	"tankwatch/internal/telemetry"
)

var t0 = time.Date(2026, 3, 1, 8, 0, 0, 0, time.UTC)

// in is one report of a sequence: seconds after t0 and what it carried.
type in struct {
	sec      int
	kmh      float64
	lat      int32 // 0: somewhere on the road (1)
	tank     *tank.State
	levels   []uint32
	alarm    uint32
	tankOnly bool
}

func (i in) report() telemetry.Report {
	at := t0.Add(time.Duration(i.sec) * time.Second)
	lat := i.lat
	if lat == 0 {
		lat = 1
	}
	r := telemetry.Report{CarID: 7, TerminalID: 3, Time: at, Received: at, Lat: lat, Lon: 1, Speed: uint16(i.kmh * 10),
		Alarm: i.alarm, Tank: i.tank, TankOnly: i.tankOnly}
	if i.levels != nil {
		l := &tank.Levels{N: len(i.levels)}
		for k, v := range i.levels {
			l.Probes[k] = tank.Level{Compartment: uint8(k + 1), VolumeL: v}
		}
		r.Levels = l
	}
	return r
}

// stations: a fence at lat 1000 (id 5, 油库) and one at lat 2000 (id 6, 加油站).
type fakeStations struct{}

func (fakeStations) StationAt(_ string, lat, _ int32) (int64, string, bool) {
	switch lat {
	case 1000:
		return 5, "油库", true
	case 2000:
		return 6, "加油站", true
	}
	return 0, "", false
}

type fakeUnlocks struct{ at []time.Time }

func (f fakeUnlocks) SucceededSince(_ context.Context, _ int64, kind string, since time.Time) (bool, error) {
	for _, t := range f.at {
		if kind == "unlock" && !t.Before(since) {
			return true, nil
		}
	}
	return false, nil
}

// tankWith builds a 2-compartment state: every device installed and locked, then the changes.
func tankWith(seal tank.Seal, change func(s *tank.State)) *tank.State {
	s := &tank.State{Compartments: 2, Seal: seal}
	for c := range 2 {
		for k := range tank.Kinds {
			s.Devices[c][k] = tank.DevInstalled | tank.DevLocked
		}
	}
	if change != nil {
		change(s)
	}
	return s
}

func openValve(c int) func(s *tank.State) {
	return func(s *tank.State) { s.Devices[c][tank.DischargeValve] = tank.DevInstalled | tank.DevOpen }
}

func unlock(c int) func(s *tank.State) {
	return func(s *tank.State) { s.Devices[c][tank.ManholeCover] = tank.DevInstalled }
}

func testSettings() *Settings {
	s := &Settings{SpeedLimit: 80, ClassSpeed: map[string]int{"危险品": 60}, ParkingMinutes: 120, OfflineMinutes: 30, LevelDropLitres: 50}
	s.index()
	return s
}

// run feeds the sequence and returns the decisions as "op code @sec detail".
func run(t *testing.T, car fleet.LiveCar, env *ruleEnv, seq []in) []string {
	t.Helper()
	st := newCarState()
	var out []string
	for _, i := range seq {
		r := i.report()
		for _, a := range step(context.Background(), &car, env, st, &r) {
			s := fmt.Sprintf("%s %s @%d", [...]string{"open", "close", "instant", "parkStart", "parkEnd", "suspect", "join"}[a.op], a.code,
				(a.at-t0.UnixMilli())/1000)
			if len(a.detail) > 0 {
				s += " " + strings.Join(a.detail, "|")
			}
			out = append(out, s)
		}
	}
	return out
}

func TestRules(t *testing.T) {
	car := fleet.LiveCar{ID: 7, GroupID: 2, GroupPath: "/1/2/", Plate: "京A12345"}
	hazmat := car
	hazmat.VehicleClass = "危险品"
	ownLimit := car
	ownLimit.SpeedLimit = 100
	sealed := func(f func(*tank.State)) *tank.State { return tankWith(tank.SealSealed, f) }
	cases := []struct {
		name    string
		car     fleet.LiveCar
		unlocks []time.Time
		seq     []in
		want    []string
	}{
		{name: "speeding shorter than 30 s is no alarm", seq: []in{{sec: 0, kmh: 70}, {sec: 10, kmh: 90}, {sec: 30, kmh: 95}, {sec: 40, kmh: 70}}},
		{name: "speeding episode opens after 30 s over the limit and closes when it ends",
			seq:  []in{{sec: 0, kmh: 85}, {sec: 20, kmh: 92}, {sec: 30, kmh: 88}, {sec: 60, kmh: 99}, {sec: 90, kmh: 79}},
			want: []string{"open speeding @0 80|92.0", "close speeding @90"}},
		{name: "exactly at the limit is not speeding", seq: []in{{sec: 0, kmh: 80}, {sec: 60, kmh: 80}}},
		{name: "vehicle class limit", car: hazmat,
			seq:  []in{{sec: 0, kmh: 65}, {sec: 40, kmh: 65}, {sec: 50, kmh: 50}},
			want: []string{"open speeding @0 60|65.0", "close speeding @50"}},
		{name: "the registry's own limit wins over the group's", car: ownLimit,
			seq: []in{{sec: 0, kmh: 95}, {sec: 60, kmh: 95}}},
		{name: "an older report (blind upload) is ignored",
			seq:  []in{{sec: 100, kmh: 90}, {sec: 140, kmh: 90}, {sec: 50, kmh: 10}, {sec: 150, kmh: 10}},
			want: []string{"open speeding @100 80|90.0", "close speeding @150"}},
		{name: "fence enter and exit; the first position sets the start",
			seq:  []in{{sec: 0, lat: 1000}, {sec: 10, lat: 5}, {sec: 20, lat: 2000}, {sec: 30, lat: 2000}, {sec: 40, lat: 1000}},
			want: []string{"instant fenceOut @10 油库", "instant fenceIn @20 加油站", "instant fenceOut @40 加油站", "instant fenceIn @40 油库"}},
		{name: "valve opened away from a station: abnormal unloading with a suspect, closed when the valve closes",
			seq: []in{{sec: 0, tank: sealed(nil)}, {sec: 10, tank: sealed(openValve(1))}, {sec: 20, tank: sealed(openValve(1))},
				{sec: 30, tank: sealed(nil)}},
			want: []string{"suspect abnormalUnload @10", "open abnormalUnload @10 2", "instant lockOpened @10 2", "close abnormalUnload @30"}},
		{name: "valve opened inside a station fence is unloading, not an alarm; a platform unlock explains the lock",
			unlocks: []time.Time{t0},
			seq:     []in{{sec: 0, lat: 2000, tank: sealed(nil)}, {sec: 60, lat: 2000, tank: sealed(openValve(0))}, {sec: 90, lat: 2000, tank: sealed(nil)}}},
		{name: "a platform unlock too long ago does not explain the lock",
			unlocks: []time.Time{t0.Add(-10 * time.Minute)},
			seq:     []in{{sec: 0, lat: 2000, tank: sealed(nil)}, {sec: 60, lat: 2000, tank: sealed(unlock(0))}},
			want:    []string{"instant lockOpened @60 1"}},
		{name: "tank-only report uses the last position", unlocks: []time.Time{t0},
			seq: []in{{sec: 0, lat: 2000, tank: sealed(nil)}, {sec: 10, lat: 2000, tankOnly: true, tank: sealed(openValve(0))}}},
		{name: "seal broken opens, resealing closes",
			seq: []in{{sec: 0, tank: tankWith(tank.SealSealed, nil)}, {sec: 10, tank: tankWith(tank.SealBroken, nil)},
				{sec: 20, tank: tankWith(tank.SealBroken, nil)}, {sec: 30, tank: tankWith(tank.SealSealed, nil)}},
			want: []string{"open sealBroken @10", "close sealBroken @30"}},
		{name: "overtime parking outside a station, with a parking period",
			seq: []in{{sec: 0, kmh: 40}, {sec: 60, kmh: 0.5}, {sec: 60 + 120*60, kmh: 0}, {sec: 61 + 120*60, kmh: 0},
				{sec: 62 + 120*60, kmh: 0}, {sec: 9000, kmh: 30}},
			want: []string{"open overtimeParking @60 120", "parkStart overtimeParking @60", "parkEnd overtimeParking @9000", "close overtimeParking @9000"}},
		{name: "a long stop in a station is no overtime parking",
			seq: []in{{sec: 0, lat: 1000, kmh: 0}, {sec: 3 * 3600, lat: 1000, kmh: 0}, {sec: 3*3600 + 10, lat: 1000, kmh: 20}}},
		{name: "a drain with a valve open outside fences: one alarm, joined by the litres lost",
			seq: concat(series(0, 300, 0, sealed(nil), func(int) []uint32 { return []uint32{5000, 5000} }),
				series(310, 600, 0, sealed(openValve(0)), func(s int) []uint32 { return []uint32{uint32(5000 - (s-300)*400/300), 5000} }),
				series(610, 1500, 0, sealed(nil), func(int) []uint32 { return []uint32{4600, 5000} })),
			want: []string{"suspect abnormalUnload @310", "open abnormalUnload @310 1", "instant lockOpened @310 1",
				"close abnormalUnload @610", "join abnormalUnload @300 1|400"}},
		{name: "a parked drain outside fences without any opening raises one alarm with the litres",
			seq: concat(series(0, 300, 0, sealed(nil), func(int) []uint32 { return []uint32{5000, 5000} }),
				series(310, 600, 0, nil, func(s int) []uint32 { return []uint32{uint32(5000 - (s-300)*300/300), 5000} }),
				series(610, 1500, 0, nil, func(int) []uint32 { return []uint32{4700, 5000} })),
			want: []string{"suspect abnormalUnload @310", "instant abnormalUnload @310 1|300"}},
		{name: "sloshing while driving raises nothing",
			seq: series(0, 7200, 70, sealed(nil), func(s int) []uint32 {
				return []uint32{uint32(8000 + 90*((s/10*7919)%5-2)/2), uint32(6000 - 60*((s/10*104729)%3-1))}
			})},
		{name: "a drain inside a station fence is unloading", unlocks: []time.Time{t0.Add(5 * time.Minute)},
			seq: concat(series(0, 300, 0, sealed(nil), func(int) []uint32 { return []uint32{5000, 5000} }, 2000),
				series(310, 900, 0, sealed(openValve(0)), func(s int) []uint32 { return []uint32{uint32(max(0, 5000-(s-300)*10)), 5000} }, 2000),
				series(910, 1500, 0, sealed(nil), func(int) []uint32 { return []uint32{0, 5000} }, 2000))},
		{name: "a fall smaller than the car's threshold is nothing",
			seq: concat(series(0, 300, 0, nil, func(int) []uint32 { return []uint32{5000, 5000} }),
				series(310, 1500, 0, nil, func(int) []uint32 { return []uint32{4970, 5000} }))},
		{name: "terminal alarm bits open and close with the flag",
			seq:  []in{{sec: 0}, {sec: 10, alarm: 1 | 1<<29}, {sec: 20, alarm: 1}, {sec: 30}},
			want: []string{"open t0 @10", "open t29 @10", "close t29 @20", "close t0 @30"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cr := car
			if c.car.ID != 0 {
				cr = c.car
			}
			env := &ruleEnv{set: testSettings(), source: ControlGroup, speedingFor: 30 * time.Second, unlockFor: 5 * time.Minute,
				stations: fakeStations{}, unlocks: fakeUnlocks{c.unlocks}}
			got := run(t, cr, env, c.seq)
			if !reflect.DeepEqual(got, c.want) && (len(got) > 0 || len(c.want) > 0) {
				t.Errorf("got  %q\nwant %q", got, c.want)
			}
		})
	}
}

// series is one report every 10 s from sec a to b at kmh with tank state st (on the first report
// only: later ones carry no state unless it changes) and the levels lv(sec); lat optional.
func series(a, b int, kmh float64, st *tank.State, lv func(sec int) []uint32, lat ...int32) []in {
	var out []in
	for s := a; s <= b; s += 10 {
		i := in{sec: s, kmh: kmh, levels: lv(s), tank: st}
		if len(lat) > 0 {
			i.lat = lat[0]
		}
		out = append(out, i)
	}
	return out
}

func concat(parts ...[]in) []in {
	var out []in
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

func TestOfflineCheck(t *testing.T) {
	car := fleet.LiveCar{ID: 7, GroupPath: "/1/"}
	env := &ruleEnv{set: testSettings(), source: ControlGroup}
	st := newCarState()
	last := t0.UnixMilli()
	if acts := offlineCheck(&car, env, st, last, last+30*60_000); len(acts) != 0 {
		t.Fatalf("offline at exactly the threshold: %v", acts)
	}
	acts := offlineCheck(&car, env, st, last, last+30*60_000+1)
	if len(acts) != 1 || acts[0].op != opOpen || acts[0].at != last {
		t.Fatalf("offline after the threshold: %+v", acts)
	}
	if acts := offlineCheck(&car, env, st, last, last+40*60_000); len(acts) != 0 {
		t.Fatalf("a second offline alarm for one silence: %v", acts)
	}
	// the next report closes it at its received time
	r := in{sec: 3600}.report()
	got := step(context.Background(), &car, env, st, &r)
	if len(got) == 0 || got[0].op != opClose || got[0].code != CodeOffline || got[0].at != r.Received.UnixMilli() {
		t.Fatalf("report after offline: %+v", got)
	}
	// the car's own offline minutes (registry) win over the group's
	car.OfflineMinutes = 90
	st = newCarState()
	if acts := offlineCheck(&car, env, st, last, last+60*60_000); len(acts) != 0 {
		t.Fatalf("car threshold 90 min ignored: %v", acts)
	}
}

func TestResolve(t *testing.T) {
	rows := []controlRow{
		{Kind: ControlGroup, TargetID: 1, GroupPath: "/1/", Watched: "speeding", SpeedLimit: 90},
		{Kind: ControlGroup, TargetID: 3, GroupPath: "/1/2/3/", Watched: "offline", SpeedLimit: 70},
		{Kind: ControlCar, TargetID: 42, GroupPath: "/1/2/3/", Watched: "", SpeedLimit: 50},
	}
	cs := newControlSet(rows)
	def := &Settings{SpeedLimit: 80}
	for _, c := range []struct {
		car   int64
		path  string
		speed int
		src   string
	}{
		{42, "/1/2/3/", 50, ControlCar},
		{43, "/1/2/3/4/", 70, ControlGroup},
		{43, "/1/2/", 90, ControlGroup},
		{43, "/9/", 80, ""},
	} {
		s, src, _ := cs.resolve(c.car, c.path, def)
		if s.SpeedLimit != c.speed || src != c.src {
			t.Errorf("car %d in %s: speed %d from %q, want %d from %q", c.car, c.path, s.SpeedLimit, src, c.speed, c.src)
		}
	}
	if s, _, _ := cs.resolve(42, "/1/2/3/", def); s.Watches("offline") || len(s.Watched) != 0 {
		t.Errorf("a car watching nothing watches %v", s.Watched)
	}
}
