// Package judge turns a car's committed reports into compartment events (carEventRecord): loading,
// unloading, drops outside fences, theft suspicion, sensor faults and cover/valve openings. The
// Detector is pure (no store, no clock): the tank events engine (Engine) and the alarm engine's
// abnormal-unloading rule (internal/alarm) each feed it the same reports, so the platform has one
// judgement of a level change (DECISIONS D36).
package judge

import (
	"math"
	"slices"
	"strconv"

	"tankwatch/internal/tank"
)

// Event kinds (car_tank_events.kind).
const (
	KindLoad          = "load"
	KindUnload        = "unload"
	KindDropMoving    = "dropMoving"
	KindDropOutside   = "dropOutside"
	KindTheft         = "theft"
	KindSensorStuck   = "sensorStuck"
	KindSensorJump    = "sensorJump"
	KindSensorMissing = "sensorMissing"
	KindCoverOpen     = "coverOpen"
	KindValveOpen     = "valveOpen"
)

// Kinds lists every event kind, in the order the pages show them.
var Kinds = []string{KindLoad, KindUnload, KindDropMoving, KindDropOutside, KindTheft, KindSensorStuck,
	KindSensorJump, KindSensorMissing, KindCoverOpen, KindValveOpen}

// Suspicious reports whether an event of kind is a fall of product outside every station and depot
// fence (what the alarm engine raises abnormalUnload for).
func Suspicious(kind string) bool {
	return kind == KindDropMoving || kind == KindDropOutside || kind == KindTheft
}

// refineN is how many medians after a steady level was set refine it.
const refineN = 30

// Defaults of Config (D36).
const (
	DefaultDropL      = 50.0  // = alarm.DefaultLevelDropLitres: the control mode's levelDropLitres
	DefaultRiseL      = 200.0 // a load smaller than this is not one (top-ups, temperature)
	DefaultWindowMs   = 180_000
	DefaultMinSamples = 5
	DefaultSettleMs   = 180_000   // a change counts once the smoothed level has been steady this long
	DefaultGapMs      = 600_000   // a silence longer than this: the course of a change was not seen
	DefaultStuckMs    = 1_800_000 // raw level identical this long while moving: stuck probe
	DefaultJumpL      = 800.0     // a step between consecutive readings larger than this that returns
	DefaultMissingMs  = 600_000   // a listed compartment silent this long while the car reports levels
	DefaultMovingDeci = 50        // 5 km/h in 0.1 km/h: faster is moving
)

// Config are the thresholds of one car; zero fields take the defaults.
type Config struct {
	DropL      float64 // a fall larger than this is an event (the control mode's levelDropLitres)
	RiseL      float64 // a rise larger than this is a load
	WindowMs   int64   // rolling median window
	MinSamples int     // the median takes at least this many newest samples, however old
	SettleMs   int64   // steady this long ends a change episode
	GapMs      int64
	StuckMs    int64
	JumpL      float64
	MissingMs  int64
	MovingDeci uint16
}

func (c Config) withDefaults() Config {
	if c.DropL <= 0 {
		c.DropL = DefaultDropL
	}
	if c.RiseL <= 0 {
		c.RiseL = max(DefaultRiseL, c.DropL)
	}
	if c.WindowMs <= 0 {
		c.WindowMs = DefaultWindowMs
	}
	if c.MinSamples <= 0 {
		c.MinSamples = DefaultMinSamples
	}
	if c.SettleMs <= 0 {
		c.SettleMs = DefaultSettleMs
	}
	if c.GapMs <= 0 {
		c.GapMs = DefaultGapMs
	}
	if c.StuckMs <= 0 {
		c.StuckMs = DefaultStuckMs
	}
	if c.JumpL <= 0 {
		c.JumpL = DefaultJumpL
	}
	if c.MissingMs <= 0 {
		c.MissingMs = DefaultMissingMs
	}
	if c.MovingDeci == 0 {
		c.MovingDeci = DefaultMovingDeci
	}
	return c
}

// Input is one committed report as the detector sees it.
type Input struct {
	T           int64  // ms (device time)
	Speed       uint16 // 0.1 km/h
	Located     bool   // the report has a position (a 0x0900 tank-only report has none)
	Lat, Lon    int32
	StationID   int64 // the station or depot fence the car is in; 0 outside every fence
	StationName string
	State       *tank.State    // nil: the report carried no tank state
	Readings    []tank.Reading // nil: no level item
	// Expected are the compartments tankInfo lists for the car (nil: unknown, no missing check).
	Expected []int
	// Unloading is the hook for waybills: true while the car's active waybill is in its unloading
	// step, which explains a fall outside fences (no waybill engine sets it yet).
	Unloading bool
}

// Event is what the detector found. An episode (coverOpen, valveOpen, sensorStuck, sensorMissing)
// is emitted twice: at its start with EndAt 0, and with End true and EndAt set when it ends; the
// caller closes the record it opened for (Kind, Compartment, Device).
type Event struct {
	Kind        string
	Compartment int // 1–8; 0 the car as a whole
	Device      int // tank.SmallManholeCover … tank.BottomValve for openings, else -1
	StartAt     int64
	EndAt       int64 // 0: still going on
	End         bool  // this closes the episode started earlier
	Lat, Lon    int32
	StationID   int64
	StationName string
	BeforeL     float64
	AfterL      float64
	BeforeV20   float64
	AfterV20    float64
	Detail      string // theft: "opening" or "parked"; sensorJump: the jump in litres
}

// ChangeL is the volume change of the event (after − before).
func (e *Event) ChangeL() float64 { return e.AfterL - e.BeforeL }

// sample is one reading of a compartment.
type sample struct {
	t        int64
	vol, v20 float64
}

// judged is the quantity changes are judged on: V20 (temperature does not move it), else Vt.
func (s sample) judged() float64 {
	if s.v20 == 0 {
		return s.vol
	}
	return s.v20
}

// level is one compartment's state.
type level struct {
	win      []sample  // readings within the window (at least MinSamples newest)
	sw       sortedWin // win's values in order, for the median and its noise
	hasRef   bool
	refN     int    // medians averaged into ref since it was set
	ref      sample // the last steady level
	refT     int64  // last time the smoothed level was within DropL of ref
	smooth   sample // newest median
	anchor   float64
	anchorT  int64
	inEp     bool // a change is going on
	ep       episode
	prevRaw  sample
	prevMM   uint16
	hasPrev  bool
	jump     *sample // a suspected jump: the reading before it
	jumpAt   int64
	jumpN    int
	stuckMM  uint16
	stuckT   int64 // since when the raw level is stuckMM while moving (0: not)
	stuckOn  bool
	seenT    int64 // last reading of this compartment
	missing  bool
	afterGap bool // the newest readings follow a silence: a change now was not seen happening
	openMask byte // devices open (bit k)
}

// episode is the context of a change while it goes on.
type episode struct {
	start       int64
	stationID   int64
	stationName string
	lat, lon    int32
	opened      bool
	gap         bool
	moving      int
	standing    int
	unloading   bool
}

// Detector judges one car. It is not safe for concurrent use.
type Detector struct {
	Cfg     Config
	comps   map[int]*level
	lastT   int64
	started bool
	lat     int32
	lon     int32
	station int64
	stName  string
	state   tank.State
	hasTank bool
}

// New returns a detector with the given thresholds (zero fields: defaults).
func New(cfg Config) *Detector { return &Detector{Cfg: cfg, comps: map[int]*level{}} }

func (d *Detector) comp(c int) *level {
	l := d.comps[c]
	if l == nil {
		l = &level{}
		d.comps[c] = l
	}
	return l
}

// Seed sets a compartment's steady level (warm start from the newest stored reading at t); reports
// up to t count as judged, and a change found after a silence since t is one across a gap.
func (d *Detector) Seed(c int, t int64, vol, v20 float64) {
	d.started, d.lastT = true, max(d.lastT, t)
	l := d.comp(c)
	l.ref, l.hasRef, l.refT, l.seenT = sample{t: t, vol: vol, v20: v20}, true, t, t
}

// SeedDevices sets the device states known before the first report (warm start), so an opening that
// was already recorded is not recorded again.
func (d *Detector) SeedDevices(s tank.State) {
	d.state, d.hasTank = s, true
	for c := range min(s.Compartments, tank.MaxCompartments) {
		l := d.comp(c + 1)
		for k := range tank.Kinds {
			if s.Devices[c][k]&tank.DevOpen != 0 {
				l.openMask |= 1 << k
			}
		}
	}
}

// Level is a compartment's last steady volume and V20 (ok false before any).
func (d *Detector) Level(c int) (vol, v20 float64, ok bool) {
	l := d.comps[c]
	if l == nil || !l.hasRef {
		return 0, 0, false
	}
	return l.ref.vol, l.ref.v20, true
}

// Step judges one report and returns what it found, in order. Reports older than the last one
// (blind-area uploads arriving late) are ignored: their course is not judged again.
func (d *Detector) Step(in *Input) []Event {
	if d.started && in.T <= d.lastT {
		return nil
	}
	cfg := d.Cfg.withDefaults()
	gap := d.started && in.T-d.lastT > cfg.GapMs
	d.started, d.lastT = true, in.T
	if in.Located {
		d.lat, d.lon = in.Lat, in.Lon
		d.station, d.stName = in.StationID, in.StationName
	}
	moving := in.Speed > cfg.MovingDeci
	var out []Event
	if in.State != nil {
		out = d.devices(in, out)
	}
	var seen [tank.MaxCompartments + 1]bool // compartments 1–8 read in this report
	for i := range in.Readings {
		r := &in.Readings[i]
		c := int(r.Compartment)
		if c < 1 || c > tank.MaxCompartments || seen[c] || math.IsNaN(r.VolumeL) || math.IsInf(r.VolumeL, 0) {
			continue
		}
		seen[c] = true
		l := d.comp(c)
		out = d.reading(&cfg, l, c, in, r, moving, gap, out)
	}
	if in.Readings != nil {
		out = d.missing(&cfg, in, &seen, out)
	}
	return out
}

// place fills an event's position and station from the detector's newest.
func (d *Detector) place(e Event) Event {
	e.Lat, e.Lon, e.StationID, e.StationName = d.lat, d.lon, d.station, d.stName
	return e
}

// devices records cover and valve openings per compartment and device.
func (d *Detector) devices(in *Input, out []Event) []Event {
	s := in.State
	n := min(s.Compartments, tank.MaxCompartments)
	for c := range n {
		l := d.comp(c + 1)
		for k := range tank.Kinds {
			open := s.Devices[c][k]&tank.DevOpen != 0
			was := l.openMask&(1<<k) != 0
			if open == was {
				continue
			}
			kind := KindValveOpen
			if k == tank.SmallManholeCover || k == tank.ManholeCover {
				kind = KindCoverOpen
			}
			e := d.place(Event{Kind: kind, Compartment: c + 1, Device: k, StartAt: in.T})
			if open {
				l.openMask |= 1 << k
			} else {
				l.openMask &^= 1 << k
				e.End, e.EndAt = true, in.T
			}
			out = append(out, e)
		}
		if l.openMask != 0 && l.inEp {
			l.ep.opened = true
		}
	}
	// compartments the state no longer lists are closed
	for c, l := range d.comps {
		if c > n && l.openMask != 0 {
			for k := range tank.Kinds {
				if l.openMask&(1<<k) != 0 {
					kind := KindValveOpen
					if k < tank.DischargeValve {
						kind = KindCoverOpen
					}
					out = append(out, d.place(Event{Kind: kind, Compartment: c, Device: k, StartAt: in.T, End: true, EndAt: in.T}))
				}
			}
			l.openMask = 0
		}
	}
	d.state, d.hasTank = *s, true
	return out
}

// OpenOutside lists the compartments with an openable device (cover or discharge/bottom valve) open
// while the car is outside every fence — what raises abnormalUnload at once (DOMAIN.md §1).
func (d *Detector) OpenOutside() []int {
	if d.station != 0 || !d.hasTank {
		return nil
	}
	var out []int
	for c := range min(d.state.Compartments, tank.MaxCompartments) {
		for k := range tank.Kinds {
			if d.state.Devices[c][k]&tank.DevOpen != 0 {
				out = append(out, c+1)
				break
			}
		}
	}
	return out
}

// InFence reports the station or depot fence of the car's newest position (0: outside every fence).
func (d *Detector) InFence() int64 { return d.station }

func (d *Detector) reading(cfg *Config, l *level, c int, in *Input, r *tank.Reading, moving, gap bool, out []Event) []Event {
	s := sample{t: in.T, vol: r.VolumeL, v20: r.V20L}
	l.seenT = in.T
	if l.missing {
		l.missing = false
		out = append(out, d.place(Event{Kind: KindSensorMissing, Compartment: c, Device: -1, StartAt: in.T, End: true, EndAt: in.T}))
	}
	// a jump: a step larger than physically possible between consecutive readings that returns
	if l.hasPrev && !gap {
		if l.jump != nil {
			l.jumpN++
			if math.Abs(s.vol-l.jump.vol) < cfg.JumpL/4 {
				j := d.place(Event{Kind: KindSensorJump, Compartment: c, Device: -1, StartAt: l.jumpAt, EndAt: in.T,
					BeforeL: l.jump.vol, AfterL: l.prevRaw.vol, BeforeV20: l.jump.v20, AfterV20: l.prevRaw.v20,
					Detail: strconv.FormatFloat(math.Round(l.prevRaw.vol-l.jump.vol), 'f', 0, 64)})
				out = append(out, j)
				l.jump = nil
			} else if l.jumpN >= 3 {
				l.jump = nil // it stayed: a real (fast) change, judged by the smoothed level
			}
		} else if math.Abs(s.vol-l.prevRaw.vol) > cfg.JumpL && in.T-l.prevRaw.t < 60_000 {
			p := l.prevRaw
			l.jump, l.jumpAt, l.jumpN = &p, in.T, 0
		}
	}
	// stuck: the raw level identical for long while the car moves (an empty compartment reads 0 still)
	if l.hasPrev && moving && r.LevelMM != 0 && r.LevelMM == l.prevMM && !gap {
		if l.stuckT == 0 {
			l.stuckT = l.prevRaw.t
		}
		if !l.stuckOn && in.T-l.stuckT >= cfg.StuckMs {
			l.stuckOn = true
			out = append(out, d.place(Event{Kind: KindSensorStuck, Compartment: c, Device: -1, StartAt: l.stuckT,
				BeforeL: s.vol, AfterL: s.vol, BeforeV20: s.v20, AfterV20: s.v20, Detail: strconv.Itoa(int(r.LevelMM))}))
		}
	} else if r.LevelMM != l.prevMM || !l.hasPrev || gap {
		if l.stuckOn {
			out = append(out, d.place(Event{Kind: KindSensorStuck, Compartment: c, Device: -1, StartAt: l.stuckT, End: true, EndAt: in.T}))
		}
		l.stuckT, l.stuckOn = 0, false
	}
	l.prevRaw, l.prevMM, l.hasPrev = s, r.LevelMM, true

	// the smoothed series: rolling median over the window (and at least MinSamples readings)
	if gap {
		l.win = l.win[:0]
		l.sw.reset()
		l.afterGap = true
		if l.inEp {
			l.ep.gap = true
		}
	}
	l.sw.push(l.win, s)
	l.win = append(l.win, s)
	cut := 0
	for cut < len(l.win)-cfg.MinSamples && in.T-l.win[cut].t > cfg.WindowMs {
		cut++
	}
	l.sw.cut(l.win, cut)
	l.win = l.win[cut:]
	if len(l.win) < min(cfg.MinSamples, 3) {
		return out // too few readings (first ones, or after a gap) to say anything yet
	}
	sorted := l.sw.sync(l.win)
	if sorted {
		l.smooth = l.sw.median(in.T)
	} else {
		l.smooth = median(l.win)
	}
	if !l.hasRef {
		l.ref, l.hasRef, l.refT = l.smooth, true, in.T
		l.anchor, l.anchorT = l.smooth.judged(), in.T
		return out
	}
	// steadiness: the median has not moved by more than tol for SettleMs
	var tol, noise float64
	if sorted {
		tol, noise = l.sw.tolerance(cfg)
	} else {
		tol, noise = tolerance(cfg, l.win)
	}
	// where the readings are noisier than a quarter of the threshold (sloshing), the change must
	// exceed the threshold by that much more: two noisy medians differ by chance
	drop, rise := cfg.DropL+max(0, noise-cfg.DropL/4), cfg.RiseL+max(0, noise-cfg.DropL/4)
	if math.Abs(l.smooth.judged()-l.anchor) > tol {
		l.anchor, l.anchorT = l.smooth.judged(), in.T
	}
	steady := in.T-l.anchorT >= cfg.SettleMs
	diff := l.smooth.judged() - l.ref.judged()
	if !l.inEp {
		if diff > -drop && diff < rise {
			l.refT, l.afterGap = in.T, false
			if l.refN < refineN && math.Abs(diff) <= tol {
				// refine the steady level with the first medians after it was set (a mean of
				// refineN medians is far less noisy than one); never beyond, so a slow leak is
				// not followed
				l.refN++
				w := 1 / float64(l.refN+1)
				l.ref.vol += (l.smooth.vol - l.ref.vol) * w
				l.ref.v20 += (l.smooth.v20 - l.ref.v20) * w
			}
			return out
		}
		l.inEp = true
		l.anchor, l.anchorT, steady = l.smooth.judged(), in.T, false
		start := l.refT
		for i := len(l.win) - 1; i >= 0; i-- { // the newest reading still at the steady level
			if math.Abs(l.win[i].judged()-l.ref.judged()) <= tol {
				start = l.win[i].t
				break
			}
			if i == 0 {
				start = l.win[0].t // the whole window moved: it began before it
			}
		}
		l.ep = episode{start: start, opened: l.openMask != 0 || d.anyOpen(), gap: l.afterGap}
		if d.station != 0 {
			l.ep.stationID, l.ep.stationName, l.ep.lat, l.ep.lon = d.station, d.stName, d.lat, d.lon
		}
	}
	l.afterGap = false
	// a fall outside every fence that goes on when the car enters one (a drain on the way, then the
	// station): the part seen outside is judged now, before the station could explain it
	if l.ep.stationID == 0 && d.station != 0 && !l.ep.unloading && -diff >= drop {
		e := d.judgeChange(cfg, l, c, in.T, drop, rise)
		l.inEp = false
		return append(out, e...)
	}
	d.note(l, in, moving)
	if !steady {
		return out
	}
	// the change is over: judge it from the steady level before to the steady level now
	l.inEp = false
	return append(out, d.judgeChange(cfg, l, c, l.anchorT, drop, rise)...)
}

// judgeChange ends the change going on at end: from the steady level before to the median now.
func (d *Detector) judgeChange(cfg *Config, l *level, c int, end int64, drop, rise float64) []Event {
	before, after := l.ref, l.smooth
	l.ref, l.refT, l.refN = after, after.t, 0
	change := after.judged() - before.judged()
	e := Event{Compartment: c, Device: -1, StartAt: l.ep.start, EndAt: end, Lat: l.ep.lat, Lon: l.ep.lon,
		StationID: l.ep.stationID, StationName: l.ep.stationName,
		BeforeL: round1(before.vol), AfterL: round1(after.vol), BeforeV20: round1(before.v20), AfterV20: round1(after.v20)}
	if e.EndAt < e.StartAt {
		e.EndAt = e.StartAt
	}
	switch {
	case change >= rise:
		e.Kind = KindLoad
	case change <= -drop:
		e.Kind = classifyFall(&l.ep)
		if e.Kind == KindTheft {
			e.Detail = "parked"
			if l.ep.opened {
				e.Detail = "opening"
			}
		}
	default:
		return nil // it came back (sloshing, a passing disturbance): nothing happened
	}
	return []Event{e}
}

// classifyFall names a fall of more than the threshold (D36), in this order: inside a station or depot
// fence at any time of it (or during the waybill's unloading step) it is an unloading; outside, with
// a cover or valve of the car opened during it, theft; across a silence longer than GapMs (its course
// unseen) dropOutside; mostly while moving dropMoving; else (parked outside fences) theft.
func classifyFall(ep *episode) string {
	switch {
	case ep.stationID != 0 || ep.unloading:
		return KindUnload
	case ep.opened:
		return KindTheft
	case ep.gap:
		return KindDropOutside
	case ep.moving > ep.standing:
		return KindDropMoving
	default:
		return KindTheft
	}
}

// note adds one report to the context of the change going on.
func (d *Detector) note(l *level, in *Input, moving bool) {
	ep := &l.ep
	if ep.lat == 0 && ep.lon == 0 {
		ep.lat, ep.lon = d.lat, d.lon
	}
	if d.station != 0 && ep.stationID == 0 {
		ep.stationID, ep.stationName, ep.lat, ep.lon = d.station, d.stName, d.lat, d.lon
	}
	if in.Unloading {
		ep.unloading = true
	}
	if d.anyOpen() {
		ep.opened = true
	}
	if moving {
		ep.moving++
	} else {
		ep.standing++
	}
}

// anyOpen reports whether any cover or valve of the car is open now.
func (d *Detector) anyOpen() bool {
	for _, l := range d.comps {
		if l.openMask != 0 {
			return true
		}
	}
	return false
}

// missing records listed compartments that have been absent from level reports for MissingFor.
func (d *Detector) missing(cfg *Config, in *Input, seen *[tank.MaxCompartments + 1]bool, out []Event) []Event {
	for _, c := range in.Expected {
		if c < 1 || c > tank.MaxCompartments || seen[c] {
			continue
		}
		l := d.comp(c)
		if l.seenT == 0 {
			l.seenT = in.T
		}
		if !l.missing && in.T-l.seenT >= cfg.MissingMs {
			l.missing = true
			out = append(out, d.place(Event{Kind: KindSensorMissing, Compartment: c, Device: -1, StartAt: l.seenT}))
		}
	}
	return out
}

// tolerance is how far the median may wander and still be steady: a quarter of the drop threshold,
// or three times the median's own noise where the readings are noisier (sloshing while driving),
// at most the threshold. The noise is estimated from consecutive differences (MAD), which a steady
// fill or drain hardly moves.
func tolerance(cfg *Config, w []sample) (tol, noise float64) {
	tol = max(cfg.DropL/4, 5)
	if len(w) < 4 {
		return tol, 0
	}
	d := make([]float64, len(w)-1)
	for i := 1; i < len(w); i++ {
		d[i-1] = w[i].judged() - w[i-1].judged()
	}
	m := nth(d, len(d)/2)
	for i := range d {
		d[i] = math.Abs(d[i] - m)
	}
	sigma := 1.4826 * nth(d, len(d)/2) / math.Sqrt2
	noise = 3 * 1.2533 * sigma / math.Sqrt(float64(len(w)))
	return min(max(tol, noise), cfg.DropL), noise
}

func median(w []sample) sample {
	n := len(w)
	vs := make([]float64, n)
	ws := make([]float64, n)
	for i, s := range w {
		vs[i], ws[i] = s.vol, s.v20
	}
	m := sample{t: w[n-1].t}
	m.vol, m.v20 = nth(vs, n/2), nth(ws, n/2)
	if n%2 == 0 { // nth left the smaller half in front: its largest is the lower middle
		m.vol, m.v20 = (slices.Max(vs[:n/2])+m.vol)/2, (slices.Max(ws[:n/2])+m.v20)/2
	}
	return m
}

// nth returns the k-th smallest of a (0-based), reordering a so that a[:k] holds no larger value.
// Selection instead of a sort: the rolling median and its noise ran four sorts of the window per
// reading, a tenth of the server's CPU at ingest (docs/PERFORMANCE.md, D92). The partition is three-way:
// a parked car's window is one value repeated, which a two-way partition turns quadratic.
func nth(a []float64, k int) float64 {
	lo, hi := 0, len(a) // the k-th is in a[lo:hi]
	for hi-lo > 12 {
		x, y, z := a[lo], a[lo+(hi-lo)/2], a[hi-1]
		p := max(min(x, y), min(max(x, y), z)) // median of three
		// a[lo:lt] < p, a[lt:i] == p, a[gt:hi] > p
		lt, i, gt := lo, lo, hi
		for i < gt {
			switch {
			case a[i] < p:
				a[i], a[lt] = a[lt], a[i]
				lt++
				i++
			case a[i] > p:
				gt--
				a[i], a[gt] = a[gt], a[i]
			default:
				i++
			}
		}
		switch {
		case k < lt:
			hi = lt
		case k >= gt:
			lo = gt
		default:
			return p
		}
	}
	for i := lo + 1; i < hi; i++ {
		for j := i; j > lo && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
	return a[k]
}

func round1(f float64) float64 { return math.Round(f*10) / 10 }
