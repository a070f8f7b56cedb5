package alarm

import (
	"context"
	"strconv"
	"strings"
	"time"

	"tankwatch/internal/fleet"
	"tankwatch/internal/tank"
	"tankwatch/internal/telemetry"
)

// Stations finds the station fence a position lies in (the stations registry implements it; nil = no
// stations, so every position is outside).
type Stations interface {
	StationAt(groupPath string, lat, lon int32) (id int64, name string, ok bool)
}

// Suspects records a place where a tanker unloaded away from any station (suspected illegal station).
type Suspects interface {
	RecordSuspect(ctx context.Context, groupID int64, lat, lon int32, at time.Time, carID int64) error
}

// Unlocks tells whether the platform successfully sent a command of kind ("unlock") to the car since
// a time; telemetry.Commands implements it (SucceededSince).
type Unlocks interface {
	SucceededSince(ctx context.Context, carID int64, kind string, since time.Time) (bool, error)
}

// op is what a rule decided.
type op int

const (
	opOpen    op = iota // an episode starts (record while it lasts)
	opClose             // the episode of code ends
	opInstant           // an alarm without duration
	opParkStart
	opParkEnd
	opSuspect
)

// action is one decision of step, applied by the engine.
type action struct {
	op     op
	code   string
	at     int64 // ms
	detail []string
}

// carState is what the engine remembers of a car between reports.
type carState struct {
	seen      bool
	lastT     int64
	lastRecv  int64
	lat, lon  int32
	speed     uint16
	terminal  int64
	station   int64
	stName    string
	stKnown   bool
	overSince int64 // speeding since (0: not over the limit)
	overMax   uint16
	stopSince int64 // standing since (0: moving or unknown)
	tank      tank.State
	hasTank   bool
	baseline  uint32 // litres: the highest total since the valves last closed
	hasBase   bool
	on        map[string]bool  // episodes going on, by code
	open      map[string]int64 // their alarm records (only watched types have one)
	parkID    int64            // open parking period
}

func newCarState() *carState { return &carState{on: map[string]bool{}, open: map[string]int64{}} }

// ruleEnv is what the rules need besides the car's state: its settings, the speeding duration and
// the lookups. Lookups may be nil.
type ruleEnv struct {
	set         *Settings
	source      string // where set comes from
	speedingFor time.Duration
	unlockFor   time.Duration
	stations    Stations
	unlocks     Unlocks
}

// reportTime is the device time, or the received time when the device sent none.
func reportTime(r *telemetry.Report) int64 {
	if !r.Time.IsZero() {
		return r.Time.UnixMilli()
	}
	return r.Received.UnixMilli()
}

// speedLimit is the car's limit in km/h: its own control mode, else the registry's per-car limit,
// else the group's (or default) limit for its vehicle class.
func speedLimit(car *fleet.LiveCar, env *ruleEnv) int {
	if env.source != ControlCar && car.SpeedLimit > 0 {
		return car.SpeedLimit
	}
	return env.set.Speed(car.VehicleClass)
}

// step applies one report to a car's state and returns the decisions, in order.
func step(ctx context.Context, car *fleet.LiveCar, env *ruleEnv, st *carState, r *telemetry.Report) []action {
	t := reportTime(r)
	if st.seen && t < st.lastT {
		return nil // an older report (blind-area upload) would reopen episodes that already ended
	}
	var out []action
	add := func(o op, code string, at int64, detail ...string) {
		out = append(out, action{op: o, code: code, at: at, detail: detail})
	}
	begin := func(code string, at int64, detail ...string) {
		if !st.on[code] {
			st.on[code] = true
			add(opOpen, code, at, detail...)
		}
	}
	end := func(code string, at int64) {
		if st.on[code] {
			delete(st.on, code)
			add(opClose, code, at)
		}
	}
	// a valve closed by this very report still explains the level it reports (the last of an unloading)
	wasOpen := st.hasTank && valvesOpen(&st.tank)
	st.seen, st.lastT, st.lastRecv, st.terminal = true, t, r.Received.UnixMilli(), r.TerminalID
	end(CodeOffline, r.Received.UnixMilli())

	if !r.TankOnly {
		located := r.Lat != 0 || r.Lon != 0
		if located {
			st.lat, st.lon = r.Lat, r.Lon
			fences(car, env, st, t, add)
		}
		st.speed = r.Speed
		terminalAlarms(st, r.Alarm, t, begin, end)
		speeding(car, env, st, r.Speed, t, begin, end)
		parking(env, st, r.Speed, t, add, begin, end)
	}
	if r.Tank != nil {
		tankRules(ctx, car, env, st, r.Tank, t, add, begin, end)
	}
	if r.Levels != nil {
		levelDrop(env, st, r.Levels, t, wasOpen, add)
	}
	return out
}

func fences(car *fleet.LiveCar, env *ruleEnv, st *carState, t int64, add func(op, string, int64, ...string)) {
	var id int64
	var name string
	if env.stations != nil {
		if sid, n, ok := env.stations.StationAt(car.GroupPath, st.lat, st.lon); ok {
			id, name = sid, n
		}
	}
	if st.stKnown && id != st.station {
		if st.station != 0 {
			add(opInstant, CodeFenceOut, t, st.stName)
		}
		if id != 0 {
			add(opInstant, CodeFenceIn, t, name)
		}
	}
	st.station, st.stName, st.stKnown = id, name, true
}

func terminalAlarms(st *carState, bits uint32, t int64, begin func(string, int64, ...string), end func(string, int64)) {
	for i, b := range terminalBits {
		code := terminalCodes[i]
		if bits&(1<<b) != 0 {
			begin(code, t)
		} else {
			end(code, t)
		}
	}
}

func speeding(car *fleet.LiveCar, env *ruleEnv, st *carState, speed uint16, t int64, begin func(string, int64, ...string), end func(string, int64)) {
	limit := speedLimit(car, env)
	if limit <= 0 || int(speed) <= limit*10 {
		st.overSince, st.overMax = 0, 0
		end(CodeSpeeding, t)
		return
	}
	if st.overSince == 0 {
		st.overSince = t
	}
	st.overMax = max(st.overMax, speed)
	if t-st.overSince >= env.speedingFor.Milliseconds() {
		begin(CodeSpeeding, st.overSince, strconv.Itoa(limit), kmh(st.overMax))
	}
}

func parking(env *ruleEnv, st *carState, speed uint16, t int64, add func(op, string, int64, ...string),
	begin func(string, int64, ...string), end func(string, int64)) {
	if speed >= 10 { // 1 km/h
		if st.on[CodeOvertimeParking] {
			add(opParkEnd, CodeOvertimeParking, t)
		}
		end(CodeOvertimeParking, t)
		st.stopSince = 0
		return
	}
	if st.stopSince == 0 {
		st.stopSince = t
	}
	limit := int64(env.set.ParkingMinutes) * 60_000
	if limit > 0 && t-st.stopSince > limit && st.station == 0 && !st.on[CodeOvertimeParking] {
		begin(CodeOvertimeParking, st.stopSince, strconv.Itoa(env.set.ParkingMinutes))
		add(opParkStart, CodeOvertimeParking, st.stopSince)
	}
}

// openable are the device kinds through which a tank can be emptied or entered.
var openable = []int{tank.SmallManholeCover, tank.ManholeCover, tank.DischargeValve}

func tankRules(ctx context.Context, car *fleet.LiveCar, env *ruleEnv, st *carState, s *tank.State, t int64,
	add func(op, string, int64, ...string), begin func(string, int64, ...string), end func(string, int64)) {
	var opened []string
	for c := range s.Compartments {
		for _, k := range openable {
			if s.Devices[c][k]&tank.DevOpen != 0 {
				opened = append(opened, strconv.Itoa(c+1))
				break
			}
		}
	}
	if len(opened) > 0 && st.station == 0 {
		if !st.on[CodeAbnormalUnload] {
			add(opSuspect, CodeAbnormalUnload, t)
		}
		begin(CodeAbnormalUnload, t, strings.Join(opened, ","))
	} else {
		end(CodeAbnormalUnload, t)
	}
	if s.Seal == tank.SealBroken {
		begin(CodeSealBroken, t)
	} else if s.Seal != tank.SealNone {
		end(CodeSealBroken, t)
	}
	if st.hasTank {
		var unlocked []string
		for c := range min(s.Compartments, st.tank.Compartments) {
			for k := range tank.Kinds {
				was, now := st.tank.Devices[c][k], s.Devices[c][k]
				if now&tank.DevInstalled != 0 && was&tank.DevLocked != 0 && now&tank.DevLocked == 0 {
					unlocked = append(unlocked, strconv.Itoa(c+1))
					break
				}
			}
		}
		if len(unlocked) > 0 && !authorisedUnlock(ctx, car.ID, env, t) {
			add(opInstant, CodeLockOpened, t, strings.Join(unlocked, ","))
		}
	}
	st.tank, st.hasTank = *s, true
}

// authorisedUnlock reports whether the platform unlocked the car shortly before t. A failed lookup
// counts as authorised: a store hiccup must not accuse a driver.
func authorisedUnlock(ctx context.Context, carID int64, env *ruleEnv, t int64) bool {
	if env.unlocks == nil {
		return false
	}
	ok, err := env.unlocks.SucceededSince(ctx, carID, "unlock", time.UnixMilli(t).Add(-env.unlockFor))
	return ok || err != nil
}

// valvesOpen reports whether a discharge or bottom valve of s is open.
func valvesOpen(s *tank.State) bool {
	for c := range s.Compartments {
		if s.Devices[c][tank.DischargeValve]&tank.DevOpen != 0 || s.Devices[c][tank.BottomValve]&tank.DevOpen != 0 {
			return true
		}
	}
	return false
}

func levelDrop(env *ruleEnv, st *carState, l *tank.Levels, t int64, wasOpen bool, add func(op, string, int64, ...string)) {
	var total uint32
	for _, p := range l.Probes[:l.N] {
		total += p.VolumeL
	}
	valveOpen := wasOpen || (st.hasTank && valvesOpen(&st.tank))
	if !st.hasBase || valveOpen || total > st.baseline {
		st.baseline, st.hasBase = total, true
		return
	}
	if drop := st.baseline - total; env.set.LevelDropLitres > 0 && drop > uint32(env.set.LevelDropLitres) {
		add(opInstant, CodeLevelDrop, t, strconv.FormatUint(uint64(drop), 10))
		st.baseline = total
	}
}

// offlineCheck is the periodic offline rule: a car silent longer than its threshold (received time)
// starts an offline episode at its last report.
func offlineCheck(car *fleet.LiveCar, env *ruleEnv, st *carState, lastRecv, now int64) []action {
	minutes := env.set.OfflineMinutes
	if env.source != ControlCar && car.OfflineMinutes > 0 {
		minutes = car.OfflineMinutes
	}
	if lastRecv == 0 || minutes <= 0 || st.on[CodeOffline] || now-lastRecv <= int64(minutes)*60_000 {
		return nil
	}
	st.on[CodeOffline] = true
	return []action{{op: opOpen, code: CodeOffline, at: lastRecv, detail: []string{strconv.Itoa(minutes)}}}
}

// terminalCodes are the codes of terminalBits, made once (the rule runs for every report).
var terminalCodes = func() []string {
	out := make([]string, len(terminalBits))
	for i, b := range terminalBits {
		out[i] = TerminalCode(b)
	}
	return out
}()

func kmh(deci uint16) string { return strconv.FormatFloat(float64(deci)/10, 'f', 1, 64) }
