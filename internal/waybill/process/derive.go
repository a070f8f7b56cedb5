// Package process runs the transport process by itself (DOMAIN.md §1–2, D45): an engine on the
// history writer's subscription derives each active waybill's evidence (depot and destination fences,
// covers and valves, seal, levels) from every committed report, moves the waybill with waybill.Advance,
// resolves the received volume (station gauge, truck V20, entered) and the loss, and records the
// differences a reviewer must see (openings on the way, loss over allowance, left unsealed).
package process

import (
	"math"

	"tankwatch/internal/station"
	"tankwatch/internal/tank"
	"tankwatch/internal/waybill"
)

// Config tunes the derivation; zero fields take the defaults.
type Config struct {
	// DropL is a level drop (total V20 of the truck, smoothed) beyond the noise while on the road
	// (150 L: above what sloshing leaves in the median, below the smallest theft the simulator makes,
	// 200 L; a slower, smaller loss shows as the trip's loss over its allowance).
	DropL float64
	// SteadyL is the largest change between two reports of a level that is steady (10 L).
	SteadyL float64
}

func (c *Config) defaults() {
	if c.DropL <= 0 {
		c.DropL = 150
	}
	if c.SteadyL <= 0 {
		c.SteadyL = 10
	}
}

// place is a depot or station with its fence, looked up by id (never "the first fence that contains
// the point": fences may overlap).
type place struct {
	id    int64
	name  string
	fence station.Fence
	ok    bool // the fence parsed
}

func (p *place) contains(lat, lon int32) bool {
	if !p.ok {
		return false
	}
	pt := station.Point{Lng: float64(lon) / 1e6, Lat: float64(lat) / 1e6}
	return p.fence.Contains(pt)
}

// dest is one destination's progress as the engine follows it.
type dest struct {
	seq    int
	st     place
	state  int   // waybill.Dest*
	ended  int64 // unload_end_at: the unloading ended, the received volume is being resolved
	steady int   // reports in a row with the valves closed and the level steady
	// resealed: the seal was sealed when the car arrived (a later destination after an unseal at an
	// earlier one has nothing to unseal)
	resealed bool
	comps    uint8 // bit i: compartment i+1 is unloaded here (0: every compartment)
}

// active is one active waybill of a car.
type active struct {
	id        int64
	carID     int64
	no        string
	groupID   int64
	groupPath string
	state     waybill.State
	flagged   bool
	depot     place
	dests     []dest
	comps     uint8 // the waybill's compartments (bit i = compartment i+1); 0: every one
	inDepot   bool  // the last located report was inside the depot fence
	episode   bool  // an opening on the way is going on (one difference per episode)
	sealAway  bool  // a seal broken inside another station's fence was stored (one step per trip)
	base      float64
	hasBase   bool
	settle    uint8 // smoothed totals seen since the base was set (it may still rise while settling)
	low       uint8 // consecutive smoothed totals below the base by more than DropL
}

// carState is what the engine remembers of a car between reports.
type carState struct {
	lastT   int64 // the newest report time judged: older or equal reports are stale
	lat     int32
	lon     int32
	located bool
	tank    tank.State
	hasTank bool
	v20     [tank.MaxCompartments]float64
	v20Mask uint8
	// smoothing of the total V20 on the road: the median of the last smoothN totals
	ring  [smoothN]float64
	ringN int
	ringI int
	wb    []*active // active waybills, the one in progress first
}

// input is one report as the derivation sees it.
type input struct {
	t        int64
	located  bool
	lat, lon int32
	tank     *tank.State
	readings []tank.Reading
}

// Action kinds.
const (
	actAdvance   = iota + 1 // waybill.Advance with the move (and the destination row when DestSeq > 0)
	actMark                 // an opening between two destinations: waybill.Mark + a difference
	actDest                 // a later destination's arrival / unseal / unload start: its row and an info step
	actUnloadEnd            // a destination's unloading ended: resolve its received volume
)

// action is what one report asks the store to do.
type action struct {
	kind   int
	w      *active
	move   waybill.Move
	detail opening // for openings on the way
	before float64
	after  float64
}

// opening is the evidence of an opening on the way.
type opening struct {
	compartment int
	device      int // tank.SmallManholeCover …; -1 none
	seal        tank.Seal
	dropL       float64
}

// anyOpen: a cover or valve of any compartment is open.
func anyOpen(s *tank.State) bool {
	for c := range min(s.Compartments, tank.MaxCompartments) {
		for k := range tank.Kinds {
			if s.Devices[c][k]&tank.DevOpen != 0 {
				return true
			}
		}
	}
	return false
}

// firstOpen names the first open device (compartment 1…, kind), or 0, -1.
func firstOpen(s *tank.State, mask uint8) (int, int) {
	for c := range min(s.Compartments, tank.MaxCompartments) {
		if mask != 0 && mask&(1<<c) == 0 {
			continue
		}
		for k := range tank.Kinds {
			if s.Devices[c][k]&tank.DevOpen != 0 {
				return c + 1, k
			}
		}
	}
	return 0, -1
}

// sealedAll: every installed cover and valve is closed and locked and the seal is sealed.
func sealedAll(s *tank.State) bool {
	if s.Seal != tank.SealSealed || s.Compartments == 0 {
		return false
	}
	for c := range min(s.Compartments, tank.MaxCompartments) {
		for k := range tank.Kinds {
			d := s.Devices[c][k]
			if d&tank.DevInstalled != 0 && (d&tank.DevOpen != 0 || d&tank.DevLocked == 0) {
				return false
			}
		}
	}
	return true
}

// dischargeOpen: a discharge or bottom valve of a compartment in mask (0: any) is open.
func dischargeOpen(s *tank.State, mask uint8) bool {
	for c := range min(s.Compartments, tank.MaxCompartments) {
		if mask != 0 && mask&(1<<c) == 0 {
			continue
		}
		if s.Devices[c][tank.DischargeValve]&tank.DevOpen != 0 || s.Devices[c][tank.BottomValve]&tank.DevOpen != 0 {
			return true
		}
	}
	return false
}

// sumV20 is the V20 of the compartments in mask (0: all) the car has readings of; ok false without any.
func (c *carState) sumV20(mask uint8) (float64, bool) {
	sum, ok := 0.0, false
	for i := range tank.MaxCompartments {
		if c.v20Mask&(1<<i) != 0 && (mask == 0 || mask&(1<<i) != 0) {
			sum += c.v20[i]
			ok = true
		}
	}
	return sum, ok
}

// smoothN is how many totals the road's level is the median of. Sloshing swings a single reading by
// tens of litres for several reports in a row (a median of three still crossed 50 L on most demo trips);
// the median of fifteen, below the base three times in a row, follows the liquid, not the wave.
const smoothN = 15

// dropPersist is how many smoothed totals in a row must be below the base for a drop to count.
const dropPersist = 3

// smoothed is the median of the last smoothN totals (sloshing makes single readings noisy).
func (c *carState) smoothed() (float64, bool) {
	if c.ringN < smoothN {
		return 0, false
	}
	w := c.ring // a copy: sorting it leaves the ring's order alone
	for i := 1; i < smoothN; i++ {
		for j := i; j > 0 && w[j] < w[j-1]; j-- {
			w[j], w[j-1] = w[j-1], w[j]
		}
	}
	return w[smoothN/2], true
}

// current is the destination in progress: the first one neither received nor ended; -1 none.
func (w *active) current() int {
	for i := range w.dests {
		if w.dests[i].state < waybill.DestReceived && w.dests[i].ended == 0 {
			return i
		}
	}
	return -1
}

// derive applies one report to a car and its waybill in progress; what must be stored is appended to
// out. A report older than or as old as the last judged one changes nothing (late, duplicate).
func derive(cfg *Config, c *carState, in *input, out []action) []action {
	if in.t <= c.lastT {
		return out
	}
	c.lastT = in.t
	if in.located {
		c.lat, c.lon, c.located = in.lat, in.lon, true
	}
	// the readings of the previous report (before this one's) are the "before" of an unloading
	prevV20, prevOK := 0.0, false
	var w *active
	if len(c.wb) > 0 {
		w = c.wb[0]
	}
	if w != nil {
		if d := w.current(); d >= 0 {
			prevV20, prevOK = c.sumV20(w.dests[d].comps)
		}
	}
	if in.readings != nil {
		for i := range in.readings {
			r := &in.readings[i]
			if r.Compartment >= 1 && r.Compartment <= tank.MaxCompartments {
				c.v20[r.Compartment-1] = r.V20L
				c.v20Mask |= 1 << (r.Compartment - 1)
			}
		}
		if tot, ok := c.sumV20(0); ok {
			c.ring[c.ringI] = tot
			c.ringI = (c.ringI + 1) % smoothN
			c.ringN = min(c.ringN+1, smoothN)
		}
	}
	if in.tank != nil {
		c.tank, c.hasTank = *in.tank, true
	}
	if w == nil {
		return out
	}
	s := &c.tank
	dv := deriver{c: c, w: w, t: in.t, readings: in.readings != nil, out: out}
	// at the depot
	inDepot := c.located && w.depot.contains(c.lat, c.lon)
	if w.state == waybill.Dispatched && inDepot && c.hasTank && anyOpen(s) {
		m := dv.move(waybill.EvLoadStart)
		m.StationID = w.depot.id
		m.Compartment, _ = firstOpen(s, 0)
		dv.advance(m)
	}
	if w.state == waybill.Loaded && c.hasTank && sealedAll(s) {
		m := dv.move(waybill.EvSealed)
		if inDepot {
			m.StationID = w.depot.id
		}
		dv.advance(m)
	}
	if in.located && w.state >= waybill.Loading && w.state <= waybill.Sealed && w.inDepot && !inDepot {
		m := dv.move(waybill.EvDepotExit)
		m.StationID = w.depot.id
		dv.advance(m)
		w.hasBase, w.episode, c.ringN = false, false, 0 // the leg's level starts from readings on the road
	}
	if in.located {
		w.inDepot = inDepot
	}
	// on the road and at the destinations
	if w.state >= waybill.InTransit && w.state <= waybill.Unloading {
		d := w.current()
		if d < 0 {
			return dv.out
		}
		ds := &w.dests[d]
		inside := c.located && ds.st.contains(c.lat, c.lon)
		switch {
		case ds.state == waybill.DestPending:
			if inside {
				m := dv.move(waybill.EvArrive)
				m.DestSeq, m.StationID = ds.seq, ds.st.id
				ds.state = waybill.DestArrived
				ds.resealed = c.hasTank && c.tank.Seal == tank.SealSealed
				if w.state == waybill.InTransit {
					dv.advance(m)
				} else {
					dv.out = append(dv.out, action{kind: actDest, w: w, move: m})
				}
				w.episode = false
				break
			}
			dv.onTheWay(cfg)
		default:
			dv.atDestination(cfg, ds, inside, prevV20, prevOK)
		}
	}
	return dv.out
}

// deriver is one report's derivation for the car's waybill in progress.
type deriver struct {
	c        *carState
	w        *active
	t        int64 // the report's time
	readings bool  // the report carried level readings
	out      []action
}

func (dv *deriver) move(ev waybill.Evidence) waybill.Move {
	return waybill.Move{Evidence: ev, Cause: waybill.CauseReport, T: dv.t, Lat: dv.c.lat, Lon: dv.c.lon}
}

// advance moves the waybill in memory as Apply says and asks the store to do the same.
func (dv *deriver) advance(m waybill.Move) {
	w := dv.w
	st := waybill.Apply(w.state, w.flagged, m.Evidence)
	if st.Moved || st.Flagged {
		w.state = st.To
		w.flagged = w.flagged || st.Flagged
		dv.out = append(dv.out, action{kind: actAdvance, w: w, move: m})
	}
}

// onTheWay looks for an opening between the depot (or a destination) and the next destination:
// a cover or valve open, the seal broken or opened, or the smoothed level fallen beyond the noise.
// One difference per episode: the episode ends when everything is closed again.
func (dv *deriver) onTheWay(cfg *Config) {
	c, w := dv.c, dv.w
	var o opening
	o.device = -1
	open := false
	if c.hasTank {
		if comp, dev := firstOpen(&c.tank, 0); dev >= 0 {
			o.compartment, o.device, open = comp, dev, true
		}
		// the seal counts on the first leg only: it was sealed at the depot, and after the first
		// destination's unseal it stays open by right
		if w.state == waybill.InTransit && (c.tank.Seal == tank.SealBroken || c.tank.Seal == tank.SealUnsealed) {
			o.seal, open = c.tank.Seal, true
		}
	}
	if open {
		// what the level does while something is open is that opening's episode; the level's baseline
		// starts again from readings taken after it, so the same litres are not a second episode
		c.ringN, w.hasBase = 0, false
	} else if sm, ok := c.smoothed(); ok && dv.readings {
		// the base is the level the leg started with: it follows the median up only while it settles
		// (a ratchet on every higher median would keep the sloshing's highs and call the rest a drop)
		switch {
		case !w.hasBase:
			w.base, w.hasBase, w.settle, w.low = sm, true, 0, 0
		case w.base-sm > cfg.DropL:
			if w.low++; w.low >= dropPersist {
				o.dropL, open = math.Round((w.base-sm)*10)/10, true
				w.base, w.low = sm, 0 // a further drop beyond the noise is new evidence
			}
		default:
			w.low = 0
			if w.settle < smoothN {
				w.settle++
				w.base = max(w.base, sm)
			}
		}
	}
	if !open {
		w.episode = false
		return
	}
	if w.episode {
		return
	}
	w.episode = true
	m := waybill.Move{Evidence: waybill.EvOpeningOnWay, Cause: waybill.CauseReport, T: dv.t, Lat: c.lat, Lon: c.lon,
		Compartment: o.compartment, VolumeL: o.dropL}
	kind := actMark // between two destinations the waybill is UNLOADING: marked, not moved
	if w.state == waybill.InTransit {
		kind = actAdvance
	}
	w.flagged = true
	dv.out = append(dv.out, action{kind: kind, w: w, move: m, detail: o})
}

// atDestination follows the unseal, the unloading and its end at destination ds.
func (dv *deriver) atDestination(cfg *Config, ds *dest, inside bool, prevV20 float64, prevOK bool) {
	c, w := dv.c, dv.w
	mv := func(ev waybill.Evidence) waybill.Move {
		m := dv.move(ev)
		m.DestSeq, m.StationID = ds.seq, ds.st.id
		return m
	}
	// unsealed (3) or broken (2): either way the seal is open at the destination, where it may be
	if ds.state == waybill.DestArrived && inside && c.hasTank && (c.tank.Seal == tank.SealUnsealed || c.tank.Seal == tank.SealBroken) &&
		(ds.resealed || ds.seq == w.dests[0].seq) {
		ds.state = waybill.DestUnsealed
		dv.destStep(mv(waybill.EvUnseal))
	}
	if (ds.state == waybill.DestArrived || ds.state == waybill.DestUnsealed) && inside && c.hasTank && dischargeOpen(&c.tank, ds.comps) {
		ds.state = waybill.DestUnloading
		ds.steady = 0
		m := mv(waybill.EvUnloadStart)
		m.Compartment, _ = firstOpen(&c.tank, ds.comps)
		if prevOK {
			m.VolumeL = math.Round(prevV20*10) / 10
		}
		dv.destStep(m)
		return
	}
	if ds.state == waybill.DestUnloading {
		end := c.located && !inside
		if !end && c.hasTank && !dischargeOpen(&c.tank, ds.comps) {
			now, ok := c.sumV20(ds.comps)
			switch {
			case !ok: // no level probes: the valves closed is the end
				end = true
			case prevOK && math.Abs(now-prevV20) <= cfg.SteadyL:
				ds.steady++
				end = ds.steady >= 2
			default:
				ds.steady = 0
			}
		} else {
			ds.steady = 0
		}
		if end {
			ds.ended = dv.t
			// the next leg starts from what is left: its level from readings taken after the unloading
			w.hasBase, w.episode, c.ringN = false, false, 0
			a := action{kind: actUnloadEnd, w: w, move: mv(waybill.EvReceived)}
			a.after, _ = c.sumV20(ds.comps)
			dv.out = append(dv.out, a)
		}
	}
}

// destStep moves the waybill for its first destination (ARRIVED → UNSEALED → UNLOADING); at a later
// one the waybill is UNLOADING already and the step is the destination's own.
func (dv *deriver) destStep(m waybill.Move) {
	if s := dv.w.state; s == waybill.Arrived || s == waybill.Unsealed {
		dv.advance(m)
		if dv.w.state != s {
			return
		}
	}
	dv.out = append(dv.out, action{kind: actDest, w: dv.w, move: m})
}
