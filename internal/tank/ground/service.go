package ground

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"sort"
	"strconv"
	"strings"

	"github.com/uptrace/bun"

	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
	"tankwatch/internal/platform/xlsx"
	"tankwatch/internal/tank"
	"tankwatch/internal/tank/gauge"
)

// Permission codes: tankEventRecord (04-13) and the cockpit (04-04) read the station tank states.
var (
	eventAccess  = httpx.Needs("04-13")
	statusAccess = httpx.Needs("04-13", "04-04")
)

// Routes are the station tank endpoints (docs/API.md "Station tanks").
func (s *Service) Routes() []httpx.Route {
	return []httpx.Route{
		{Method: "POST", Path: "/monitor-app/groundTank/status", Access: statusAccess, Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q StatusQuery) (any, error) { return s.Status(r.Context(), httpx.Caller(r), q) })},
		{Method: "POST", Path: "/monitor-app/groundTank/gauges", Access: statusAccess, Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q StatusQuery) (any, error) { return s.GaugeList(r.Context(), httpx.Caller(r), q) })},
		{Method: "POST", Path: "/monitor-app/tankEventRecord/page", Access: eventAccess, Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q EventQuery) (any, error) { return s.EventPage(r.Context(), httpx.Caller(r), q) })},
		{Method: "POST", Path: "/monitor-app/tankEventRecord/export", Access: eventAccess, Scoped: true,
			Handler: xlsx.Handler(s.exportEvents)},
	}
}

// StatusQuery is the body of groundTank/status and groundTank/gauges.
type StatusQuery struct {
	GroupID   int64 `json:"groupId"`   // 0: the caller's group; always with its subtree
	StationID int64 `json:"stationId"` // optional
}

// scopePath is the group path a query is limited to: the caller's, or a group of its subtree; a
// station or tank named in the query must lie in the caller's scope too (else 403 scope, or not found).
func (s *Service) scopePath(ctx context.Context, p *httpx.Principal, groupID, stationID, tankID int64) (string, error) {
	if stationID > 0 {
		if err := s.inScope(ctx, p, "SELECT g.path FROM stations AS st JOIN org_groups AS g ON g.id = st.group_id WHERE st.id = ?", stationID); err != nil {
			return "", err
		}
	}
	if tankID > 0 {
		if err := s.inScope(ctx, p, `SELECT g.path FROM ground_tanks AS gt JOIN stations AS st ON st.id = gt.station_id
JOIN org_groups AS g ON g.id = st.group_id WHERE gt.id = ?`, tankID); err != nil {
			return "", err
		}
	}
	if groupID > 0 {
		return db.ScopedGroupPath(ctx, s.db, p, groupID)
	}
	return p.GroupPath, nil
}

func (s *Service) inScope(ctx context.Context, p *httpx.Principal, query string, id int64) error {
	var path string
	err := s.db.NewRaw(query, id).Scan(ctx, &path)
	if errors.Is(err, sql.ErrNoRows) {
		return httpx.ErrNotFound
	}
	if err != nil {
		return err
	}
	if !p.InScope(path) {
		return httpx.ErrScope
	}
	return nil
}

// tanksIn returns the ground tanks under a group path (and of one station when stationID > 0).
func (s *Service) tanksIn(ctx context.Context, path string, stationID int64) ([]tankRow, error) {
	rows, err := s.tanks(ctx, s.db)
	if err != nil {
		return nil, err
	}
	out := rows[:0]
	for _, r := range rows {
		if strings.HasPrefix(r.GroupPath, path) && (stationID == 0 || r.StationID == stationID) {
			out = append(out, r)
		}
	}
	return out, nil
}

// GroundStatuses implements tank.GroundStatuses: every ground tank under groupPath with its newest
// reading, days of cover and gauge state.
func (s *Service) GroundStatuses(ctx context.Context, groupPath string) ([]tank.GroundStatus, error) {
	rows, err := s.tanksIn(ctx, groupPath, 0)
	if err != nil {
		return nil, err
	}
	return s.statuses(ctx, rows)
}

func (s *Service) statuses(ctx context.Context, rows []tankRow) ([]tank.GroundStatus, error) {
	out := make([]tank.GroundStatus, 0, len(rows))
	if len(rows) == 0 {
		return out, nil
	}
	ids := make([]int64, len(rows))
	for i, r := range rows {
		ids[i] = r.ID
	}
	var newest []Reading
	if err := s.db.NewSelect().Model(&newest).
		Where("gr.tank_id IN (?)", bun.In(ids)).
		Where("gr.t = (SELECT MAX(r2.t) FROM ground_readings AS r2 WHERE r2.tank_id = gr.tank_id)").Scan(ctx); err != nil {
		return nil, err
	}
	byTank := map[int64]*Reading{}
	for i := range newest {
		byTank[newest[i].TankID] = &newest[i]
	}
	gs := s.Gauges()
	for _, r := range rows {
		st := tank.GroundStatus{TankID: r.ID, StationID: r.StationID, StationName: r.StationName, GroupID: r.GroupID, TankNo: r.TankNo,
			Name: r.Name, Product: r.Product, CapacityL: float64(r.CapacityL), DaysOfCover: -1, GaugeState: tank.GaugeNone}
		if a := r.addr(); a != "" {
			st.GaugeState = tank.GaugeOffline // configured, not (yet) answered
			if g, ok := gs[a]; ok {
				st.GaugeState = g.State
			}
		}
		if rd := byTank[r.ID]; rd != nil {
			st.At, st.VolumeL, st.V20L, st.HeightMM, st.WaterMM, st.TempC = rd.T, rd.VolumeL, rd.V20L, rd.HeightMM, rd.WaterMM, rd.TempC
			if r.CapacityL > 0 {
				st.FillPct = math.Round(rd.VolumeL/float64(r.CapacityL)*1000) / 10
			}
			days, err := s.daysOfCover(ctx, r.ID, rd.VolumeL)
			if err != nil {
				return nil, err
			}
			st.DaysOfCover = days
			st.LowStock = r.LowStockPct > 0 && st.FillPct < float64(r.LowStockPct)
			st.LowCover = days >= 0 && r.CoverDaysMin > 0 && days < r.CoverDaysMin
		}
		out = append(out, st)
	}
	return out, nil
}

// StatusView is a GroundStatus with the tank's gauge connection (groundTank/status).
type StatusView struct {
	tank.GroundStatus
	Gauge     string `json:"gauge"`     // host:port, "" none
	GaugeTank int    `json:"gaugeTank"` // the tank's number on the gauge
}

// Status is POST /monitor-app/groundTank/status.
func (s *Service) Status(ctx context.Context, p *httpx.Principal, q StatusQuery) ([]StatusView, error) {
	path, err := s.scopePath(ctx, p, q.GroupID, q.StationID, 0)
	if err != nil {
		return nil, err
	}
	rows, err := s.tanksIn(ctx, path, q.StationID)
	if err != nil {
		return nil, err
	}
	sts, err := s.statuses(ctx, rows)
	if err != nil {
		return nil, err
	}
	out := make([]StatusView, len(sts))
	for i := range sts {
		out[i] = StatusView{GroundStatus: sts[i], Gauge: rows[i].addr(), GaugeTank: gaugeTankNo(&rows[i])}
	}
	return out, nil
}

// GaugeView is one gauge with the caller's tanks on it (groundTank/gauges).
type GaugeView struct {
	Addr      string      `json:"addr"`
	State     string      `json:"state"`
	Since     int64       `json:"since"` // ms; 0: not polled yet
	LastError string      `json:"lastError"`
	LastOK    int64       `json:"lastOk"`
	Stations  []string    `json:"stations"`
	Tanks     []GaugeTank `json:"tanks"`
}

// GaugeTank is a tank on a gauge.
type GaugeTank struct {
	TankID      int64  `json:"tankId"`
	StationName string `json:"stationName"`
	TankNo      int    `json:"tankNo"`
	Name        string `json:"name"`
}

// GaugeList is POST /monitor-app/groundTank/gauges: the gauges of the caller's tanks, offline and
// garbage first.
func (s *Service) GaugeList(ctx context.Context, p *httpx.Principal, q StatusQuery) ([]GaugeView, error) {
	path, err := s.scopePath(ctx, p, q.GroupID, q.StationID, 0)
	if err != nil {
		return nil, err
	}
	rows, err := s.tanksIn(ctx, path, q.StationID)
	if err != nil {
		return nil, err
	}
	gs := s.Gauges()
	by := map[string]*GaugeView{}
	var out []*GaugeView
	for _, r := range rows {
		a := r.addr()
		if a == "" {
			continue
		}
		v := by[a]
		if v == nil {
			v = &GaugeView{Addr: a, State: tank.GaugeOffline}
			if g, ok := gs[a]; ok {
				v.State, v.Since, v.LastError, v.LastOK = g.State, g.Since, g.LastError, g.LastOK
			}
			by[a] = v
			out = append(out, v)
		}
		if len(v.Stations) == 0 || v.Stations[len(v.Stations)-1] != r.StationName {
			v.Stations = append(v.Stations, r.StationName)
		}
		v.Tanks = append(v.Tanks, GaugeTank{TankID: r.ID, StationName: r.StationName, TankNo: r.TankNo, Name: r.Name})
	}
	rank := map[string]int{tank.GaugeGarbage: 0, tank.GaugeOffline: 1, tank.GaugeOnline: 2}
	sort.SliceStable(out, func(i, j int) bool {
		if rank[out[i].State] != rank[out[j].State] {
			return rank[out[i].State] < rank[out[j].State]
		}
		return out[i].Stations[0] < out[j].Stations[0]
	})
	res := make([]GaugeView, len(out))
	for i, v := range out {
		res[i] = *v
	}
	return res, nil
}

// EventQuery is the body of tankEventRecord/page and /export.
type EventQuery struct {
	httpx.PageReq
	GroupID   int64      `json:"groupId"`
	StationID int64      `json:"stationId"`
	TankID    int64      `json:"tankId"`
	Kind      string     `json:"kind"` // one of Kinds, "" all
	StartTime httpx.Time `json:"startTime"`
	EndTime   httpx.Time `json:"endTime"`
}

// EventView is one station tank event.
type EventView struct {
	ID          int64   `json:"id"`
	TankID      int64   `json:"tankId"`
	StationID   int64   `json:"stationId"`
	StationName string  `json:"stationName"`
	TankNo      int     `json:"tankNo"`
	TankName    string  `json:"tankName"`
	Product     int     `json:"product"`
	Kind        string  `json:"kind"`
	StartAt     int64   `json:"startAt"`
	EndAt       *int64  `json:"endAt"` // null: still going on
	BeforeL     float64 `json:"beforeL"`
	AfterL      float64 `json:"afterL"`
	BeforeV20   float64 `json:"beforeV20"`
	AfterV20    float64 `json:"afterV20"`
	Detail      Detail  `json:"detail"`
}

type eventRow struct {
	Event       `bun:",extend"`
	StationName string `bun:"station_name"`
	TankNo      int    `bun:"tank_no"`
	TankName    string `bun:"tank_name"`
	Product     int    `bun:"product"`
}

func (r *eventRow) view() EventView {
	v := EventView{ID: r.ID, TankID: r.TankID, StationID: r.StationID, StationName: r.StationName, TankNo: r.TankNo, TankName: r.TankName,
		Product: r.Product, Kind: r.Kind, StartAt: r.StartAt, EndAt: r.EndAt, BeforeL: round1(r.BeforeL), AfterL: round1(r.AfterL),
		BeforeV20: round1(r.BeforeV20), AfterV20: round1(r.AfterV20)}
	_ = json.Unmarshal([]byte(r.Detail), &v.Detail)
	return v
}

var eventSort = map[string]string{"startAt": "ev.start_at", "endAt": "ev.end_at", "kind": "ev.kind", "stationName": "st.name",
	"tankNo": "gt.tank_no", "beforeL": "ev.before_l", "afterL": "ev.after_l"}

func (s *Service) eventSelect(ctx context.Context, p *httpx.Principal, q *EventQuery) (*bun.SelectQuery, error) {
	path, err := s.scopePath(ctx, p, q.GroupID, q.StationID, q.TankID)
	if err != nil {
		return nil, err
	}
	if q.Kind != "" {
		ok := false
		for _, k := range Kinds {
			ok = ok || k == q.Kind
		}
		if !ok {
			return nil, httpx.Invalid("kind")
		}
	}
	if q.StartTime != 0 && q.EndTime != 0 && q.EndTime < q.StartTime {
		return nil, httpx.Biz("groundTank.endBeforeStart")
	}
	sel := s.db.NewSelect().TableExpr("ground_tank_events AS ev").ColumnExpr("ev.*").
		ColumnExpr("st.name AS station_name, gt.tank_no AS tank_no, gt.name AS tank_name, gt.product AS product").
		Join("JOIN ground_tanks AS gt ON gt.id = ev.tank_id").
		Join("JOIN stations AS st ON st.id = gt.station_id").
		Join("JOIN org_groups AS g ON g.id = st.group_id").
		Where("g.path LIKE ?", path+"%")
	if q.StationID > 0 {
		sel = sel.Where("gt.station_id = ?", q.StationID)
	}
	if q.TankID > 0 {
		sel = sel.Where("ev.tank_id = ?", q.TankID)
	}
	if q.Kind != "" {
		sel = sel.Where("ev.kind = ?", q.Kind)
	}
	if q.StartTime != 0 { // events that end after the range's start (open ones too)
		sel = sel.Where("(ev.end_at IS NULL OR ev.end_at >= ?)", int64(q.StartTime))
	}
	if q.EndTime != 0 {
		sel = sel.Where("ev.start_at <= ?", q.EndTime.Through())
	}
	return sel, nil
}

// EventPage is POST /monitor-app/tankEventRecord/page.
func (s *Service) EventPage(ctx context.Context, p *httpx.Principal, q EventQuery) (httpx.Page[EventView], error) {
	if err := q.Normalize(); err != nil {
		return httpx.Page[EventView]{}, err
	}
	order, err := q.OrderBy(eventSort, "ev.start_at DESC")
	if err != nil {
		return httpx.Page[EventView]{}, err
	}
	sel, err := s.eventSelect(ctx, p, &q)
	if err != nil {
		return httpx.Page[EventView]{}, err
	}
	return db.ScanPage(ctx, sel, q.PageReq, order, "ev.id", (*eventRow).view)
}

// ExportRows bounds an export.
const ExportRows = 10000

func (s *Service) exportEvents(r *http.Request, q EventQuery) (*xlsx.Sheet, error) {
	if err := q.Normalize(); err != nil {
		return nil, err
	}
	order, err := q.OrderBy(eventSort, "ev.start_at DESC")
	if err != nil {
		return nil, err
	}
	sel, err := s.eventSelect(r.Context(), httpx.Caller(r), &q)
	if err != nil {
		return nil, err
	}
	var rows []eventRow
	if err := sel.OrderExpr(order+", ev.id").Limit(ExportRows).Scan(r.Context(), &rows); err != nil {
		return nil, err
	}
	l := httpx.Lang(r)
	sh := &xlsx.Sheet{Name: "export.tankEventRecord", ASCII: "tank-events", Head: []string{"groundTank.col.station", "groundTank.col.tank",
		"groundTank.col.kind", "groundTank.col.start", "groundTank.col.end", "groundTank.col.beforeL", "groundTank.col.afterL",
		"groundTank.col.beforeV20", "groundTank.col.afterV20", "groundTank.col.detail"}}
	for i := range rows {
		v := rows[i].view()
		end := i18n.T(l, "groundTank.ongoing")
		if v.EndAt != nil {
			end = httpx.Time(*v.EndAt).String()
		}
		sh.Rows = append(sh.Rows, []any{v.StationName, tankLabel(v.TankNo, v.TankName), i18n.T(l, "groundTank.kind."+v.Kind),
			httpx.Time(v.StartAt).String(), end, v.BeforeL, v.AfterL, v.BeforeV20, v.AfterV20, detailText(l, v.Kind, v.Detail)})
	}
	return sh, nil
}

func tankLabel(no int, name string) string {
	if name == "" {
		return strconv.Itoa(no)
	}
	return strconv.Itoa(no) + " " + name
}

// detailText is an event's detail in words, for the export.
func detailText(l i18n.Lang, kind string, d Detail) string {
	f := func(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
	switch kind {
	case KindGaugeAlarm:
		if d.Alarm != "" {
			return i18n.T(l, "groundTank.alarm."+d.Alarm)
		}
		return i18n.T(l, "groundTank.alarmCode", d.Code)
	case KindWater:
		return i18n.T(l, "groundTank.detail.water", f(d.WaterMM))
	case KindLowCover:
		return i18n.T(l, "groundTank.detail.days", f(d.Days))
	case KindLowStock:
		return i18n.T(l, "groundTank.detail.fill", f(d.FillPct))
	case KindLeakTest, KindLeakFall:
		return i18n.T(l, "groundTank.detail.rate", f(d.RateLph), f(d.Hours))
	case KindDelivery:
		return i18n.T(l, "groundTank.detail.received", f(d.Received))
	case KindGaugeOffline:
		return i18n.T(l, "groundTank.state."+d.State) + " " + d.Gauge + " " + d.Error
	}
	return ""
}

var _ tank.GroundStatuses = (*Service)(nil)
var _ = gauge.AlarmNames
