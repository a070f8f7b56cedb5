package telemetry

import (
	"fmt"
	"strings"
	"testing"

	"tankwatch/internal/jt808"
	"tankwatch/internal/platform/i18n"
	"tankwatch/internal/tank"
)

// lockText builds a lock-state string: devices maps "compartment/kind" (1-based compartment) to the
// device bits.
func lockText(devices map[[2]int]byte, seal tank.Seal) changeTank {
	s := &tank.State{Compartments: 3, Seal: seal}
	for k := range tank.Kinds {
		for c := range 3 {
			s.Devices[c][k] = tank.DevInstalled
		}
	}
	for ck, b := range devices {
		s.Devices[ck[0]-1][ck[1]] = tank.DevInstalled | b
	}
	return changeTank{CarID: 1, LockState: tank.LockString(s), Seal: int64(seal)}
}

func at(t int64, c changeTank) changeTank { c.T = t; return c }

func pos(t int64, status, alarm uint32) changePos {
	return changePos{CarID: 1, T: t, Status: int64(status), Alarm: int64(alarm), Lat: 31_000_000 + t, Lon: 121_000_000}
}

func changeString(evs []StateChange) string {
	var parts []string
	for _, e := range evs {
		s := fmt.Sprintf("%d %s", e.T, e.Kind)
		if e.Compartment > 0 {
			s += fmt.Sprintf(" c%d/%s", e.Compartment, liveKinds[e.Device])
		}
		if e.Bit >= 0 {
			s += fmt.Sprintf(" bit%d", e.Bit)
		}
		parts = append(parts, s+" "+e.From+">"+e.To)
	}
	return strings.Join(parts, "; ")
}

func TestDeriveStateChanges(t *testing.T) {
	const acc, fix = jt808.StatusACC, jt808.StatusPositioned
	full, half := uint32(3<<8), uint32(1<<8)
	closed := lockText(nil, tank.SealSealed)
	valveOpen := lockText(map[[2]int]byte{{2, tank.BottomValve}: tank.DevOpen}, tank.SealSealed)
	locked := lockText(map[[2]int]byte{{1, tank.ManholeCover}: tank.DevLocked, {3, tank.DischargeValve}: tank.DevFault}, tank.SealBroken)
	other := changePos{CarID: 2, T: 50, Status: 0}

	cases := []struct {
		name     string
		prevPos  *changePos
		pos      []changePos
		prevTank *changeTank
		tanks    []changeTank
		want     string
	}{
		{name: "nothing"},
		{name: "first row only sets the state", pos: []changePos{pos(10, acc|fix, 1)}, tanks: []changeTank{at(10, valveOpen)}},
		{name: "ACC on and off, positioned lost",
			pos:  []changePos{pos(10, 0, 0), pos(20, acc|fix, 0), pos(30, acc|fix, 0), pos(40, acc, 0), pos(50, 0, 0)},
			want: "20 acc off>on; 20 positioned unpositioned>positioned; 40 positioned positioned>unpositioned; 50 acc on>off"},
		{name: "the row before the range is the baseline", prevPos: ptr(pos(5, fix, 0)), pos: []changePos{pos(10, fix|full, 0)},
			want: "10 load empty>full"},
		{name: "load empty half full and reserved",
			pos:  []changePos{pos(10, 0, 0), pos(20, half, 0), pos(30, full, 0), pos(40, 2<<8, 0)},
			want: "20 load empty>half; 30 load half>full; 40 load full>reserved"},
		{name: "alarm bits raised and cleared", pos: []changePos{pos(10, 0, 1<<1), pos(20, 0, 1<<0|1<<19), pos(30, 0, 0)},
			want: "20 alarm bit0 cleared>raised; 20 alarm bit1 raised>cleared; 20 alarm bit19 cleared>raised; 30 alarm bit0 raised>cleared; 30 alarm bit19 raised>cleared"},
		{name: "a terminal moved to another car: no change across cars", pos: []changePos{pos(10, acc, 0), other, pos(60, 0, 0)}},
		{name: "valve opened and closed",
			tanks: []changeTank{at(10, closed), at(20, valveOpen), at(30, valveOpen), at(40, closed)},
			want:  "20 open c2/bottomValve closed>open; 40 open c2/bottomValve open>closed"},
		{name: "lock, fault and seal", prevTank: ptr(at(5, closed)), tanks: []changeTank{at(10, locked), at(20, closed)},
			want: "10 lock c1/manholeCover unlocked>locked; 10 fault c3/oilDischargeValve normal>fault; 10 seal sealed>broken; " +
				"20 lock c1/manholeCover locked>unlocked; 20 fault c3/oilDischargeValve fault>normal; 20 seal broken>sealed"},
		{name: "rows without a lock state are skipped",
			tanks: []changeTank{at(10, closed), {CarID: 1, T: 15, Seal: 0}, {CarID: 1, T: 16, LockState: "not a lock state"}, at(20, valveOpen)},
			want:  "20 open c2/bottomValve closed>open"},
		{name: "merged by time, positions first",
			pos:   []changePos{pos(10, 0, 0), pos(20, acc, 0), pos(40, 0, 0)},
			tanks: []changeTank{at(5, closed), at(20, valveOpen), at(30, closed)},
			want:  "20 acc off>on; 20 open c2/bottomValve closed>open; 30 open c2/bottomValve open>closed; 40 acc on>off"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := changeString(DeriveStateChanges(c.prevPos, c.pos, c.prevTank, c.tanks))
			if got != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

func TestStateChangeCoordinatesAndText(t *testing.T) {
	evs := DeriveStateChanges(nil, []changePos{pos(10, 0, 0), pos(20, 0, 0), {CarID: 1, T: 30}},
		nil, []changeTank{at(5, lockText(nil, tank.SealSealed)), at(15, lockText(map[[2]int]byte{{2, tank.BottomValve}: tank.DevOpen}, tank.SealSealed)),
			at(35, lockText(nil, tank.SealSealed))})
	if len(evs) != 2 {
		t.Fatalf("events: %s", changeString(evs))
	}
	// the valve opened at 15: the car was at its position of 10
	if !evs[0].Located || evs[0].Lat != 31_000_010 || evs[0].Lon != 121_000_000 {
		t.Errorf("opened at %+v", evs[0])
	}
	// closed at 35: the newest position (30) is 0, 0 — not located
	if evs[1].Located {
		t.Errorf("closed at %+v", evs[1])
	}
	for _, c := range []struct {
		e    StateChange
		lang i18n.Lang
		want string
	}{
		{evs[0], i18n.ZhCN, "2 号仓底阀：关闭 → 打开"},
		{evs[0], i18n.EnUS, "Bottom valve of compartment 2: closed → open"},
		{evs[0], i18n.ZhTW, "2 號倉底閥：關閉 → 打開"},
		{StateChange{Kind: ChangeACC, Device: -1, Bit: -1, From: "off", To: "on"}, i18n.ZhCN, "ACC：关 → 开"},
		{StateChange{Kind: ChangeLoad, Device: -1, Bit: -1, From: "empty", To: "full"}, i18n.EnUS, "Load: Empty → Fully loaded"},
		{StateChange{Kind: ChangeSeal, Device: -1, Bit: -1, From: "sealed", To: "broken"}, i18n.ZhCN, "铅封：已施封 → 铅封破坏"},
		{StateChange{Kind: ChangePositioned, Device: -1, Bit: -1, From: "positioned", To: "unpositioned"}, i18n.EnUS, "Positioning: positioned → not positioned"},
		{StateChange{Kind: ChangeAlarm, Device: -1, Bit: 1, From: "cleared", To: "raised"}, i18n.ZhCN, "产生报警：超速报警"},
		{StateChange{Kind: ChangeAlarm, Device: -1, Bit: 16, From: "raised", To: "cleared"}, i18n.EnUS, "Alarm cleared: Alarm bit 16"},
		{StateChange{Kind: ChangeLock, Compartment: 1, Device: tank.SmallManholeCover, Bit: -1, From: "unlocked", To: "locked"}, i18n.ZhCN, "1 号仓小人孔盖：未上锁 → 已上锁"},
	} {
		if got := c.e.Text(c.lang); got != c.want {
			t.Errorf("%s: %q, want %q", c.lang, got, c.want)
		}
	}
}
