package ground

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/uptrace/bun"

	"tankwatch/internal/platform/db"
	"tankwatch/internal/tank"
	"tankwatch/internal/tank/gauge"
)

func joinHostPort(h string, p int) string { return net.JoinHostPort(h, strconv.Itoa(p)) }

// Config tunes the collector.
type Config struct {
	Interval    time.Duration  // poll interval per gauge (default 60 s)
	DialTimeout time.Duration  // default 3 s
	ReadTimeout time.Duration  // default 5 s
	Retries     int            // retries of a failed poll within a cycle, with doubling backoff (default 2)
	Backoff     time.Duration  // first retry delay (default 1 s)
	Concurrency int            // gauges polled at the same time at most (default 8)
	Loc         *time.Location // the gauges' clock zone (default China Standard Time)
}

// GaugeState is the state of one gauge connection.
type GaugeState struct {
	Addr      string  `json:"addr"`
	State     string  `json:"state"` // tank.GaugeOnline / Offline / Garbage
	Since     int64   `json:"since"` // ms: in this state since
	LastError string  `json:"lastError"`
	LastOK    int64   `json:"lastOk"` // ms of the last good answer; 0 never
	Polls     int64   `json:"polls"`
	Tanks     []int64 `json:"-"`
}

// Service is the station tank side: collector, states, queries.
type Service struct {
	db  *db.DB
	Cfg Config // the configuration (read at each poll)
	Log *slog.Logger
	Now func() time.Time

	mu     sync.Mutex
	gauges map[string]*GaugeState
	busy   map[string]bool       // a poll of this gauge is running
	open   map[string]int64      // open episodes: key(tank, kind, code) → event id
	before map[string][2]float64 // open episodes' volume and V20 at their start
	sales  map[int64]salesEntry  // days-of-cover figures per tank, recomputed every salesEvery
	leakAt map[int64]time.Time   // last leak-fall judgement per tank (every leakEvery)
	cycles int64

	polls    *prometheus.CounterVec
	pollTime prometheus.Histogram
	states   *prometheus.GaugeVec
}

type salesEntry struct {
	at     time.Time
	sold   float64
	spanMS int64
}

const salesEvery = 10 * time.Minute

// New returns the service; Start runs the collector.
func New(d *db.DB, cfg Config, reg prometheus.Registerer) *Service {
	if cfg.Interval <= 0 {
		cfg.Interval = time.Minute
	}
	if cfg.Retries < 0 {
		cfg.Retries = 0
	} else if cfg.Retries == 0 {
		cfg.Retries = 2
	}
	if cfg.Backoff <= 0 {
		cfg.Backoff = time.Second
	}
	if cfg.Concurrency <= 0 {
		cfg.Concurrency = 8
	}
	if cfg.Loc == nil {
		cfg.Loc = time.FixedZone("CST", 8*3600)
	}
	s := &Service{db: d, Cfg: cfg, Log: slog.Default(), Now: time.Now, gauges: map[string]*GaugeState{}, busy: map[string]bool{},
		open: map[string]int64{}, before: map[string][2]float64{}, sales: map[int64]salesEntry{}, leakAt: map[int64]time.Time{}}
	s.polls = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "tankwatch_gauge_polls_total",
		Help: "Station tank gauge polls by result (online, offline, garbage)."}, []string{"result"})
	s.pollTime = prometheus.NewHistogram(prometheus.HistogramOpts{Name: "tankwatch_gauge_poll_seconds",
		Help:    "Duration of one gauge poll (201, 202, 205 and every tenth cycle 203) including its store writes.",
		Buckets: []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30}})
	s.states = prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "tankwatch_gauges",
		Help: "Station tank gauges by state."}, []string{"state"})
	if reg != nil {
		reg.MustRegister(s.polls, s.pollTime, s.states)
	}
	return s
}

// Start runs the collector until ctx ends: a cycle at once, then one per interval.
func (s *Service) Start(ctx context.Context) {
	if err := s.LoadOpen(ctx); err != nil {
		s.Log.Warn("ground tank events: open episodes", "err", err)
	}
	go func() {
		t := time.NewTicker(s.Cfg.Interval)
		defer t.Stop()
		for {
			s.Cycle(ctx)
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	}()
}

func (s *Service) tanks(ctx context.Context, idb bun.IDB) ([]tankRow, error) {
	var rows []tankRow
	err := idb.NewSelect().TableExpr("ground_tanks AS gt").
		ColumnExpr("gt.id, gt.station_id, gt.tank_no, gt.name, gt.product, gt.capacity_l, gt.height_mm, gt.density20, gt.strap").
		ColumnExpr("gt.gauge_host, gt.gauge_port, gt.gauge_tank, gt.low_stock_pct, gt.cover_days_min, gt.water_max_mm").
		ColumnExpr("st.name AS station_name, st.group_id AS group_id, g.path AS group_path").
		Join("JOIN stations AS st ON st.id = gt.station_id").
		Join("JOIN org_groups AS g ON g.id = st.group_id").
		OrderExpr("gt.station_id, gt.tank_no").Scan(ctx, &rows)
	return rows, err
}

// Cycle polls every distinct gauge once (the tank list is read again each cycle, so tankInfo changes
// apply without a restart) and returns when all polls of the cycle are done. A gauge whose previous
// poll still runs is skipped: one connection at a time per gauge.
func (s *Service) Cycle(ctx context.Context) {
	rows, err := s.tanks(ctx, s.db)
	if err != nil {
		s.Log.Warn("ground tanks", "err", err)
		return
	}
	byAddr := map[string][]tankRow{}
	for _, r := range rows {
		if a := r.addr(); a != "" {
			byAddr[a] = append(byAddr[a], r)
		}
	}
	s.mu.Lock()
	s.cycles++
	cycle := s.cycles
	for a := range s.gauges { // a gauge no tank points at any more is forgotten
		if _, ok := byAddr[a]; !ok {
			delete(s.gauges, a)
		}
	}
	s.mu.Unlock()
	addrs := make([]string, 0, len(byAddr))
	for a := range byAddr {
		addrs = append(addrs, a)
	}
	sort.Strings(addrs)
	sem := make(chan struct{}, s.Cfg.Concurrency)
	var wg sync.WaitGroup
	for _, a := range addrs {
		s.mu.Lock()
		if s.busy[a] {
			s.mu.Unlock()
			continue
		}
		s.busy[a] = true
		s.mu.Unlock()
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
			s.mu.Lock()
			s.busy[a] = false
			s.mu.Unlock()
			wg.Wait()
			return
		}
		wg.Add(1)
		go func() {
			defer func() {
				<-sem
				s.mu.Lock()
				s.busy[a] = false
				s.mu.Unlock()
				wg.Done()
			}()
			s.pollGauge(ctx, a, byAddr[a], cycle)
		}()
	}
	wg.Wait()
	s.countStates()
}

func (s *Service) countStates() {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := map[string]float64{tank.GaugeOnline: 0, tank.GaugeOffline: 0, tank.GaugeGarbage: 0}
	for _, g := range s.gauges {
		n[g.State]++
	}
	for k, v := range n {
		s.states.WithLabelValues(k).Set(v)
	}
}

// pollResult is what one poll of a gauge brought.
type pollResult struct {
	inv    []gauge.Inventory
	dels   []gauge.Delivery
	alarms []gauge.TankAlarms
	leaks  []gauge.LeakTest
	hasAl  bool
	hasLk  bool
}

func (s *Service) client(addr string) *gauge.Client {
	return &gauge.Client{Addr: addr, DialTimeout: s.Cfg.DialTimeout, ReadTimeout: s.Cfg.ReadTimeout, Loc: s.Cfg.Loc}
}

// ask runs one command with retries and doubling backoff; a protocol error is retried too (a serial
// line may garble one answer), and the last error is returned.
func (s *Service) ask(ctx context.Context, do func(context.Context) error) error {
	var err error
	wait := s.Cfg.Backoff
	for try := 0; try <= s.Cfg.Retries; try++ {
		if try > 0 {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(wait):
			}
			wait *= 2
		}
		if err = do(ctx); err == nil {
			return nil
		}
		if ctx.Err() != nil {
			return err
		}
	}
	return err
}

func (s *Service) pollGauge(ctx context.Context, addr string, tanks []tankRow, cycle int64) {
	start := time.Now()
	defer func() { s.pollTime.Observe(time.Since(start).Seconds()) }()
	c := s.client(addr)
	var res pollResult
	err := s.ask(ctx, func(ctx context.Context) error {
		_, inv, err := c.Inventory(ctx)
		res.inv = inv
		return err
	})
	if err == nil {
		// deliveries, alarms and leak tests: a failure of these leaves the inventory good but marks
		// the gauge as answering garbage when it is a protocol error
		if e := s.ask(ctx, func(ctx context.Context) error {
			_, d, err := c.Deliveries(ctx)
			res.dels = d
			return err
		}); e != nil && !errors.Is(e, gauge.ErrUnsupported) {
			err = e
		}
		if e := s.ask(ctx, func(ctx context.Context) error {
			_, a, err := c.Alarms(ctx)
			res.alarms = a
			return err
		}); e == nil {
			res.hasAl = true
		} else if !errors.Is(e, gauge.ErrUnsupported) && err == nil {
			err = e
		}
		if cycle%10 == 1 {
			if e := s.ask(ctx, func(ctx context.Context) error {
				_, l, err := c.LeakTests(ctx)
				res.leaks = l
				return err
			}); e == nil {
				res.hasLk = true
			}
		}
	}
	if ctx.Err() != nil {
		return
	}
	now := s.Now()
	state := tank.GaugeOnline
	switch {
	case err == nil:
	case gauge.IsProtocol(err):
		state = tank.GaugeGarbage
	default:
		state = tank.GaugeOffline
	}
	s.polls.WithLabelValues(state).Inc()
	s.setState(addr, state, err, now, tanks)
	if res.inv != nil {
		if e := s.store(ctx, now, tanks, &res); e != nil {
			s.Log.Warn("gauge readings", "gauge", addr, "err", e)
		}
	}
	if e := s.offlineEpisodes(ctx, now, addr, tanks, state, err); e != nil {
		s.Log.Warn("gauge offline events", "gauge", addr, "err", e)
	}
}

func (s *Service) setState(addr, state string, err error, now time.Time, tanks []tankRow) {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := s.gauges[addr]
	if g == nil {
		g = &GaugeState{Addr: addr, State: state, Since: now.UnixMilli()}
		s.gauges[addr] = g
	}
	if g.State != state {
		g.State, g.Since = state, now.UnixMilli()
	}
	g.Polls++
	if err != nil {
		g.LastError = err.Error()
	} else {
		g.LastOK = now.UnixMilli()
	}
	g.Tanks = g.Tanks[:0]
	for _, t := range tanks {
		g.Tanks = append(g.Tanks, t.ID)
	}
}

// Gauges returns a copy of the gauge states.
func (s *Service) Gauges() map[string]GaugeState {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]GaugeState, len(s.gauges))
	for a, g := range s.gauges {
		c := *g
		c.Tanks = append([]int64(nil), g.Tanks...)
		out[a] = c
	}
	return out
}

func epKey(tankID int64, kind string, code int) string {
	return fmt.Sprintf("%d|%s|%d", tankID, kind, code)
}

// LoadOpen reads the open episodes (Start calls it: after a restart they continue, not reopen).
func (s *Service) LoadOpen(ctx context.Context) error {
	var evs []Event
	if err := s.db.NewSelect().Model(&evs).Where("end_at IS NULL").Scan(ctx); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, e := range evs {
		var d Detail
		_ = json.Unmarshal([]byte(e.Detail), &d)
		k := epKey(e.TankID, e.Kind, d.Code)
		s.open[k] = e.ID
		s.before[k] = [2]float64{e.BeforeL, e.BeforeV20}
	}
	return nil
}
