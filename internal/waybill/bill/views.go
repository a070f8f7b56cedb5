package bill

import (
	"context"
	"strings"
	"unicode/utf8"

	"github.com/uptrace/bun"

	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/waybill"
)

// listRow is a waybill with the names a list shows.
type listRow struct {
	waybill.Row    `bun:",extend"`
	Plate          string `bun:"plate"`
	GroupName      string `bun:"group_name"`
	GroupPath      string `bun:"group_path"`
	DepotName      string `bun:"depot_name"`
	SalesGroupName string `bun:"sales_group_name"`
	SalesPath      string `bun:"sales_path"`
	CustomerName   string `bun:"customer_name"`
}

// DestView is a destination of a waybill.
type DestView struct {
	Seq         int     `json:"seq"`
	StationID   int64   `json:"stationId"`
	StationName string  `json:"stationName"`
	State       int     `json:"state"`
	ArriveAt    int64   `json:"arriveAt"`
	ReceivedV20 float64 `json:"receivedV20"`
}

// CompView is a compartment of a waybill.
type CompView struct {
	No          int     `json:"no" bun:"no"`
	ProductID   int64   `json:"productId" bun:"product_id"`
	ProductName string  `json:"productName" bun:"product_name"`
	PlannedL    float64 `json:"plannedL" bun:"planned_l"`
	DestSeq     int     `json:"destSeq" bun:"dest_seq"`
}

// View is a waybill as the lists show it (times Unix ms, states by name).
type View struct {
	ID              int64      `json:"id"`
	No              string     `json:"no"`
	State           string     `json:"state"`
	StateAt         int64      `json:"stateAt"`
	Flagged         bool       `json:"flagged"`
	CarID           int64      `json:"carId"`
	Plate           string     `json:"plate"`
	GroupID         int64      `json:"groupId"`
	GroupName       string     `json:"groupName"` // the carrier
	SalesGroupID    int64      `json:"salesGroupId"`
	SalesGroupName  string     `json:"salesGroupName"`
	CustomerID      int64      `json:"customerId"`
	CustomerName    string     `json:"customerName"`
	DepotID         int64      `json:"depotId"`
	DepotName       string     `json:"depotName"`
	Destinations    []DestView `json:"destinations"`
	PlannedL        float64    `json:"plannedL"` // the compartments' planned total
	DriverName      string     `json:"driverName"`
	DriverPhone     string     `json:"driverPhone"`
	EscortName      string     `json:"escortName"`
	EscortPhone     string     `json:"escortPhone"`
	PlannedLoadAt   int64      `json:"plannedLoadAt"`
	PlannedArriveAt int64      `json:"plannedArriveAt"`
	DispatchedAt    int64      `json:"dispatchedAt"`
	DepartAt        int64      `json:"departAt"`
	ClosedAt        int64      `json:"closedAt"`
	ShippedV20      float64    `json:"shippedV20"`
	ReceivedV20     float64    `json:"receivedV20"`
	LossL           float64    `json:"lossL"`
	LossRatePct     float64    `json:"lossRatePct"`
	AllowedPct      float64    `json:"allowedPct"`
	PlanID          int64      `json:"planId"`
	Remark          string     `json:"remark"`
	CreatedAt       int64      `json:"createdAt"`
}

// Detail is one waybill with its compartments (detail, the edit form and the print view).
type Detail struct {
	View
	Compartments []CompView `json:"compartments"`
	Reason       string     `json:"cancelReason"` // the cancellation's reason, when cancelled
}

func deref(p *int64) int64 {
	if p == nil {
		return 0
	}
	return *p
}

func (r *listRow) view() View {
	return View{ID: r.ID, No: r.No, State: r.State.String(), StateAt: r.StateAt, Flagged: r.Flagged, CarID: r.CarID, Plate: r.Plate,
		GroupID: r.GroupID, GroupName: r.GroupName, SalesGroupID: deref(r.SalesGroupID), SalesGroupName: r.SalesGroupName,
		CustomerID: deref(r.CustomerID), CustomerName: r.CustomerName, DepotID: r.DepotID, DepotName: r.DepotName,
		Destinations: []DestView{}, DriverName: r.DriverName, DriverPhone: r.DriverPhone, EscortName: r.EscortName, EscortPhone: r.EscortPhone,
		PlannedLoadAt: r.PlannedLoadAt, PlannedArriveAt: r.PlannedArriveAt, DispatchedAt: r.DispatchedAt, DepartAt: r.DepartAt,
		ClosedAt: r.ClosedAt, ShippedV20: r.ShippedV20, ReceivedV20: r.ReceivedV20, LossL: r.LossL, LossRatePct: r.LossRatePct,
		AllowedPct: r.AllowedPct, PlanID: deref(r.PlanID), Remark: r.Remark, CreatedAt: r.CreatedAt}
}

func (s *Service) baseSelect(idb bun.IDB) *bun.SelectQuery {
	return idb.NewSelect().TableExpr("waybills AS w").ColumnExpr("w.*").
		ColumnExpr("c.plate, g.name AS group_name, g.path AS group_path, d.name AS depot_name").
		ColumnExpr("COALESCE(sg.name, '') AS sales_group_name, COALESCE(sg.path, '') AS sales_path, COALESCE(cu.name, '') AS customer_name").
		Join("JOIN cars AS c ON c.id = w.car_id").
		Join("JOIN org_groups AS g ON g.id = w.group_id").
		Join("JOIN stations AS d ON d.id = w.depot_id").
		Join("LEFT JOIN org_groups AS sg ON sg.id = w.sales_group_id").
		Join("LEFT JOIN customers AS cu ON cu.id = w.customer_id")
}

// fill adds the destinations and planned totals of the listed waybills (one query each).
func (s *Service) fill(ctx context.Context, idb bun.IDB, vs []View) error {
	if len(vs) == 0 {
		return nil
	}
	ids := make([]int64, len(vs))
	at := make(map[int64]int, len(vs))
	for i := range vs {
		ids[i], at[vs[i].ID] = vs[i].ID, i
	}
	var dests []struct {
		WaybillID   int64   `bun:"waybill_id"`
		Seq         int     `bun:"seq"`
		StationID   int64   `bun:"station_id"`
		StationName string  `bun:"station_name"`
		State       int     `bun:"state"`
		ArriveAt    int64   `bun:"arrive_at"`
		ReceivedV20 float64 `bun:"received_v20"`
	}
	if err := idb.NewSelect().TableExpr("waybill_destinations AS wd").
		ColumnExpr("wd.waybill_id, wd.seq, wd.station_id, st.name AS station_name, wd.state, wd.arrive_at, wd.received_v20").
		Join("JOIN stations AS st ON st.id = wd.station_id").Where("wd.waybill_id IN (?)", bun.In(ids)).
		OrderExpr("wd.waybill_id, wd.seq").Scan(ctx, &dests); err != nil {
		return err
	}
	for _, d := range dests {
		v := &vs[at[d.WaybillID]]
		v.Destinations = append(v.Destinations, DestView{Seq: d.Seq, StationID: d.StationID, StationName: d.StationName, State: d.State,
			ArriveAt: d.ArriveAt, ReceivedV20: d.ReceivedV20})
	}
	var sums []struct {
		WaybillID int64   `bun:"waybill_id"`
		Total     float64 `bun:"total"`
	}
	if err := idb.NewSelect().TableExpr("waybill_compartments").ColumnExpr("waybill_id, SUM(planned_l) AS total").
		Where("waybill_id IN (?)", bun.In(ids)).GroupExpr("waybill_id").Scan(ctx, &sums); err != nil {
		return err
	}
	for _, x := range sums {
		vs[at[x.WaybillID]].PlannedL = x.Total
	}
	return nil
}

// Detail is one waybill the caller may see as carrier or as sales company.
func (s *Service) Detail(ctx context.Context, p *httpx.Principal, id int64) (*Detail, error) {
	if id <= 0 {
		return nil, httpx.Required("id")
	}
	r, err := db.ScopedRow(ctx, s.baseSelect(s.db).Where("w.id = ?", id), p, func(r *listRow) string {
		if r.SalesPath != "" && p.InScope(r.SalesPath) {
			return r.SalesPath
		}
		return r.GroupPath
	})
	if err != nil {
		return nil, err
	}
	vs := []View{r.view()}
	if err := s.fill(ctx, s.db, vs); err != nil {
		return nil, err
	}
	d := &Detail{View: vs[0], Compartments: []CompView{}}
	if err := s.db.NewSelect().TableExpr("waybill_compartments AS wc").
		ColumnExpr("wc.no, wc.product_id, pr.name AS product_name, wc.planned_l, wc.dest_seq").
		Join("JOIN products AS pr ON pr.id = wc.product_id").Where("wc.waybill_id = ?", id).OrderExpr("wc.no").
		Scan(ctx, &d.Compartments); err != nil {
		return nil, err
	}
	if r.State == waybill.Cancelled {
		var reasons []string
		if err := s.db.NewSelect().TableExpr("waybill_steps").Column("reason").Where("waybill_id = ? AND to_state = ?", id, waybill.Cancelled).
			OrderExpr("id DESC").Limit(1).Scan(ctx, &reasons); err != nil {
			return nil, err
		}
		if len(reasons) > 0 {
			d.Reason = reasons[0]
		}
	}
	return d, nil
}

// Query is the body of the three pages and their exports.
type Query struct {
	httpx.PageReq
	No        string     `json:"no"`
	CarID     int64      `json:"carId"`
	Plate     string     `json:"plate"`
	State     string     `json:"state"` // a state name; "" all
	DepotID   int64      `json:"depotId"`
	StationID int64      `json:"stationId"` // a destination
	GroupID   int64      `json:"groupId"`
	StartTime httpx.Time `json:"startTime"` // planned loading time range
	EndTime   httpx.Time `json:"endTime"`
}

// View kinds: the three pages.
const (
	viewCarrier = iota // basedata/waybill: the carrier's working list (group_id in scope)
	viewSales          // basedata/waybill2: the sales company's view (sales_group_id in scope)
	viewArchive        // basedata/waybill3: finished waybills (CLOSED, CANCELLED) of the carrier's scope
)

var sortColumns = map[string]string{"no": "w.no", "plannedLoadAt": "w.planned_load_at", "plannedArriveAt": "w.planned_arrive_at",
	"state": "w.state", "createdAt": "w.created_at", "plate": "(SELECT c.plate FROM cars AS c WHERE c.id = w.car_id)", "closedAt": "w.closed_at", "lossL": "w.loss_l"}

// where builds the filtered select of a view over waybills alone (no joins: the count and the page's
// ids need none, D43 performance); withState false leaves the state filter out (the chips' counts).
func (s *Service) where(ctx context.Context, p *httpx.Principal, kind int, q Query, withState bool) (*bun.SelectQuery, error) {
	sel := s.db.NewSelect().TableExpr("waybills AS w")
	under, err := db.ScopeUnder(ctx, s.db, p, q.GroupID)
	if err != nil {
		return nil, err
	}
	switch kind {
	case viewSales:
		sel = sel.Where("w.sales_group_id IN (SELECT id FROM org_groups WHERE path LIKE ?)", under+"%")
	default:
		sel = sel.Where("w.group_id IN (SELECT id FROM org_groups WHERE path LIKE ?)", under+"%")
	}
	if kind == viewArchive {
		sel = sel.Where("w.state IN (?)", bun.In([]waybill.State{waybill.Closed, waybill.Cancelled}))
	}
	if withState && q.State != "" {
		st, ok := waybill.ParseState(q.State)
		if !ok {
			return nil, httpx.Invalid("waybillBills.state")
		}
		sel = sel.Where("w.state = ?", st)
	}
	if v := strings.TrimSpace(q.No); v != "" {
		sel = sel.Where(db.Contains("w.no", v))
	}
	if q.CarID > 0 {
		sel = sel.Where("w.car_id = ?", q.CarID)
	}
	if v := strings.TrimSpace(q.Plate); v != "" {
		expr, arg := db.Contains("c.plate", v)
		sel = sel.Where("w.car_id IN (SELECT c.id FROM cars AS c WHERE "+expr+")", arg)
	}
	if q.DepotID > 0 {
		sel = sel.Where("w.depot_id = ?", q.DepotID)
	}
	if q.StationID > 0 {
		// on PostgreSQL the station's waybill ids first, then those waybills (an index lookup each): left to
		// itself the planner walks every waybill of the scope to find a few thousand (D58)
		dest := "w.id IN (SELECT wd.waybill_id FROM waybill_destinations AS wd WHERE wd.station_id = ?)"
		if s.db.IsPostgres() {
			dest = "w.id = ANY(ARRAY(SELECT wd.waybill_id FROM waybill_destinations AS wd WHERE wd.station_id = ?))"
		}
		sel = sel.Where(dest, q.StationID)
	}
	if q.StartTime > 0 {
		sel = sel.Where("w.planned_load_at >= ?", int64(q.StartTime))
	}
	if q.EndTime > 0 {
		sel = sel.Where("w.planned_load_at <= ?", q.EndTime.Through())
	}
	return sel, nil
}

// rows reads the listed waybills with their names, in the order of ids.
func (s *Service) rows(ctx context.Context, ids []int64) ([]View, error) {
	out := make([]View, 0, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	var rows []listRow
	if err := s.baseSelect(s.db).Where("w.id IN (?)", bun.In(ids)).Scan(ctx, &rows); err != nil {
		return nil, err
	}
	at := make(map[int64]int, len(rows))
	for i := range rows {
		at[rows[i].ID] = i
	}
	for _, id := range ids {
		if i, ok := at[id]; ok {
			out = append(out, rows[i].view())
		}
	}
	return out, s.fill(ctx, s.db, out)
}

// page runs a view's query: the count and the page's ids over waybills alone, then the names of
// those ids.
func (s *Service) page(ctx context.Context, p *httpx.Principal, kind int, q Query) (httpx.Page[View], error) {
	var zero httpx.Page[View]
	if err := q.Normalize(); err != nil {
		return zero, err
	}
	order, err := q.OrderBy(sortColumns, "w.id DESC")
	if err != nil {
		return zero, err
	}
	sel, err := s.where(ctx, p, kind, q, true)
	if err != nil {
		return zero, err
	}
	if order == "w.id DESC" && s.db.IsPostgres() && utf8.RuneCountInString(strings.TrimSpace(q.No)) >= 3 {
		// a number searched by three characters or more: the trigram index finds the few matches, and
		// ordering them costs nothing; left to itself the planner walks the primary key backwards hoping
		// to meet ten matches soon, which for an old number is most of the table (D58)
		order = "w.id + 0 DESC"
	}
	var ids []int64
	var total int64
	if q.indexed() {
		ids, total, err = s.indexedPage(ctx, p, kind, q, sel, order, order == "w.id DESC")
	} else {
		total, err = sel.Column("w.id").OrderExpr(order+", w.id DESC").Limit(q.Limit()).Offset(q.Offset()).ScanAndCount(ctx, &ids)
	}
	if err != nil {
		return zero, err
	}
	list, err := s.rows(ctx, ids)
	if err != nil {
		return zero, err
	}
	return httpx.NewPage(list, total, q.PageReq), nil
}

// Page is the carrier's working list (basedata/waybill).
func (s *Service) Page(ctx context.Context, p *httpx.Principal, q Query) (httpx.Page[View], error) {
	return s.page(ctx, p, viewCarrier, q)
}

// PageBySales is the sales company's view (basedata/waybill2).
func (s *Service) PageBySales(ctx context.Context, p *httpx.Principal, q Query) (httpx.Page[View], error) {
	return s.page(ctx, p, viewSales, q)
}

// ArchivePage is the archive (basedata/waybill3).
func (s *Service) ArchivePage(ctx context.Context, p *httpx.Principal, q Query) (httpx.Page[View], error) {
	return s.page(ctx, p, viewArchive, q)
}

// StateCounts counts the carrier's waybills per state under q's other filters (the state chips).
func (s *Service) StateCounts(ctx context.Context, p *httpx.Principal, q Query) (map[string]int, error) {
	var rows []struct {
		State waybill.State `bun:"state"`
		N     int           `bun:"n"`
	}
	if q.indexed() {
		if err := s.indexCounts(ctx, p, viewCarrier, q, false, "state", &rows); err != nil {
			return nil, err
		}
	} else {
		sel, err := s.where(ctx, p, viewCarrier, q, false)
		if err != nil {
			return nil, err
		}
		if err := sel.ColumnExpr("w.state, COUNT(*) AS n").GroupExpr("w.state").Scan(ctx, &rows); err != nil {
			return nil, err
		}
	}
	out := map[string]int{}
	for _, r := range rows {
		out[r.State.String()] = r.N
	}
	return out, nil
}
