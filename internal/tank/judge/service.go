package judge

import (
	"context"
	"math"
	"net/http"
	"slices"
	"strconv"

	"github.com/uptrace/bun"

	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
	"tankwatch/internal/platform/xlsx"
	"tankwatch/internal/tank"
)

// PageCode is the permission code of carEventRecord (internal/org/menu.json); its second tab, the
// valve and cover changes (AllDataValveStates), is part of the same page.
const PageCode = "04-14"

// ExportRows is the most rows an export writes.
const ExportRows = 50_000

// Scope resolves what the caller may see (fleet.Service).
type Scope interface {
	LiveGroupPath(ctx context.Context, p *httpx.Principal, groupID int64) (string, error)
	LiveCheckCars(ctx context.Context, p *httpx.Principal, ids []int64) error
}

// Service lists the car tank events and valve changes.
type Service struct {
	db    *db.DB
	scope Scope
}

// NewService returns the list service.
func NewService(d *db.DB, scope Scope) *Service { return &Service{db: d, scope: scope} }

// EventQuery is the body of POST /monitor-app/carEventRecord/page and /export.
type EventQuery struct {
	httpx.PageReq
	GroupID     int64      `json:"groupId"` // 0: the caller's group; always with its subtree
	CarID       int64      `json:"carId"`
	Kind        string     `json:"kind"`        // "" every kind
	Compartment int        `json:"compartment"` // 0 every compartment
	StartTime   httpx.Time `json:"startTime"`
	EndTime     httpx.Time `json:"endTime"`
}

// EventView is one event as listed.
type EventView struct {
	ID          int64      `json:"id"`
	CarID       int64      `json:"carId"`
	Plate       string     `json:"plate"`
	GroupName   string     `json:"groupName"`
	Compartment int        `json:"compartment"`
	Kind        string     `json:"kind"`
	KindName    string     `json:"kindName"`
	Device      int        `json:"device"` // openings: tank.SmallManholeCover …; else -1
	DeviceName  string     `json:"deviceName"`
	Start       httpx.Time `json:"start"`
	StartMs     int64      `json:"startMs"` // the start in Unix ms (the trend page's at=)
	End         httpx.Time `json:"end"`     // null while going on
	Lng         float64    `json:"lng"`
	Lat         float64    `json:"lat"`
	StationID   int64      `json:"stationId"`
	StationName string     `json:"stationName"`
	Before      float64    `json:"before"`
	After       float64    `json:"after"`
	BeforeV20   float64    `json:"beforeV20"`
	AfterV20    float64    `json:"afterV20"`
	Change      float64    `json:"change"`
	ChangeV20   float64    `json:"changeV20"`
	Detail      string     `json:"detail"`
}

type eventListRow struct {
	EventRow  `bun:",extend"`
	Plate     string `bun:"plate"`
	GroupName string `bun:"group_name"`
}

func (r *eventListRow) view(l i18n.Lang) EventView {
	v := EventView{ID: r.ID, CarID: r.CarID, Plate: r.Plate, GroupName: r.GroupName, Compartment: r.Compartment, Kind: r.Kind,
		KindName: i18n.T(l, "judge.kind."+r.Kind), Device: -1, Start: httpx.Time(r.StartAt), StartMs: r.StartAt, Lng: float64(r.Lon) / 1e6, Lat: float64(r.Lat) / 1e6,
		StationID: r.StationID, StationName: r.StationName, Before: r.BeforeL, After: r.AfterL, BeforeV20: r.BeforeV20, AfterV20: r.AfterV20,
		Change: math.Round((r.AfterL-r.BeforeL)*10) / 10, ChangeV20: math.Round((r.AfterV20-r.BeforeV20)*10) / 10}
	if r.EndAt != nil {
		v.End = httpx.Time(*r.EndAt)
	}
	switch r.Kind {
	case KindCoverOpen, KindValveOpen:
		if k, err := strconv.Atoi(r.Detail); err == nil && k >= 0 && k < tank.Kinds {
			v.Device, v.DeviceName = k, i18n.T(l, "judge.device."+r.Detail)
			v.Detail = v.DeviceName
		}
	case KindTheft:
		if r.Detail == "opening" || r.Detail == "parked" {
			v.Detail = i18n.T(l, "judge.detail."+r.Detail)
		}
	case KindSensorJump, KindSensorStuck:
		v.Detail = r.Detail
		if r.Kind == KindSensorJump {
			v.Detail += " L"
		} else {
			v.Detail += " mm"
		}
	}
	return v
}

var eventSort = map[string]string{"start": "e.start_at", "end": "e.end_at", "plate": "c.plate", "kind": "e.kind",
	"compartment": "e.compartment", "change": "(e.after_l - e.before_l)", "before": "e.before_l", "after": "e.after_l"}

// scoped limits sel (with alias c for cars and g for their groups) to the query's group subtree or car.
func (s *Service) scoped(ctx context.Context, p *httpx.Principal, sel *bun.SelectQuery, groupID, carID int64) (*bun.SelectQuery, error) {
	path, err := s.scope.LiveGroupPath(ctx, p, groupID)
	if err != nil {
		return nil, err
	}
	if carID < 0 {
		return nil, httpx.Invalid("carId")
	}
	if carID > 0 {
		if err := s.scope.LiveCheckCars(ctx, p, []int64{carID}); err != nil {
			return nil, err
		}
		sel = sel.Where("c.id = ?", carID)
	}
	return sel.Join("JOIN cars AS c ON c.id = ?TableAlias.car_id").Join("JOIN org_groups AS g ON g.id = c.group_id").
		Where("g.path LIKE ?", path+"%"), nil
}

func timeRange(from, to httpx.Time) (int64, int64, error) {
	if from < 0 || to < 0 {
		return 0, 0, httpx.Invalid("startTime")
	}
	if to != 0 && from > to {
		return 0, 0, httpx.Biz("telemetry.endBeforeStart")
	}
	if to == 0 {
		return int64(from), math.MaxInt64, nil
	}
	return int64(from), to.Through(), nil
}

func (s *Service) eventSelect(ctx context.Context, p *httpx.Principal, q *EventQuery) (*bun.SelectQuery, string, error) {
	if err := q.PageReq.Normalize(); err != nil {
		return nil, "", err
	}
	if q.Kind != "" && !slices.Contains(Kinds, q.Kind) {
		return nil, "", httpx.Invalid("eventKind")
	}
	if q.Compartment < 0 || q.Compartment > tank.MaxCompartments {
		return nil, "", httpx.Biz("field.range", httpx.Field("compartment"), 0, tank.MaxCompartments)
	}
	from, to, err := timeRange(q.StartTime, q.EndTime)
	if err != nil {
		return nil, "", err
	}
	order, err := q.OrderBy(eventSort, "e.start_at DESC")
	if err != nil {
		return nil, "", err
	}
	sel := s.db.NewSelect().Model((*eventListRow)(nil)).ColumnExpr("e.*, c.plate, g.name AS group_name")
	sel, err = s.scoped(ctx, p, sel, q.GroupID, q.CarID)
	if err != nil {
		return nil, "", err
	}
	sel = sel.Where("e.start_at >= ? AND e.start_at <= ?", from, to)
	if q.Kind != "" {
		sel = sel.Where("e.kind = ?", q.Kind)
	}
	if q.Compartment > 0 {
		sel = sel.Where("e.compartment = ?", q.Compartment)
	}
	return sel, order, nil
}

// Events is POST /monitor-app/carEventRecord/page.
func (s *Service) Events(r *http.Request, q EventQuery) (httpx.Page[EventView], error) {
	sel, order, err := s.eventSelect(r.Context(), httpx.Caller(r), &q)
	if err != nil {
		return httpx.Page[EventView]{}, err
	}
	l := httpx.Lang(r)
	return db.ScanPage(r.Context(), sel, q.PageReq, order, "e.id DESC", func(row *eventListRow) EventView { return row.view(l) })
}

// ExportEvents is POST /monitor-app/carEventRecord/export.
func (s *Service) ExportEvents(r *http.Request, q EventQuery) (*xlsx.Sheet, error) {
	q.PageNum, q.PageSize = 1, 1
	sel, order, err := s.eventSelect(r.Context(), httpx.Caller(r), &q)
	if err != nil {
		return nil, err
	}
	var rows []eventListRow
	if err := sel.OrderExpr(order+", e.id DESC").Limit(ExportRows).Scan(r.Context(), &rows); err != nil {
		return nil, err
	}
	l := httpx.Lang(r)
	sh := &xlsx.Sheet{Name: "judge.export.events", ASCII: "car-tank-events", Head: []string{"judge.col.plate", "judge.col.group",
		"judge.col.compartment", "judge.col.kind", "judge.col.place", "judge.col.start", "judge.col.end", "judge.col.before",
		"judge.col.after", "judge.col.beforeV20", "judge.col.afterV20", "judge.col.change", "judge.col.detail"}}
	for i := range rows {
		v := rows[i].view(l)
		end := ""
		if v.End != 0 {
			end = v.End.String()
		}
		comp := strconv.Itoa(v.Compartment)
		if v.Compartment == 0 {
			comp = i18n.T(l, "judge.whole")
		}
		sh.Rows = append(sh.Rows, []any{v.Plate, v.GroupName, comp, v.KindName, place(l, v.StationName, v.Lng, v.Lat), v.Start.String(), end,
			v.Before, v.After, v.BeforeV20, v.AfterV20, v.Change, v.Detail})
	}
	return sh, nil
}

// place is a station's name, or the coordinates outside every fence.
func place(l i18n.Lang, station string, lng, lat float64) string {
	if station != "" {
		return station
	}
	if lng == 0 && lat == 0 {
		return i18n.T(l, "judge.outside")
	}
	return i18n.T(l, "judge.outside") + " " + strconv.FormatFloat(lng, 'f', 6, 64) + "," + strconv.FormatFloat(lat, 'f', 6, 64)
}

// ValveQuery is the body of POST /base-info-app/AllDataValveStates/getAllDataValveStatesPage and its
// export.
type ValveQuery struct {
	httpx.PageReq
	GroupID     int64      `json:"groupId"`
	CarID       int64      `json:"carId"`
	Compartment int        `json:"compartment"`
	DeviceKind  *int       `json:"deviceKind"` // null every kind; 0–3 tank.SmallManholeCover … tank.BottomValve
	StartTime   httpx.Time `json:"startTime"`
	EndTime     httpx.Time `json:"endTime"`
}

// ValveView is one device change as listed.
type ValveView struct {
	CarID       int64      `json:"carId"`
	Plate       string     `json:"plate"`
	GroupName   string     `json:"groupName"`
	Time        httpx.Time `json:"time"`
	Compartment int        `json:"compartment"`
	DeviceKind  int        `json:"deviceKind"`
	DeviceName  string     `json:"deviceName"`
	PrevState   int        `json:"prevState"`
	State       int        `json:"state"`
	PrevText    string     `json:"prevText"`
	StateText   string     `json:"stateText"`
	Lng         float64    `json:"lng"`
	Lat         float64    `json:"lat"`
	StationID   int64      `json:"stationId"`
	StationName string     `json:"stationName"`
}

type valveListRow struct {
	ValveRow  `bun:",extend"`
	Plate     string `bun:"plate"`
	GroupName string `bun:"group_name"`
}

// stateText names a device byte: not fitted, or open/closed with locked and fault.
func stateText(l i18n.Lang, b int) string {
	if byte(b)&tank.DevInstalled == 0 {
		return i18n.T(l, "judge.state.absent")
	}
	s := i18n.T(l, "judge.state.closed")
	if byte(b)&tank.DevOpen != 0 {
		s = i18n.T(l, "judge.state.open")
	}
	if byte(b)&tank.DevLocked != 0 {
		s += " · " + i18n.T(l, "judge.state.locked")
	}
	if byte(b)&tank.DevFault != 0 {
		s += " · " + i18n.T(l, "judge.state.fault")
	}
	return s
}

func (r *valveListRow) view(l i18n.Lang) ValveView {
	return ValveView{CarID: r.CarID, Plate: r.Plate, GroupName: r.GroupName, Time: httpx.Time(r.T), Compartment: r.Compartment,
		DeviceKind: r.Kind, DeviceName: i18n.T(l, "judge.device."+strconv.Itoa(r.Kind)), PrevState: r.PrevState, State: r.State,
		PrevText: stateText(l, r.PrevState), StateText: stateText(l, r.State), Lng: float64(r.Lon) / 1e6, Lat: float64(r.Lat) / 1e6,
		StationID: r.StationID, StationName: r.StationName}
}

var valveSort = map[string]string{"time": "v.t", "plate": "c.plate", "compartment": "v.compartment", "deviceKind": "v.kind"}

func (s *Service) valveSelect(ctx context.Context, p *httpx.Principal, q *ValveQuery) (*bun.SelectQuery, string, error) {
	if err := q.PageReq.Normalize(); err != nil {
		return nil, "", err
	}
	if q.DeviceKind != nil && (*q.DeviceKind < 0 || *q.DeviceKind >= tank.Kinds) {
		return nil, "", httpx.Invalid("deviceKind")
	}
	if q.Compartment < 0 || q.Compartment > tank.MaxCompartments {
		return nil, "", httpx.Biz("field.range", httpx.Field("compartment"), 0, tank.MaxCompartments)
	}
	from, to, err := timeRange(q.StartTime, q.EndTime)
	if err != nil {
		return nil, "", err
	}
	order, err := q.OrderBy(valveSort, "v.t DESC")
	if err != nil {
		return nil, "", err
	}
	sel := s.db.NewSelect().Model((*valveListRow)(nil)).ColumnExpr("v.*, c.plate, g.name AS group_name")
	sel, err = s.scoped(ctx, p, sel, q.GroupID, q.CarID)
	if err != nil {
		return nil, "", err
	}
	sel = sel.Where("v.t >= ? AND v.t <= ?", from, to)
	if q.DeviceKind != nil {
		sel = sel.Where("v.kind = ?", *q.DeviceKind)
	}
	if q.Compartment > 0 {
		sel = sel.Where("v.compartment = ?", q.Compartment)
	}
	return sel, order, nil
}

// Valves is POST /base-info-app/AllDataValveStates/getAllDataValveStatesPage.
func (s *Service) Valves(r *http.Request, q ValveQuery) (httpx.Page[ValveView], error) {
	sel, order, err := s.valveSelect(r.Context(), httpx.Caller(r), &q)
	if err != nil {
		return httpx.Page[ValveView]{}, err
	}
	l := httpx.Lang(r)
	return db.ScanPage(r.Context(), sel, q.PageReq, order, "v.car_id, v.compartment, v.kind", func(row *valveListRow) ValveView { return row.view(l) })
}

// ExportValves is POST /base-info-app/AllDataValveStates/export.
func (s *Service) ExportValves(r *http.Request, q ValveQuery) (*xlsx.Sheet, error) {
	q.PageNum, q.PageSize = 1, 1
	sel, order, err := s.valveSelect(r.Context(), httpx.Caller(r), &q)
	if err != nil {
		return nil, err
	}
	var rows []valveListRow
	if err := sel.OrderExpr(order+", v.car_id, v.compartment, v.kind").Limit(ExportRows).Scan(r.Context(), &rows); err != nil {
		return nil, err
	}
	l := httpx.Lang(r)
	sh := &xlsx.Sheet{Name: "judge.export.valves", ASCII: "valve-states", Head: []string{"judge.col.plate", "judge.col.group",
		"judge.col.time", "judge.col.compartment", "judge.col.device", "judge.col.prev", "judge.col.state", "judge.col.place"}}
	for i := range rows {
		v := rows[i].view(l)
		sh.Rows = append(sh.Rows, []any{v.Plate, v.GroupName, v.Time.String(), v.Compartment, v.DeviceName, v.PrevText, v.StateText,
			place(l, v.StationName, v.Lng, v.Lat)})
	}
	return sh, nil
}

// Routes are the endpoints of carEventRecord and AllDataValveStates.
func (s *Service) Routes() []httpx.Route {
	return []httpx.Route{
		{Method: "POST", Path: "/monitor-app/carEventRecord/page", Access: httpx.Needs(PageCode), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q EventQuery) (any, error) { return s.Events(r, q) })},
		{Method: "POST", Path: "/monitor-app/carEventRecord/export", Access: httpx.Needs(PageCode), Scoped: true,
			Handler: xlsx.Handler(s.ExportEvents)},
		{Method: "POST", Path: "/base-info-app/AllDataValveStates/getAllDataValveStatesPage", Access: httpx.Needs(PageCode), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q ValveQuery) (any, error) { return s.Valves(r, q) })},
		{Method: "POST", Path: "/base-info-app/AllDataValveStates/export", Access: httpx.Needs(PageCode), Scoped: true,
			Handler: xlsx.Handler(s.ExportValves)},
	}
}
