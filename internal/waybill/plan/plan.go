// Package plan is the transport plans (spec route manager/transportPlan, menu 04-24): a day's plan
// per customer or depot with its car items (car, destination station, product, planned litres), each
// item's progress through the waybill made from it, and the flat list of the items across plans
// (manager/transportPlanCarItem, menu 04-27). The waybills themselves are made by the waybill
// service's fromPlan (04-24-04), which sets transport_plan_items.waybill_id.
package plan

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"tankwatch/internal/audit"
	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
	"tankwatch/internal/platform/xlsx"
	"tankwatch/internal/waybill"
)

// Permission codes (internal/org/menu.json).
const (
	CodePage        = "04-24"
	CodeAdd         = "04-24-01"
	CodeEdit        = "04-24-02"
	CodeDelete      = "04-24-03"
	CodeMake        = "04-24-04"
	CodeItems       = "04-27"
	CodeItemsExport = "04-27-01"
)

// Operation log module (catalogue key module.transportPlan).
const ModulePlan = "transportPlan"

// Limits.
const (
	MaxItems     = 200
	MaxPlannedL  = 60_000
	maxTitleLen  = 64
	maxRemarkLen = 200
)

// Service is the transport plans.
type Service struct {
	db    *db.DB
	audit *audit.Log
	Now   func() time.Time
}

// New returns the service.
func New(d *db.DB, a *audit.Log) *Service { return &Service{db: d, audit: a, Now: time.Now} }

func (s *Service) log(r *http.Request, action, target string, id int64, detail string) {
	if s.audit == nil {
		return
	}
	s.audit.Record(r.Context(), r, nil, audit.Entry{Module: ModulePlan, Action: action, Target: target, TargetID: id, Detail: detail})
}

type planRow struct {
	bun.BaseModel `bun:"table:transport_plans"`

	ID         int64  `bun:"id,pk,autoincrement"`
	GroupID    int64  `bun:"group_id"`
	No         string `bun:"no"`
	PlanDate   string `bun:"plan_date"`
	DepotID    int64  `bun:"depot_id"`
	CustomerID *int64 `bun:"customer_id"`
	Title      string `bun:"title"`
	Remark     string `bun:"remark"`
	CreatedBy  int64  `bun:"created_by"`
	CreatedAt  int64  `bun:"created_at"`
	UpdatedAt  int64  `bun:"updated_at"`
}

type itemRow struct {
	bun.BaseModel `bun:"table:transport_plan_items"`

	ID        int64   `bun:"id,pk,autoincrement"`
	PlanID    int64   `bun:"plan_id"`
	CarID     int64   `bun:"car_id"`
	StationID int64   `bun:"station_id"`
	ProductID int64   `bun:"product_id"`
	PlannedL  float64 `bun:"planned_l"`
	WaybillID *int64  `bun:"waybill_id"`
	Remark    string  `bun:"remark"`
}

// ItemInput is one car item of a plan; ID names an existing item (0: a new one).
type ItemInput struct {
	ID        int64   `json:"id"`
	CarID     int64   `json:"carId"`
	StationID int64   `json:"stationId"`
	ProductID int64   `json:"productId"`
	PlannedL  float64 `json:"plannedL"`
	Remark    string  `json:"remark"`
}

// Input is the body of add and update.
type Input struct {
	ID         int64       `json:"id"`
	GroupID    int64       `json:"groupId"` // 0: the caller's group
	PlanDate   string      `json:"planDate"`
	DepotID    int64       `json:"depotId"`
	CustomerID int64       `json:"customerId"`
	Title      string      `json:"title"`
	Remark     string      `json:"remark"`
	Items      []ItemInput `json:"items"`
}

func pathOf(ctx context.Context, idb bun.IDB, table string, id int64) (string, bool, error) {
	var paths []string
	err := idb.NewSelect().TableExpr(table+" AS x").ColumnExpr("g.path").Join("JOIN org_groups AS g ON g.id = x.group_id").
		Where("x.id = ?", id).Scan(ctx, &paths)
	if err != nil || len(paths) == 0 {
		return "", false, err
	}
	return paths[0], true, nil
}

// inScope checks a referenced record: missing → "field X not found" message, outside → scope.
func inScope(ctx context.Context, idb bun.IDB, p *httpx.Principal, table string, id int64, field string) error {
	path, ok, err := pathOf(ctx, idb, table, id)
	if err != nil {
		return err
	}
	if !ok {
		return httpx.Biz("transportPlan.missing", i18n.Field(field))
	}
	if !p.InScope(path) {
		return httpx.ErrScope
	}
	return nil
}

func (s *Service) clean(ctx context.Context, idb bun.IDB, p *httpx.Principal, in *Input) error {
	in.Title, in.Remark, in.PlanDate = strings.TrimSpace(in.Title), strings.TrimSpace(in.Remark), strings.TrimSpace(in.PlanDate)
	if in.PlanDate == "" {
		return httpx.Required("transportPlan.planDate")
	}
	if _, err := time.Parse("2006-01-02", in.PlanDate); err != nil {
		return httpx.Invalid("transportPlan.planDate")
	}
	if len([]rune(in.Title)) > maxTitleLen {
		return httpx.Biz("field.maxLen", httpx.Field("transportPlan.title"), maxTitleLen)
	}
	if len([]rune(in.Remark)) > maxRemarkLen {
		return httpx.Biz("field.maxLen", httpx.Field("transportPlan.remark"), maxRemarkLen)
	}
	if in.DepotID <= 0 {
		return httpx.Required("transportPlan.depot")
	}
	if err := inScope(ctx, idb, p, "stations", in.DepotID, "transportPlan.depot"); err != nil {
		return err
	}
	if in.CustomerID > 0 {
		if err := inScope(ctx, idb, p, "customers", in.CustomerID, "transportPlan.customer"); err != nil {
			return err
		}
	}
	if len(in.Items) > MaxItems {
		return httpx.Biz("transportPlan.tooManyItems", MaxItems)
	}
	for i := range in.Items {
		it := &in.Items[i]
		it.Remark = strings.TrimSpace(it.Remark)
		n := i + 1
		if it.CarID <= 0 {
			return httpx.Biz("transportPlan.itemRequired", n, httpx.Field("transportPlan.car"))
		}
		if it.StationID <= 0 {
			return httpx.Biz("transportPlan.itemRequired", n, httpx.Field("transportPlan.station"))
		}
		if it.ProductID <= 0 {
			return httpx.Biz("transportPlan.itemRequired", n, httpx.Field("transportPlan.product"))
		}
		if math.IsNaN(it.PlannedL) || it.PlannedL <= 0 || it.PlannedL > MaxPlannedL {
			return httpx.Biz("transportPlan.plannedRange", n, MaxPlannedL)
		}
		if len([]rune(it.Remark)) > maxRemarkLen {
			return httpx.Biz("field.maxLen", httpx.Field("transportPlan.remark"), maxRemarkLen)
		}
		for _, ref := range []struct {
			table, field string
			id           int64
		}{{"cars", "transportPlan.car", it.CarID}, {"stations", "transportPlan.station", it.StationID}, {"products", "transportPlan.product", it.ProductID}} {
			if err := inScope(ctx, idb, p, ref.table, ref.id, ref.field); err != nil {
				return err
			}
		}
	}
	return nil
}

func (s *Service) scopedPlan(ctx context.Context, idb bun.IDB, p *httpx.Principal, id int64) (*planRow, error) {
	if id <= 0 {
		return nil, httpx.Required("id")
	}
	sel := idb.NewSelect().TableExpr("transport_plans AS tp").ColumnExpr("tp.*, g.path AS group_path").
		Join("JOIN org_groups AS g ON g.id = tp.group_id").Where("tp.id = ?", id)
	var rows []struct {
		ID         int64  `bun:"id"`
		GroupID    int64  `bun:"group_id"`
		No         string `bun:"no"`
		PlanDate   string `bun:"plan_date"`
		DepotID    int64  `bun:"depot_id"`
		CustomerID *int64 `bun:"customer_id"`
		Title      string `bun:"title"`
		Remark     string `bun:"remark"`
		CreatedBy  int64  `bun:"created_by"`
		CreatedAt  int64  `bun:"created_at"`
		UpdatedAt  int64  `bun:"updated_at"`
		GroupPath  string `bun:"group_path"`
	}
	if err := sel.Scan(ctx, &rows); err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, httpx.ErrNotFound
	}
	r := rows[0]
	if !p.InScope(r.GroupPath) {
		return nil, httpx.ErrScope
	}
	return &planRow{ID: r.ID, GroupID: r.GroupID, No: r.No, PlanDate: r.PlanDate, DepotID: r.DepotID, CustomerID: r.CustomerID,
		Title: r.Title, Remark: r.Remark, CreatedBy: r.CreatedBy, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt}, nil
}

// Save adds (insert) or updates a plan with its items. On update, an item that has a waybill keeps
// its car, station, product and volume, and cannot be removed: the waybill was made from it.
func (s *Service) Save(r *http.Request, in Input, insert bool) (*PlanView, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	var id int64
	var no string
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if err := s.clean(ctx, tx, p, &in); err != nil {
			return err
		}
		now := s.Now().UnixMilli()
		var cust *int64
		if in.CustomerID > 0 {
			cust = &in.CustomerID
		}
		var row *planRow
		if insert {
			gid := in.GroupID
			if gid == 0 {
				gid = p.GroupID
			}
			if _, err := db.ScopedGroupPath(ctx, tx, p, gid); err != nil {
				return err
			}
			code, err := waybill.CompanyCodeOf(ctx, tx, gid)
			if err != nil {
				return err
			}
			prefix := waybill.DocPrefix(code, waybill.KindPlan, s.Now())
			n, err := waybill.NextNumber(ctx, tx, prefix) // in the transaction: SQLite has one writer, and a rolled-back number was never shown
			if err != nil {
				return err
			}
			row = &planRow{GroupID: gid, No: waybill.Code(prefix, n, 4), CreatedBy: p.UserID, CreatedAt: now}
		} else {
			var err error
			if row, err = s.scopedPlan(ctx, tx, p, in.ID); err != nil {
				return err
			}
		}
		row.PlanDate, row.DepotID, row.CustomerID, row.Title, row.Remark, row.UpdatedAt = in.PlanDate, in.DepotID, cust, in.Title, in.Remark, now
		if err := db.Save(ctx, tx, row, insert); err != nil {
			return err
		}
		id, no = row.ID, row.No
		var old []itemRow
		if !insert {
			if err := tx.NewSelect().Model(&old).Where("plan_id = ?", row.ID).Scan(ctx); err != nil {
				return err
			}
		}
		kept := map[int64]bool{}
		byID := map[int64]itemRow{}
		for _, o := range old {
			byID[o.ID] = o
		}
		var fresh []itemRow
		for i, it := range in.Items {
			if o, ok := byID[it.ID]; ok && it.ID > 0 {
				kept[o.ID] = true
				if o.WaybillID != nil {
					if o.CarID != it.CarID || o.StationID != it.StationID || o.ProductID != it.ProductID || o.PlannedL != it.PlannedL {
						return httpx.Biz("transportPlan.itemLocked", i+1)
					}
					if o.Remark != it.Remark {
						if _, err := tx.NewUpdate().Model((*itemRow)(nil)).Set("remark = ?", it.Remark).Where("id = ?", o.ID).Exec(ctx); err != nil {
							return err
						}
					}
					continue
				}
				if _, err := tx.NewUpdate().Model((*itemRow)(nil)).Set("car_id = ?, station_id = ?, product_id = ?, planned_l = ?, remark = ?",
					it.CarID, it.StationID, it.ProductID, it.PlannedL, it.Remark).Where("id = ?", o.ID).Exec(ctx); err != nil {
					return err
				}
				continue
			} else if it.ID > 0 {
				return httpx.Biz("transportPlan.itemUnknown", i+1)
			}
			fresh = append(fresh, itemRow{PlanID: row.ID, CarID: it.CarID, StationID: it.StationID, ProductID: it.ProductID, PlannedL: it.PlannedL, Remark: it.Remark})
		}
		for _, o := range old {
			if kept[o.ID] {
				continue
			}
			if o.WaybillID != nil {
				return httpx.Biz("transportPlan.itemHasWaybill")
			}
			if _, err := tx.NewDelete().Model((*itemRow)(nil)).Where("id = ?", o.ID).Exec(ctx); err != nil {
				return err
			}
		}
		if len(fresh) > 0 {
			if _, err := tx.NewInsert().Model(&fresh).Exec(ctx); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	action := audit.ActionUpdate
	if insert {
		action = audit.ActionInsert
	}
	s.log(r, action, no, id, fmt.Sprintf("%s, %d", in.PlanDate, len(in.Items)))
	return s.Detail(ctx, p, id)
}

// Delete removes a plan and its items; a plan with an item that has a waybill is kept.
func (s *Service) Delete(r *http.Request, id int64) error {
	ctx, p := r.Context(), httpx.Caller(r)
	var no string
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		row, err := s.scopedPlan(ctx, tx, p, id)
		if err != nil {
			return err
		}
		no = row.No
		n, err := tx.NewSelect().Model((*itemRow)(nil)).Where("plan_id = ? AND waybill_id IS NOT NULL", id).Count(ctx)
		if err != nil {
			return err
		}
		if n > 0 {
			return httpx.Biz("transportPlan.hasWaybills", n)
		}
		if _, err := tx.NewDelete().Model((*itemRow)(nil)).Where("plan_id = ?", id).Exec(ctx); err != nil {
			return err
		}
		_, err = tx.NewDelete().Model((*planRow)(nil)).Where("id = ?", id).Exec(ctx)
		return err
	})
	if err == nil {
		s.log(r, audit.ActionDelete, no, id, "")
	}
	return err
}

// ItemView is a plan item with its progress.
type ItemView struct {
	ID           int64   `json:"id" bun:"id"`
	PlanID       int64   `json:"planId" bun:"plan_id"`
	PlanNo       string  `json:"planNo" bun:"plan_no"`
	PlanDate     string  `json:"planDate" bun:"plan_date"`
	CustomerName string  `json:"customerName" bun:"customer_name"`
	DepotName    string  `json:"depotName" bun:"depot_name"`
	CarID        int64   `json:"carId" bun:"car_id"`
	Plate        string  `json:"plate" bun:"plate"`
	StationID    int64   `json:"stationId" bun:"station_id"`
	StationName  string  `json:"stationName" bun:"station_name"`
	ProductID    int64   `json:"productId" bun:"product_id"`
	ProductName  string  `json:"productName" bun:"product_name"`
	PlannedL     float64 `json:"plannedL" bun:"planned_l"`
	Remark       string  `json:"remark" bun:"remark"`
	WaybillID    int64   `json:"waybillId" bun:"waybill_id"`
	WaybillNo    string  `json:"waybillNo" bun:"waybill_no"`
	// WaybillState: the waybill's state name, "" without a waybill.
	WaybillState string `json:"waybillState" bun:"-"`
	StateN       int    `json:"-" bun:"waybill_state"`
	Delivered    bool   `json:"delivered" bun:"-"`
	GroupPath    string `json:"-" bun:"group_path"`
}

func (v *ItemView) fill() {
	if v.StateN > 0 {
		st := waybill.State(v.StateN)
		v.WaybillState = st.String()
		v.Delivered = Delivered(st)
	}
}

// Delivered reports whether an item's waybill counts as delivered in the plan's progress: its volume
// was received (RECEIVED, CLOSED, or DIFF_FLAGGED awaiting a review of its loss).
func Delivered(st waybill.State) bool {
	return st == waybill.Received || st == waybill.Closed || st == waybill.DiffFlagged
}

func itemSelect(idb bun.IDB) *bun.SelectQuery {
	return idb.NewSelect().TableExpr("transport_plan_items AS i").
		ColumnExpr("i.id, i.plan_id, tp.no AS plan_no, tp.plan_date, COALESCE(cu.name, '') AS customer_name, dep.name AS depot_name").
		ColumnExpr("i.car_id, c.plate, i.station_id, st.name AS station_name, i.product_id, pr.name AS product_name, i.planned_l, i.remark").
		ColumnExpr("COALESCE(i.waybill_id, 0) AS waybill_id, COALESCE(w.no, '') AS waybill_no, COALESCE(w.state, 0) AS waybill_state, g.path AS group_path").
		Join("JOIN transport_plans AS tp ON tp.id = i.plan_id").
		Join("JOIN org_groups AS g ON g.id = tp.group_id").
		Join("JOIN stations AS dep ON dep.id = tp.depot_id").
		Join("LEFT JOIN customers AS cu ON cu.id = tp.customer_id").
		Join("JOIN cars AS c ON c.id = i.car_id").
		Join("JOIN stations AS st ON st.id = i.station_id").
		Join("JOIN products AS pr ON pr.id = i.product_id").
		Join("LEFT JOIN waybills AS w ON w.id = i.waybill_id")
}

// PlanView is a plan with its items and progress.
type PlanView struct {
	ID           int64      `json:"id" bun:"id"`
	GroupID      int64      `json:"groupId" bun:"group_id"`
	GroupName    string     `json:"groupName" bun:"group_name"`
	No           string     `json:"no" bun:"no"`
	PlanDate     string     `json:"planDate" bun:"plan_date"`
	DepotID      int64      `json:"depotId" bun:"depot_id"`
	DepotName    string     `json:"depotName" bun:"depot_name"`
	CustomerID   int64      `json:"customerId" bun:"customer_id"`
	CustomerName string     `json:"customerName" bun:"customer_name"`
	Title        string     `json:"title" bun:"title"`
	Remark       string     `json:"remark" bun:"remark"`
	CreatedAt    int64      `json:"createdAt" bun:"created_at"`
	UpdatedAt    int64      `json:"updatedAt" bun:"updated_at"`
	Items        []ItemView `json:"items" bun:"-"`
	Total        int        `json:"total" bun:"-"`       // items
	WithWaybill  int        `json:"withWaybill" bun:"-"` // items with a waybill
	DeliveredN   int        `json:"delivered" bun:"-"`   // items delivered
	PlannedL     float64    `json:"plannedL" bun:"-"`    // sum of the items' planned litres
	GroupPath    string     `json:"-" bun:"group_path"`
}

func planSelect(idb bun.IDB) *bun.SelectQuery {
	return idb.NewSelect().TableExpr("transport_plans AS tp").
		ColumnExpr("tp.id, tp.group_id, g.name AS group_name, g.path AS group_path, tp.no, tp.plan_date, tp.depot_id, dep.name AS depot_name").
		ColumnExpr("COALESCE(tp.customer_id, 0) AS customer_id, COALESCE(cu.name, '') AS customer_name, tp.title, tp.remark, tp.created_at, tp.updated_at").
		Join("JOIN org_groups AS g ON g.id = tp.group_id").
		Join("JOIN stations AS dep ON dep.id = tp.depot_id").
		Join("LEFT JOIN customers AS cu ON cu.id = tp.customer_id")
}

func (s *Service) withItems(ctx context.Context, plans []PlanView) error {
	if len(plans) == 0 {
		return nil
	}
	ids := make([]int64, len(plans))
	at := map[int64]int{}
	for i := range plans {
		ids[i] = plans[i].ID
		at[plans[i].ID] = i
		plans[i].Items = []ItemView{}
	}
	var its []ItemView
	if err := itemSelect(s.db).Where("i.plan_id IN (?)", bun.In(ids)).OrderExpr("i.plan_id, i.id").Scan(ctx, &its); err != nil {
		return err
	}
	for _, it := range its {
		it.fill()
		pl := &plans[at[it.PlanID]]
		pl.Items = append(pl.Items, it)
		pl.Total++
		pl.PlannedL += it.PlannedL
		if it.WaybillID > 0 {
			pl.WithWaybill++
		}
		if it.Delivered {
			pl.DeliveredN++
		}
	}
	return nil
}

// Detail returns one plan.
func (s *Service) Detail(ctx context.Context, p *httpx.Principal, id int64) (*PlanView, error) {
	if id <= 0 {
		return nil, httpx.Required("id")
	}
	v, err := db.ScopedRow(ctx, planSelect(s.db).Where("tp.id = ?", id), p, func(r *PlanView) string { return r.GroupPath })
	if err != nil {
		return nil, err
	}
	plans := []PlanView{*v}
	if err := s.withItems(ctx, plans); err != nil {
		return nil, err
	}
	return &plans[0], nil
}

// Query is the body of the plans page.
type Query struct {
	httpx.PageReq
	StartDate  string `json:"startDate"`
	EndDate    string `json:"endDate"`
	GroupID    int64  `json:"groupId"`
	DepotID    int64  `json:"depotId"`
	CustomerID int64  `json:"customerId"`
	Keyword    string `json:"keyword"` // number or title
}

var planSort = map[string]string{"planDate": "tp.plan_date", "no": "tp.no", "depotName": "dep.name", "customerName": "customer_name"}

func dateArg(s, field string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", nil
	}
	if len(s) > 10 {
		s = s[:10]
	}
	if _, err := time.Parse("2006-01-02", s); err != nil {
		return "", httpx.Invalid(field)
	}
	return s, nil
}

// Page lists the plans of the caller's scope with their items.
func (s *Service) Page(ctx context.Context, p *httpx.Principal, q Query) (httpx.Page[PlanView], error) {
	var zero httpx.Page[PlanView]
	if err := q.Normalize(); err != nil {
		return zero, err
	}
	order, err := q.OrderBy(planSort, "tp.plan_date DESC")
	if err != nil {
		return zero, err
	}
	under, err := db.ScopeUnder(ctx, s.db, p, q.GroupID)
	if err != nil {
		return zero, err
	}
	sel := planSelect(s.db).Where("g.path LIKE ?", under+"%")
	from, err := dateArg(q.StartDate, "transportPlan.startDate")
	if err != nil {
		return zero, err
	}
	to, err := dateArg(q.EndDate, "transportPlan.endDate")
	if err != nil {
		return zero, err
	}
	if from != "" {
		sel = sel.Where("tp.plan_date >= ?", from)
	}
	if to != "" {
		sel = sel.Where("tp.plan_date <= ?", to)
	}
	if q.DepotID > 0 {
		if err := inScope(ctx, s.db, p, "stations", q.DepotID, "transportPlan.depot"); err != nil {
			return zero, err
		}
		sel = sel.Where("tp.depot_id = ?", q.DepotID)
	}
	if q.CustomerID > 0 {
		if err := inScope(ctx, s.db, p, "customers", q.CustomerID, "transportPlan.customer"); err != nil {
			return zero, err
		}
		sel = sel.Where("tp.customer_id = ?", q.CustomerID)
	}
	if v := strings.TrimSpace(q.Keyword); v != "" {
		sel = sel.WhereGroup(" AND ", func(w *bun.SelectQuery) *bun.SelectQuery {
			return w.Where(db.Contains("tp.no", v)).WhereOr(db.Contains("tp.title", v))
		})
	}
	page, err := db.ScanPage(ctx, sel, q.PageReq, order, "tp.id", func(r *PlanView) PlanView { return *r })
	if err != nil {
		return zero, err
	}
	return page, s.withItems(ctx, page.List)
}

// ItemQuery is the body of the car items page and export.
type ItemQuery struct {
	httpx.PageReq
	StartDate  string `json:"startDate"`
	EndDate    string `json:"endDate"`
	GroupID    int64  `json:"groupId"`
	CarID      int64  `json:"carId"`
	CustomerID int64  `json:"customerId"`
	// State: a waybill state name, "NONE" for items without a waybill, "" all.
	State string `json:"state"`
}

var itemSort = map[string]string{"planDate": "tp.plan_date", "plate": "c.plate", "planNo": "tp.no", "plannedL": "i.planned_l",
	"waybillNo": "waybill_no", "stationName": "st.name"}

func (s *Service) itemWhere(ctx context.Context, p *httpx.Principal, q ItemQuery) (*bun.SelectQuery, error) {
	under, err := db.ScopeUnder(ctx, s.db, p, q.GroupID)
	if err != nil {
		return nil, err
	}
	sel := itemSelect(s.db).Where("g.path LIKE ?", under+"%")
	from, err := dateArg(q.StartDate, "transportPlan.startDate")
	if err != nil {
		return nil, err
	}
	to, err := dateArg(q.EndDate, "transportPlan.endDate")
	if err != nil {
		return nil, err
	}
	if from != "" {
		sel = sel.Where("tp.plan_date >= ?", from)
	}
	if to != "" {
		sel = sel.Where("tp.plan_date <= ?", to)
	}
	if q.CarID > 0 {
		if err := inScope(ctx, s.db, p, "cars", q.CarID, "transportPlan.car"); err != nil {
			return nil, err
		}
		sel = sel.Where("i.car_id = ?", q.CarID)
	}
	if q.CustomerID > 0 {
		if err := inScope(ctx, s.db, p, "customers", q.CustomerID, "transportPlan.customer"); err != nil {
			return nil, err
		}
		sel = sel.Where("tp.customer_id = ?", q.CustomerID)
	}
	switch q.State {
	case "":
	case "NONE":
		sel = sel.Where("i.waybill_id IS NULL")
	default:
		st, ok := waybill.ParseState(q.State)
		if !ok {
			return nil, httpx.Invalid("transportPlan.state")
		}
		sel = sel.Where("w.state = ?", st)
	}
	return sel, nil
}

// ItemPage lists the plan items of the caller's scope with their waybills.
func (s *Service) ItemPage(ctx context.Context, p *httpx.Principal, q ItemQuery) (httpx.Page[ItemView], error) {
	var zero httpx.Page[ItemView]
	if err := q.Normalize(); err != nil {
		return zero, err
	}
	order, err := q.OrderBy(itemSort, "tp.plan_date DESC")
	if err != nil {
		return zero, err
	}
	sel, err := s.itemWhere(ctx, p, q)
	if err != nil {
		return zero, err
	}
	return db.ScanPage(ctx, sel, q.PageReq, order, "i.id", func(r *ItemView) ItemView { r.fill(); return *r })
}

// ExportItems writes the filtered plan items.
func (s *Service) ExportItems(r *http.Request, q ItemQuery) (*xlsx.Sheet, error) {
	ctx, p, lang := r.Context(), httpx.Caller(r), httpx.Lang(r)
	sel, err := s.itemWhere(ctx, p, q)
	if err != nil {
		return nil, err
	}
	var rows []ItemView
	if err := sel.OrderExpr("tp.plan_date DESC, i.id").Limit(100_000).Scan(ctx, &rows); err != nil {
		return nil, err
	}
	sh := &xlsx.Sheet{Name: "export.transportPlanCarItem", ASCII: "plan-items",
		Head: []string{"field.transportPlan.planDate", "field.transportPlan.no", "field.transportPlan.customer", "field.transportPlan.depot",
			"field.transportPlan.car", "field.transportPlan.station", "field.transportPlan.product", "field.transportPlan.plannedL",
			"field.transportPlan.waybillNo", "field.transportPlan.state", "field.transportPlan.remark"}}
	for i := range rows {
		v := &rows[i]
		v.fill()
		state := i18n.T(lang, "transportPlan.noWaybill")
		if v.WaybillState != "" {
			state = i18n.T(lang, "waybill.state."+v.WaybillState)
		}
		sh.Rows = append(sh.Rows, []any{v.PlanDate, v.PlanNo, v.CustomerName, v.DepotName, v.Plate, v.StationName, v.ProductName,
			v.PlannedL, v.WaybillNo, state, v.Remark})
	}
	return sh, nil
}

// Option is a choice of the plan form.
type Option struct {
	ID   int64  `json:"id" bun:"id"`
	Name string `json:"name" bun:"name"`
	Type string `json:"type,omitempty" bun:"type"`
}

// Options are the depots, stations, customers and products of the caller's scope, for the form.
type Options struct {
	Depots    []Option `json:"depots"`
	Stations  []Option `json:"stations"`
	Customers []Option `json:"customers"`
	Products  []Option `json:"products"`
}

// FormOptions lists the form's choices.
func (s *Service) FormOptions(ctx context.Context, p *httpx.Principal) (*Options, error) {
	out := &Options{Depots: []Option{}, Stations: []Option{}, Customers: []Option{}, Products: []Option{}}
	like := p.GroupPath + "%"
	var sts []Option
	if err := s.db.NewSelect().TableExpr("stations AS x").ColumnExpr("x.id, x.name, x.station_type AS type").
		Join("JOIN org_groups AS g ON g.id = x.group_id").Where("g.path LIKE ?", like).OrderExpr("x.name, x.id").Scan(ctx, &sts); err != nil {
		return nil, err
	}
	for _, st := range sts {
		if st.Type == "yk" {
			out.Depots = append(out.Depots, st)
		} else {
			out.Stations = append(out.Stations, st)
		}
	}
	for _, t := range []struct {
		table string
		dst   *[]Option
	}{{"customers", &out.Customers}, {"products", &out.Products}} {
		if err := s.db.NewSelect().TableExpr(t.table+" AS x").ColumnExpr("x.id, x.name, '' AS type").
			Join("JOIN org_groups AS g ON g.id = x.group_id").Where("g.path LIKE ?", like).OrderExpr("x.name, x.id").Scan(ctx, t.dst); err != nil {
			return nil, err
		}
	}
	return out, nil
}

type idBody struct {
	ID int64 `json:"id"`
}

const (
	planPrefix = "/base-info-app/transportPlan/"
	itemPrefix = "/base-info-app/transportPlanCarItem/"
)

// Routes returns the plan and car item endpoints.
func (s *Service) Routes() []httpx.Route {
	read := httpx.Needs(CodePage)
	return []httpx.Route{
		{Method: "POST", Path: planPrefix + "page", Access: read, Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q Query) (any, error) { return s.Page(r.Context(), httpx.Caller(r), q) })},
		{Method: "GET", Path: planPrefix + "detail", Access: read, Scoped: true,
			Handler: httpx.ByID("id", func(r *http.Request, id int64) (any, error) { return s.Detail(r.Context(), httpx.Caller(r), id) })},
		// the caller's own depots, stations, customers and products: nothing to refuse
		{Method: "GET", Path: planPrefix + "options", Access: httpx.Needs(CodePage, CodeItems),
			Handler: func(w http.ResponseWriter, r *http.Request) {
				data, err := s.FormOptions(r.Context(), httpx.Caller(r))
				httpx.Respond(w, r, data, err)
			}},
		{Method: "POST", Path: planPrefix + "add", Access: httpx.Needs(CodeAdd), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in Input) (any, error) { return s.Save(r, in, true) })},
		{Method: "POST", Path: planPrefix + "update", Access: httpx.Needs(CodeEdit), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in Input) (any, error) { return s.Save(r, in, false) })},
		{Method: "POST", Path: planPrefix + "delete", Access: httpx.Needs(CodeDelete), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in idBody) (any, error) { return nil, s.Delete(r, in.ID) })},
		{Method: "POST", Path: itemPrefix + "page", Access: httpx.Needs(CodeItems), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q ItemQuery) (any, error) { return s.ItemPage(r.Context(), httpx.Caller(r), q) })},
		{Method: "POST", Path: itemPrefix + "export", Access: httpx.Needs(CodeItemsExport), Scoped: true, Handler: xlsx.Handler(s.ExportItems)},
	}
}
