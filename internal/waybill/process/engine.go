package process

import (
	"context"
	"log/slog"
	"maps"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/uptrace/bun"

	"tankwatch/internal/platform/db"
	"tankwatch/internal/tank"
	"tankwatch/internal/telemetry"
	"tankwatch/internal/waybill"
)

// Stations tells whether a position lies in any station or depot fence of the car's company
// (station.Service): an opening inside one is not "on the way".
type Stations interface {
	StationAt(groupPath string, lat, lon int32) (id int64, name string, ok bool)
}

// Converter makes stored levels volumes (tank.Catalog), for the catch-up.
type Converter interface {
	Convert(carID int64, l *tank.Levels) []tank.Reading
}

// Deps are the engine's collaborators; Stations and Levels may be nil.
type Deps struct {
	DB       *db.DB
	Stations Stations
	Levels   Converter
	Now      func() time.Time
}

// EngineConfig tunes the engine; zero fields take the defaults.
type EngineConfig struct {
	Config
	Queue        int           // committed batches waiting (256); beyond, the cars are caught up from the store
	CatchUpEvery time.Duration // 2 s between catch-up passes
	ReloadEvery  time.Duration // 5 s between reloads of the active waybills (and received-volume retries)
	// GaugeWait is how long after an unloading ends the engine waits for the station gauge's delivery
	// before it takes the truck's own figure (20 min).
	GaugeWait time.Duration
}

// Engine follows every active waybill from the committed reports of its car (DESIGN §2: one
// subscription point, never the gateway). It never loses a report silently: when its queue is full
// the cars of the batch are marked behind and a catch-up pass reads their reports back from the store
// (positions, tank_states, level_readings) from where their state stopped.
type Engine struct {
	d   Deps
	cfg EngineConfig
	log *slog.Logger

	q         chan telemetry.Queued
	bmu       sync.Mutex
	behind    map[int64]bool
	touched   map[int64]bool
	wake      chan struct{}
	evaluated atomic.Int64
	overflows atomic.Int64
	caught    atomic.Int64
	moved     atomic.Int64

	cars   map[int64]*carState // owned by the run goroutine (or a test calling Evaluate)
	places map[int64]place
	work   []action

	done chan struct{}
	stop context.CancelFunc

	// OnSeals, when set (before Start), is told inside the transaction that stores a batch of every
	// waybill whose seals the batch may have ended or found missing (a departure, an unseal, an
	// opening on the way): the lead seals keep their records from the stored steps (D53). It decides
	// nothing here; an error rolls the batch back like any failure to store it.
	OnSeals func(ctx context.Context, tx bun.Tx, waybillID int64) error
}

// NewEngine returns a stopped engine.
func NewEngine(d Deps, cfg EngineConfig, log *slog.Logger) *Engine {
	cfg.defaults()
	if cfg.Queue <= 0 {
		cfg.Queue = 256
	}
	if cfg.CatchUpEvery <= 0 {
		cfg.CatchUpEvery = 2 * time.Second
	}
	if cfg.ReloadEvery <= 0 {
		cfg.ReloadEvery = 5 * time.Second
	}
	if cfg.GaugeWait <= 0 {
		cfg.GaugeWait = 20 * time.Minute
	}
	if d.Now == nil {
		d.Now = time.Now
	}
	if log == nil {
		log = slog.Default()
	}
	return &Engine{d: d, cfg: cfg, log: log, q: make(chan telemetry.Queued, cfg.Queue), behind: map[int64]bool{},
		touched: map[int64]bool{}, wake: make(chan struct{}, 1), cars: map[int64]*carState{}, places: map[int64]place{}}
}

// Enqueue is the writer's subscriber: it never blocks ingest. A batch that does not fit marks its
// cars behind; their reports are read back from the store (they are committed).
func (e *Engine) Enqueue(reports []telemetry.Report) {
	select {
	case e.q <- telemetry.Queued{Reports: reports}:
	default:
		e.overflows.Add(1)
		e.bmu.Lock()
		for i := range reports {
			if reports[i].CarID != 0 {
				e.behind[reports[i].CarID] = true
			}
		}
		e.bmu.Unlock()
	}
}

// Touch says a waybill of the car was created, dispatched, cancelled, corrected or received by hand:
// the engine reloads that car's active waybills before it judges its next report.
func (e *Engine) Touch(carID int64) {
	e.bmu.Lock()
	e.touched[carID] = true
	e.bmu.Unlock()
	select {
	case e.wake <- struct{}{}:
	default:
	}
}

// forget has the cars forget names reload their waybills from the store before their next report:
// their partition was followed on another node, which moved their waybills on (D105).
func (e *Engine) forget(forget func(carID int64) bool) {
	for id := range e.cars {
		if forget(id) {
			e.Touch(id)
		}
	}
}

// Forget is the partitioned worker's notice that it now reads the partition of the cars forget names
// (D105), in order with the batches the engine follows; it returns once they are marked for reload.
func (e *Engine) Forget(ctx context.Context, forget func(carID int64) bool) error {
	return telemetry.ForgetWait(ctx, e.q, forget)
}

// Stats: reports evaluated, batches that overflowed the queue, reports read back, steps stored.
func (e *Engine) Stats() (evaluated, overflows, caughtUp, moved int64) {
	return e.evaluated.Load(), e.overflows.Load(), e.caught.Load(), e.moved.Load()
}

// Start loads the active waybills and each car's newest stored state, then starts following.
func (e *Engine) Start(ctx context.Context) error {
	if err := e.Reload(ctx); err != nil {
		return err
	}
	runCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	e.stop, e.done = cancel, make(chan struct{})
	go e.run(runCtx)
	return nil
}

// Stop ends following (idempotent).
func (e *Engine) Stop() {
	if e.stop != nil {
		e.stop()
		<-e.done
		e.stop = nil
	}
}

func (e *Engine) run(ctx context.Context) {
	defer close(e.done)
	catch := time.NewTicker(e.cfg.CatchUpEvery)
	defer catch.Stop()
	reload := time.NewTicker(e.cfg.ReloadEvery)
	defer reload.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case batch := <-e.q:
			if batch.Forget != nil {
				e.forget(batch.Forget)
			}
			e.Evaluate(ctx, batch.Reports)
			batch.Finish()
		case <-e.wake:
			e.reloadTouched(ctx)
		case <-catch.C:
			if err := e.CatchUp(ctx); err != nil && ctx.Err() == nil {
				e.log.Warn("waybill process: catch-up failed", "err", err)
			}
		case <-reload.C:
			if err := e.Reload(ctx); err != nil && ctx.Err() == nil {
				e.log.Warn("waybill process: reload failed", "err", err)
			}
			if err := e.Resolve(ctx); err != nil && ctx.Err() == nil {
				e.log.Warn("waybill process: received volumes failed", "err", err)
			}
		}
	}
}

func (e *Engine) reloadTouched(ctx context.Context) {
	e.bmu.Lock()
	if len(e.touched) == 0 {
		e.bmu.Unlock()
		return
	}
	ids := slices.Collect(maps.Keys(e.touched))
	clear(e.touched)
	e.bmu.Unlock()
	if err := e.load(ctx, ids); err != nil {
		e.log.Warn("waybill process: reload of touched cars failed", "cars", len(ids), "err", err)
		e.bmu.Lock()
		for _, id := range ids {
			e.touched[id] = true
		}
		e.bmu.Unlock()
	}
}

func (e *Engine) carOf(id int64) *carState {
	c := e.cars[id]
	if c == nil {
		c = &carState{}
		e.cars[id] = c
	}
	return c
}

// inputOf makes a report the derivation's input; t is the device time, else the receive time.
func (e *Engine) inputOf(r *telemetry.Report, in *input) {
	in.t = r.Time.UnixMilli()
	if r.Time.IsZero() {
		in.t = r.Received.UnixMilli()
	}
	in.located = !r.TankOnly && (r.Lat != 0 || r.Lon != 0)
	in.lat, in.lon = r.Lat, r.Lon
	in.tank = r.Tank
	in.readings = r.Readings
	if in.readings == nil && r.Levels != nil && e.d.Levels != nil {
		in.readings = e.d.Levels.Convert(r.CarID, r.Levels)
	}
}

// Evaluate follows a committed batch (the run goroutine calls it; tests call it directly, never
// concurrently with a running engine). Reports of cars marked behind are skipped: the catch-up reads
// them from the store in order. What the batch moved is stored in one transaction.
func (e *Engine) Evaluate(ctx context.Context, batch []telemetry.Report) {
	e.reloadTouched(ctx)
	e.bmu.Lock()
	anyBehind := len(e.behind) > 0
	var behind map[int64]bool
	if anyBehind {
		behind = maps.Clone(e.behind)
	}
	e.bmu.Unlock()
	work := e.work[:0]
	var in input
	for i := range batch {
		r := &batch[i]
		if r.CarID == 0 || (anyBehind && behind[r.CarID]) {
			continue
		}
		e.evaluated.Add(1)
		e.inputOf(r, &in)
		work = e.step(e.carOf(r.CarID), &in, work)
	}
	e.work = work[:0]
	if len(work) > 0 {
		e.apply(ctx, work)
	}
}

// step derives one report's actions and decides openings against the other station fences.
func (e *Engine) step(c *carState, in *input, out []action) []action {
	n := len(out)
	out = derive(&e.cfg.Config, c, in, out)
	// an opening inside any station or depot fence of the company is not on the way (an opening at a
	// station that is not the destination is the alarm engine's abnormal unloading, not this trip's)
	if e.d.Stations == nil {
		return out
	}
	k := n
	for i := n; i < len(out); i++ {
		a := out[i]
		if a.move.Evidence == waybill.EvOpeningOnWay {
			if id, _, ok := e.d.Stations.StationAt(a.w.groupPath, a.move.Lat, a.move.Lon); ok {
				// not on the way: dropped (the alarm engine judges an opening at a station that is not
				// the destination); the episode is not open, so a car that drives off with it open is
				// flagged then
				a.w.episode = false
				if sl := a.detail.seal; a.kind == actAdvance && !a.w.sealAway && (sl == tank.SealBroken || sl == tank.SealUnsealed) {
					// but the first leg's seal was broken there: an info step (it moves nothing) that
					// ends the seals as broken away at that station (seal.Sync, D73), once per trip
					a.w.sealAway = true
					m := a.move
					m.Evidence, m.StationID, m.Detail = waybill.EvUnseal, id, a.detail.json(&a.move)
					out[k] = action{kind: actDest, w: a.w, move: m}
					k++
				}
				continue
			}
		}
		out[k] = a
		k++
	}
	return out[:k]
}

// Judge is the partitioned worker's feed (D97): it waits for room in the queue instead of
// overflowing and returns once the batch is judged, so that the batch is acknowledged only then.
func (e *Engine) Judge(ctx context.Context, reports []telemetry.Report) error {
	return telemetry.JudgeWait(ctx, e.q, reports)
}
