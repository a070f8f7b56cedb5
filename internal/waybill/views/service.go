package views

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"tankwatch/internal/geo"
	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
	"tankwatch/internal/waybill"
)

// Permission codes: oilTransportProcess (04-15), transportProcess2 (04-26), transportRecord (04-11,
// export 04-11-01), monitoring_waybill (04-42) and historyWaybill (04-43) read the detail too.
const (
	CodeProcess       = "04-15"
	CodeBoard         = "04-26"
	CodeRecord        = "04-11"
	CodeRecordExport  = "04-11-01"
	CodeMonitoringWay = "04-42"
	CodeHistoryWay    = "04-43"
)

// Reverser names a point (internal/geo's service).
type Reverser interface {
	Reverse(ctx context.Context, lng, lat float64, lang i18n.Lang) (string, error)
}

// Service reads waybills for the process views.
type Service struct {
	db  bun.IDB
	Geo Reverser
	Now func() time.Time
}

// New returns the service.
func New(idb bun.IDB) *Service { return &Service{db: idb, Now: time.Now} }

// Query filters the trips list (transportProcess/page) and the finished trips (transportRecord/page).
type Query struct {
	httpx.PageReq
	// Start / End: the trip's time (planned loading time, else creation) for the process list; the
	// finishing time (closed_at) for the record. Either may be empty.
	Start httpx.Time `json:"start"`
	End   httpx.Time `json:"end"`
	// Board: the dispatcher's board — every unfinished trip whatever its date, and the trips closed in
	// [Start, End]; cancelled ones are left out.
	Board     bool     `json:"board"`
	GroupID   int64    `json:"groupId"`
	CarID     int64    `json:"carId"`
	DepotID   int64    `json:"depotId"`
	StationID int64    `json:"stationId"`
	State     string   `json:"state"`
	States    []string `json:"states"`
	No        string   `json:"no"`
	// Over: "over" / "within" the allowance (record only).
	Over string `json:"over"`
}

// tripRow is a waybill with the names the views show.
type tripRow struct {
	waybill.Row
	Plate          string         `bun:"plate"`
	GroupName      string         `bun:"group_name"`
	GroupPath      string         `bun:"group_path"`
	SalesGroupName sql.NullString `bun:"sales_group_name"`
	SalesPath      sql.NullString `bun:"sales_path"`
	DepotName      string         `bun:"depot_name"`
	CustomerName   sql.NullString `bun:"customer_name"`
}

func (s *Service) tripSelect() *bun.SelectQuery {
	return s.db.NewSelect().TableExpr("waybills AS w").
		ColumnExpr("w.*").
		ColumnExpr("c.plate AS plate, g.name AS group_name, g.path AS group_path, sg.name AS sales_group_name, sg.path AS sales_path").
		ColumnExpr("d.name AS depot_name, cu.name AS customer_name").
		Join("JOIN org_groups AS g ON g.id = w.group_id").
		Join("LEFT JOIN org_groups AS sg ON sg.id = w.sales_group_id").
		Join("JOIN cars AS c ON c.id = w.car_id").
		Join("JOIN stations AS d ON d.id = w.depot_id").
		Join("LEFT JOIN customers AS cu ON cu.id = w.customer_id")
}

// scopeJoins are the joins the filters need when only aggregates are read.
func (s *Service) scopeSelect() *bun.SelectQuery {
	return s.db.NewSelect().TableExpr("waybills AS w").
		Join("JOIN org_groups AS g ON g.id = w.group_id").
		Join("LEFT JOIN org_groups AS sg ON sg.id = w.sales_group_id")
}

// inScope: the carrier's group or the sales company lies in the caller's subtree (a sales company's
// users follow the trips of what they sold, D46).
func inScope(p *httpx.Principal, r *tripRow) bool {
	return p.InScope(r.GroupPath) || (r.SalesPath.Valid && p.InScope(r.SalesPath.String))
}

// where applies the scope and the filters; finished: the record's set (CLOSED / DIFF_FLAGGED, time on
// closed_at).
func (s *Service) where(ctx context.Context, p *httpx.Principal, sel *bun.SelectQuery, q *Query, finished bool) (*bun.SelectQuery, error) {
	under, err := db.ScopeUnder(ctx, s.db, p, q.GroupID)
	if err != nil {
		return nil, err
	}
	sel = sel.Where("(g.path LIKE ? OR sg.path LIKE ?)", under+"%", under+"%")
	if q.End != 0 && q.Start != 0 && q.End < q.Start {
		return nil, httpx.Biz("wbviews.endBeforeStart")
	}
	if q.CarID > 0 {
		var path string
		err := s.db.NewSelect().TableExpr("cars AS c").ColumnExpr("g.path").Join("JOIN org_groups AS g ON g.id = c.group_id").
			Where("c.id = ?", q.CarID).Scan(ctx, &path)
		if errors.Is(err, sql.ErrNoRows) {
			return nil, httpx.ErrNotFound
		} else if err != nil {
			return nil, err
		}
		if !p.InScope(path) {
			return nil, httpx.ErrScope
		}
		sel = sel.Where("w.car_id = ?", q.CarID)
	}
	for _, st := range []struct {
		id    int64
		depot bool
	}{{q.DepotID, true}, {q.StationID, false}} {
		if st.id <= 0 {
			continue
		}
		var path string
		err := s.db.NewSelect().TableExpr("stations AS s").ColumnExpr("g.path").Join("JOIN org_groups AS g ON g.id = s.group_id").
			Where("s.id = ?", st.id).Scan(ctx, &path)
		if errors.Is(err, sql.ErrNoRows) {
			return nil, httpx.ErrNotFound
		} else if err != nil {
			return nil, err
		}
		// stations are shared down a company's tree: the caller's own, its ancestors' and its subtree's
		if !geo.Visible(path, p.GroupPath) {
			return nil, httpx.ErrScope
		}
		if st.depot {
			sel = sel.Where("w.depot_id = ?", st.id)
		} else {
			sel = sel.Where("EXISTS (SELECT 1 FROM waybill_destinations AS wd WHERE wd.waybill_id = w.id AND wd.station_id = ?)", st.id)
		}
	}
	states := q.States
	if q.State != "" {
		states = append([]string{q.State}, states...)
	}
	if len(states) > 0 {
		var ids []int
		for _, n := range states {
			st, ok := waybill.ParseState(n)
			if !ok {
				return nil, httpx.Invalid("wbviews.state")
			}
			ids = append(ids, int(st))
		}
		sel = sel.Where("w.state IN (?)", bun.In(ids))
	}
	if v := strings.TrimSpace(q.No); v != "" {
		sel = sel.Where(db.Contains("w.no", v))
	}
	switch {
	case finished:
		sel = sel.Where("w.state IN (?, ?)", waybill.Closed, waybill.DiffFlagged)
		if q.Start != 0 {
			sel = sel.Where("w.closed_at >= ?", int64(q.Start))
		}
		if q.End != 0 {
			sel = sel.Where("w.closed_at <= ?", q.End.Through())
		}
		switch q.Over {
		case "":
		case "over":
			sel = sel.Where("w.loss_rate_pct > w.allowed_pct + 0.000000000001")
		case "within":
			sel = sel.Where("w.loss_rate_pct <= w.allowed_pct + 0.000000000001")
		default:
			return nil, httpx.Invalid("wbviews.over")
		}
	case q.Board:
		start, end := int64(q.Start), q.End.Through()
		if end == 0 {
			end = 1 << 62
		}
		sel = sel.Where("(w.state NOT IN (?, ?) OR (w.state = ? AND w.closed_at BETWEEN ? AND ?))",
			waybill.Closed, waybill.Cancelled, waybill.Closed, start, end)
	default:
		const tripTime = "(CASE WHEN w.planned_load_at > 0 THEN w.planned_load_at ELSE w.created_at END)"
		if q.Start != 0 {
			sel = sel.Where(tripTime+" >= ?", int64(q.Start))
		}
		if q.End != 0 {
			sel = sel.Where(tripTime+" <= ?", q.End.Through())
		}
	}
	return sel, nil
}

// DestBrief is a destination in a list row.
type DestBrief struct {
	Seq            int     `json:"seq"`
	StationID      int64   `json:"stationId"`
	StationName    string  `json:"stationName"`
	State          int     `json:"state"`
	ArriveAt       int64   `json:"arriveAt"`
	UnsealedAt     int64   `json:"unsealedAt"`
	UnloadStartAt  int64   `json:"unloadStartAt"`
	UnloadEndAt    int64   `json:"unloadEndAt"`
	ReceivedAt     int64   `json:"receivedAt"`
	ReceivedV20    float64 `json:"receivedV20"`
	ReceivedSource int     `json:"receivedSource"`
}

// Trip is a waybill in the lists and at the head of the detail, with all its stored figures.
type Trip struct {
	ID              int64       `json:"id"`
	No              string      `json:"no"`
	State           string      `json:"state"`
	StateAt         int64       `json:"stateAt"`
	Flagged         bool        `json:"flagged"`
	LeftUnsealed    bool        `json:"leftUnsealed"`
	GroupID         int64       `json:"groupId"`
	GroupName       string      `json:"groupName"`
	SalesGroupID    int64       `json:"salesGroupId"`
	SalesGroupName  string      `json:"salesGroupName"`
	CarID           int64       `json:"carId"`
	Plate           string      `json:"plate"`
	CustomerID      int64       `json:"customerId"`
	CustomerName    string      `json:"customerName"`
	DepotID         int64       `json:"depotId"`
	DepotName       string      `json:"depotName"`
	DriverName      string      `json:"driverName"`
	DriverPhone     string      `json:"driverPhone"`
	EscortName      string      `json:"escortName"`
	EscortPhone     string      `json:"escortPhone"`
	PlannedLoadAt   int64       `json:"plannedLoadAt"`
	PlannedArriveAt int64       `json:"plannedArriveAt"`
	DispatchedAt    int64       `json:"dispatchedAt"`
	LoadStartAt     int64       `json:"loadStartAt"`
	LoadedAt        int64       `json:"loadedAt"`
	SealedAt        int64       `json:"sealedAt"`
	DepartAt        int64       `json:"departAt"`
	ArriveAt        int64       `json:"arriveAt"`
	UnsealedAt      int64       `json:"unsealedAt"`
	UnloadStartAt   int64       `json:"unloadStartAt"`
	ReceivedAt      int64       `json:"receivedAt"`
	ClosedAt        int64       `json:"closedAt"`
	ShippedV20      float64     `json:"shippedV20"`
	ShippedMassT    float64     `json:"shippedMassT"`
	ReceivedV20     float64     `json:"receivedV20"`
	ReceivedSource  int         `json:"receivedSource"`
	LossL           float64     `json:"lossL"`
	LossRatePct     float64     `json:"lossRatePct"`
	AllowedPct      float64     `json:"allowedPct"`
	Over            bool        `json:"over"`
	LoadedKm        float64     `json:"loadedKm"`
	TonKm           float64     `json:"tonKm"`
	OutToArrivalMin float64     `json:"outToArrivalMin"`
	Late            bool        `json:"late"`
	Remark          string      `json:"remark"`
	CreatedAt       int64       `json:"createdAt"`
	Destinations    []DestBrief `json:"destinations"`
}

func (s *Service) trip(r *tripRow, now int64) Trip {
	w := &r.Row
	t := Trip{ID: w.ID, No: w.No, State: w.State.String(), StateAt: w.StateAt, Flagged: w.Flagged, LeftUnsealed: w.LeftUnsealed,
		GroupID: w.GroupID, GroupName: r.GroupName, SalesGroupName: r.SalesGroupName.String, CarID: w.CarID, Plate: r.Plate,
		CustomerName: r.CustomerName.String, DepotID: w.DepotID, DepotName: r.DepotName, DriverName: w.DriverName,
		DriverPhone: w.DriverPhone, EscortName: w.EscortName, EscortPhone: w.EscortPhone, PlannedLoadAt: w.PlannedLoadAt,
		PlannedArriveAt: w.PlannedArriveAt, DispatchedAt: w.DispatchedAt, LoadStartAt: w.LoadStartAt, LoadedAt: w.LoadedAt,
		SealedAt: w.SealedAt, DepartAt: w.DepartAt, ArriveAt: w.ArriveAt, UnsealedAt: w.UnsealedAt, UnloadStartAt: w.UnloadStartAt,
		ReceivedAt: w.ReceivedAt, ClosedAt: w.ClosedAt, ShippedV20: w.ShippedV20, ShippedMassT: w.ShippedMassT,
		ReceivedV20: w.ReceivedV20, ReceivedSource: w.ReceivedSource, LossL: w.LossL, LossRatePct: w.LossRatePct,
		AllowedPct: w.AllowedPct, LoadedKm: w.LoadedKm, TonKm: round1(waybill.TonKm(w.ShippedMassT, w.LoadedKm)),
		OutToArrivalMin: OutToArrivalMin(w.DepartAt, w.ArriveAt), Remark: w.Remark, CreatedAt: w.CreatedAt,
		Destinations: []DestBrief{}}
	if w.SalesGroupID != nil {
		t.SalesGroupID = *w.SalesGroupID
	}
	if w.CustomerID != nil {
		t.CustomerID = *w.CustomerID
	}
	finished := w.State == waybill.Closed || w.State == waybill.DiffFlagged
	t.Over = finished && Over(w.LossRatePct, w.AllowedPct)
	t.Late = Late(w.State, w.PlannedArriveAt, w.ArriveAt, now)
	return t
}

// Late: the trip has not arrived and its planned arrival has passed.
func Late(st waybill.State, plannedArriveAt, arriveAt, now int64) bool {
	if plannedArriveAt <= 0 || arriveAt > 0 || st == waybill.Cancelled || st == waybill.Closed || st == waybill.DiffFlagged {
		return false
	}
	return now > plannedArriveAt
}

// destinations reads the destinations of the listed waybills.
func (s *Service) destinations(ctx context.Context, trips []Trip) error {
	if len(trips) == 0 {
		return nil
	}
	ids := make([]int64, len(trips))
	at := map[int64]int{}
	for i := range trips {
		ids[i] = trips[i].ID
		at[trips[i].ID] = i
	}
	var rows []struct {
		waybill.Destination
		StationName string `bun:"station_name"`
	}
	err := s.db.NewSelect().TableExpr("waybill_destinations AS wd").ColumnExpr("wd.*, s.name AS station_name").
		Join("JOIN stations AS s ON s.id = wd.station_id").Where("wd.waybill_id IN (?)", bun.In(ids)).
		OrderExpr("wd.waybill_id, wd.seq").Scan(ctx, &rows)
	if err != nil {
		return err
	}
	for _, r := range rows {
		i := at[r.Destination.WaybillID]
		trips[i].Destinations = append(trips[i].Destinations, DestBrief{Seq: r.Seq, StationID: r.StationID, StationName: r.StationName,
			State: r.State, ArriveAt: r.ArriveAt, UnsealedAt: r.UnsealedAt, UnloadStartAt: r.UnloadStartAt, UnloadEndAt: r.UnloadEndAt,
			ReceivedAt: r.ReceivedAt, ReceivedV20: r.ReceivedV20, ReceivedSource: r.ReceivedSource})
	}
	return nil
}

var processSort = map[string]string{"no": "w.no", "plate": "c.plate", "state": "w.state", "plannedLoadAt": "w.planned_load_at",
	"stateAt": "w.state_at", "departAt": "w.depart_at", "createdAt": "w.created_at"}

var recordSort = map[string]string{"no": "w.no", "plate": "c.plate", "closedAt": "w.closed_at", "shippedV20": "w.shipped_v20",
	"receivedV20": "w.received_v20", "lossL": "w.loss_l", "lossRatePct": "w.loss_rate_pct", "loadedKm": "w.loaded_km",
	"departAt": "w.depart_at"}

// Page lists the trips of the caller's scope (transportProcess/page).
func (s *Service) Page(ctx context.Context, p *httpx.Principal, q Query) (httpx.Page[Trip], error) {
	var zero httpx.Page[Trip]
	if err := q.Normalize(); err != nil {
		return zero, err
	}
	order, err := q.OrderBy(processSort, "w.id DESC")
	if err != nil {
		return zero, err
	}
	sel, err := s.where(ctx, p, s.tripSelect(), &q, false)
	if err != nil {
		return zero, err
	}
	return s.scanTrips(ctx, sel, q.PageReq, order)
}

func (s *Service) scanTrips(ctx context.Context, sel *bun.SelectQuery, pq httpx.PageReq, order string) (httpx.Page[Trip], error) {
	var rows []tripRow
	total, err := sel.OrderExpr(order+", w.id DESC").Limit(pq.Limit()).Offset(pq.Offset()).ScanAndCount(ctx, &rows)
	if err != nil {
		return httpx.Page[Trip]{}, err
	}
	now := s.Now().UnixMilli()
	out := make([]Trip, len(rows))
	for i := range rows {
		out[i] = s.trip(&rows[i], now)
	}
	if err := s.destinations(ctx, out); err != nil {
		return httpx.Page[Trip]{}, err
	}
	return httpx.NewPage(out, int64(total), pq), nil
}

// RecordPage is the finished trips' page with the totals of the whole filtered set.
type RecordPage struct {
	httpx.Page[Trip]
	Totals Totals `json:"totals"`
}

// RecordPage lists the finished trips (transportRecord/page) with the totals of the filtered set.
func (s *Service) RecordPage(ctx context.Context, p *httpx.Principal, q Query) (RecordPage, error) {
	if err := q.Normalize(); err != nil {
		return RecordPage{}, err
	}
	order, err := q.OrderBy(recordSort, "w.closed_at DESC")
	if err != nil {
		return RecordPage{}, err
	}
	sel, err := s.where(ctx, p, s.tripSelect(), &q, true)
	if err != nil {
		return RecordPage{}, err
	}
	pg, err := s.scanTrips(ctx, sel, q.PageReq, order)
	if err != nil {
		return RecordPage{}, err
	}
	tot, err := s.totals(ctx, p, q)
	return RecordPage{Page: pg, Totals: tot}, err
}

// totals adds up the filtered set in the store (the same sums as Summarize; a store test holds them equal).
func (s *Service) totals(ctx context.Context, p *httpx.Principal, q Query) (Totals, error) {
	sel, err := s.where(ctx, p, s.scopeSelect(), &q, true)
	if err != nil {
		return Totals{}, err
	}
	var agg struct {
		Trips    int     `bun:"trips"`
		Shipped  float64 `bun:"shipped"`
		Received float64 `bun:"received"`
		Loss     float64 `bun:"loss"`
		Km       float64 `bun:"km"`
		TonKm    float64 `bun:"ton_km"`
		Over     int     `bun:"over_count"`
		Ms       int64   `bun:"ms"`
		Timed    int     `bun:"timed"`
	}
	err = sel.ColumnExpr("COUNT(*) AS trips, CAST(COALESCE(SUM(w.shipped_v20), 0) AS DOUBLE PRECISION) AS shipped, CAST(COALESCE(SUM(w.received_v20), 0) AS DOUBLE PRECISION) AS received").
		ColumnExpr("CAST(COALESCE(SUM(w.loss_l), 0) AS DOUBLE PRECISION) AS loss, CAST(COALESCE(SUM(w.loaded_km), 0) AS DOUBLE PRECISION) AS km").
		ColumnExpr("CAST(COALESCE(SUM(CASE WHEN w.shipped_mass_t > 0 AND w.loaded_km > 0 THEN w.shipped_mass_t * w.loaded_km ELSE 0 END), 0) AS DOUBLE PRECISION) AS ton_km").
		ColumnExpr("COALESCE(SUM(CASE WHEN w.loss_rate_pct > w.allowed_pct + 0.000000000001 THEN 1 ELSE 0 END), 0) AS over_count").
		ColumnExpr("COALESCE(SUM(CASE WHEN w.depart_at > 0 AND w.arrive_at >= w.depart_at THEN w.arrive_at - w.depart_at ELSE 0 END), 0) AS ms").
		ColumnExpr("COALESCE(SUM(CASE WHEN w.depart_at > 0 AND w.arrive_at >= w.depart_at THEN 1 ELSE 0 END), 0) AS timed").
		Scan(ctx, &agg)
	if err != nil {
		return Totals{}, err
	}
	t := Totals{Trips: agg.Trips, ShippedV20: agg.Shipped, ReceivedV20: agg.Received, LossL: agg.Loss, LoadedKm: agg.Km,
		TonKm: agg.TonKm, OverCount: agg.Over, TimedTrips: agg.Timed}
	return t.finish(float64(agg.Ms) / 60000), nil
}

// records reads the whole filtered set for the export (bounded).
func (s *Service) records(ctx context.Context, p *httpx.Principal, q Query) ([]Trip, error) {
	if err := q.Normalize(); err != nil {
		return nil, err
	}
	order, err := q.OrderBy(recordSort, "w.closed_at DESC")
	if err != nil {
		return nil, err
	}
	sel, err := s.where(ctx, p, s.tripSelect(), &q, true)
	if err != nil {
		return nil, err
	}
	var rows []tripRow
	if err := sel.OrderExpr(order+", w.id DESC").Limit(xlsxMaxRows).Scan(ctx, &rows); err != nil {
		return nil, err
	}
	now := s.Now().UnixMilli()
	out := make([]Trip, len(rows))
	for i := range rows {
		out[i] = s.trip(&rows[i], now)
	}
	return out, s.destinations(ctx, out)
}

// xlsxMaxRows bounds an export.
const xlsxMaxRows = 100_000
