package sim

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"tankwatch/internal/fleet"
	"tankwatch/internal/jt808"
	"tankwatch/internal/tank"
)

// workEpoch is 10:00 in China: every vehicle is at work.
var workEpoch = time.Date(2026, 3, 2, 10, 0, 0, 0, jt808.CST)

func TestRegisterAuthAndReports(t *testing.T) {
	g := newFakeGateway(t)
	startFleet(t, Config{Gateway: g.addr(), Vehicles: 4, Seed: 3, Speedup: 100, Epoch: workEpoch})
	plates := fleet.DemoFleet(4)
	type seen struct {
		reg, auth bool
		reports   int
	}
	got := map[string]*seen{}
	want := map[string]int{}
	for i := range 4 {
		want[phoneKey(fleet.DemoTerminalPhone(i))] = i
	}
	done := func() bool {
		for p := range want {
			if s := got[p]; s == nil || s.reports < 3 {
				return false
			}
		}
		return true
	}
	for !done() {
		e := g.next(func(gwEvent) bool { return true })
		i, ok := want[e.phone]
		if !ok {
			t.Fatalf("unexpected terminal %q", e.phone)
		}
		if e.bad != nil {
			t.Fatalf("%s sent a bad frame: %v", e.phone, e.bad)
		}
		s := got[e.phone]
		if s == nil {
			s = &seen{}
			got[e.phone] = s
		}
		proto := fleet.DemoProtocol(i)
		if wantV := map[int]jt808.Version{2019: jt808.V2019, 2013: jt808.V2013, 2011: jt808.V2013}[proto]; e.h.Version != wantV {
			t.Fatalf("%s (JT/T 808-%d) sent a %v header", e.phone, proto, e.h.Version)
		}
		switch {
		case e.reg != nil:
			wantLayout := map[int]jt808.Version{2019: jt808.V2019, 2013: jt808.V2013, 2011: jt808.V2011}[proto]
			if e.reg.Version != wantLayout || e.reg.Plate != plates[i].Plate || e.reg.PlateColor != jt808.PlateYellow ||
				e.reg.TerminalID != fleet.DemoTerminalID(i) { // what `serve --demo` seeds as the device ID
				t.Fatalf("%s registered as %+v, want layout %v plate %s", e.phone, e.reg, wantLayout, plates[i].Plate)
			}
			s.reg = true
		case e.auth != nil:
			if !s.reg || e.auth.AuthCode != "AC"+e.phone || (proto == 2019) != (e.auth.IMEI != "") {
				t.Fatalf("%s authenticated with %+v (registered %v)", e.phone, e.auth, s.reg)
			}
			s.auth = true
		case e.locs != nil:
			if !s.auth {
				t.Fatalf("%s reported before authenticating", e.phone)
			}
			box, _ := RegionBox(regionOf(i))
			for _, body := range e.bodies {
				d := decodeBody(t, body)
				if !box.Contains(d.loc.LatDeg(), d.loc.LonDeg()) || !d.loc.Positioned() {
					t.Fatalf("%s at %.6f,%.6f, outside %s", e.phone, d.loc.LatDeg(), d.loc.LonDeg(), regionOf(i))
				}
				if d.ext.Tank == nil || d.ext.Levels == nil || d.ext.Tank.Compartments != 3 {
					t.Fatalf("%s: tank items %+v", e.phone, d.ext)
				}
				if _, ok := d.loc.Mileage(); !ok {
					t.Fatalf("%s: no mileage item", e.phone)
				}
				s.reports++
			}
		}
	}
}

func TestResendAndBlindUpload(t *testing.T) {
	g := newFakeGateway(t)
	var acking atomic.Bool // nothing is acknowledged until the batch after the reconnect
	g.ack = func(_ string, msg uint16) bool { return acking.Load() || msg == jt808.MsgBatch }
	acks := make(chan time.Time, 1000)
	f := startFleet(t, Config{Gateway: g.addr(), Vehicles: 1, Seed: 9, Speedup: 50, Epoch: workEpoch,
		AckTimeout: 20 * time.Millisecond, Backoff: 10 * time.Millisecond,
		OnAck: func(_ string, at time.Time) { acks <- at }})
	first := g.next(func(e gwEvent) bool { return e.h.MsgID == jt808.MsgLocation })
	again := g.next(func(e gwEvent) bool {
		return e.h.MsgID == jt808.MsgLocation && bytes.Equal(e.bodies[0], first.bodies[0])
	})
	if again.h.Serial != first.h.Serial {
		t.Errorf("resent with serial %d, first sent as %d", again.h.Serial, first.h.Serial)
	}
	g.drop(first.phone)
	e := g.next(func(e gwEvent) bool { return e.reg != nil || e.auth != nil })
	if e.reg != nil {
		t.Fatal("the terminal registered again after a reconnect instead of authenticating with its code")
	}
	batch := g.next(func(e gwEvent) bool { return e.h.MsgID == jt808.MsgBatch })
	if !batch.blind || !slices.ContainsFunc(batch.bodies, func(b []byte) bool { return bytes.Equal(b, first.bodies[0]) }) {
		t.Fatalf("after the reconnect: batch blind=%v with %d items, want the unacknowledged report in a blind-area batch", batch.blind, len(batch.bodies))
	}
	for i := 1; i < len(batch.locs); i++ {
		if batch.locs[i].Time.Before(batch.locs[i-1].Time) {
			t.Fatal("blind-area items out of order")
		}
	}
	deadline := time.After(20 * time.Second)
	for acked := false; !acked; {
		select {
		case at := <-acks:
			acked = at.Equal(first.locs[0].Time)
		case <-deadline:
			t.Fatal("the first report was never acknowledged")
		}
	}
	if s := f.Stats(); s.Resent == 0 || s.Blind == 0 || s.Acked == 0 {
		t.Errorf("stats %v", s)
	}
}

func TestCommands(t *testing.T) {
	g := newFakeGateway(t)
	f := startFleet(t, Config{Gateway: g.addr(), Vehicles: 2, Seed: 5, Speedup: 1, Epoch: workEpoch})
	phone := phoneKey(fleet.DemoTerminalPhone(1)) // JT/T 808-2013
	g.next(func(e gwEvent) bool { return e.phone == phone && e.auth != nil })
	from := func(e gwEvent) bool { return e.phone == phone }
	replyTo := func(serial, id uint16) *jt808.GeneralReply {
		t.Helper()
		e := g.next(func(e gwEvent) bool { return from(e) && e.reply != nil && e.reply.Serial == serial })
		if e.reply.ReplyID != id {
			t.Fatalf("reply to 0x%04x for serial %d", e.reply.ReplyID, serial)
		}
		return e.reply
	}
	lockCmd := func(action byte) jt808.Message {
		c := tank.LockCommand{Action: action, RequestID: 7}
		return &jt808.PassThrough{Down: true, Type: tank.PassTank, Data: c.AppendItem(nil)}
	}
	for _, action := range []byte{tank.HelpUnlock, tank.HelpLock} {
		s := g.send(phone, jt808.V2013, lockCmd(action))
		if r := replyTo(s, jt808.MsgDownPassThrough); r.Result != jt808.ResultOK {
			t.Fatalf("lock command %d answered %d", action, r.Result)
		}
		rep := g.next(func(e gwEvent) bool { return from(e) && e.h.MsgID == jt808.MsgLocation })
		d := decodeBody(t, rep.bodies[0])
		for c := range 3 {
			for k := range tank.Kinds {
				if locked := d.ext.Tank.Devices[c][k]&tank.DevLocked != 0; locked != (action == tank.HelpLock) {
					t.Fatalf("after action %d compartment %d device %d locked=%v", action, c+1, k, locked)
				}
			}
		}
		if d.loc.DoorLocked() != (action == tank.HelpLock) || (action == tank.HelpUnlock && d.ext.Tank.Seal == tank.SealSealed) {
			t.Fatalf("after action %d: door-locked bit %v, seal %d", action, d.loc.DoorLocked(), d.ext.Tank.Seal)
		}
	}
	s := g.send(phone, jt808.V2013, &jt808.VehicleControl{Flag: jt808.ControlLockDoors})
	ctl := g.next(func(e gwEvent) bool { return from(e) && e.ctl != nil })
	if ctl.ctl.Serial != s || !ctl.ctl.Location.DoorLocked() || ctl.ctl.Location.Lat == 0 {
		t.Fatalf("0x0500 %+v for 0x8500 serial %d", ctl.ctl, s)
	}
	for _, tc := range []struct {
		m    jt808.Message
		want byte
	}{
		{&jt808.PassThrough{Down: true, Type: jt808.PassSerial1, Data: []byte{1}}, jt808.ResultNotSupported},
		{&jt808.PassThrough{Down: true, Type: tank.PassTank, Data: []byte{tank.ItemLockCommand, 4, 1}}, jt808.ResultBadMessage},
		{&jt808.SetParams{Params: []jt808.Param{jt808.Uint32Param(jt808.ParamReportInterval, 30)}}, jt808.ResultOK},
		{&jt808.LiveStart{ServerIP: "10.0.0.1", TCPPort: 7000, Channel: 1, DataType: 2}, jt808.ResultNotSupported}, // talk
	} {
		s := g.send(phone, jt808.V2013, tc.m)
		if r := replyTo(s, tc.m.MsgID()); r.Result != tc.want {
			t.Errorf("0x%04x answered %d, want %d", tc.m.MsgID(), r.Result, tc.want)
		}
	}
	g.send(phone, jt808.V2013, &jt808.Empty{ID: jt808.MsgQueryParams})
	g.next(func(e gwEvent) bool { return from(e) && e.h.MsgID == jt808.MsgParamsReply })
	// item 0xE5: a six-digit password is stored and accepted; a malformed one is refused and changes nothing
	for _, tc := range []struct {
		data []byte
		want byte
		pw   string
	}{
		{append([]byte{tank.ItemPassword, 6}, "042917"...), jt808.ResultOK, "042917"},
		{append([]byte{tank.ItemPassword, 6}, "12345A"...), jt808.ResultBadMessage, "042917"},
		{append([]byte{tank.ItemPassword, 5}, "12345"...), jt808.ResultBadMessage, "042917"},
		{append([]byte{tank.ItemPassword, 6}, "000001"...), jt808.ResultOK, "000001"},
	} {
		s := g.send(phone, jt808.V2013, &jt808.PassThrough{Down: true, Type: tank.PassTank, Data: tc.data})
		if r := replyTo(s, jt808.MsgDownPassThrough); r.Result != tc.want {
			t.Errorf("0xE5 %X answered %d, want %d", tc.data, r.Result, tc.want)
		}
		if got := f.LocalPassword(1); got != tc.pw {
			t.Errorf("after 0xE5 %X the terminal holds %q, want %q", tc.data, got, tc.pw)
		}
	}
	if n := f.Stats().Commands; n != 12 {
		t.Errorf("%d commands counted, sent 12", n)
	}
}

// firstReports collects the first n reports of every terminal of a fleet, in time order.
func firstReports(t *testing.T, seed int64, vehicles, n int) map[string][][]byte {
	g := newFakeGateway(t)
	f := startFleet(t, Config{Gateway: g.addr(), Vehicles: vehicles, Seed: seed, Speedup: 1000, Epoch: workEpoch})
	out := map[string][][]byte{}
	for {
		full := len(out) == vehicles
		for _, r := range out {
			full = full && len(r) >= n
		}
		if full {
			break
		}
		e := g.next(func(e gwEvent) bool { return e.locs != nil })
		out[e.phone] = append(out[e.phone], e.bodies...)
	}
	f.Stop()
	for p := range out {
		out[p] = out[p][:n]
	}
	return out
}

func TestSameSeedSameReports(t *testing.T) {
	a, b, c := firstReports(t, 11, 3, 15), firstReports(t, 11, 3, 15), firstReports(t, 12, 3, 15)
	differ := 0
	for p, ra := range a {
		for i := range ra {
			if !bytes.Equal(ra[i], b[p][i]) {
				t.Fatalf("%s report %d differs between two runs with the same seed", p, i)
			}
			if !bytes.Equal(ra[i], c[p][i]) {
				differ++
			}
		}
	}
	if differ == 0 {
		t.Error("another seed gave the same reports")
	}
}

func TestMalformedFrames(t *testing.T) {
	g := newFakeGateway(t)
	var mu sync.Mutex
	acked := 0
	f := startFleet(t, Config{Gateway: g.addr(), Vehicles: 2, Seed: 1, Speedup: 200, Epoch: workEpoch, Misbehave: 200,
		AckTimeout: 20 * time.Millisecond, Backoff: 10 * time.Millisecond,
		OnAck: func(string, time.Time) { mu.Lock(); acked++; mu.Unlock() }})
	for range 3 {
		g.next(func(e gwEvent) bool { return e.bad != nil })
	}
	for {
		g.next(func(e gwEvent) bool { return e.locs != nil })
		mu.Lock()
		n := acked
		mu.Unlock()
		if n >= 10 {
			break
		}
	}
	if s := f.Stats(); s.Malformed < 3 || s.Incidents["malformed"] != s.Malformed {
		t.Errorf("stats %v", s)
	}
}

func TestStartRejectsBadConfig(t *testing.T) {
	for _, cfg := range []Config{
		{Vehicles: 1},
		{Gateway: "x:1", Vehicles: -1},
		{Gateway: "x:1", Vehicles: MaxVehicles + 1},
		{Gateway: "x:1", Interval: -time.Second},
		{Gateway: "x:1", Interval: time.Millisecond},
		{Gateway: "x:1", Speedup: -1},
		{Gateway: "x:1", Misbehave: -0.5},
		{Gateway: "x:1", First: -3},
	} {
		if f, err := Start(context.Background(), cfg); err == nil {
			f.Stop()
			t.Errorf("Start(%+v) accepted", cfg)
		} else if !strings.HasPrefix(err.Error(), "sim: ") {
			t.Errorf("error %q does not say where it comes from", err)
		}
	}
}

func TestMainCommand(t *testing.T) {
	var out, errs bytes.Buffer
	if err := Main(context.Background(), []string{"--vehicles", "x"}, &out, &errs); err == nil {
		t.Error("a bad --vehicles was accepted")
	}
	if err := Main(context.Background(), []string{"--speedup", "0"}, &out, &errs); err == nil {
		t.Error("--speedup 0 was accepted")
	}
	g := newFakeGateway(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		// --day-at-start: at night on the Shanghai clock these two may rest switched off and never connect
		done <- Main(ctx, []string{"--gateway", g.addr(), "--vehicles", "2", "--first", "12", "--seed", "4", "--day-at-start"}, &out, &errs)
	}()
	e := g.next(func(e gwEvent) bool { return e.auth != nil })
	if want := phoneKey(fleet.DemoTerminalPhone(12)); e.phone != want && e.phone != phoneKey(fleet.DemoTerminalPhone(13)) {
		t.Errorf("--first 12 drove %s", e.phone)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "sim: stopped: vehicles=2 ") {
		t.Errorf("output %q", out.String())
	}
	// one vehicle of a registry other than the demo's: its own plate and terminal ID
	if err := Main(context.Background(), []string{"--vehicles", "2", "--plate", "冀A·E2E40"}, &out, &errs); err == nil {
		t.Error("--plate with two vehicles was accepted")
	}
	ctx, cancel = context.WithCancel(context.Background())
	go func() {
		done <- Main(ctx, []string{"--gateway", g.addr(), "--vehicles", "1", "--first", "40", "--day-at-start",
			"--plate", "冀A·E2E40", "--terminal-id", "E2E0040"}, &out, &errs)
	}()
	e = g.next(func(e gwEvent) bool { return e.reg != nil && e.phone == phoneKey(fleet.DemoTerminalPhone(40)) })
	if e.reg.Plate != "冀A·E2E40" || e.reg.TerminalID != "E2E0040" {
		t.Errorf("registered as %+v", e.reg)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// TestNightHeartbeats: at 03:00 the fleet rests; the terminals that stay on send heartbeats and no
// positions, the others stay off the line.
func TestNightHeartbeats(t *testing.T) {
	g := newFakeGateway(t)
	night := time.Date(2026, 3, 2, 3, 0, 0, 0, jt808.CST)
	startFleet(t, Config{Gateway: g.addr(), Vehicles: 6, Seed: 2, Speedup: 1, Epoch: night, Heartbeat: 10 * time.Millisecond})
	on := map[string]bool{}
	for i := range 6 {
		v := newVehicle(i, 2, night, 10*time.Second, 0, 0)
		on[phoneKey(fleet.DemoTerminalPhone(i))] = !v.restOffline
	}
	beats := map[string]int{}
	for {
		e := g.next(func(gwEvent) bool { return true })
		if !on[e.phone] {
			t.Fatalf("%s is switched off for the night but sent 0x%04x", e.phone, e.h.MsgID)
		}
		if e.locs != nil {
			t.Fatalf("%s reported a position while resting", e.phone)
		}
		if e.h.MsgID == jt808.MsgHeartbeat {
			beats[e.phone]++
		}
		enough := true
		for p, ok := range on {
			enough = enough && (!ok || beats[p] >= 3)
		}
		if enough {
			return
		}
	}
}

func TestBacklogBounded(t *testing.T) {
	f := &Fleet{cfg: Config{MaxBacklog: 5, Interval: 10 * time.Second, Speedup: 1}, gateways: []string{"127.0.0.1:1"}, epoch: workEpoch}
	term, err := newTerminal(f, 0, "冀A·3K281", fleet.DemoTerminalID(0))
	if err != nil {
		t.Fatal(err)
	}
	for i := range 8 {
		term.keep(workEpoch.Add(time.Duration(i)*time.Second), []byte{byte(i)})
	}
	if len(term.backlog) != 5 || term.backlog[0].body[0] != 3 || f.c.dropped.Load() != 3 || f.c.pending.Load() != 5 {
		t.Fatalf("backlog %d from report %d, dropped %d, pending %d", len(term.backlog), term.backlog[0].body[0], f.c.dropped.Load(), f.c.pending.Load())
	}
}

// TestRegistrationRefused: a refused registration is retried with backoff, a refused authentication
// sends the terminal back to registering.
func TestRegistrationRefused(t *testing.T) {
	g := newFakeGateway(t)
	var regs, auths atomic.Int32
	g.regRes = func(string) byte {
		if regs.Add(1) <= 2 {
			return jt808.RegisterTerminalUnknown
		}
		return jt808.RegisterOK
	}
	g.authOK = func(string) bool { return auths.Add(1) > 1 }
	startFleet(t, Config{Gateway: g.addr(), Vehicles: 1, Seed: 1, Speedup: 1, Epoch: workEpoch,
		AckTimeout: 50 * time.Millisecond, Backoff: 5 * time.Millisecond})
	var got []string
	for len(got) < 6 {
		e := g.next(func(e gwEvent) bool { return e.reg != nil || e.auth != nil })
		if e.reg != nil {
			got = append(got, "register")
		} else {
			got = append(got, "auth")
		}
	}
	// refused twice, registered, authentication refused, registered again, authenticated
	if want := []string{"register", "register", "register", "auth", "register", "auth"}; !slices.Equal(got, want) {
		t.Errorf("sequence %v, want %v", got, want)
	}
}
