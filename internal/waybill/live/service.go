package live

import (
	"context"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/uptrace/bun"

	"tankwatch/internal/fleet"
	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/plate"
	"tankwatch/internal/telemetry"
	"tankwatch/internal/waybill"
)

// Active states: a car is on the map from DISPATCHED to UNLOADING.
const (
	FirstActive = waybill.Dispatched
	LastActive  = waybill.Unloading
)

// Service answers findCarsByWaybill and carExhibitionByWaybill.
type Service struct {
	db      *db.DB
	fleet   *fleet.Service
	live    *telemetry.Live
	history *telemetry.History
	now     func() time.Time

	mu  sync.Mutex
	acc map[int64]*tripAcc // per active waybill: its moving distance and time so far
}

// tripAcc is a trip's Moving since departAt, read from the positions up to the last one seen.
type tripAcc struct {
	departAt int64
	m        Moving
}

// New returns the service. now is the platform clock.
func New(d *db.DB, f *fleet.Service, l *telemetry.Live, h *telemetry.History, now func() time.Time) *Service {
	return &Service{db: d, fleet: f, live: l, history: h, now: now, acc: map[int64]*tripAcc{}}
}

const prefix = "/monitor-app/realTimeMoitoring/"

// Routes are the endpoints of the waybill map (04-42) and the list of historyWaybill (04-43).
func (s *Service) Routes() []httpx.Route {
	return []httpx.Route{
		{Method: "POST", Path: prefix + "findCarsByWaybill", Access: httpx.Needs("04-42"), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q FindQuery) (any, error) {
				return s.FindCars(r.Context(), httpx.Caller(r), q)
			})},
		{Method: "GET", Path: prefix + "carExhibitionByWaybill", Access: httpx.Needs("04-42"), Scoped: true,
			Handler: func(w http.ResponseWriter, r *http.Request) {
				id, err := httpx.QueryID(r, "carId")
				if err != nil {
					httpx.Fail(w, r, err)
					return
				}
				out, err := s.Exhibition(r.Context(), httpx.Caller(r), id)
				httpx.Respond(w, r, out, err)
			}},
		s.HistoryRoute(),
	}
}

// FindQuery is the body of findCarsByWaybill.
type FindQuery struct {
	GroupID   int64  `json:"groupId"`   // default: the caller's group
	State     string `json:"state"`     // one active state name, "" = all active
	CarNumber string `json:"carNumber"` // plate contains
	WaybillNo string `json:"waybillNo"` // number contains
}

// Stop of a route as the map shows it.
type StopView struct {
	Seq       int     `json:"seq"` // 0 = the depot
	StationID int64   `json:"stationId"`
	Name      string  `json:"name"`
	Lng       float64 `json:"lng"`
	Lat       float64 `json:"lat"`
	State     int     `json:"state"` // waybill.Dest*; the depot: 0
	ArriveAt  int64   `json:"arriveAt"`
}

// CarView is a car on an active waybill.
type CarView struct {
	CarID     int64               `json:"carId"`
	Plate     string              `json:"plate"`
	Lng       telemetry.LiveCoord `json:"lng"`
	Lat       telemetry.LiveCoord `json:"lat"`
	Speed     float64             `json:"speed"` // km/h
	Direction int                 `json:"direction"`
	Code      int                 `json:"code"` // live code: 4 moving, 5 resting, 7 offline
	Time      int64               `json:"time"` // of the newest position

	WaybillID       int64  `json:"waybillId"`
	WaybillNo       string `json:"waybillNo"`
	State           string `json:"state"`
	StateAt         int64  `json:"stateAt"`
	Flagged         bool   `json:"flagged"`
	DepotName       string `json:"depotName"`
	DispatchedAt    int64  `json:"dispatchedAt"`
	DepartAt        int64  `json:"departAt"`
	PlannedArriveAt int64  `json:"plannedArriveAt"`

	NextSeq  int    `json:"nextSeq"` // 0: every destination reached
	NextName string `json:"nextName"`
	// Remaining distances (km) and ETAs (Unix ms); null when the car's position is unknown.
	NextKm     *float64 `json:"nextKm"`
	FinalKm    *float64 `json:"finalKm"`
	EtaAt      *int64   `json:"etaAt"`      // at the next destination
	FinalEtaAt *int64   `json:"finalEtaAt"` // at the last destination
	Late       bool     `json:"late"`       // the final ETA is past the planned arrival
	AvgKmh     float64  `json:"avgKmh"`     // the speed the ETA uses
	// SpeedSource: "trip" (the trip's average moving speed since departure) or "default" (DefaultKmh:
	// not departed yet, or too little movement so far).
	SpeedSource string  `json:"speedSource"`
	MovingKm    float64 `json:"movingKm"`
	MovingMin   float64 `json:"movingMin"`
}

// FindResult is the answer of findCarsByWaybill.
type FindResult struct {
	List       []CarView `json:"list"`
	ServerTime int64     `json:"serverTime"`
	DefaultKmh float64   `json:"defaultKmh"`
	MovingKmh  float64   `json:"movingKmh"`
}

// Exhibition is the answer of carExhibitionByWaybill: the car's active waybill with its route and
// the track since departure.
type Exhibition struct {
	CarView
	Depot        StopView         `json:"depot"`
	Destinations []StopView       `json:"destinations"`
	Track        []TrackPointView `json:"track"`
	Truncated    bool             `json:"truncated"`
	ServerTime   int64            `json:"serverTime"`
}

// TrackPointView is one position of the track since departure.
type TrackPointView struct {
	T     int64   `json:"t"`
	Lng   float64 `json:"lng"`
	Lat   float64 `json:"lat"`
	Speed float64 `json:"speed"`
}

type wbRow struct {
	ID              int64   `bun:"id"`
	No              string  `bun:"no"`
	CarID           int64   `bun:"car_id"`
	Plate           string  `bun:"plate"`
	State           int     `bun:"state"`
	StateAt         int64   `bun:"state_at"`
	Flagged         bool    `bun:"flagged"`
	DepotID         int64   `bun:"depot_id"`
	DepotName       string  `bun:"depot_name"`
	DepotLng        float64 `bun:"depot_lng"`
	DepotLat        float64 `bun:"depot_lat"`
	DispatchedAt    int64   `bun:"dispatched_at"`
	DepartAt        int64   `bun:"depart_at"`
	PlannedArriveAt int64   `bun:"planned_arrive_at"`
}

type destRow struct {
	WaybillID int64   `bun:"waybill_id"`
	Seq       int     `bun:"seq"`
	StationID int64   `bun:"station_id"`
	State     int     `bun:"state"`
	ArriveAt  int64   `bun:"arrive_at"`
	Name      string  `bun:"name"`
	Lng       float64 `bun:"center_lng"`
	Lat       float64 `bun:"center_lat"`
}

func (s *Service) activeSelect() *bun.SelectQuery {
	return s.db.NewSelect().TableExpr("waybills AS w").
		ColumnExpr("w.id, w.no, w.car_id, c.plate, w.state, w.state_at, w.flagged, w.depot_id, d.name AS depot_name").
		ColumnExpr("d.center_lng AS depot_lng, d.center_lat AS depot_lat, w.dispatched_at, w.depart_at, w.planned_arrive_at").
		Join("JOIN cars AS c ON c.id = w.car_id").
		Join("JOIN org_groups AS g ON g.id = c.group_id").
		Join("JOIN stations AS d ON d.id = w.depot_id").
		Where("w.state >= ? AND w.state <= ?", int(FirstActive), int(LastActive))
}

// onePerCar keeps each car's furthest-along active waybill (rows in any order).
func onePerCar(rows []wbRow) []wbRow {
	best := map[int64]int{}
	for i, r := range rows {
		j, ok := best[r.CarID]
		if !ok || r.State > rows[j].State || (r.State == rows[j].State && r.ID < rows[j].ID) {
			best[r.CarID] = i
		}
	}
	out := make([]wbRow, 0, len(best))
	for i, r := range rows {
		if best[r.CarID] == i {
			out = append(out, r)
		}
	}
	sort.Slice(out, func(a, b int) bool { return out[a].No < out[b].No })
	return out
}

func (s *Service) dests(ctx context.Context, ids []int64) (map[int64][]destRow, error) {
	out := map[int64][]destRow{}
	if len(ids) == 0 {
		return out, nil
	}
	var rows []destRow
	err := s.db.NewSelect().TableExpr("waybill_destinations AS x").
		ColumnExpr("x.waybill_id, x.seq, x.station_id, x.state, x.arrive_at, s.name, s.center_lng, s.center_lat").
		Join("JOIN stations AS s ON s.id = x.station_id").Where("x.waybill_id IN (?)", bun.In(ids)).
		OrderExpr("x.waybill_id, x.seq").Scan(ctx, &rows)
	for _, r := range rows {
		out[r.WaybillID] = append(out[r.WaybillID], r)
	}
	return out, err
}

// FindCars lists the cars on active waybills under groupId (default: the caller's group).
func (s *Service) FindCars(ctx context.Context, p *httpx.Principal, q FindQuery) (*FindResult, error) {
	var state waybill.State
	if q.State = strings.TrimSpace(q.State); q.State != "" {
		st, ok := waybill.ParseState(q.State)
		if !ok || st < FirstActive || st > LastActive {
			return nil, httpx.Invalid("wbmap.state")
		}
		state = st
	}
	q.CarNumber = strings.ToUpper(strings.TrimSpace(q.CarNumber))
	q.WaybillNo = strings.TrimSpace(q.WaybillNo)
	if utf8.RuneCountInString(q.CarNumber) > 20 {
		return nil, httpx.Biz("field.maxLen", httpx.Field("plate"), 20)
	}
	if utf8.RuneCountInString(q.WaybillNo) > 40 {
		return nil, httpx.Biz("field.maxLen", httpx.Field("wbmap.waybillNo"), 40)
	}
	path, err := s.fleet.LiveGroupPath(ctx, p, q.GroupID)
	if err != nil {
		return nil, err
	}
	sel := s.activeSelect().Where("g.path LIKE ?", path+"%")
	if state != 0 {
		sel = sel.Where("w.state = ?", int(state))
	}
	if q.CarNumber != "" {
		sel = sel.Where(db.Contains("c.plate", plate.Key(q.CarNumber)))
	}
	if q.WaybillNo != "" {
		sel = sel.Where(db.Contains("w.no", q.WaybillNo))
	}
	var rows []wbRow
	if err := sel.Scan(ctx, &rows); err != nil {
		return nil, err
	}
	rows = onePerCar(rows)
	ids := make([]int64, len(rows))
	for i := range rows {
		ids[i] = rows[i].ID
	}
	dests, err := s.dests(ctx, ids)
	if err != nil {
		return nil, err
	}
	now := s.now().UnixMilli()
	moving, err := s.update(ctx, rows, now)
	if err != nil {
		return nil, err
	}
	out := &FindResult{List: make([]CarView, len(rows)), ServerTime: now, DefaultKmh: DefaultKmh, MovingKmh: MovingKmh}
	for i := range rows {
		out.List[i] = s.view(&rows[i], dests[rows[i].ID], moving[rows[i].ID], now)
	}
	return out, nil
}

// posRow is a located position.
type posRow struct {
	T     int64 `bun:"t"`
	Lat   int32 `bun:"lat"`
	Lon   int32 `bun:"lon"`
	Speed int   `bun:"speed"`
}

func sampleOf(r *posRow) Sample {
	return Sample{T: r.T, Lng: float64(r.Lon) / 1e6, Lat: float64(r.Lat) / 1e6, Kmh: float64(r.Speed) / 10}
}

// update brings each departed trip's Moving up to now with the positions stored since the last call
// (each position is read once per waybill), and forgets the trips no longer active.
func (s *Service) update(ctx context.Context, rows []wbRow, now int64) (map[int64]Moving, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[int64]Moving{}
	for i := range rows {
		r := &rows[i]
		if r.DepartAt <= 0 || waybill.State(r.State) < waybill.InTransit {
			continue
		}
		a := s.acc[r.ID]
		if a == nil || a.departAt != r.DepartAt { // new, or the departure was corrected
			a = &tripAcc{departAt: r.DepartAt}
			s.acc[r.ID] = a
		}
		from := r.DepartAt
		if a.m.Has {
			from = a.m.Last.T + 1
		}
		var pts []posRow
		if err := s.db.NewSelect().TableExpr("positions").ColumnExpr("t, lat, lon, speed").
			Where("car_id = ?", r.CarID).Where("t >= ? AND t <= ?", from, now).Where("(lat <> 0 OR lon <> 0)").
			OrderExpr("t, terminal_id").Limit(telemetry.MaxTrackPoints).Scan(ctx, &pts); err != nil {
			return nil, err
		}
		for j := range pts {
			a.m.Add(sampleOf(&pts[j]))
		}
		out[r.ID] = a.m
	}
	// forget what is no longer on the map: only the trips this call saw are kept when the call saw
	// every active trip; a filtered call keeps the rest
	if len(s.acc) > 4*len(rows)+1000 {
		for id := range s.acc {
			if _, ok := out[id]; !ok {
				delete(s.acc, id)
			}
		}
	}
	return out, nil
}

func (s *Service) view(r *wbRow, ds []destRow, m Moving, now int64) CarView {
	v := CarView{CarID: r.CarID, Plate: r.Plate, WaybillID: r.ID, WaybillNo: r.No, State: waybill.State(r.State).String(),
		StateAt: r.StateAt, Flagged: r.Flagged, DepotName: r.DepotName, DispatchedAt: r.DispatchedAt,
		DepartAt: r.DepartAt, PlannedArriveAt: r.PlannedArriveAt, Lng: telemetry.LiveCoord{}, Lat: telemetry.LiveCoord{}}
	var pos *Point
	if cs, ok := s.live.Car(r.CarID); ok {
		v.Speed, v.Direction, v.Code = float64(cs.Speed)/10, int(cs.Direction), cs.Code
		if cs.Reported {
			v.Time = cs.Time.UnixMilli()
		}
		if cs.Located() {
			pt := Point{Lng: float64(cs.Lon) / 1e6, Lat: float64(cs.Lat) / 1e6}
			pos = &pt
			v.Lng, v.Lat = telemetry.LiveCoord{Deg: pt.Lng, Valid: true}, telemetry.LiveCoord{Deg: pt.Lat, Valid: true}
		}
	}
	stops := make([]Stop, len(ds))
	for i, d := range ds {
		stops[i] = Stop{Seq: d.Seq, At: Point{Lng: d.Lng, Lat: d.Lat}, State: d.State}
	}
	kmh, trip := m.Speed()
	v.AvgKmh, v.SpeedSource = Round1(kmh), "default"
	if trip {
		v.SpeedSource = "trip"
	}
	v.MovingKm, v.MovingMin = Round1(m.Km), Round1(float64(m.MovingMs)/60_000)
	prog, ok := Plan(waybill.State(r.State), pos, Point{Lng: r.DepotLng, Lat: r.DepotLat}, stops)
	v.NextSeq = prog.NextSeq
	for _, d := range ds {
		if d.Seq == prog.NextSeq {
			v.NextName = d.Name
		}
	}
	if ok {
		nk, fk := Round1(prog.NextKm), Round1(prog.FinalKm)
		eta, feta := EtaMs(now, prog.NextKm, kmh), EtaMs(now, prog.FinalKm, kmh)
		v.NextKm, v.FinalKm, v.EtaAt, v.FinalEtaAt = &nk, &fk, &eta, &feta
		v.Late = r.PlannedArriveAt > 0 && prog.NextSeq != 0 && int64(feta) > r.PlannedArriveAt
	}
	return v
}

// Exhibition is one car's active waybill with its route and its track since departure.
func (s *Service) Exhibition(ctx context.Context, p *httpx.Principal, carID int64) (*Exhibition, error) {
	if _, err := s.fleet.ScopedCar(ctx, p, carID); err != nil {
		return nil, err
	}
	var rows []wbRow
	if err := s.activeSelect().Where("w.car_id = ?", carID).Scan(ctx, &rows); err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, httpx.Biz("wbmap.noActive")
	}
	r := onePerCar(rows)[0]
	dm, err := s.dests(ctx, []int64{r.ID})
	if err != nil {
		return nil, err
	}
	now := s.now().UnixMilli()
	out := &Exhibition{Track: []TrackPointView{}, Destinations: []StopView{}, ServerTime: now,
		Depot: StopView{StationID: r.DepotID, Name: r.DepotName, Lng: r.DepotLng, Lat: r.DepotLat}}
	var m Moving
	if r.DepartAt > 0 && waybill.State(r.State) >= waybill.InTransit {
		tr, err := s.history.Track(ctx, p, carID, time.UnixMilli(max(r.DepartAt, now-telemetry.MaxRangeDays*24*3_600_000+1000)), time.UnixMilli(max(now, r.DepartAt)), 0)
		if err != nil {
			return nil, err
		}
		out.Truncated = tr.Truncated
		for _, pt := range tr.Points {
			out.Track = append(out.Track, TrackPointView{T: int64(pt.Time), Lng: pt.Lng, Lat: pt.Lat, Speed: pt.Speed})
			m.Add(Sample{T: int64(pt.Time), Lng: pt.Lng, Lat: pt.Lat, Kmh: pt.Speed})
		}
	}
	out.CarView = s.view(&r, dm[r.ID], m, now)
	for _, d := range dm[r.ID] {
		out.Destinations = append(out.Destinations, StopView{Seq: d.Seq, StationID: d.StationID, Name: d.Name, Lng: d.Lng, Lat: d.Lat,
			State: d.State, ArriveAt: d.ArriveAt})
	}
	return out, nil
}
