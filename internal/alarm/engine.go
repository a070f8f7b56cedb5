package alarm

import (
	"context"
	"encoding/json"
	"log/slog"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/uptrace/bun"

	"tankwatch/internal/fleet"
	"tankwatch/internal/messaging"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
	"tankwatch/internal/telemetry"
)

// CarSource lists the registry's cars (fleet.Service).
type CarSource interface {
	LiveCars(ctx context.Context) ([]fleet.LiveCar, error)
}

// LiveSource is the live state per car (telemetry.Live), read by the offline check.
type LiveSource interface {
	Car(carID int64) (telemetry.CarState, bool)
}

// Recipients are the users a live alarm goes to (org.Service).
type Recipients interface {
	Recipients(ctx context.Context, groupPath string, codes ...string) ([]int64, error)
}

// EngineConfig tunes the engine; zero fields take the defaults.
type EngineConfig struct {
	Queue        int           // committed batches waiting for evaluation (256); beyond, the cars are caught up from the store
	CatchUpEvery time.Duration // 2 s between catch-up passes
	SpeedingFor  time.Duration // 30 s over the limit before a speeding alarm
	UnlockWindow time.Duration // 5 min: a platform unlock this recent explains a lock opening
	OfflineEvery time.Duration // 1 min between offline checks
	ReloadEvery  time.Duration // 30 s between registry reloads
}

func (c EngineConfig) withDefaults() EngineConfig {
	if c.Queue <= 0 {
		c.Queue = 256
	}
	if c.CatchUpEvery <= 0 {
		c.CatchUpEvery = 2 * time.Second
	}
	if c.SpeedingFor <= 0 {
		c.SpeedingFor = 30 * time.Second
	}
	if c.UnlockWindow <= 0 {
		c.UnlockWindow = 5 * time.Minute
	}
	if c.OfflineEvery <= 0 {
		c.OfflineEvery = time.Minute
	}
	if c.ReloadEvery <= 0 {
		c.ReloadEvery = 30 * time.Second
	}
	return c
}

// Deps are the engine's collaborators; every one but Service and Cars may be nil.
type Deps struct {
	Service    *Service
	Cars       CarSource
	Live       LiveSource
	Recipients Recipients
	Publisher  messaging.Publisher
	Stations   Stations
	Suspects   Suspects
	Unlocks    Unlocks
	Levels     Converter // the compartments' tables (tank.Catalog); nil: the probes' own volumes
	Waybills   Waybills  // the waybill hook of the abnormal-unloading rule; nil until waybills exist
	// Mine says whether the offline rule of a car is this node's to judge (several nodes, D87: the
	// node that committed the car's newest report); nil: every car is (one node).
	Mine func(carID int64) bool
}

// TextTemplates expands a template kind for a car's group in every console language.
type TextTemplates func(ctx context.Context, kind, groupPath string, vars func(i18n.Lang) map[string]string) map[string]string

// Engine judges every committed report against the alarm rules on its own goroutine. Its per-car
// state is memory only: at start it reloads the alarms still going on (so an episode is neither
// repeated nor left open) and otherwise starts cold — the first report of a car sets the baselines
// (stop time, level total, lock states) from which the edge rules judge. It never loses a report
// (DESIGN §2): when its queue is full, the cars of the batch it could not take are marked behind,
// their reports are skipped until a catch-up pass has read them back from the store (catchup.go).
type Engine struct {
	d   Deps
	cfg EngineConfig
	log *slog.Logger
	Now func() time.Time
	// Texts, when set, writes the live push from the alarm push template (notice.Service.Texts, D68):
	// kind "alarmPush", the car's group path, and each language's values.
	Texts TextTemplates

	q         chan telemetry.Queued
	behind    telemetry.Behind
	overflows atomic.Int64
	caught    atomic.Int64
	evaluated atomic.Int64
	raised    atomic.Int64

	reg fleet.Registry

	state map[int64]*carState // owned by the run goroutine
	// unstored are decisions the store refused, stored before the next ones (pending.go)
	unstored []decided
	lost     atomic.Int64
	done     chan struct{}
	stop     context.CancelFunc
}

// NewEngine returns a stopped engine.
func NewEngine(d Deps, cfg EngineConfig, log *slog.Logger) *Engine {
	cfg = cfg.withDefaults()
	if log == nil {
		log = slog.Default()
	}
	return &Engine{d: d, cfg: cfg, log: log, Now: time.Now, q: make(chan telemetry.Queued, cfg.Queue),
		state: map[int64]*carState{}}
}

// Enqueue is the writer's subscriber (telemetry Writer.Subscribe): it never blocks ingest. A batch
// that does not fit marks its cars behind; their reports are read back from the store (they are
// committed) by the next catch-up pass.
func (e *Engine) Enqueue(reports []telemetry.Report) {
	select {
	case e.q <- telemetry.Queued{Reports: reports}:
	default:
		e.overflows.Add(1)
		e.behind.MarkAll(reports)
	}
}

// Stats are the engine's counters: reports evaluated (from the queue and read back), batches that
// overflowed the queue, reports read back from the store, alarms raised.
func (e *Engine) Stats() (evaluated, overflows, caughtUp, raised int64) {
	return e.evaluated.Load(), e.overflows.Load(), e.caught.Load(), e.raised.Load()
}

// Start loads what Warm loads and starts evaluating on its own goroutine.
func (e *Engine) Start(ctx context.Context) error {
	if err := e.Warm(ctx); err != nil {
		return err
	}
	runCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	e.stop, e.done = cancel, make(chan struct{})
	go e.run(runCtx)
	return nil
}

// Warm loads the types, control modes, registry and the alarms still going on, without starting
// (tests and benchmarks then call Evaluate and CheckOffline themselves).
func (e *Engine) Warm(ctx context.Context) error {
	if err := e.d.Service.Load(ctx); err != nil {
		return err
	}
	if err := e.reload(ctx); err != nil {
		return err
	}
	return e.warm(ctx)
}

// Stop ends evaluation. What is still queued or behind is committed but not judged: a restart
// starts from the alarms going on and the next reports (the store is not read back across restarts).
func (e *Engine) Stop() {
	if e.stop != nil {
		e.stop()
		<-e.done
		e.stop = nil
	}
}

func (e *Engine) reload(ctx context.Context) error { return e.reg.Reload(ctx, e.d.Cars) }

func (e *Engine) car(id int64) (fleet.LiveCar, bool) { return e.reg.Car(id) }

// warm takes over the alarms and parking periods still going on (moved.go).
func (e *Engine) warm(ctx context.Context) error { return e.takeOver(ctx, nil) }

func (e *Engine) stateOf(carID int64) *carState {
	st := e.state[carID]
	if st == nil {
		st = newCarState()
		e.state[carID] = st
	}
	return st
}

func (e *Engine) run(ctx context.Context) {
	defer close(e.done)
	offline := time.NewTicker(e.cfg.OfflineEvery)
	defer offline.Stop()
	reload := time.NewTicker(e.cfg.ReloadEvery)
	defer reload.Stop()
	catch := time.NewTicker(e.cfg.CatchUpEvery)
	defer catch.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case batch := <-e.q:
			if batch.Forget != nil {
				if err := e.forget(ctx, batch.Forget); err != nil && batch.Err != nil {
					*batch.Err = err
				}
			}
			e.Evaluate(ctx, batch.Reports)
			if len(e.unstored) > 0 && batch.Err != nil && *batch.Err == nil {
				*batch.Err = errUnstored // a worker's batch is delivered again rather than acknowledged
			}
			batch.Finish()
		case <-catch.C:
			e.apply(ctx, nil) // what the store refused, before the catch-up's own decisions
			if err := e.CatchUp(ctx); err != nil && ctx.Err() == nil {
				e.log.Warn("alarm engine: catch-up failed; retried on the next pass", "err", err)
			}
		case <-offline.C:
			e.CheckOffline(ctx)
		case <-reload.C:
			if err := e.reload(ctx); err != nil {
				e.log.Warn("alarm engine: registry reload failed", "err", err)
			}
			if err := e.d.Service.Load(ctx); err != nil {
				e.log.Warn("alarm engine: types reload failed", "err", err)
			}
		}
	}
}

func (e *Engine) env(car *fleet.LiveCar) *ruleEnv {
	set, src, _ := e.d.Service.Resolve(car.ID, car.GroupPath)
	return &ruleEnv{set: set, source: src, speedingFor: e.cfg.SpeedingFor, unlockFor: e.cfg.UnlockWindow,
		stations: e.d.Stations, unlocks: e.d.Unlocks, levels: e.d.Levels, waybills: e.d.Waybills}
}

// Evaluate judges a committed batch (the run goroutine calls it; tests and benchmarks call it
// directly, never concurrently with a running engine). Reports of cars marked behind are skipped
// (the catch-up reads them from the store in order), and so are those a catch-up already read.
func (e *Engine) Evaluate(ctx context.Context, batch []telemetry.Report) {
	skip := e.behind.Skip(batch)
	var work []decided
	for i := range batch {
		r := &batch[i]
		if r.CarID == 0 || skip[r.CarID] {
			continue
		}
		if st := e.state[r.CarID]; st != nil && st.readTo != 0 && reportTime(r) <= st.readTo {
			continue // committed before a catch-up read it from the store, queued after
		}
		work = e.judge(ctx, r, work)
	}
	e.apply(ctx, work)
}

// judge steps one report through the rules and adds what they decided to work.
func (e *Engine) judge(ctx context.Context, r *telemetry.Report, work []decided) []decided {
	car, ok := e.car(r.CarID)
	if !ok {
		return work // not in the registry yet; the next reload knows it
	}
	e.evaluated.Add(1)
	st := e.stateOf(r.CarID)
	if acts := step(ctx, &car, e.env(&car), st, r); len(acts) > 0 {
		work = append(work, decided{car: car, st: st, speed: r.Speed, acts: acts})
	}
	return work
}

// decided is what the rules decided for one report, waiting to be stored.
type decided struct {
	car   fleet.LiveCar
	st    *carState
	speed uint16
	acts  []action
}

// CheckOffline runs the offline rule over every registry car.
func (e *Engine) CheckOffline(ctx context.Context) {
	now := e.Now().UnixMilli()
	cars := e.reg.All()
	var work []decided
	for i := range cars {
		car := &cars[i]
		if e.d.Mine != nil && !e.d.Mine(car.ID) {
			continue
		}
		st := e.stateOf(car.ID)
		last := st.lastRecv
		if e.d.Live != nil {
			if cs, ok := e.d.Live.Car(car.ID); ok && cs.Reported {
				last = max(last, cs.Received.UnixMilli())
				if !st.seen && (cs.Lat != 0 || cs.Lon != 0) {
					st.lat, st.lon = cs.Lat, cs.Lon
				}
			}
		}
		if acts := offlineCheck(car, e.env(car), st, last, now); len(acts) > 0 {
			work = append(work, decided{car: *car, st: st, acts: acts})
		}
	}
	e.apply(ctx, work)
}

// apply stores the decisions of a batch in one transaction (one wait for the store's writer, however
// many alarms the batch raised): records for watched, enabled types, parking periods; then, once
// committed, the suspects and the pushes.
func (e *Engine) apply(ctx context.Context, work []decided) {
	work = e.withUnstored(work)
	if len(work) == 0 {
		return
	}
	snap := snapshot(work)
	svc := e.d.Service
	type after struct {
		car *fleet.LiveCar
		rec *Record
		at  int64
		lat int32
		lon int32
	}
	var pushes, suspects []after
	raised := int64(0)
	err := svc.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		for i := range work {
			w := &work[i]
			car, st := &w.car, w.st
			env := e.env(car)
			for _, a := range w.acts {
				switch a.op {
				case opOpen, opInstant:
					t, ok := svc.typeOf(a.code)
					if !ok || !t.Enabled || !env.set.Watches(a.code) {
						continue
					}
					rec := &Record{CarID: car.ID, TerminalID: st.terminal, GroupID: car.GroupID, GroupPath: car.GroupPath,
						Plate: car.Plate, TypeCode: a.code, Level: t.Level, StartAt: a.at, Lat: st.lat, Lon: st.lon, Speed: int(w.speed)}
					if len(a.detail) > 0 {
						b, _ := json.Marshal(a.detail)
						rec.Detail = string(b)
					}
					if a.op == opInstant {
						rec.EndAt = &a.at
					}
					// another node may have judged this episode (D91): the car's terminal moved here,
					// or re-sent a report that node committed but whose acknowledgement was lost
					id, open, err := svc.sameEpisode(ctx, tx, rec)
					if err != nil {
						return err
					}
					if id != 0 {
						if open && a.op == opOpen {
							st.open[a.code] = id
							if a.code == CodeAbnormalUnload {
								st.au.id = id
							}
						}
						continue
					}
					if err := svc.insert(ctx, tx, rec); err != nil {
						return err
					}
					raised++
					if a.code == CodeAbnormalUnload {
						st.au.id = rec.ID
					}
					if a.op == opOpen {
						st.open[a.code] = rec.ID
					}
					if t.Push {
						pushes = append(pushes, after{car: car, rec: rec})
					}
				case opClose:
					if id := st.open[a.code]; id != 0 {
						delete(st.open, a.code)
						if err := svc.closeAlarm(ctx, tx, id, a.at); err != nil {
							return err
						}
					}
				case opParkStart:
					id, err := svc.startParking(ctx, tx, car, a.at, st.lat, st.lon, env.set.ParkingMinutes)
					if err != nil {
						return err
					}
					st.parkID = id
				case opParkEnd:
					if st.parkID != 0 {
						if err := svc.endParking(ctx, tx, st.parkID, a.at); err != nil {
							return err
						}
						st.parkID = 0
					}
				case opJoin:
					if st.au.id != 0 {
						b, _ := json.Marshal(a.detail)
						if err := svc.setDetail(ctx, tx, st.au.id, string(b)); err != nil {
							return err
						}
					}
				case opSuspect:
					suspects = append(suspects, after{car: car, at: a.at, lat: st.lat, lon: st.lon})
				}
			}
		}
		return nil
	})
	if err != nil {
		snap.restore()
		e.keepUnstored(work, err)
		return
	}
	e.raised.Add(raised)
	for _, p := range pushes {
		e.push(ctx, p.car, p.rec)
	}
	if e.d.Suspects != nil {
		for _, s := range suspects {
			if err := e.d.Suspects.RecordSuspect(ctx, s.car.GroupID, s.lat, s.lon, time.UnixMilli(s.at), s.car.ID); err != nil {
				e.log.Warn("alarm engine: suspect not recorded", "car", s.car.ID, "err", err)
			}
		}
	}
}

// push sends a new alarm to the users who see the car's group and the alarm list.
func (e *Engine) push(ctx context.Context, car *fleet.LiveCar, rec *Record) {
	if e.d.Publisher == nil || e.d.Recipients == nil {
		return
	}
	ids, err := e.d.Recipients.Recipients(ctx, car.GroupPath, "02-06")
	if err != nil || len(ids) == 0 {
		return
	}
	var texts map[string]string
	if e.Texts != nil {
		at := time.UnixMilli(rec.StartAt).In(httpx.Shanghai).Format("2006-01-02 15:04")
		texts = e.Texts(ctx, "alarmPush", car.GroupPath, func(l i18n.Lang) map[string]string {
			return map[string]string{"plate": car.Plate, "level": levelRoman(rec.Level), "alarm": TypeName(l, rec.TypeCode), "time": at}
		})
	} else {
		texts = i18n.Texts(func(l i18n.Lang) string {
			return i18n.T(l, "alarm.push", car.Plate, levelRoman(rec.Level), TypeName(l, rec.TypeCode))
		})
	}
	m := messaging.Message{Key: "alarm", Code: rec.TypeCode, Timestamp: rec.StartAt,
		Message: texts[i18n.ZhCN.String()], Texts: texts,
		Data: map[string]string{"alarmId": strconv.FormatInt(rec.ID, 10), "carId": strconv.FormatInt(car.ID, 10),
			"carNumber": car.Plate, "type": rec.TypeCode, "level": strconv.Itoa(rec.Level),
			"lat": strconv.FormatFloat(float64(rec.Lat)/1e6, 'f', 6, 64), "lng": strconv.FormatFloat(float64(rec.Lon)/1e6, 'f', 6, 64)}}
	// the type's name in every console language, for the video wall's tile (web videoMonitor)
	for _, l := range i18n.Langs {
		m.Data[TypeNameKey(l)] = TypeName(l, rec.TypeCode)
	}
	if err := messaging.SendToUsers(e.d.Publisher, messaging.TopicMsg, ids, m); err != nil {
		e.log.Warn("alarm engine: push failed", "alarm", rec.ID, "err", err)
	}
}

// TypeNameKey is the live alarm message's data key of the type's name in lang ("typeName:en-US").
func TypeNameKey(lang i18n.Lang) string { return "typeName:" + lang.String() }

var romans = [...]string{"", "I", "II", "III", "IV", "V"}

func levelRoman(l int) string {
	if l < 1 || l > 5 {
		return strconv.Itoa(l)
	}
	return romans[l]
}

// Judge is the partitioned worker's feed (D97): it waits for room in the queue instead of
// overflowing and returns once the batch is judged, so that the batch is acknowledged only then.
func (e *Engine) Judge(ctx context.Context, reports []telemetry.Report) error {
	return telemetry.JudgeWait(ctx, e.q, reports)
}
