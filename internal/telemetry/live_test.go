package telemetry_test

import (
	"context"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"reflect"
	"sync"
	"testing"
	"time"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/fleet"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/tank"
	"tankwatch/internal/telemetry"
)

// liveEnv is a demo instance with a live state over its store and a second server carrying the
// monitoring routes (the app does not mount them yet).
type liveEnv struct {
	*apptest.Env
	live  *telemetry.Live
	api   *apptest.Env
	cars  map[string]fleet.LiveCar // by plate
	paths map[string]string        // group name → path
}

func liveSetup(t *testing.T, e *apptest.Env) *liveEnv {
	t.Helper()
	ctx := context.Background()
	l := telemetry.NewLive(e.DB, e.App.Fleet, telemetry.LiveConfig{}, e.Clock.Now)
	if err := l.Load(ctx); err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	httpx.Mount(mux, e.App.Auth.Guard, l.Routes())
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	api := *e
	api.Srv = srv
	le := &liveEnv{Env: e, live: l, api: &api}
	le.reloadCars(t)
	return le
}

func (le *liveEnv) reloadCars(t *testing.T) {
	t.Helper()
	cars, err := le.App.Fleet.LiveCars(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	le.cars, le.paths = map[string]fleet.LiveCar{}, map[string]string{}
	for _, c := range cars {
		le.cars[c.Plate] = c
		le.paths[c.GroupName] = c.GroupPath
	}
}

// report is a position of car received at the clock's now, sent ago before (device time).
func (le *liveEnv) report(plate string, ago time.Duration, speedDeci uint16) telemetry.Report {
	c, ok := le.cars[plate]
	if !ok {
		panic("no demo car " + plate)
	}
	now := le.Clock.Now()
	return telemetry.Report{TerminalID: c.TerminalID, CarID: c.ID, Phone: c.TerminalPhone, Received: now.Add(-ago),
		Time: now.Add(-ago - time.Second), Lat: 31_230_416, Lon: 121_473_701, Speed: speedDeci, Direction: 90, Status: 3}
}

func liveCounts(n8, n4, n5, n7, n3 int) map[string]int {
	return map[string]int{"8": n8, "4": n4, "5": n5, "7": n7, "3": n3}
}

func liveExpectCounts(t *testing.T, l *telemetry.Live, path string, want map[string]int) {
	t.Helper()
	if got := l.Counts(path); !reflect.DeepEqual(got, want) {
		t.Fatalf("counts under %q: %v, want %v", path, got, want)
	}
}

func liveTankState(seal tank.Seal, fault bool) *tank.State {
	s := &tank.State{Compartments: 2, Seal: seal}
	for c := range 2 {
		for k := range tank.Kinds {
			s.Devices[c][k] = tank.DevInstalled | tank.DevLocked
		}
	}
	if fault {
		s.Devices[1][tank.BottomValve] |= tank.DevFault
	}
	return s
}

func TestLiveCountsByCode(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		le := liveSetup(t, e)
		l := le.live
		all := ""
		liveExpectCounts(t, l, all, liveCounts(12, 0, 0, 12, 0))

		// The demo cars have their own 20 minutes: clear it so the default 10 applies, except for
		// 冀R·80915, which waits 30 minutes before it counts as offline.
		for _, q := range []string{"offline_minutes = 0", "offline_minutes = CASE WHEN plate = '冀R·80915' THEN 30 ELSE 0 END"} {
			if _, err := e.DB.NewUpdate().TableExpr("cars").Set(q).Where("1 = 1").Exec(context.Background()); err != nil {
				t.Fatal(err)
			}
		}
		if err := l.Reload(context.Background()); err != nil {
			t.Fatal(err)
		}
		sos := le.report("冀F·D6032", 0, 0)
		sos.Alarm = 1
		tankOnly := le.report("沪A·6N337", 0, 0)
		tankOnly.TankOnly, tankOnly.Tank = true, liveTankState(tank.SealBroken, false)
		faulty := le.report("苏E·71C26", 0, 300)
		faulty.Tank = liveTankState(tank.SealSealed, true)
		sealed := le.report("浙B·3Q905", 0, 300)
		sealed.Tank = liveTankState(tank.SealSealed, false)
		l.Apply([]telemetry.Report{
			le.report("冀A·3K281", 0, 600), // moving
			le.report("冀B·52719", 0, 49),  // 4.9 km/h: resting
			sos,                           // resting, abnormal
			le.report("冀R·80915", 15*time.Minute, 0),   // its own 30 minutes: still online
			le.report("粤A·7M482", 11*time.Minute, 600), // offline after the default 10 minutes
			le.report("粤B·26L70", 0, 50),               // exactly 5 km/h: moving
			tankOnly,                                   // no position: offline, broken seal: abnormal
			faulty,                                     // moving, device fault: abnormal
			sealed,                                     // moving, nothing wrong
		})
		liveExpectCounts(t, l, all, liveCounts(12, 4, 3, 5, 3))
		liveExpectCounts(t, l, le.paths["华北分公司"], liveCounts(4, 1, 3, 0, 1))
		liveExpectCounts(t, l, le.paths["华东分公司"], liveCounts(4, 2, 0, 2, 2))
		liveExpectCounts(t, l, le.paths["上海车队"], liveCounts(1, 0, 0, 1, 0))
		liveExpectCounts(t, l, le.paths["华南分公司"], liveCounts(4, 1, 0, 3, 0))

		// Ten minutes after the reports they are exactly at the threshold (still online); a moment
		// later they are offline, except 冀R·80915 (15 + 10 < 30 minutes).
		e.Clock.Advance(10 * time.Minute)
		liveExpectCounts(t, l, all, liveCounts(12, 4, 3, 5, 3))
		e.Clock.Advance(time.Millisecond)
		liveExpectCounts(t, l, all, liveCounts(12, 0, 1, 11, 3))
		s, ok := l.Car(le.cars["冀R·80915"].ID)
		if !ok || !s.Online || s.Code != telemetry.LiveResting {
			t.Fatalf("冀R·80915: %+v", s)
		}
		e.Clock.Advance(10 * time.Minute)
		liveExpectCounts(t, l, all, liveCounts(12, 0, 0, 12, 3))
	})
}

func TestLiveNewestWinsAndTankOnly(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		le := liveSetup(t, e)
		l := le.live
		plate := "沪B·9F218"
		id := le.cars[plate].ID
		car := func() telemetry.CarState {
			t.Helper()
			s, ok := l.Car(id)
			if !ok {
				t.Fatal("car missing")
			}
			return s
		}

		cur := le.report(plate, 0, 700)
		cur.Tank = liveTankState(tank.SealSealed, false)
		cur.Levels = &tank.Levels{N: 1, Probes: [8]tank.Level{{Compartment: 1, LevelMM: 1500, VolumeL: 12000, TempDeci: 215}}}
		l.Apply([]telemetry.Report{cur})

		// A blind-area re-upload from an hour earlier, received now, changes nothing.
		blind := le.report(plate, 0, 0)
		blind.Time, blind.Blind, blind.Lat, blind.Alarm = cur.Time.Add(-time.Hour), true, 30_000_000, 1
		blind.Tank = liveTankState(tank.SealBroken, true)
		l.Apply([]telemetry.Report{blind})
		s := car()
		if s.Lat != cur.Lat || s.Speed != 700 || s.Alarm != 0 || s.Seal != tank.SealSealed || s.Abnormal || s.Code != telemetry.LiveMoving {
			t.Fatalf("older report replaced newer: %+v", s)
		}

		// A newer pass-through report changes the tank state and keeps the position and levels.
		e.Clock.Advance(time.Minute)
		pass := le.report(plate, 0, 0)
		pass.TankOnly, pass.Lat, pass.Lon = true, 0, 0
		pass.Tank = liveTankState(tank.SealBroken, false)
		l.Apply([]telemetry.Report{pass})
		s = car()
		if s.Lat != cur.Lat || s.Speed != 700 || !s.Time.Equal(cur.Time) || s.Seal != tank.SealBroken || !s.Abnormal ||
			len(s.Levels) != 1 || s.Levels[0].LevelMM != 1500 || !s.TankTime.Equal(pass.Time) {
			t.Fatalf("tank-only report: %+v", s)
		}

		// A newer report carrying only levels (or only a help request) keeps the lock state.
		e.Clock.Advance(time.Minute)
		lv := le.report(plate, 0, 0)
		lv.TankOnly = true
		lv.Levels = &tank.Levels{N: 1, Probes: [8]tank.Level{{Compartment: 1, LevelMM: 900, VolumeL: 7000, TempDeci: 200}}}
		help := le.report(plate, 0, 0)
		help.TankOnly, help.Time = true, help.Time.Add(time.Second)
		help.Help = &tank.Help{Type: tank.HelpUnlock, RequestID: 7}
		l.Apply([]telemetry.Report{lv, help})
		s = car()
		if s.Seal != tank.SealBroken || s.LockState != tank.LockString(pass.Tank) || s.Levels[0].LevelMM != 900 {
			t.Fatalf("levels-only report: %+v", s)
		}

		// Same device time from two terminals: the larger terminal id wins, whatever the order; the
		// same key again (a re-send) changes nothing.
		t1 := le.report(plate, 0, 100)
		t2 := t1
		t2.TerminalID, t2.Speed = t1.TerminalID+1000, 200
		l.Apply([]telemetry.Report{t2, t1})
		if s = car(); s.Speed != 200 || s.TerminalID != t2.TerminalID {
			t.Fatalf("tie: %+v", s)
		}
		again := t2
		again.Speed = 300
		l.Apply([]telemetry.Report{again})
		if s = car(); s.Speed != 200 {
			t.Fatalf("re-sent key replaced the first: %+v", s)
		}

		// A report of a device without a clock is placed at its received time.
		noClock := le.report(plate, 0, 0)
		e.Clock.Advance(time.Minute)
		noClock.Time, noClock.Received, noClock.Speed = time.Time{}, e.Clock.Now(), 10
		l.Apply([]telemetry.Report{noClock})
		if s = car(); s.Speed != 10 || !s.Time.Equal(noClock.Received) {
			t.Fatalf("no device time: %+v", s)
		}

		// Unbound terminals (car 0) are ignored; unknown cars do not appear in counts or lookups.
		l.Apply([]telemetry.Report{{TerminalID: 1, Received: e.Clock.Now()}, {TerminalID: 1, CarID: 999_999, Received: e.Clock.Now()}})
		if _, ok := l.Car(999_999); ok {
			t.Fatal("unknown car listed")
		}
		liveExpectCounts(t, l, "", liveCounts(12, 0, 1, 11, 1))
	})
}

// liveReports is a random history: per car several terminals, blind-area re-uploads, pass-through
// tank reports, levels and help only, devices without a clock, ties between terminals and re-sends.
func liveReports(le *liveEnv, rng *rand.Rand) [][]telemetry.Report {
	var batches [][]telemetry.Report
	now := le.Clock.Now()
	var batch []telemetry.Report
	for _, c := range le.cars {
		if rng.IntN(6) == 0 {
			continue // never reported
		}
		terminals := []int64{c.TerminalID, c.TerminalID + 5000}
		for i := range 6 + rng.IntN(10) {
			r := telemetry.Report{CarID: c.ID, TerminalID: terminals[rng.IntN(2)], Phone: c.TerminalPhone,
				Received: now.Add(-time.Duration(rng.IntN(40)) * time.Minute),
				Lat:      int32(30_000_000 + rng.IntN(1_000_000)), Lon: int32(120_000_000 + rng.IntN(1_000_000)),
				Speed: uint16(rng.IntN(900)), Direction: uint16(rng.IntN(360)), Status: uint32(rng.IntN(4)) << 8}
			// Distinct times per car, except deliberate ties between the two terminals.
			r.Time = now.Add(-time.Duration(i*97+rng.IntN(50)) * time.Second).Truncate(time.Millisecond)
			if rng.IntN(5) == 0 {
				r.Alarm = 1 << rng.IntN(32)
			}
			if rng.IntN(3) == 0 {
				r.Mileage, r.HasMileage = uint32(rng.IntN(1_000_000)), true
			}
			switch rng.IntN(6) {
			case 0:
				r.TankOnly, r.Lat, r.Lon, r.Speed = true, 0, 0, 0
				r.Tank = liveTankState(tank.Seal(rng.IntN(4)), rng.IntN(4) == 0)
			case 1:
				r.Tank = liveTankState(tank.Seal(rng.IntN(4)), rng.IntN(4) == 0)
			case 2:
				r.Levels = &tank.Levels{N: 2, Probes: [8]tank.Level{{Compartment: 1, LevelMM: uint16(rng.IntN(3000)), VolumeL: 9000, TempDeci: -12},
					{Compartment: 2, LevelMM: uint16(rng.IntN(3000)), VolumeL: 8000, TempDeci: 250}}}
			case 3:
				r.TankOnly, r.Help = true, &tank.Help{Type: tank.HelpLock, RequestID: 1}
			case 4:
				r.Blind = true
			}
			if rng.IntN(10) == 0 {
				// Placed at its received time; the odd milliseconds keep its key apart from the others.
				r.Time, r.Received = time.Time{}, r.Received.Add(-time.Duration(i+1)*time.Millisecond)
			}
			batch = append(batch, r)
			if rng.IntN(8) == 0 {
				tie := r
				tie.TerminalID = terminals[0] + terminals[1] - r.TerminalID
				tie.Speed = uint16(rng.IntN(900))
				batch = append(batch, tie)
			}
			if rng.IntN(8) == 0 {
				batch = append(batch, r) // re-sent, not acknowledged in time
			}
			if len(batch) > 20 {
				batches = append(batches, batch)
				batch = nil
			}
		}
	}
	return append(batches, batch)
}

func TestLiveRebuildEqualsApply(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		le := liveSetup(t, e)
		w := telemetry.NewWriter(e.DB, telemetry.WriterConfig{}, slog.New(slog.NewTextHandler(io.Discard, nil)))
		w.Subscribe(le.live.Apply)
		stopped := make(chan struct{})
		go func() { defer close(stopped); _ = w.Run(ctx) }()
		defer func() { cancel(); <-stopped }()

		var wg sync.WaitGroup
		for _, b := range liveReports(le, rand.New(rand.NewPCG(3, 8))) {
			wg.Add(1)
			if err := w.Submit(ctx, b, nil, func(err error) {
				if err != nil {
					t.Error(err)
				}
				wg.Done()
			}); err != nil {
				t.Fatal(err)
			}
		}
		wg.Wait()

		rebuilt := telemetry.NewLive(e.DB, e.App.Fleet, telemetry.LiveConfig{}, e.Clock.Now)
		if err := rebuilt.Load(ctx); err != nil {
			t.Fatal(err)
		}
		var located, tanks, levels int
		for plate, c := range le.cars {
			a, _ := le.live.Car(c.ID)
			b, ok := rebuilt.Car(c.ID)
			if !ok || !reflect.DeepEqual(a, b) {
				t.Fatalf("%s: applied\n%+v\nrebuilt\n%+v", plate, a, b)
			}
			if a.Located() {
				located++
			}
			if a.LockState != "" {
				tanks++
			}
			if len(a.Levels) > 0 {
				levels++
			}
		}
		if located == 0 || tanks == 0 || levels == 0 {
			t.Fatalf("history too thin to compare: %d located, %d with tank state, %d with levels", located, tanks, levels)
		}
		if got, want := rebuilt.Counts(""), le.live.Counts(""); !reflect.DeepEqual(got, want) {
			t.Fatalf("counts rebuilt %v, applied %v", got, want)
		}

		// A report applied before Load (the writer started first) survives the older store state.
		late := telemetry.NewLive(e.DB, e.App.Fleet, telemetry.LiveConfig{}, e.Clock.Now)
		e.Clock.Advance(time.Hour)
		newest := le.report("粤S·5H613", 0, 432)
		late.Apply([]telemetry.Report{newest})
		if err := late.Load(ctx); err != nil {
			t.Fatal(err)
		}
		if s, _ := late.Car(newest.CarID); s.Speed != 432 || !s.Online {
			t.Fatalf("Load lost a newer applied report: %+v", s)
		}
	})
}

func TestLiveReloadRegistry(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		le := liveSetup(t, e)
		l := le.live
		admin := e.Login("admin", "admin123")
		ctx := context.Background()
		north, east := le.paths["华北分公司"], le.paths["华东分公司"]

		id := e.MustOK("POST", "/base-info-app/carInfo/insert", admin, map[string]any{
			"groupId": le.cars["冀A·3K281"].GroupID, "plate": "冀C·12345", "compartments": 3}).ID()
		l.Apply([]telemetry.Report{{CarID: id, TerminalID: 77, Received: e.Clock.Now(), Time: e.Clock.Now(), Speed: 300}})
		liveExpectCounts(t, l, north, liveCounts(4, 0, 0, 4, 0)) // not in the registry copy yet
		if err := l.Reload(ctx); err != nil {
			t.Fatal(err)
		}
		liveExpectCounts(t, l, north, liveCounts(5, 1, 0, 4, 0)) // its report was kept meanwhile

		e.MustOK("POST", "/base-info-app/carInfo/move", admin, map[string]any{"ids": []int64{id}, "groupId": le.cars["沪A·6N337"].GroupID})
		if err := l.Reload(ctx); err != nil {
			t.Fatal(err)
		}
		liveExpectCounts(t, l, north, liveCounts(4, 0, 0, 4, 0))
		liveExpectCounts(t, l, east, liveCounts(5, 1, 0, 4, 0))
		if s, _ := l.Car(id); s.GroupPath != east || s.Plate != "冀C·12345" || s.Compartments != 3 {
			t.Fatalf("moved car: %+v", s)
		}

		e.MustOK("POST", "/base-info-app/carInfo/deleteByIds", admin, map[string]any{"ids": []int64{id}})
		if err := l.Reload(ctx); err != nil {
			t.Fatal(err)
		}
		liveExpectCounts(t, l, east, liveCounts(4, 0, 0, 4, 0))
		if _, ok := l.Car(id); ok {
			t.Fatal("deleted car still listed")
		}
	})
}

func TestLiveRunReloads(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		l := telemetry.NewLive(e.DB, e.App.Fleet, telemetry.LiveConfig{Reload: time.Millisecond}, e.Clock.Now)
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { defer close(done); l.Run(ctx) }()
		// Run has no hook to wait on: poll the observable result, bounded by the test's deadline.
		for l.Counts("")["8"] != 12 {
			time.Sleep(time.Millisecond)
		}
		cancel()
		<-done
	})
}

func TestLiveConcurrentReaders(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		le := liveSetup(t, e)
		l := le.live
		plates := []string{"冀A·3K281", "沪A·6N337", "粤A·7M482"}
		done := make(chan struct{})
		go func() {
			defer close(done)
			for i := range 200 {
				batch := make([]telemetry.Report, 0, len(plates))
				for _, p := range plates {
					r := le.report(p, 0, uint16(i))
					r.Time = r.Time.Add(time.Duration(i) * time.Millisecond)
					batch = append(batch, r)
				}
				l.Apply(batch)
			}
		}()
		ctx := context.Background()
		for reading := true; reading; {
			select {
			case <-done:
				reading = false
			default:
			}
			if n := l.Counts("")["8"]; n != 12 {
				t.Fatalf("%d cars while applying", n)
			}
			l.Car(le.cars[plates[0]].ID)
			if err := l.Reload(ctx); err != nil {
				t.Fatal(err)
			}
		}
		for _, p := range plates {
			if s, _ := l.Car(le.cars[p].ID); s.Speed != 199 {
				t.Fatalf("%s: speed %d after the last batch", p, s.Speed)
			}
		}
		liveExpectCounts(t, l, "", liveCounts(12, 3, 0, 9, 0))
	})
}
