package sim

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"time"

	"tankwatch/internal/jt808"
	"tankwatch/internal/tank"
)

// The demo tanker: three compartments of 10,000 L in a 1,800 mm high tank, limited to 80 km/h
// (internal/fleet seeds the cars with the same figures).
const (
	Compartments      = 3
	CompartmentLitres = 10000.0
	TankHeightMM      = 1800.0
	speedLimit        = 80.0
	fuelPerKm         = 0.35 // L of diesel
)

// Incident is a kind of misbehaviour the simulator injects.
type Incident int

const (
	IncidentValve     Incident = iota // discharge valve opened away from any station
	IncidentSeal                      // seal broken while driving
	IncidentSpeeding                  // above 80 km/h for a few minutes (alarm bit 1)
	IncidentLongPark                  // a stop of more than two hours on the way
	IncidentHelp                      // driver's help request (0xE3, unlock or lock)
	IncidentOffline                   // terminal offline 10–60 min, then a blind-area upload
	IncidentTheft                     // 200–500 L drained at a stop away from stations, a cover opened or not
	IncidentMalformed                 // a frame with a bad checksum or cut short
	nIncidents
)

var incidentNames = [nIncidents]string{"valve_away", "seal_broken", "speeding", "long_parking", "help", "offline", "theft", "malformed"}

func (k Incident) String() string {
	if k < 0 || k >= nIncidents {
		return "unknown"
	}
	return incidentNames[k]
}

// dayChance is the probability of each incident per vehicle-day at Misbehave 1.
var dayChance = [nIncidents]float64{
	IncidentValve: 0.03, IncidentSeal: 0.03, IncidentSpeeding: 0.08, IncidentLongPark: 0.04,
	IncidentHelp: 0.08, IncidentOffline: 0.05, IncidentTheft: 0.03,
}

const (
	flakyChance     = 0.005 // vehicles with a faulty modem, at Misbehave 1
	malformedChance = 0.02  // per report of a faulty vehicle, at Misbehave 1
)

type phase uint8

const (
	restPhase   phase = iota // night: no reports (connected with heartbeats, or switched off)
	loadPhase                // at the home depot, compartments filling one after another
	drivePhase               // on the road
	unloadPhase              // at a station, some compartments emptying
	stopPhase                // an unplanned stop on the road (long parking, valve opened)
)

// sample is what one step of a vehicle produced.
type sample struct {
	at        time.Time
	body      []byte // 0x0200 body; nil when nothing is reported (rest)
	online    bool   // the terminal should be connected
	incidents uint16 // bit k: incident k started at this step
	malformed bool   // send this report's first copy corrupted
}

// vehicle is the simulated truck and its devices; everything it does comes from its own random
// stream, so the same seed and epoch give the same reports.
type vehicle struct {
	idx       int
	region    string
	home      int // DemoPlaces index of the home depot
	rng       *rand.Rand
	interval  time.Duration
	misbehave float64
	flaky     bool

	now, next time.Time
	ph        phase
	phaseFrom time.Time
	phaseEnd  time.Time

	pos       point
	dir       float64
	speed     float64 // km/h
	target    float64 // cruising speed of the current leg
	targetSeg int
	alt       float64
	mileage   float64 // km
	fuel      float64 // L
	acc       bool

	vol     [Compartments]float64
	fill    [Compartments]float64 // volumes at the start of the current load/unload
	goal    [Compartments]float64 // load targets
	dev     [Compartments][tank.Kinds]byte
	seal    tank.Seal
	unload  uint8 // compartments emptied at the current station (bit mask)
	valveAt int   // compartment of an opened valve during a stop, -1 none
	// theft: the compartment being drained during a stop (-1 none), the litres still to go and
	// whether a cover was opened for it
	theftAt    int
	theftLeft  float64
	theftCover bool

	// the level probes: their own random stream (so the rest of the day does not depend on the
	// noise), the sloshing of each compartment (mm, a decaying oscillation excited by acceleration,
	// braking and speed) and the speed of the previous step
	probeRng  *rand.Rand
	slosh     [Compartments]float64
	sloshPh   [Compartments]float64
	prevSpeed float64

	walk walker
	trip []int // stations still to visit
	// at each station of trip, which compartments are emptied
	tripMasks []uint8

	wake, lastStart time.Time     // working window of the current day
	shift           time.Duration // the working day starts this long after local midnight (Config.Shifts)
	restOffline     bool
	plan            [nIncidents]float64 // fraction of a drive where the incident starts; < 0: not today
	speedingUntil   time.Time
	speedingTarget  float64
	offlineUntil    time.Time
	help            tank.Help
	helpPending     bool
	helpSeq         uint16
	helpEvery       time.Duration // Config.HelpEvery
	nextHelp        time.Time
	signal, sats    byte
	onUnload        func(station string, litres float64, start, end time.Time) // Config.OnUnload

	// waybills (issue 15): the depot's loading ticket (Config.OnLoaded), the truck waiting at its
	// depot for a dispatch (Config.DispatchWait, Config.OnDepot) and the dispatched next trip
	onLoaded  func(comps []LoadedCompartment, start, end time.Time)
	onDeliver func(station string, litres float64, product int, tempC float64, start, end time.Time) // Config.OnDeliver
	product   int                                                                                    // what the truck carries (tank.Product*: the demo car's fuel type, as tankInfo seeds it)
	onDepot   func(depot string, at time.Time)
	waitFor   time.Duration // Config.DispatchWait; 0: load at once by its own plan
	waiting   bool          // at the depot, loading valves shut, until a dispatch or phaseEnd
	tellDepot bool          // call onDepot at the next step (a truck that started at its depot)
	sealedAt  time.Time     // loaded and sealed at the depot, leaving ticketWait later (with onLoaded)
	loadFor   time.Duration // how long the loading takes once it starts
	order     *order        // the dispatched next trip, nil: none
	orderNo   string        // the waybill number of the trip under way ("" own plan)
	// the day's slow weep (a trip losing 0.05–0.3 % on the way without any opening): the fraction
	// drawn for the day (< 0 none), the litres still to lose and the loss per metre driven
	weepPct  float64
	weepLeft float64
	weepPerM float64
	forceInc Incident // Config.FirstTripIncident + 1 on the first loaded trip; 0 none

	locks vehicleLocks // the electronic locks and the events they report (item 0xE6, locks.go)
}

// LoadedCompartment is one line of a depot's loading ticket (Config.OnLoaded): the compartment
// (1-based), the volume the depot's meter delivered into it (litres at the product's temperature)
// and that temperature.
type LoadedCompartment struct {
	No    int
	VtL   float64
	TempC float64
}

// order is a dispatched trip (0x8300 dispatch text, waybill.ParseDispatchText): its waybill number,
// the depot (DemoPlaces index, the truck's home) and the stations in order.
type order struct {
	no    string
	depot int
	stops []int
}

// ticketWait is how long a truck whose depot sends loading tickets (Config.OnLoaded) stays at the
// depot, sealed, after loading: the ticket is printed and the seals applied before it leaves.
const ticketWait = 20 * time.Minute

// weepChance is the probability per vehicle-day, at Misbehave 1, that the day's first loaded trip
// loses a little product on the way without any opening (a weeping valve seat or gasket).
const weepChance = 0.09

// orderMasks splits the compartments over n stops the way the dispatch text implies when it names
// no compartments: one stop takes all; otherwise compartment i goes to stop i and the last stop takes
// the rest (two stops: compartment 1 to the first, 2 and 3 to the second). The demo's planner writes
// its waybills with the same rule.
func orderMasks(n int) []uint8 {
	all := uint8(1)<<Compartments - 1
	out := make([]uint8, n)
	left := all
	for i := range n - 1 {
		out[i] = 1 << i
		left &^= 1 << i
	}
	out[n-1] = left
	return out
}

// OrderCompartmentStop is the 0-based stop that compartment c (1-based) of a trip to n stops
// unloads at (orderMasks).
func OrderCompartmentStop(c, n int) int {
	if n <= 1 || c < 1 {
		return 0
	}
	return min(c-1, n-1)
}

func regionOf(i int) string {
	if i < 12 {
		switch g := demoGroup(i); g {
		case "华北分公司":
			return "华北"
		case "华南分公司":
			return "华南"
		default: // 华东分公司 and its 上海车队
			return "华东"
		}
	}
	return Regions[i%3]
}

func placesOf(region, kind string) []int {
	var out []int
	for i, p := range DemoPlaces {
		if p.Region == region && p.Kind == kind {
			out = append(out, i)
		}
	}
	return out
}

func newVehicle(idx int, seed int64, epoch time.Time, interval time.Duration, misbehave float64, shift time.Duration) *vehicle {
	rng := rand.New(rand.NewPCG(uint64(seed), uint64(idx)*0x9e3779b97f4a7c15+1))
	v := &vehicle{idx: idx, region: regionOf(idx), rng: rng, interval: interval, misbehave: misbehave, valveAt: -1, theftAt: -1, shift: shift,
		probeRng: rand.New(rand.NewPCG(uint64(seed)^0x5eed_1e7e1, uint64(idx)*0x9e3779b97f4a7c15+7))}
	depots := placesOf(v.region, KindDepot)
	v.home = depots[rng.IntN(len(depots))]
	v.flaky = rng.Float64() < flakyChance*misbehave
	v.mileage = 50000 + rng.Float64()*250000
	v.fuel = 250 + rng.Float64()*250
	v.alt = baseAltitude(v.region)
	v.pos = DemoPlaces[v.home].point()
	v.dir = float64(rng.IntN(360))
	for c := range Compartments {
		for k := range tank.Kinds {
			v.dev[c][k] = tank.DevInstalled | tank.DevLocked
		}
	}
	v.locks.init(seed, idx)
	v.now = epoch
	v.setDay(epoch)
	switch {
	case epoch.Before(v.wake):
		v.startRest(epoch, v.wake)
	case epoch.After(v.lastStart.Add(3 * time.Hour)):
		v.setDay(epoch.Add(24 * time.Hour))
		v.startRest(epoch, v.wake)
	case rng.Float64() < 0.3:
		v.startLoad(epoch)
	default: // on the way to its first station, loaded and sealed
		v.startLoad(epoch)
		v.vol = v.goal
		v.finishLoad(epoch)
		v.walk.seek(rng.Float64() * 0.8)
		v.pos = v.walk.pos()
	}
	v.next = epoch.Add(time.Duration(rng.Float64() * float64(interval)))
	v.locks.pending = v.locks.pending[:0] // what the locks did before the simulation started is not reported
	return v
}

func baseAltitude(region string) float64 {
	switch region {
	case "华北":
		return 45
	case "华南":
		return 18
	}
	return 6
}

func baseTemp(region string) float64 {
	switch region {
	case "华北":
		return 14
	case "华南":
		return 26
	}
	return 19
}

// dayOf is the start of the vehicle's working day containing t: local midnight moved by its shift.
func (v *vehicle) dayOf(t time.Time) time.Time {
	l := t.Add(-v.shift).In(jt808.CST)
	return time.Date(l.Year(), l.Month(), l.Day(), 0, 0, 0, 0, jt808.CST).Add(v.shift)
}

// chance draws a Misbehave-scaled probability.
func (v *vehicle) chance(p float64) bool { return v.rng.Float64() < p*v.misbehave }

// setDay fixes the working window of the local day containing t and rolls the day's incidents.
func (v *vehicle) setDay(t time.Time) {
	midnight := v.dayOf(t)
	v.wake = midnight.Add(5*time.Hour + 30*time.Minute + time.Duration(v.rng.Float64()*150)*time.Minute)
	v.lastStart = midnight.Add(16*time.Hour + time.Duration(v.rng.Float64()*120)*time.Minute)
	v.restOffline = v.rng.Float64() < 0.5
	for k := range nIncidents {
		v.plan[k] = -1
		if k != IncidentMalformed && k != IncidentTheft && v.chance(dayChance[k]) {
			v.plan[k] = 0.15 + 0.7*v.rng.Float64()
		}
	}
	// theft draws from the probes' stream: adding it left the other incidents' days as they were
	if v.probeRng.Float64() < dayChance[IncidentTheft]*v.misbehave {
		v.plan[IncidentTheft] = 0.15 + 0.7*v.probeRng.Float64()
	}
	// so does the weep
	v.weepPct = -1
	if v.probeRng.Float64() < weepChance*v.misbehave {
		v.weepPct = 0.0005 + 0.0025*v.probeRng.Float64()
	}
}

func (v *vehicle) startRest(t, until time.Time) {
	v.ph, v.phaseFrom, v.phaseEnd = restPhase, t, until
}

func (v *vehicle) startLoad(t time.Time) {
	v.ph, v.phaseFrom = loadPhase, t
	v.loadFor = time.Duration(20+v.rng.IntN(21)) * time.Minute
	v.phaseEnd = t.Add(v.loadFor)
	v.pos = DemoPlaces[v.home].point()
	v.fill = v.vol
	v.locks.newDay(t)
	for c := range Compartments {
		v.locks.open(t, c, lockMethodBLE)
		v.goal[c] = 9000 + float64(v.rng.IntN(601))
		v.dev[c][tank.SmallManholeCover] &^= tank.DevLocked
		v.dev[c][tank.ManholeCover] &^= tank.DevLocked
		v.dev[c][tank.DischargeValve] &^= tank.DevLocked
		v.dev[c][tank.BottomValve] &^= tank.DevLocked
	}
	v.seal = tank.SealUnsealed
	// the trip: one station taking everything, or two sharing the compartments
	near := v.nearStations(DemoPlaces[v.home].point(), 6)
	first := near[v.rng.IntN(len(near))]
	if v.rng.Float64() < 0.7 {
		v.trip, v.tripMasks = []int{first}, []uint8{0b111}
	} else {
		second := near[v.rng.IntN(len(near))]
		for second == first {
			second = near[v.rng.IntN(len(near))]
		}
		m := uint8(1) << v.rng.IntN(Compartments)
		v.trip, v.tripMasks = []int{first, second}, []uint8{m, 0b111 &^ m}
	}
	v.orderNo = ""
	switch {
	case v.order != nil: // dispatched beforehand: its stations, its compartments
		v.takeOrder()
	case v.waitFor > 0: // wait at the depot for the dispatch (the planner is told)
		v.waiting, v.phaseEnd = true, t.Add(v.waitFor)
		if v.onDepot != nil {
			v.onDepot(DemoPlaces[v.home].Name, t)
		}
	}
}

// takeOrder replaces the trip being loaded by the dispatched one.
func (v *vehicle) takeOrder() {
	o := v.order
	v.order = nil
	v.trip, v.tripMasks, v.orderNo = append([]int(nil), o.stops...), orderMasks(len(o.stops)), o.no
}

// dispatch takes a dispatched trip at simulated time t: a truck waiting at its depot starts loading
// for it at once; otherwise it is the truck's next trip (after the current one).
func (v *vehicle) dispatch(o *order, t time.Time) {
	v.order = o
	if v.ph == loadPhase && v.waiting {
		v.takeOrder()
		v.waiting = false
		v.phaseFrom, v.phaseEnd = t, t.Add(v.loadFor)
	}
}

// nearStations returns the n stations of the region closest to p.
func (v *vehicle) nearStations(p point, n int) []int {
	st := placesOf(v.region, KindStation)
	for i := 1; i < len(st); i++ { // insertion sort by distance: a dozen entries
		for j := i; j > 0 && distance(p, DemoPlaces[st[j]].point()) < distance(p, DemoPlaces[st[j-1]].point()); j-- {
			st[j], st[j-1] = st[j-1], st[j]
		}
	}
	return st[:min(n, len(st))]
}

// finishLoad seals the tank and sets off to the first station.
func (v *vehicle) finishLoad(t time.Time) {
	for c := range Compartments {
		v.vol[c] = v.goal[c]
		v.lockAll(c)
	}
	v.seal = tank.SealSealed
	v.depart(t, v.trip[0])
	v.weepLeft = 0
	if v.weepPct > 0 { // the day's weep: on this trip's first leg, spread over its length
		v.weepLeft = v.weepPct * v.loaded()
		v.weepPerM = v.weepLeft / math.Max(1000, v.walk.r.length)
		v.weepPct = -1
	}
}

func (v *vehicle) lockAll(c int) {
	v.locks.close(v.now, c, v.locks.byHand(c))
	for k := range tank.Kinds {
		v.dev[c][k] = v.dev[c][k]&^tank.DevOpen | tank.DevLocked
	}
}

func (v *vehicle) depart(t time.Time, to int) {
	from := v.home
	if v.ph == unloadPhase && len(v.trip) > 0 {
		from = v.trip[0]
	}
	v.walk = walker{r: routeBetween(from, to)}
	v.ph, v.phaseFrom = drivePhase, t
	v.acc, v.targetSeg = true, -1
}

func (v *vehicle) loaded() float64 {
	s := 0.0
	for _, x := range v.vol {
		s += x
	}
	return s
}

// step advances the vehicle to its next report time and returns the report.
func (v *vehicle) step() sample {
	t := v.next
	dt := t.Sub(v.now).Seconds()
	v.now = t
	var out sample
	out.at = t
	if v.ph != drivePhase { // the step that arrived still reported the speed it moved with
		v.speed, v.acc = 0, v.ph == unloadPhase
	}
	switch v.ph {
	case restPhase:
		if !t.Before(v.phaseEnd) {
			v.setDay(t)
			v.startLoad(t)
		}
	case loadPhase:
		v.loading(t)
	case drivePhase:
		out.incidents = v.drive(t, dt)
	case unloadPhase:
		v.unloading(t)
	case stopPhase:
		if v.valveAt >= 0 { // someone is draining the compartment
			v.vol[v.valveAt] = math.Max(0, v.vol[v.valveAt]-40*dt/60)
		}
		if v.theftAt >= 0 && v.theftLeft > 0 { // a hose through the manhole or the valve, 30 L/min
			d := math.Min(v.theftLeft, math.Min(v.vol[v.theftAt], 30*dt/60))
			v.vol[v.theftAt] -= d
			v.theftLeft -= d
			if v.theftLeft <= 0 && v.theftCover {
				v.lockAll(v.theftAt)
			}
		}
		if !t.Before(v.phaseEnd) {
			if v.valveAt >= 0 {
				v.lockAll(v.valveAt)
				v.valveAt = -1
			}
			if v.theftAt >= 0 {
				if v.theftCover {
					v.lockAll(v.theftAt)
				}
				v.theftAt = -1
			}
			v.ph, v.acc = drivePhase, true
		}
	}
	helpDue := v.helpEvery > 0 && !t.Before(v.nextHelp)
	if helpDue {
		v.restOffline = false // a driver asking for help switches the terminal on
		v.askHelp()
		v.nextHelp = t.Add(v.helpEvery)
		out.incidents |= 1 << IncidentHelp
	}
	if v.ph == drivePhase {
		v.next = t.Add(v.interval)
	} else if v.ph == restPhase {
		v.next = v.phaseEnd
		if v.helpEvery > 0 && v.nextHelp.Before(v.next) {
			v.next = v.nextHelp // a resting driver may ask too, and that request is reported at once
		}
	} else {
		v.next = t.Add(3 * v.interval)
	}
	v.signal = byte(12 + v.rng.IntN(20))
	v.sats = byte(8 + v.rng.IntN(15))
	malformed := v.flaky && v.rng.Float64() < math.Min(0.5, malformedChance*v.misbehave)
	out.online = t.Compare(v.offlineUntil) >= 0 && !(v.ph == restPhase && v.restOffline)
	if v.ph != restPhase || v.phaseFrom.Equal(t) || helpDue { // the arrival at the depot is still reported
		out.body = v.body(t)
		out.malformed = malformed
		if malformed {
			out.incidents |= 1 << IncidentMalformed
		}
	}
	return out
}

// askHelp queues a periodic help request (Config.HelpEvery): unlock and lock in turn, unlock first.
func (v *vehicle) askHelp() {
	v.helpSeq++
	v.help = tank.Help{Type: tank.HelpUnlock, RequestID: v.helpSeq}
	if v.helpSeq%2 == 0 {
		v.help.Type = tank.HelpLock
	}
	v.helpPending = true
}

func (v *vehicle) loading(t time.Time) {
	if v.waiting {
		if v.tellDepot && v.onDepot != nil {
			v.tellDepot = false
			v.onDepot(DemoPlaces[v.home].Name, t)
		}
		if t.Before(v.phaseEnd) {
			return // valves shut: nothing loads before the dispatch
		}
		v.waiting = false // no dispatch came: load by its own plan
		v.phaseFrom, v.phaseEnd = t, t.Add(v.loadFor)
		return
	}
	if !v.sealedAt.IsZero() { // sealed, waiting for the ticket's paperwork
		if t.Before(v.sealedAt.Add(ticketWait)) {
			return
		}
		v.sealedAt = time.Time{}
		v.finishLoad(t)
		if v.forceInc > 0 {
			v.plan[v.forceInc-1] = 0.3
			v.forceInc = 0
		}
		return
	}
	if !t.Before(v.phaseEnd) {
		if v.onLoaded != nil {
			comps := make([]LoadedCompartment, 0, Compartments)
			for c := range Compartments {
				if vt := v.goal[c] - v.fill[c]; vt > 0 {
					comps = append(comps, LoadedCompartment{No: c + 1, VtL: math.Round(vt), TempC: baseTemp(v.region)})
				}
			}
			v.onLoaded(comps, v.phaseFrom, t)
			// the depot prints the ticket while the driver seals the compartments: the truck leaves
			// ticketWait later, sealed
			for c := range Compartments {
				v.vol[c] = v.goal[c]
				v.lockAll(c)
			}
			v.seal = tank.SealSealed
			v.sealedAt = t
			return
		}
		v.finishLoad(t)
		if v.forceInc > 0 { // Config.FirstTripIncident: a third of the way along the first leg
			v.plan[v.forceInc-1] = 0.3
			v.forceInc = 0
		}
		return
	}
	// compartments fill one after another through their discharge valves (bottom loading)
	p := float64(t.Sub(v.phaseFrom)) / float64(v.phaseEnd.Sub(v.phaseFrom)) * Compartments
	for c := range Compartments {
		f := math.Max(0, math.Min(1, p-float64(c)))
		v.vol[c] = v.fill[c] + (v.goal[c]-v.fill[c])*f
		if f > 0 && f < 1 {
			v.dev[c][tank.DischargeValve] |= tank.DevOpen
		} else {
			v.dev[c][tank.DischargeValve] &^= tank.DevOpen
		}
	}
}

func (v *vehicle) unloading(t time.Time) {
	f := math.Min(1, float64(t.Sub(v.phaseFrom))/float64(v.phaseEnd.Sub(v.phaseFrom)))
	for c := range Compartments {
		if v.unload&(1<<c) != 0 {
			v.vol[c] = v.fill[c] * (1 - f)
		}
	}
	if f < 1 {
		return
	}
	for c := range Compartments {
		v.lockAll(c)
	}
	if (v.onUnload != nil || v.onDeliver != nil) && len(v.trip) > 0 {
		litres := 0.0
		for c := range Compartments {
			if v.unload&(1<<c) != 0 {
				litres += v.fill[c]
			}
		}
		if v.onDeliver != nil {
			v.onDeliver(DemoPlaces[v.trip[0]].Name, litres, v.product, baseTemp(v.region), v.phaseFrom, t)
		} else {
			v.onUnload(DemoPlaces[v.trip[0]].Name, litres, v.phaseFrom, t)
		}
	}
	if v.loaded() < 1 {
		v.seal = tank.SealUnsealed // nothing to protect on the way back
	} else {
		v.seal = tank.SealSealed
	}
	next := v.home
	if len(v.trip) > 1 {
		next = v.trip[1]
	}
	v.depart(t, next)
	v.trip, v.tripMasks = v.trip[1:], v.tripMasks[1:]
}

// drive moves the truck along its route for dt seconds and starts the day's road incidents.
func (v *vehicle) drive(t time.Time, dt float64) (inc uint16) {
	if v.walk.seg != v.targetSeg {
		v.targetSeg = v.walk.seg
		if v.walk.city() {
			v.target = 30 + v.rng.Float64()*20
		} else {
			v.target = 70 + v.rng.Float64()*9
		}
	}
	target, top := v.target, speedLimit
	if t.Before(v.speedingUntil) {
		target, top = v.speedingTarget, 100
	}
	if rem := v.walk.remaining(); rem < 1000 {
		target = math.Min(target, math.Max(12, rem/1000*40))
	}
	dv := math.Max(-20, math.Min(15, target-v.speed)) + v.rng.NormFloat64()*1.5
	v.speed = math.Max(5, math.Min(top, v.speed+dv))
	d := v.speed / 3.6 * dt
	prev := v.pos
	v.walk.advance(d)
	v.pos = v.walk.pos()
	if distance(prev, v.pos) > 1 {
		v.dir = bearing(prev, v.pos)
	}
	v.mileage += d / 1000
	if v.weepLeft > 0 { // the slow weep: a little from every loaded compartment, nothing opened
		w := math.Min(v.weepLeft, v.weepPerM*d)
		if tot := v.loaded(); tot > 1 {
			for c := range Compartments {
				v.vol[c] = math.Max(0, v.vol[c]-w*v.vol[c]/tot)
			}
		}
		v.weepLeft -= w
	}
	v.fuel = math.Max(20, v.fuel-d/1000*fuelPerKm)
	v.alt = math.Max(0, math.Min(baseAltitude(v.region)*2+10, v.alt+v.rng.NormFloat64()))

	f := v.walk.fraction()
	due := func(k Incident) bool { return v.plan[k] >= 0 && f >= v.plan[k] && v.ph == drivePhase }
	if due(IncidentSpeeding) && !v.walk.city() {
		v.plan[IncidentSpeeding] = -1
		v.speedingUntil = t.Add(time.Duration(3+v.rng.IntN(4)) * time.Minute)
		v.speedingTarget = 86 + v.rng.Float64()*9
		inc |= 1 << IncidentSpeeding
	}
	if due(IncidentSeal) && v.seal == tank.SealSealed {
		v.plan[IncidentSeal] = -1
		v.seal = tank.SealBroken
		broken := v.rng.IntN(Compartments)
		v.dev[broken][tank.ManholeCover] &^= tank.DevLocked
		v.locks.tamper(t, broken)
		inc |= 1 << IncidentSeal
	}
	if due(IncidentOffline) {
		v.plan[IncidentOffline] = -1
		v.offlineUntil = t.Add(time.Duration(10+v.rng.IntN(51)) * time.Minute)
		inc |= 1 << IncidentOffline
	}
	if due(IncidentValve) && v.loaded() > 500 {
		v.plan[IncidentValve] = -1
		c := v.rng.IntN(Compartments)
		for v.vol[c] < 100 {
			c = (c + 1) % Compartments
		}
		v.valveAt = c
		v.dev[c][tank.DischargeValve] = v.dev[c][tank.DischargeValve]&^tank.DevLocked | tank.DevOpen
		v.locks.open(t, c, lockMethodKey)
		v.stop(t, time.Duration(8+v.rng.IntN(8))*time.Minute)
		inc |= 1 << IncidentValve
	}
	if due(IncidentTheft) && v.loaded() > 1000 && v.ph == drivePhase {
		v.plan[IncidentTheft] = -1
		c := v.probeRng.IntN(Compartments)
		for v.vol[c] < 600 {
			c = (c + 1) % Compartments
		}
		v.theftAt, v.theftLeft, v.theftCover = c, 200+float64(v.probeRng.IntN(301)), v.probeRng.Float64() < 0.5
		if v.theftCover {
			v.dev[c][tank.ManholeCover] = v.dev[c][tank.ManholeCover]&^tank.DevLocked | tank.DevOpen
			v.locks.open(t, c, lockMethodKey)
		}
		v.stop(t, time.Duration(15+v.probeRng.IntN(11))*time.Minute)
		inc |= 1 << IncidentTheft
	}
	if due(IncidentLongPark) {
		v.plan[IncidentLongPark] = -1
		v.stop(t, 2*time.Hour+time.Duration(v.rng.IntN(61))*time.Minute)
		inc |= 1 << IncidentLongPark
	}
	if v.ph == drivePhase && v.walk.done() {
		inc |= v.arrive(t)
	}
	return inc
}

func (v *vehicle) stop(t time.Time, d time.Duration) {
	v.ph, v.phaseFrom, v.phaseEnd = stopPhase, t, t.Add(d)
}

func (v *vehicle) arrive(t time.Time) (inc uint16) {
	to := v.walk.r.to
	v.pos = DemoPlaces[to].point()
	if DemoPlaces[to].Kind == KindStation && len(v.trip) > 0 {
		v.ph, v.phaseFrom = unloadPhase, t
		v.phaseEnd = t.Add(time.Duration(15+v.rng.IntN(16)) * time.Minute)
		v.unload = v.tripMasks[0]
		v.fill = v.vol
		v.seal = tank.SealUnsealed
		how := v.locks.stationMethod()
		for c := range Compartments {
			v.locks.open(t, c, how)
			for k := range tank.Kinds {
				v.dev[c][k] &^= tank.DevLocked
			}
			if v.unload&(1<<c) != 0 {
				v.dev[c][tank.DischargeValve] |= tank.DevOpen
				v.dev[c][tank.BottomValve] |= tank.DevOpen
			}
		}
		if v.plan[IncidentHelp] >= 0 {
			v.plan[IncidentHelp] = -1
			v.helpSeq++
			v.help = tank.Help{Type: tank.HelpUnlock, RequestID: v.helpSeq}
			if v.rng.Float64() < 0.4 {
				v.help.Type = tank.HelpLock
			}
			v.helpPending = true
			inc |= 1 << IncidentHelp
		}
		return inc
	}
	// back at the depot
	if v.fuel < 200 {
		v.fuel = 400 + v.rng.Float64()*100
	}
	if t.Before(v.lastStart) {
		v.startLoad(t)
		return inc
	}
	v.setDay(v.dayOf(t).Add(36 * time.Hour)) // noon of the next working day
	v.startRest(t, v.wake)
	return inc
}

// applyLock carries out a lock command (0xE4, or 0x8500 door lock) on the compartments in mask
// (0 = all): unlocking opens the locks and ends the seal, locking closes and locks the devices.
// The locks answer with remote-method events at the terminal's time at.
func (v *vehicle) applyLock(action, mask byte, at time.Time) {
	for c := range Compartments {
		if mask != 0 && mask&(1<<c) == 0 {
			continue
		}
		if action == tank.HelpLock {
			v.locks.close(at, c, lockMethodRemote)
			v.lockAll(c)
		} else {
			v.locks.open(at, c, lockMethodRemote)
			for k := range tank.Kinds {
				v.dev[c][k] &^= tank.DevLocked
			}
		}
	}
	if action == tank.HelpUnlock && v.seal == tank.SealSealed {
		v.seal = tank.SealUnsealed
	}
}

func (v *vehicle) allLocked() bool {
	for c := range Compartments {
		for k := range tank.Kinds {
			if v.dev[c][k]&tank.DevInstalled != 0 && v.dev[c][k]&tank.DevLocked == 0 {
				return false
			}
		}
	}
	return true
}

// location is the current state as a 0x0200 position at time t (without items).
func (v *vehicle) location(t time.Time) jt808.Location {
	st := jt808.StatusPositioned | jt808.StatusGPS | jt808.StatusBeiDou
	if v.acc {
		st |= jt808.StatusACC
	}
	switch f := v.loaded() / (Compartments * CompartmentLitres); {
	case f >= 0.85:
		st |= uint32(jt808.LoadFull) << 8
	case f >= 0.05:
		st |= uint32(jt808.LoadHalf) << 8
	}
	if v.allLocked() {
		st |= jt808.StatusDoorLocked
	}
	var alarm uint32
	if v.speed > speedLimit {
		alarm |= 1 << 1
	}
	return jt808.Location{Alarm: alarm, Status: st,
		Lat: int32(math.Round(v.pos.lat * 1e6)), Lon: int32(math.Round(v.pos.lon * 1e6)),
		Altitude: uint16(math.Round(v.alt)), Speed: uint16(math.Round(v.speed * 10)),
		Direction: uint16(math.Round(v.dir)) % 360, Time: t.Truncate(time.Second)}
}

// demoStrap is the demo compartments' strapping table (tankinfo seeds exactly this one): the
// liquid height of a volume comes from it.
var demoStrap = tank.EllipseStrap(CompartmentLitres, TankHeightMM, 91)

// Probe noise (D36): a magnetostrictive probe reads to about ±1 mm (σ 0.7 mm); sloshing while driving
// adds a decaying oscillation of the surface that acceleration and braking excite (mm per km/h of
// speed change per step) and the road keeps up in proportion to the speed.
const (
	probeSigmaMM = 0.7
	sloshPerKmh  = 0.8  // mm of surface swing per km/h of speed change in one step
	sloshRoad    = 0.04 // mm of swing the road keeps up per km/h
	sloshDecay   = 0.6  // fraction of the swing left after one step (10 s)
	sloshMaxMM   = 40
)

// stepProbes moves the sloshing by one report: excited by the change of speed, kept up by the road,
// damped at rest.
func (v *vehicle) stepProbes() {
	dv := math.Abs(v.speed - v.prevSpeed)
	v.prevSpeed = v.speed
	for c := range Compartments {
		v.slosh[c] = math.Min(sloshMaxMM, v.slosh[c]*sloshDecay+dv*sloshPerKmh+v.speed*sloshRoad*v.probeRng.Float64())
		v.sloshPh[c] = v.probeRng.Float64() * 2 * math.Pi // reports are far apart compared with the swing's period
	}
}

// probe is compartment c's reading: the height of its volume through the table, plus sloshing and the
// probe's noise; the probe's own volume is its linear calibration of that height, so the table and
// the probe differ (the platform counts the table's).
func (v *vehicle) probe(c int, temp float64) tank.Level {
	h := 0.0
	if v.vol[c] > 0.5 {
		h = demoStrap.Height(v.vol[c]) + v.slosh[c]*math.Sin(v.sloshPh[c]) + v.probeRng.NormFloat64()*probeSigmaMM
	}
	h = math.Max(0, math.Min(TankHeightMM, h))
	mm := math.Round(h)
	return tank.Level{Compartment: uint8(c + 1), LevelMM: uint16(mm),
		VolumeL: uint32(math.Round(mm / TankHeightMM * CompartmentLitres)), TempDeci: int16(math.Round(temp * 10))}
}

// body encodes the report at time t: position, mileage, fuel, signal, satellites and the tank items.
func (v *vehicle) body(t time.Time) []byte {
	loc := v.location(t)
	b, err := loc.AppendBody(make([]byte, 0, 112), jt808.V2013)
	if err != nil { // coordinates and times are ours and in range; keep the report rather than panic
		return nil
	}
	b = append(b, jt808.ItemMileage, 4)
	b = binary.BigEndian.AppendUint32(b, uint32(v.mileage*10))
	b = append(b, jt808.ItemFuel, 2)
	b = binary.BigEndian.AppendUint16(b, uint16(v.fuel*10))
	b = append(b, jt808.ItemSignal, 1, v.signal, jt808.ItemSatellites, 1, v.sats)
	s := tank.State{Compartments: Compartments, Seal: v.seal}
	l := tank.Levels{N: Compartments}
	temp := baseTemp(v.region)
	v.stepProbes()
	for c := range Compartments {
		s.Devices[c] = v.dev[c]
		l.Probes[c] = v.probe(c, temp)
	}
	b, _ = s.AppendItem(b)
	b, _ = l.AppendItem(b)
	if v.helpPending {
		b = v.help.AppendItem(b)
		v.helpPending = false
	}
	return v.locks.appendItems(b)
}
