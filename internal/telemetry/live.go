package telemetry

import (
	"cmp"
	"context"
	"log/slog"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"tankwatch/internal/fleet"
	"tankwatch/internal/platform/db"
	"tankwatch/internal/tank"
)

// LiveConfig holds the live-state thresholds. Zero fields take the defaults.
type LiveConfig struct {
	OfflineAfter time.Duration // 10 min; a car's own offline_minutes > 0 wins
	MovingKmh    float64       // 5 km/h: at or above, an online car is in transit
	Reload       time.Duration // 30 s: how often the car registry is re-read (new, moved, deleted cars)
}

func (c LiveConfig) withDefaults() LiveConfig {
	if c.OfflineAfter <= 0 {
		c.OfflineAfter = 10 * time.Minute
	}
	if c.MovingKmh <= 0 {
		c.MovingKmh = 5
	}
	if c.Reload <= 0 {
		c.Reload = 30 * time.Second
	}
	return c
}

// Live is the live state per car: a cache rebuilt from the store at start-up (Load) and kept current
// from committed reports (Apply). It is never the source of truth.
type Live struct {
	d   *db.DB
	f   *fleet.Service
	cfg LiveConfig
	now func() time.Time
	log *slog.Logger

	movingDeci int // MovingKmh in the reports' 1/10 km/h, rounded up
	// offlineOverride is the platform's offline threshold (ms) set at run time by the system settings
	// (SetOfflineAfter); 0: cfg.OfflineAfter. Atomic: offline records read it without the lock.
	offlineOverride atomic.Int64

	reloadMu sync.Mutex // one registry reload at a time

	mu      sync.RWMutex
	entries map[int64]*liveEntry // registry cars, plus reported cars the registry did not list yet
	// The registry cars ordered by group path, plate and id: a group's subtree is one contiguous span,
	// so counting is two binary searches and a scan of small records.
	paths []string
	hot   []liveHot
	ids   []int64
	slot  map[int64]int

	// Change tracking for the live WebSocket: every change of a car's cached state takes the next
	// sequence number as the entry's version, vers mirrors the versions in the order of hot (so a
	// subscriber compares a contiguous array with what it sent), and gen counts installs, which
	// move the slots.
	seq  uint64
	gen  uint64
	vers []uint64
	// changed is closed (and replaced) by every Apply or install that changed something, so that a
	// live WebSocket sends a delta soon after a commit instead of waiting for its next tick.
	changed chan struct{}

	conv Converter // converts stored levels at Load (the tank catalogue); nil = no readings after a restart
}

// SetConverter sets what makes the stored newest levels volumes when Load rebuilds the state (the
// same converter as the history writer's). Call before Load.
func (l *Live) SetConverter(c Converter) {
	l.mu.Lock()
	l.conv = c
	l.mu.Unlock()
}

// liveEntry is one car's cached state.
type liveEntry struct {
	car   fleet.LiveCar
	known bool // listed by the registry

	pos       livePos
	hasPos    bool
	lock      liveLock
	hasLock   bool
	levels    liveLevels
	hasLevels bool
	ver       uint64 // Live.seq when the entry last changed
	tver      uint64 // Live.seq when its lock state or levels last changed (the live tank delta)
}

// livePos is the newest position; t is the device time (received time when the device sent none), as
// positions.t.
type livePos struct {
	t, terminal, received int64
	lat, lon              int32
	speed, direction      uint16
	alarm, status         uint32
	mileage               uint32
	hasMileage            bool
}

type liveLock struct {
	t, terminal int64
	text        string // tank.LockString
	seal        tank.Seal
	fault       bool
}

type liveLevels struct {
	t, terminal int64
	levels      tank.Levels
	readings    []tank.Reading // levels made volumes (the report's Readings; converted again after a restart)
}

// liveHot is what counting needs of a car, kept small and contiguous.
type liveHot struct {
	deadline int64 // ms: online until then (received + offline time); liveNever when never reported
	speed    uint16
	abnormal bool
}

// liveNever is the deadline of a car that never reported: every clock is past it.
const liveNever = math.MinInt64

// NewLive returns an empty live state; call Load before serving.
func NewLive(d *db.DB, f *fleet.Service, cfg LiveConfig, now func() time.Time) *Live {
	cfg = cfg.withDefaults()
	if now == nil {
		now = time.Now
	}
	return &Live{d: d, f: f, cfg: cfg, now: now, log: slog.Default(),
		movingDeci: int(math.Min(math.Ceil(cfg.MovingKmh*10), math.MaxUint16+1)),
		entries:    map[int64]*liveEntry{}, slot: map[int64]int{}, changed: make(chan struct{})}
}

// Changed returns a channel closed at the next change of the cached state.
func (l *Live) Changed() <-chan struct{} {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return l.changed
}

// signal wakes the waiters of Changed; the caller holds mu.
func (l *Live) signal() {
	close(l.changed)
	l.changed = make(chan struct{})
}

// liveNewer is the newest-wins order of rows with the primary key (car, t, terminal): a later device
// time wins, the larger terminal id breaks a tie, and the same key again (a re-sent report the store
// ignored) changes nothing.
func liveNewer(t, terminal, curT, curTerminal int64) bool {
	return t > curT || (t == curT && terminal > curTerminal)
}

// liveTime is the stored time of a report: device time, or the received time when there is none.
func liveTime(r *Report) int64 {
	if r.Time.IsZero() {
		return r.Received.UnixMilli()
	}
	return r.Time.UnixMilli()
}

// Apply takes one committed batch in commit order. Older reports (blind-area re-uploads) do not
// replace newer ones; TankOnly reports change only the tank data.
func (l *Live) Apply(reports []Report) {
	l.mu.Lock()
	defer l.mu.Unlock()
	seq := l.seq
	defer func() {
		if l.seq != seq {
			l.signal()
		}
	}()
	for i := range reports {
		r := &reports[i]
		if r.CarID == 0 {
			continue
		}
		e := l.entries[r.CarID]
		if e == nil {
			// Reported before the registry reload saw the car: keep it until the reload decides.
			e = &liveEntry{car: fleet.LiveCar{ID: r.CarID}}
			l.entries[r.CarID] = e
		}
		t := liveTime(r)
		changed := false
		if !r.TankOnly && (!e.hasPos || liveNewer(t, r.TerminalID, e.pos.t, e.pos.terminal)) {
			e.pos = livePos{t: t, terminal: r.TerminalID, received: r.Received.UnixMilli(), lat: r.Lat, lon: r.Lon,
				speed: r.Speed, direction: r.Direction, alarm: r.Alarm, status: r.Status,
				mileage: r.Mileage, hasMileage: r.HasMileage}
			e.hasPos, changed = true, true
		}
		tankChanged := false
		if r.Tank != nil && (!e.hasLock || liveNewer(t, r.TerminalID, e.lock.t, e.lock.terminal)) {
			text := tank.LockString(r.Tank)
			e.lock = liveLock{t: t, terminal: r.TerminalID, text: text, seal: r.Tank.Seal, fault: liveLockFault(text)}
			e.hasLock, changed, tankChanged = true, true, true
		}
		// An empty probe list is stored as "" and so reads back as no levels: treat it the same here.
		if r.Levels != nil && r.Levels.N > 0 && (!e.hasLevels || liveNewer(t, r.TerminalID, e.levels.t, e.levels.terminal)) {
			e.levels = liveLevels{t: t, terminal: r.TerminalID, levels: *r.Levels, readings: r.Readings}
			e.hasLevels, changed, tankChanged = true, true, true
		}
		if !changed {
			continue
		}
		l.seq++
		e.ver = l.seq
		if tankChanged {
			e.tver = l.seq
		}
		if i, ok := l.slot[r.CarID]; ok {
			l.hot[i], l.vers[i] = l.hotOf(e), e.ver
		}
	}
}

// merge folds src into e by the newest-wins order (Load meeting reports applied meanwhile).
func (e *liveEntry) merge(src *liveEntry) {
	if src.hasPos && (!e.hasPos || liveNewer(src.pos.t, src.pos.terminal, e.pos.t, e.pos.terminal)) {
		e.pos, e.hasPos = src.pos, true
	}
	if src.hasLock && (!e.hasLock || liveNewer(src.lock.t, src.lock.terminal, e.lock.t, e.lock.terminal)) {
		e.lock, e.hasLock = src.lock, true
	}
	if src.hasLevels && (!e.hasLevels || liveNewer(src.levels.t, src.levels.terminal, e.levels.t, e.levels.terminal)) {
		e.levels, e.hasLevels = src.levels, true
	}
}

func (l *Live) offlineMS(c *fleet.LiveCar) int64 {
	if c.OfflineMinutes > 0 {
		return int64(c.OfflineMinutes) * 60_000
	}
	if v := l.offlineOverride.Load(); v > 0 {
		return v
	}
	return l.cfg.OfflineAfter.Milliseconds()
}

func (l *Live) hotOf(e *liveEntry) liveHot {
	h := liveHot{deadline: liveNever}
	if e.hasPos {
		h.deadline, h.speed = e.pos.received+l.offlineMS(&e.car), e.pos.speed
		h.abnormal = e.pos.alarm != 0
	}
	if e.hasLock && (e.lock.seal == tank.SealBroken || e.lock.fault) {
		h.abnormal = true
	}
	return h
}

func liveB2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// code judges a car at now (ms): offline, in transit or resting.
func (l *Live) code(h *liveHot, now int64) int {
	switch {
	case now > h.deadline:
		return LiveOffline
	case int(h.speed) >= l.movingDeci:
		return LiveMoving
	}
	return LiveResting
}

// span is the range of l.hot whose cars lie under path (caller holds mu).
func (l *Live) span(path string) (int, int) {
	lo := sort.SearchStrings(l.paths, path)
	hi := lo + sort.Search(len(l.paths)-lo, func(i int) bool { return !strings.HasPrefix(l.paths[lo+i], path) })
	return lo, hi
}

// liveCountSet is the counts of one subtree by code.
type liveCountSet struct{ total, moving, resting, offline, abnormal int }

// Counts is the number of cars under the group path (the scope's subtree) by code: "8" all, "4" in
// transit, "5" resting at low speed, "7" offline, "3" abnormal (4 + 5 + 7 = 8; 3 overlaps them).
func (l *Live) Counts(path string) map[string]int {
	now := l.now().UnixMilli()
	l.mu.RLock()
	c := l.countsLocked(path, now)
	l.mu.RUnlock()
	return map[string]int{"8": c.total, "4": c.moving, "5": c.resting, "7": c.offline, "3": c.abnormal}
}

// countsLocked counts the cars under path at now (ms); the caller holds mu.
func (l *Live) countsLocked(path string, now int64) liveCountSet {
	// Without branches on the data: which way a car goes is random, and mispredictions would
	// dominate the loop.
	var offline, moving, abnormal int
	lo, hi := l.span(path)
	for _, h := range l.hot[lo:hi] {
		off := liveB2i(now > h.deadline)
		offline += off
		moving += liveB2i(int(h.speed) >= l.movingDeci) &^ off
		abnormal += liveB2i(h.abnormal)
	}
	total := hi - lo
	return liveCountSet{total: total, moving: moving, resting: total - offline - moving, offline: offline, abnormal: abnormal}
}

// Car returns a registry car's live state.
func (l *Live) Car(carID int64) (CarState, bool) {
	now := l.now().UnixMilli()
	l.mu.RLock()
	defer l.mu.RUnlock()
	e := l.entries[carID]
	if e == nil || !e.known {
		return CarState{}, false
	}
	return l.stateOf(e, now), true
}

// liveMatch selects cars of a listing: code 0 or LiveTotal = all.
type liveMatch struct {
	path  string
	code  int
	plate string // plate key contains (plate.Key), "" = any
}

// find lists the ids of the registry cars under m.path that match, in group path, plate, id order.
func (l *Live) find(m liveMatch) []int64 {
	now := l.now().UnixMilli()
	l.mu.RLock()
	defer l.mu.RUnlock()
	lo, hi := l.span(m.path)
	out := []int64{}
	for i := lo; i < hi; i++ {
		h := &l.hot[i]
		switch m.code {
		case 0, LiveTotal:
		case LiveAbnormal:
			if !h.abnormal {
				continue
			}
		default:
			if l.code(h, now) != m.code {
				continue
			}
		}
		if m.plate != "" && !strings.Contains(l.entries[l.ids[i]].car.PlateKey, m.plate) {
			continue
		}
		out = append(out, l.ids[i])
	}
	return out
}

// states returns the live states of ids that are (still) registry cars, in the given order.
func (l *Live) states(ids []int64) []CarState {
	now := l.now().UnixMilli()
	l.mu.RLock()
	defer l.mu.RUnlock()
	out := make([]CarState, 0, len(ids))
	for _, id := range ids {
		if e := l.entries[id]; e != nil && e.known {
			out = append(out, l.stateOf(e, now))
		}
	}
	return out
}

func (l *Live) stateOf(e *liveEntry, now int64) CarState {
	s := l.posStateOf(e, now)
	if e.hasLock {
		s.TankTime, s.LockState, s.Seal, s.Fault = time.UnixMilli(e.lock.t).UTC(), e.lock.text, e.lock.seal, e.lock.fault
	}
	if e.hasLevels {
		s.LevelTime = time.UnixMilli(e.levels.t).UTC()
		s.Levels = slices.Clone(e.levels.levels.Probes[:e.levels.levels.N])
		s.Readings = slices.Clone(e.levels.readings)
	}
	return s
}

// TankCars returns the live states (with lock state, levels and readings) of the registry cars
// under path that have tank data or listed compartments (compartments > 0), in group path, plate,
// id order: the tank monitor's table is served from here, never per row from the store.
func (l *Live) TankCars(path string) []CarState {
	now := l.now().UnixMilli()
	l.mu.RLock()
	defer l.mu.RUnlock()
	lo, hi := l.span(path)
	out := make([]CarState, 0, hi-lo)
	for i := lo; i < hi; i++ {
		e := l.entries[l.ids[i]]
		if e == nil || (!e.hasLevels && !e.hasLock && e.car.Compartments <= 0) {
			continue
		}
		out = append(out, l.stateOf(e, now))
	}
	return out
}

// posStateOf is stateOf without the tank data (lock state, levels): what a map marker shows, built
// without allocating.
func (l *Live) posStateOf(e *liveEntry, now int64) CarState {
	h := l.hotOf(e)
	s := CarState{LiveCar: e.car, Abnormal: h.abnormal, Code: l.code(&h, now)}
	s.Online = s.Code != LiveOffline
	s.Moving = s.Code == LiveMoving
	if e.hasPos {
		p := &e.pos
		s.Reported = true
		s.Time, s.Received, s.TerminalID = time.UnixMilli(p.t).UTC(), time.UnixMilli(p.received).UTC(), p.terminal
		s.Lat, s.Lon, s.Speed, s.Direction = p.lat, p.lon, p.speed, p.direction
		s.Alarm, s.Status, s.Mileage, s.HasMileage = p.alarm, p.status, p.mileage, p.hasMileage
	}
	return s
}

// install replaces the registry part of the cache with cars (the store state, when given, is merged
// into the cached one): cars the registry no longer lists are dropped, moved cars change their span.
func (l *Live) install(cars []fleet.LiveCar, stored map[int64]*liveEntry) {
	slices.SortFunc(cars, func(a, b fleet.LiveCar) int {
		return cmp.Or(strings.Compare(a.GroupPath, b.GroupPath), strings.Compare(a.Plate, b.Plate), cmp.Compare(a.ID, b.ID))
	})
	paths := make([]string, len(cars))
	ids := make([]int64, len(cars))
	slot := make(map[int64]int, len(cars))
	for i := range cars {
		paths[i], ids[i], slot[cars[i].ID] = cars[i].GroupPath, cars[i].ID, i
	}
	hot := make([]liveHot, len(cars))
	vers := make([]uint64, len(cars))

	l.mu.Lock()
	defer l.mu.Unlock()
	entries := make(map[int64]*liveEntry, len(cars))
	for i := range cars {
		e := l.entries[cars[i].ID]
		if e == nil {
			e = &liveEntry{}
		}
		s := stored[cars[i].ID]
		if !e.known || e.car != cars[i] || s != nil { // new, renamed, moved or reloaded: subscribers resend it
			l.seq++
			e.ver = l.seq
			if s != nil && (s.hasLevels || s.hasLock) {
				e.tver = l.seq
			}
		}
		e.car, e.known = cars[i], true
		if s != nil {
			e.merge(s)
		}
		entries[cars[i].ID] = e
		hot[i], vers[i] = l.hotOf(e), e.ver
	}
	l.entries, l.paths, l.hot, l.ids, l.slot, l.vers = entries, paths, hot, ids, slot, vers
	l.gen++
	l.signal()
}

// Reload re-reads the car registry: new cars appear, moved cars count in their new group, deleted
// cars disappear. Their reported state is kept.
func (l *Live) Reload(ctx context.Context) error {
	l.reloadMu.Lock()
	defer l.reloadMu.Unlock()
	cars, err := l.f.LiveCars(ctx)
	if err != nil {
		return err
	}
	l.install(cars, nil)
	return nil
}

// Run reloads the car registry every Reload interval until ctx ends.
func (l *Live) Run(ctx context.Context) {
	t := time.NewTicker(l.cfg.Reload)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if err := l.Reload(ctx); err != nil && ctx.Err() == nil {
				l.log.Warn("live state: car registry reload failed", "err", err)
			}
		}
	}
}

// known reports whether the cache lists carID from the registry.
func (l *Live) known(carID int64) bool {
	l.mu.RLock()
	defer l.mu.RUnlock()
	e := l.entries[carID]
	return e != nil && e.known
}
