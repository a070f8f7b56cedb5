package alarm

import (
	"context"
	"math"
	"strconv"
	"strings"
	"time"

	"tankwatch/internal/fleet"
	"tankwatch/internal/tank"
	"tankwatch/internal/tank/judge"
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

// Waybills tells whether a car's active waybill is in its unloading step at a time: such a step
// explains a fall of level outside every fence (DOMAIN.md §1). No waybill engine implements it yet;
// nil means no car has one, so only station and depot fences explain a fall.
type Waybills interface {
	UnloadingStep(carID int64, at time.Time) bool
}

// Converter makes a report's levels volumes (tank.Catalog.Convert); nil: the probes' own volumes.
type Converter interface {
	Convert(carID int64, l *tank.Levels) []tank.Reading
	Compartments(carID int64) []tank.Compartment
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
	opJoin // the litres lost join the car's current (or last) abnormalUnload record: detail replaced
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
	judge     *judge.Detector  // the smoothed level judgement (one implementation with the tank events)
	au        auEpisode        // the newest abnormalUnload episode
	on        map[string]bool  // episodes going on, by code
	open      map[string]int64 // their alarm records (only watched types have one)
	parkID    int64            // open parking period
	readTo    int64            // the newest row time a catch-up read back from the store (catchup.go)
}

// auEpisode is the car's newest abnormal unloading, which a fall of level measured later joins (one
// alarm for one drain: the opening raises it at once, the litres lost are known minutes later).
type auEpisode struct {
	start, end int64 // end 0: going on
	id         int64 // its record (set when stored; 0: none stored)
	comps      map[int]bool
	lossL      float64
}

// joinGrace is how long after an abnormal unloading ended a fall that began before its end still
// belongs to it: the smoothed level is steady only minutes after the valve closed.
const joinGrace = 15 * 60_000

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
	levels      Converter
	waybills    Waybills
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
	if r.Tank != nil || r.Levels != nil || !r.TankOnly {
		abnormalUnload(car, env, st, r, t, add, begin, end)
	}
	if r.Tank != nil {
		tankRules(ctx, car, env, st, r.Tank, t, add, begin, end)
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

func tankRules(ctx context.Context, car *fleet.LiveCar, env *ruleEnv, st *carState, s *tank.State, t int64,
	add func(op, string, int64, ...string), begin func(string, int64, ...string), end func(string, int64)) {
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

// abnormalUnload is the one abnormal-unloading rule (D36). It feeds the report to the car's level
// detector (internal/tank/judge, the same judgement as the tank events) and raises abnormalUnload
//   - at once when a cover or valve is open while the car is outside every station and depot fence
//     (DOMAIN.md §1), closed when they are all shut or the car is inside a fence; and
//   - when the detector finds a smoothed fall above the car's threshold (levelDropLitres) outside
//     every fence (theft, dropOutside, dropMoving), with the litres lost. Such a fall joins the
//     car's abnormalUnload episode going on, or the one that ended shortly before the fall ended,
//     instead of raising a second alarm. Sloshing while driving is smoothed away by the detector.
//
// levelDrop (the former global-threshold rule) is no longer raised; its type stays for old records.
func abnormalUnload(car *fleet.LiveCar, env *ruleEnv, st *carState, r *telemetry.Report, t int64,
	add func(op, string, int64, ...string), begin func(string, int64, ...string), end func(string, int64)) {
	if st.judge == nil {
		st.judge = judge.New(judge.Config{})
	}
	st.judge.Cfg.DropL = float64(env.set.LevelDropLitres)
	in := judge.Input{T: t, Speed: r.Speed, Located: !r.TankOnly && (r.Lat != 0 || r.Lon != 0), Lat: r.Lat, Lon: r.Lon,
		StationID: st.station, StationName: st.stName, State: r.Tank, Readings: r.Readings}
	if in.Readings == nil && r.Levels != nil {
		if env.levels != nil {
			in.Readings = env.levels.Convert(car.ID, r.Levels)
		} else {
			in.Readings = tank.Convert(nil, r.Levels)
		}
	}
	if env.waybills != nil {
		in.Unloading = env.waybills.UnloadingStep(car.ID, time.UnixMilli(t))
	}
	evs := st.judge.Step(&in)
	if r.Tank != nil {
		if opened := st.judge.OpenOutside(); len(opened) > 0 && !in.Unloading {
			if !st.on[CodeAbnormalUnload] {
				add(opSuspect, CodeAbnormalUnload, t)
				st.au = auEpisode{start: t, comps: map[int]bool{}}
			}
			for _, c := range opened {
				st.au.comps[c] = true
			}
			begin(CodeAbnormalUnload, t, joinInts(opened))
		} else if st.on[CodeAbnormalUnload] {
			st.au.end = t
			end(CodeAbnormalUnload, t)
		}
	}
	if env.set.LevelDropLitres <= 0 {
		return // the car's control mode judges no falls of level
	}
	for i := range evs {
		e := &evs[i]
		if !judge.Suspicious(e.Kind) {
			continue
		}
		loss := e.BeforeL - e.AfterL
		joins := st.au.comps != nil && (st.on[CodeAbnormalUnload] || e.StartAt <= st.au.end+joinGrace)
		if !joins {
			st.au = auEpisode{start: e.StartAt, end: e.EndAt, comps: map[int]bool{}}
			if e.Kind == judge.KindTheft {
				add(opSuspect, CodeAbnormalUnload, e.StartAt)
			}
		}
		st.au.comps[e.Compartment] = true
		st.au.lossL += loss
		detail := []string{joinSet(st.au.comps), strconv.FormatFloat(math.Round(st.au.lossL), 'f', 0, 64)}
		if joins {
			add(opJoin, CodeAbnormalUnload, e.StartAt, detail...)
		} else {
			add(opInstant, CodeAbnormalUnload, e.StartAt, detail...)
		}
	}
}

func joinInts(cs []int) string {
	s := make([]string, len(cs))
	for i, c := range cs {
		s[i] = strconv.Itoa(c)
	}
	return strings.Join(s, ",")
}

func joinSet(m map[int]bool) string {
	var cs []int
	for c := range tank.MaxCompartments + 1 {
		if m[c] {
			cs = append(cs, c)
		}
	}
	return joinInts(cs)
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
