package cockpit

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"tankwatch/internal/alarm"
	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
	"tankwatch/internal/station"
	"tankwatch/internal/tank"
	"tankwatch/internal/telemetry"
)

// Code is the cockpit's menu code (manager/cockpit).
const Code = "04-04"

// Limits of the lists of a summary.
const (
	MaxAlarms    = 50   // newest tank alarms listed
	MaxActive    = 200  // loading / unloading trucks listed
	MaxCarIDs    = 2000 // ids per truck state (what a tile opens in monitoring2)
	MaxTanks     = 500  // station tanks listed
	AlarmHours   = 24   // recent = started in the last this many hours
	catalogEvery = time.Minute
)

// AlarmTypes are the tank alarm kinds the cockpit lists (identityConflict and the driving / device
// alarms are not about the tank).
var AlarmTypes = []string{alarm.CodeAbnormalUnload, alarm.CodeSealBroken, alarm.CodeLockOpened, alarm.CodeLevelDrop}

// Cars is the live state (telemetry.Live).
type Cars interface {
	FindCarIDs(ctx context.Context, p *httpx.Principal, q telemetry.LiveFindQuery) ([]int64, error)
	Car(carID int64) (telemetry.CarState, bool)
}

// Catalog is the cars' compartments (tank.Catalog).
type Catalog interface {
	Compartments(carID int64) []tank.Compartment
	Convert(carID int64, l *tank.Levels) []tank.Reading
}

// Fences tells the station fence a position lies in, with its type (station.Service.FenceAt).
type Fences interface {
	FenceAt(groupPath string, lat, lon int32) (id int64, name, typ string, ok bool)
}

// Alarms lists alarm records (alarm.Service.FindSome).
type Alarms interface {
	FindSome(ctx context.Context, p *httpx.Principal, l i18n.Lang, q alarm.Query) (httpx.Page[alarm.View], error)
	Types(l i18n.Lang) []alarm.TypeView
}

// Scopes resolves a group of the caller's subtree to its path (fleet.Service.LiveGroupPath).
type Scopes interface {
	LiveGroupPath(ctx context.Context, p *httpx.Principal, groupID int64) (string, error)
}

// Deps are the cockpit's sources. Ground is optional: nil means station tanks are not available.
// DB (optional) reloads Catalog when it is a *tank.Catalog the cockpit owns (OwnCatalog).
type Deps struct {
	Cars    Cars
	Catalog Catalog
	Fences  Fences
	Alarms  Alarms
	Scopes  Scopes
	Ground  tank.GroundStatuses
	// OwnCatalog: the cockpit reloads this catalogue from DB every minute (when no shared, kept
	// current catalogue is given).
	OwnCatalog *tank.Catalog
	DB         *db.DB
}

// Service computes summaries.
type Service struct {
	d     Deps
	trend *tracker
	Now   func() time.Time
	Log   *slog.Logger

	catMu   sync.Mutex
	catAt   time.Time
	catFail bool

	// memo: the summary of a scope and language, shared by the wall screens of that scope for
	// MemoFor (each refreshes on every burst of live changes).
	memoMu sync.Mutex
	memo   map[string]memoEntry
}

// MemoFor is how long a computed summary is served again to the same scope and language.
const MemoFor = 2 * time.Second

type memoEntry struct {
	at  time.Time
	sum *Summary
}

// New returns the service.
func New(d Deps) *Service {
	if d.Catalog == nil && d.OwnCatalog != nil {
		d.Catalog = d.OwnCatalog
	}
	return &Service{d: d, trend: newTracker(), Now: time.Now, Log: slog.Default(), memo: map[string]memoEntry{}}
}

// UseGround sets the station tanks' source (the gauge collector); call it before serving.
func (s *Service) UseGround(g tank.GroundStatuses) { s.d.Ground = g }

// Observe takes a committed batch of reports (telemetry.Writer.Subscribe): the total volume of every
// level report, for the trends. It runs on the writer goroutine: it only sums and appends.
func (s *Service) Observe(reports []telemetry.Report) {
	for i := range reports {
		r := &reports[i]
		if r.CarID == 0 || r.Levels == nil || r.Levels.N == 0 {
			continue
		}
		rd := r.Readings
		if len(rd) == 0 {
			rd = s.convert(r.CarID, r.Levels)
		}
		t := r.Time
		if t.IsZero() {
			t = r.Received
		}
		s.trend.add(r.CarID, t.UnixMilli(), sumVolume(rd))
	}
}

func (s *Service) convert(carID int64, l *tank.Levels) []tank.Reading {
	if s.d.Catalog == nil {
		return tank.Convert(nil, l)
	}
	return s.d.Catalog.Convert(carID, l)
}

func sumVolume(rd []tank.Reading) float64 {
	v := 0.0
	for _, r := range rd {
		v += r.VolumeL
	}
	return v
}

// refreshCatalog reloads the cockpit's own catalogue at most once a minute.
func (s *Service) refreshCatalog(ctx context.Context) {
	if s.d.OwnCatalog == nil || s.d.DB == nil {
		return
	}
	s.catMu.Lock()
	defer s.catMu.Unlock()
	now := s.Now()
	if !s.catAt.IsZero() && now.Sub(s.catAt) < catalogEvery {
		return
	}
	s.catAt = now
	if err := s.d.OwnCatalog.Load(ctx, s.d.DB); err != nil {
		if !s.catFail {
			s.Log.WarnContext(ctx, "cockpit: compartments not loaded", "err", err)
		}
		s.catFail = true
		return
	}
	s.catFail = false
}

// Query is the body of the summary: an optional group of the caller's subtree.
type Query struct {
	GroupID int64 `json:"groupId"`
}

// Summary is everything the cockpit shows.
type Summary struct {
	ServerTime   httpx.Time   `json:"serverTime"`
	Trucks       Trucks       `json:"trucks"`
	Compartments Compartments `json:"compartments"`
	StationTanks StationTanks `json:"stationTanks"`
	Alarms       AlarmPanel   `json:"alarms"`
}

// Trucks are the counts by state (each truck in exactly one), the ids of each state (for opening
// them in monitoring) and the trucks loading or unloading.
type Trucks struct {
	Total     int                `json:"total"`
	Online    int                `json:"online"`
	Counts    map[string]int     `json:"counts"` // Truck* → count
	IDs       map[string][]int64 `json:"ids"`    // Truck* → car ids (at most MaxCarIDs)
	IDsCut    bool               `json:"idsCut"` // a state had more than MaxCarIDs
	Active    []ActiveTruck      `json:"active"` // loading and unloading, longest first
	ActiveCut bool               `json:"activeCut"`
}

// ActiveTruck is a truck loading or unloading.
type ActiveTruck struct {
	CarID       int64    `json:"carId"`
	Plate       string   `json:"carNumber"`
	GroupName   string   `json:"groupName"`
	State       string   `json:"state"` // TruckLoading or TruckUnloading
	StationID   int64    `json:"stationId"`
	StationName string   `json:"stationName"` // "" when the station may not be named to the caller
	StationType string   `json:"stationType"`
	Volume      float64  `json:"volume"`
	Capacity    float64  `json:"capacity"` // 0 unknown
	Rate        *float64 `json:"rate"`     // litres per minute (+ rising, − falling); null unknown
	Since       int64    `json:"levelTime"`
}

// BandCount is one fill band.
type BandCount struct {
	Band   string  `json:"band"`
	Count  int     `json:"count"`
	Volume float64 `json:"volume"`
}

// Compartments are the truck compartments with level readings in scope.
type Compartments struct {
	Total    int         `json:"total"`
	Bands    []BandCount `json:"bands"`
	Volume   float64     `json:"volume"`   // Vt, litres
	V20      float64     `json:"v20"`      // litres at 20 °C
	Capacity float64     `json:"capacity"` // of the compartments whose capacity is known
	Known    int         `json:"known"`    // compartments whose capacity is known
	Stale    int         `json:"stale"`    // of Total, on trucks now offline (their last reading)
	Cars     int         `json:"cars"`     // trucks with readings
}

// StationTanks are the station ground tanks in scope; Available false when no gauge collector is
// running (no data source), which the page says in words.
type StationTanks struct {
	Available bool                `json:"available"`
	Total     int                 `json:"total"`
	Bands     []BandCount         `json:"bands"`
	Gauges    map[string]int      `json:"gauges"` // tank.Gauge* → count
	Volume    float64             `json:"volume"`
	Capacity  float64             `json:"capacity"`
	LowStock  int                 `json:"lowStock"`
	LowCover  int                 `json:"lowCover"`
	Low       []tank.GroundStatus `json:"low"`   // low stock or low cover, fewest days of cover first
	Tanks     []tank.GroundStatus `json:"tanks"` // all, most urgent first (at most MaxTanks)
	TanksCut  bool                `json:"tanksCut"`
}

// AlarmPanel is the tank alarms: open (unprocessed or pending, any age) and recent (last 24 h).
type AlarmPanel struct {
	Open   int        `json:"open"`   // open tank alarms in scope
	Recent int        `json:"recent"` // tank alarms started in the last 24 h
	List   []AlarmRow `json:"list"`   // newest first, at most MaxAlarms
}

// AlarmRow is one listed alarm.
type AlarmRow struct {
	ID       int64      `json:"id"`
	CarID    int64      `json:"carId"`
	Plate    string     `json:"carNumber"`
	Type     string     `json:"type"`
	TypeName string     `json:"typeName"`
	Level    int        `json:"level"`
	Time     httpx.Time `json:"time"`
	EndTime  httpx.Time `json:"endTime"`
	State    int        `json:"state"`
	Place    string     `json:"place"` // station name, else "" (Lng/Lat)
	Lng      float64    `json:"lng"`
	Lat      float64    `json:"lat"`
	Located  bool       `json:"located"`
	Detail   string     `json:"detail"`
}

// Summary computes the cockpit of the caller's scope (or of q.GroupID inside it).
func (s *Service) Summary(ctx context.Context, p *httpx.Principal, l i18n.Lang, q Query) (*Summary, error) {
	if q.GroupID < 0 {
		return nil, httpx.Invalid("groupId")
	}
	path, err := s.d.Scopes.LiveGroupPath(ctx, p, q.GroupID)
	if err != nil {
		return nil, err
	}
	now := s.Now()
	key := fmt.Sprintf("%s|%d", path, l)
	s.memoMu.Lock()
	m, ok := s.memo[key]
	s.memoMu.Unlock()
	if ok && now.Sub(m.at) >= 0 && now.Sub(m.at) < MemoFor {
		return m.sum, nil
	}
	ids, err := s.d.Cars.FindCarIDs(ctx, p, telemetry.LiveFindQuery{GroupID: q.GroupID})
	if err != nil {
		return nil, err
	}
	s.refreshCatalog(ctx)
	out := &Summary{ServerTime: httpx.TimeOf(now)}
	paths := s.trucks(ids, now, out)
	if err := s.stationTanks(ctx, path, &out.StationTanks); err != nil {
		return nil, err
	}
	if err := s.alarms(ctx, p, l, q.GroupID, now, paths, &out.Alarms); err != nil {
		return nil, err
	}
	s.memoMu.Lock()
	for k, e := range s.memo {
		if now.Sub(e.at) >= MemoFor || now.Before(e.at) {
			delete(s.memo, k)
		}
	}
	s.memo[key] = memoEntry{at: now, sum: out}
	s.memoMu.Unlock()
	return out, nil
}

// trucks fills the truck counts and the compartments; it returns the group paths of the cars (for
// naming alarm places).
func (s *Service) trucks(ids []int64, now time.Time, out *Summary) map[int64]string {
	nowMS := now.UnixMilli()
	tr := Trucks{Counts: map[string]int{}, IDs: map[string][]int64{}}
	for _, st := range []string{TruckLoading, TruckUnloading, TruckLoaded, TruckEmpty, TruckUnknown} {
		tr.Counts[st] = 0
		tr.IDs[st] = []int64{}
	}
	comp := Compartments{}
	bands := map[string]*BandCount{}
	for _, b := range Bands {
		bands[b] = &BandCount{Band: b}
	}
	paths := make(map[int64]string, len(ids))
	for _, id := range ids {
		c, ok := s.d.Cars.Car(id)
		if !ok {
			continue
		}
		paths[id] = c.GroupPath
		tr.Total++
		if c.Online {
			tr.Online++
		}
		f := TruckFacts{Online: c.Online, Load: c.Load(), HasReported: c.Reported}
		rd := c.Readings
		if len(rd) == 0 && len(c.Levels) > 0 {
			var lv tank.Levels
			lv.N = copy(lv.Probes[:], c.Levels)
			rd = s.convert(id, &lv)
		}
		var comps []tank.Compartment
		if s.d.Catalog != nil {
			comps = s.d.Catalog.Compartments(id)
		}
		if len(rd) > 0 {
			f.HasLevels = true
			allKnown := true
			for _, r := range rd {
				capL := capacityOf(comps, r.Compartment)
				if capL <= 0 {
					allKnown = false
				} else {
					f.Capacity += capL
					comp.Capacity += capL
					comp.Known++
				}
				f.Volume += r.VolumeL
				comp.Volume += r.VolumeL
				comp.V20 += r.V20L
				comp.Total++
				if !c.Online {
					comp.Stale++
				}
				b := bands[BandOf(r.VolumeL, capL)]
				b.Count++
				b.Volume += r.VolumeL
			}
			if !allKnown {
				f.Capacity = 0
			}
			comp.Cars++
			if !c.LevelTime.IsZero() {
				s.trend.add(id, c.LevelTime.UnixMilli(), f.Volume)
			}
		}
		var rate *float64
		if f.HasLevels {
			t, r := s.trend.trend(id, nowMS)
			f.Trend = t
			if t != TrendUnknown {
				rate = &r
			}
		}
		if st, ok := c.Tank(); ok {
			f.ValveOpen, f.CoverOpen = Openings(st)
		}
		var sid int64
		var sname, stype string
		if c.Located() && s.d.Fences != nil {
			if id, name, typ, ok := s.d.Fences.FenceAt(c.GroupPath, c.Lat, c.Lon); ok {
				sid, sname, stype = id, name, typ
				f.Fence = FenceStation
				if typ == station.TypeDepot {
					f.Fence = FenceDepot
				}
			}
		}
		state := Classify(f)
		tr.Counts[state]++
		if len(tr.IDs[state]) < MaxCarIDs {
			tr.IDs[state] = append(tr.IDs[state], id)
		} else {
			tr.IDsCut = true
		}
		if state == TruckLoading || state == TruckUnloading {
			a := ActiveTruck{CarID: id, Plate: c.Plate, GroupName: c.GroupName, State: state, StationID: sid, StationName: sname,
				StationType: stype, Volume: round1(f.Volume), Capacity: f.Capacity, Rate: rate}
			if !c.LevelTime.IsZero() {
				a.Since = c.LevelTime.UnixMilli()
			}
			tr.Active = append(tr.Active, a)
		}
	}
	slices.SortFunc(tr.Active, func(a, b ActiveTruck) int {
		return cmp.Or(strings.Compare(a.State, b.State), strings.Compare(a.StationName, b.StationName), strings.Compare(a.Plate, b.Plate))
	})
	if len(tr.Active) > MaxActive {
		tr.Active, tr.ActiveCut = tr.Active[:MaxActive], true
	}
	if tr.Active == nil {
		tr.Active = []ActiveTruck{}
	}
	comp.Volume, comp.V20, comp.Capacity = round1(comp.Volume), round1(comp.V20), round1(comp.Capacity)
	for _, b := range Bands {
		bands[b].Volume = round1(bands[b].Volume)
		comp.Bands = append(comp.Bands, *bands[b])
	}
	out.Trucks, out.Compartments = tr, comp
	return paths
}

func capacityOf(comps []tank.Compartment, no uint8) float64 {
	for i := range comps {
		if comps[i].No == int(no) {
			if comps[i].CapacityL > 0 {
				return float64(comps[i].CapacityL)
			}
			if len(comps[i].Strap) >= tank.StrapMinRows {
				return comps[i].Strap.Capacity()
			}
			return 0
		}
	}
	return 0
}

func round1(v float64) float64 { return math.Round(v*10) / 10 }

// stationTanks fills the station tank panel from the gauges' newest states.
func (s *Service) stationTanks(ctx context.Context, path string, out *StationTanks) error {
	out.Gauges = map[string]int{tank.GaugeOnline: 0, tank.GaugeOffline: 0, tank.GaugeGarbage: 0, tank.GaugeNone: 0}
	out.Low, out.Tanks = []tank.GroundStatus{}, []tank.GroundStatus{}
	bands := map[string]*BandCount{}
	for _, b := range Bands {
		bands[b] = &BandCount{Band: b}
	}
	defer func() {
		for _, b := range Bands {
			bands[b].Volume = round1(bands[b].Volume)
			out.Bands = append(out.Bands, *bands[b])
		}
	}()
	if s.d.Ground == nil {
		return nil
	}
	all, err := s.d.Ground.GroundStatuses(ctx, path)
	if err != nil {
		return err
	}
	out.Available = true
	for _, g := range all {
		out.Total++
		out.Gauges[g.GaugeState]++
		known := g.At != 0 && g.CapacityL > 0
		b := bands[BandOfPct(g.FillPct, known)]
		b.Count++
		if g.At != 0 {
			b.Volume += g.VolumeL
			out.Volume += g.VolumeL
		}
		out.Capacity += g.CapacityL
		if g.LowStock {
			out.LowStock++
		}
		if g.LowCover {
			out.LowCover++
		}
		if g.LowStock || g.LowCover {
			out.Low = append(out.Low, g)
		}
	}
	out.Volume, out.Capacity = round1(out.Volume), round1(out.Capacity)
	slices.SortFunc(out.Low, byUrgency)
	out.Tanks = slices.Clone(all)
	slices.SortFunc(out.Tanks, byUrgency)
	if len(out.Tanks) > MaxTanks {
		out.Tanks, out.TanksCut = out.Tanks[:MaxTanks], true
	}
	if len(out.Low) > MaxTanks {
		out.Low = out.Low[:MaxTanks]
	}
	return nil
}

// coverKey orders days of cover with "not known" (−1) last.
func coverKey(d float64) float64 {
	if d < 0 {
		return math.Inf(1)
	}
	return d
}

// byUrgency: low stock or low cover first, then fewest days of cover (unknown last), then lowest fill,
// then station and tank number.
func byUrgency(a, b tank.GroundStatus) int {
	la, lb := a.LowStock || a.LowCover, b.LowStock || b.LowCover
	if la != lb {
		if la {
			return -1
		}
		return 1
	}
	return cmp.Or(cmp.Compare(coverKey(a.DaysOfCover), coverKey(b.DaysOfCover)), cmp.Compare(a.FillPct, b.FillPct),
		strings.Compare(a.StationName, b.StationName), cmp.Compare(a.TankNo, b.TankNo), cmp.Compare(a.TankID, b.TankID))
}

// alarms fills the tank alarm panel: the open ones (any age) and the last 24 hours', newest first.
func (s *Service) alarms(ctx context.Context, p *httpx.Principal, l i18n.Lang, groupID int64, now time.Time, paths map[int64]string, out *AlarmPanel) error {
	out.List = []AlarmRow{}
	if s.d.Alarms == nil {
		return nil
	}
	// only the tank kinds the platform has (a rule retired with its type lists nothing, not an error)
	var types []string
	for _, t := range s.d.Alarms.Types(l) {
		if slices.Contains(AlarmTypes, t.Code) {
			types = append(types, t.Code)
		}
	}
	if len(types) == 0 {
		return nil
	}
	open, err := s.d.Alarms.FindSome(ctx, p, l, alarm.Query{PageReq: httpx.PageReq{PageNum: 1, PageSize: MaxAlarms},
		GroupID: groupID, Types: types, States: []int{alarm.StateUnprocessed, alarm.StatePending}})
	if err != nil {
		return err
	}
	end := httpx.TimeOf(now)
	recent, err := s.d.Alarms.FindSome(ctx, p, l, alarm.Query{PageReq: httpx.PageReq{PageNum: 1, PageSize: MaxAlarms},
		GroupID: groupID, Types: types, StartTime: end - AlarmHours*3600_000, EndTime: end})
	if err != nil {
		return err
	}
	out.Open, out.Recent = int(open.Total), int(recent.Total)
	seen := map[int64]bool{}
	var rows []alarm.View
	for _, v := range append(open.List, recent.List...) {
		if !seen[v.ID] {
			seen[v.ID] = true
			rows = append(rows, v)
		}
	}
	slices.SortFunc(rows, func(a, b alarm.View) int {
		return cmp.Or(cmp.Compare(b.StartTime, a.StartTime), cmp.Compare(b.ID, a.ID))
	})
	if len(rows) > MaxAlarms {
		rows = rows[:MaxAlarms]
	}
	for _, v := range rows {
		r := AlarmRow{ID: v.ID, CarID: v.CarID, Plate: v.Plate, Type: v.Type, TypeName: v.TypeName, Level: v.Level, Time: v.StartTime,
			EndTime: v.EndTime, State: v.State, Detail: v.Detail, Located: v.Lng.Valid}
		if v.Lng.Valid {
			r.Lng, r.Lat = v.Lng.Deg, v.Lat.Deg
			if gp, ok := paths[v.CarID]; ok && s.d.Fences != nil {
				if _, name, _, ok := s.d.Fences.FenceAt(gp, int32(math.Round(v.Lat.Deg*1e6)), int32(math.Round(v.Lng.Deg*1e6))); ok {
					r.Place = name
				}
			}
		}
		out.List = append(out.List, r)
	}
	return nil
}
