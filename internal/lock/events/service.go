package events

import (
	"context"
	"net/http"
	"strings"

	"github.com/uptrace/bun"

	"tankwatch/internal/lock"
	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
	"tankwatch/internal/telemetry"
)

// Permission codes of blueLockRecord (menu 04-22).
const (
	CodePage    = "04-22"
	CodeCommand = "04-22-01"
	CodeExport  = "04-22-02"
)

// Sender sends a lock command as the operator's command page does (telemetry.Commands.Send through
// the gateway): scope, terminal, log, outcome.
type Sender func(r *http.Request, in telemetry.CommandInput) (*telemetry.CommandView, error)

// Service answers the blueLockRecord page.
type Service struct {
	db *db.DB
	// Address names a place outside every fence (geo.Service.Reverse); nil = coordinates only.
	Address func(ctx context.Context, lng, lat float64, lang i18n.Lang) (string, error)
	Send    Sender
}

// NewService returns the page's service.
func NewService(d *db.DB) *Service { return &Service{db: d} }

// Query is the body of the events page and export.
type Query struct {
	httpx.PageReq
	StartTime httpx.Time `json:"startTime"`
	EndTime   httpx.Time `json:"endTime"`
	GroupID   int64      `json:"groupId"`
	CarID     int64      `json:"carId"`
	Plate     string     `json:"plate"`
	Event     int        `json:"event"`  // lock.Event*, 0 = any
	Method    *int       `json:"method"` // lock.Method* (0 none is a value), null = any
	Fence     string     `json:"fence"`  // "in": inside a station fence, "out": outside every fence, "" = any
	Serial    string     `json:"serial"`
	WaybillID int64      `json:"waybillId"`
	CommandID int64      `json:"commandId"`
}

// View is one event as the page shows it.
type View struct {
	ID          int64      `json:"id"`
	LockID      int64      `json:"lockId"`
	Serial      string     `json:"serial"`
	GroupID     int64      `json:"groupId"`
	GroupName   string     `json:"groupName"`
	CarID       int64      `json:"carId"`
	Plate       string     `json:"plate"`
	Compartment int        `json:"compartment"`
	Device      int        `json:"device"`
	Event       int        `json:"event"`
	Method      int        `json:"method"`
	BatteryPct  int        `json:"batteryPct"` // -1 unknown
	Time        httpx.Time `json:"time"`
	Lat         float64    `json:"lat"`
	Lon         float64    `json:"lon"`
	StationID   int64      `json:"stationId"` // 0: outside every fence
	StationName string     `json:"stationName"`
	Address     string     `json:"address"` // outside a fence: the place's name, when it can be named
	WaybillID   int64      `json:"waybillId"`
	WaybillNo   string     `json:"waybillNo"`
	CommandID   int64      `json:"commandId"`
	RecordedAt  httpx.Time `json:"recordedAt"`
}

type eventRow struct {
	lock.EventRow `bun:",extend"`
	Plate         string `bun:"plate"`
	GroupName     string `bun:"group_name"`
	StationName   string `bun:"station_name"`
	WaybillNo     string `bun:"waybill_no"`
}

func (r *eventRow) view() View {
	return View{ID: r.ID, LockID: r.LockID, Serial: r.Serial, GroupID: r.GroupID, GroupName: r.GroupName, CarID: r.CarID,
		Plate: r.Plate, Compartment: r.Compartment, Device: int(r.Device), Event: int(r.Event), Method: int(r.Method),
		BatteryPct: r.BatteryPct, Time: httpx.Time(r.T), Lat: float64(r.Lat) / 1e6, Lon: float64(r.Lon) / 1e6,
		StationID: r.StationID, StationName: r.StationName, WaybillID: r.WaybillID, WaybillNo: r.WaybillNo,
		CommandID: r.CommandID, RecordedAt: httpx.Time(r.RecordedAt)}
}

// Counts are the filtered set's totals by what happened.
type Counts struct {
	Opened   int `json:"opened" bun:"opened"`
	Closed   int `json:"closed" bun:"closed"`
	Tampered int `json:"tampered" bun:"tampered"`
	Outside  int `json:"outside" bun:"outside"` // openings outside every fence
	Remote   int `json:"remote" bun:"remote"`   // operations by a platform command
}

// Page is a page of events with the totals of everything the filter selects.
type Page struct {
	httpx.Page[View]
	Counts Counts `json:"counts"`
}

var eventSort = map[string]string{"time": "e.t", "plate": "c.plate", "serial": "e.serial", "event": "e.event",
	"method": "e.method", "batteryPct": "e.battery_pct", "stationName": "station_name", "groupName": "g.name", "waybillNo": "waybill_no"}

func (s *Service) where(ctx context.Context, p *httpx.Principal, q *Query) (*bun.SelectQuery, error) {
	if q.StartTime != 0 && q.EndTime != 0 && q.EndTime < q.StartTime {
		return nil, httpx.Biz("lockEvents.rangeReversed")
	}
	if q.Event < 0 || q.Event > int(lock.EventOnline) {
		return nil, httpx.Invalid("lockEvents.event")
	}
	if q.Method != nil && (*q.Method < 0 || *q.Method > int(lock.MethodLocalKey)) {
		return nil, httpx.Invalid("lockEvents.method")
	}
	if q.Fence != "" && q.Fence != "in" && q.Fence != "out" {
		return nil, httpx.Invalid("lockEvents.fence")
	}
	under, err := db.ScopeUnder(ctx, s.db, p, q.GroupID)
	if err != nil {
		return nil, err
	}
	sel := s.db.NewSelect().TableExpr("lock_events AS e").ColumnExpr("e.*").
		ColumnExpr("COALESCE(c.plate, '') AS plate, g.name AS group_name").
		ColumnExpr("COALESCE(st.name, '') AS station_name, COALESCE(w.no, '') AS waybill_no").
		Join("JOIN org_groups AS g ON g.id = e.group_id").Join("LEFT JOIN cars AS c ON c.id = e.car_id").
		Join("LEFT JOIN stations AS st ON st.id = e.station_id").Join("LEFT JOIN waybills AS w ON w.id = e.waybill_id").
		Where("g.path LIKE ?", under+"%")
	sel, err = carAndTime(ctx, s.db, p, sel, carFilter{"e.t", q.StartTime, q.EndTime, "e.car_id", q.CarID, q.Plate})
	if err != nil {
		return nil, err
	}
	if v := strings.TrimSpace(q.Serial); v != "" {
		sel = sel.Where(db.Contains("e.serial", v))
	}
	if q.Event > 0 {
		sel = sel.Where("e.event = ?", q.Event)
	}
	if q.Method != nil {
		sel = sel.Where("e.method = ?", *q.Method)
	}
	switch q.Fence {
	case "in":
		sel = sel.Where("e.station_id > 0")
	case "out":
		sel = sel.Where("e.station_id = 0")
	}
	if q.WaybillID > 0 {
		sel = sel.Where("e.waybill_id = ?", q.WaybillID)
	}
	if q.CommandID > 0 {
		sel = sel.Where("e.command_id = ?", q.CommandID)
	}
	return sel, nil
}

// carFilter is the filters both tabs share: a time range on a column, a car (in scope), a plate
// (c.plate contains).
type carFilter struct {
	timeCol    string
	start, end httpx.Time
	carCol     string
	carID      int64
	plate      string
}

func carAndTime(ctx context.Context, d *db.DB, p *httpx.Principal, sel *bun.SelectQuery, f carFilter) (*bun.SelectQuery, error) {
	if f.start != 0 {
		sel = sel.Where("? >= ?", bun.Ident(f.timeCol), int64(f.start))
	}
	if f.end != 0 {
		sel = sel.Where("? <= ?", bun.Ident(f.timeCol), f.end.Through())
	}
	if f.carID > 0 {
		if err := carInScope(ctx, d, p, f.carID); err != nil {
			return nil, err
		}
		sel = sel.Where("? = ?", bun.Ident(f.carCol), f.carID)
	}
	if v := strings.TrimSpace(f.plate); v != "" {
		sel = sel.Where(db.Contains("c.plate", v))
	}
	return sel, nil
}

// carInScope refuses a car outside the caller's scope (or one that does not exist) with the usual
// "not found / not yours" error.
func carInScope(ctx context.Context, d *db.DB, p *httpx.Principal, id int64) error {
	sel := d.NewSelect().TableExpr("cars AS c").ColumnExpr("g.path").Join("JOIN org_groups AS g ON g.id = c.group_id").Where("c.id = ?", id)
	_, err := db.ScopedRow(ctx, sel, p, func(r *struct {
		Path string `bun:"path"`
	}) string {
		return r.Path
	})
	return err
}

// List pages the events of the caller's scope with the totals of the filtered set.
func (s *Service) List(ctx context.Context, p *httpx.Principal, lang i18n.Lang, q Query) (Page, error) {
	if err := q.Normalize(); err != nil {
		return Page{}, err
	}
	order, err := q.OrderBy(eventSort, "e.t DESC")
	if err != nil {
		return Page{}, err
	}
	sel, err := s.where(ctx, p, &q)
	if err != nil {
		return Page{}, err
	}
	page, err := db.ScanPage(ctx, sel, q.PageReq, order, "e.id DESC", func(r *eventRow) View { return r.view() })
	if err != nil {
		return Page{}, err
	}
	s.name(ctx, lang, page.List)
	out := Page{Page: page}
	sum, err := s.where(ctx, p, &q)
	if err != nil {
		return Page{}, err
	}
	err = s.db.NewSelect().TableExpr("(?) AS f", sum).
		ColumnExpr("COALESCE(SUM(CASE WHEN f.event = ? THEN 1 ELSE 0 END), 0) AS opened", int(lock.EventOpened)).
		ColumnExpr("COALESCE(SUM(CASE WHEN f.event = ? THEN 1 ELSE 0 END), 0) AS closed", int(lock.EventClosed)).
		ColumnExpr("COALESCE(SUM(CASE WHEN f.event = ? THEN 1 ELSE 0 END), 0) AS tampered", int(lock.EventTampered)).
		ColumnExpr("COALESCE(SUM(CASE WHEN f.event = ? AND f.station_id = 0 THEN 1 ELSE 0 END), 0) AS outside", int(lock.EventOpened)).
		ColumnExpr("COALESCE(SUM(CASE WHEN f.method = ? THEN 1 ELSE 0 END), 0) AS remote", int(lock.MethodRemote)).
		Scan(ctx, &out.Counts)
	return out, err
}

// name fills the address of events outside every fence (the geocoder caches what it named).
func (s *Service) name(ctx context.Context, lang i18n.Lang, vs []View) {
	if s.Address == nil {
		return
	}
	for i := range vs {
		if vs[i].StationID == 0 && vs[i].Lat != 0 {
			if a, err := s.Address(ctx, vs[i].Lon, vs[i].Lat, lang); err == nil {
				vs[i].Address = a
			}
		}
	}
}
