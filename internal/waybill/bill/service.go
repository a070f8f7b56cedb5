package bill

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/uptrace/bun"

	"tankwatch/internal/audit"
	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/station"
	"tankwatch/internal/telemetry"
	"tankwatch/internal/waybill"
)

// Module is the operation log's module of waybills.
const Module = "waybillBill"

// Permission codes (internal/org/menu.json).
const (
	CodePage     = "03-13"
	CodeAdd      = "03-13-01"
	CodeEdit     = "03-13-02"
	CodeDelete   = "03-13-03"
	CodeImport   = "03-13-04"
	CodeExport   = "03-13-05"
	CodeDispatch = "03-13-06"
	CodeCancel   = "03-13-07"
	CodePrint    = "03-13-08"
	CodeSales    = "03-14"
	CodeSalesExp = "03-14-01"
	CodeArchive  = "03-15"
	CodeArchExp  = "03-15-01"
	CodeFromPlan = "04-24-04"
)

// Service is the waybills.
type Service struct {
	db       *db.DB
	audit    *audit.Log
	Commands *telemetry.Commands // the command log that carries the dispatch text
	Sender   telemetry.Sender    // the gateway
	Now      func() time.Time
	// Touch, when set, is told a car's waybill was created, dispatched, cancelled or changed (the
	// process engine reloads it; wired by the lead, H4).
	Touch func(carID int64)
	// Blacklist, when set, is the car blacklist's check (internal/lock/registry.Refusal, set by the
	// lock registry's wiring): nil when car carID may get a waybill at time at, else the refusal. A
	// new waybill, a waybill's car changed and a dispatch ask it.
	Blacklist func(ctx context.Context, idb bun.IDB, carID, at int64) error
	// DispatchText, when set, writes the 0x8300 dispatch text from the dispatch template of the
	// waybill's group around route, the machine-readable core (notice.Service.Dispatch, D68); vars
	// are the plate, waybill number, depot, stops and planned loading time.
	DispatchText func(ctx context.Context, groupPath, route string, vars map[string]string) string
	// Crew, when set, is the staff register's driver / escort check (internal/staff.CrewCheck, set by
	// the staff part's wiring, D60): nil when the people of these phones may work on a waybill of a car
	// of group carGroupID loading at at, else the refusal naming the person. Add and update ask it.
	Crew func(ctx context.Context, idb bun.IDB, carGroupID, at int64, driverPhone, escortPhone string) error
}

// New returns the waybill service.
func New(d *db.DB, a *audit.Log, commands *telemetry.Commands, sender telemetry.Sender) *Service {
	return &Service{db: d, audit: a, Commands: commands, Sender: sender, Now: time.Now}
}

func (s *Service) nowMS() int64 { return s.Now().UnixMilli() }

// barred is the blacklist's refusal of car carID now (nil: not barred, or no blacklist wired).
func (s *Service) barred(ctx context.Context, idb bun.IDB, carID int64) error {
	if s.Blacklist == nil {
		return nil
	}
	return s.Blacklist(ctx, idb, carID, s.nowMS())
}

func (s *Service) touch(carID int64) {
	if s.Touch != nil {
		s.Touch(carID)
	}
}

func (s *Service) record(ctx context.Context, r *http.Request, p *httpx.Principal, action, target string, id int64, detail string) {
	if s.audit == nil {
		return
	}
	s.audit.Record(ctx, r, p, audit.Entry{Module: Module, Action: action, Target: target, TargetID: id, Detail: detail})
}

// Principal is the principal of user id for the Go API (the demo planner): its group and scope.
func (s *Service) Principal(ctx context.Context, userID int64) (*httpx.Principal, error) {
	var u struct {
		Name    string `bun:"name"`
		GroupID int64  `bun:"group_id"`
		Path    string `bun:"path"`
	}
	err := s.db.NewSelect().TableExpr("users AS u").ColumnExpr("u.name, u.group_id, g.path").
		Join("JOIN org_groups AS g ON g.id = u.group_id").Where("u.id = ?", userID).Scan(ctx, &u)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("bill: user %d not found", userID)
	}
	if err != nil {
		return nil, err
	}
	return &httpx.Principal{UserID: userID, UserName: u.Name, GroupID: u.GroupID, GroupPath: u.Path, Codes: map[string]bool{}}, nil
}

// carRef is a car with its group and compartments.
type carRef struct {
	ID           int64  `bun:"id"`
	Plate        string `bun:"plate"`
	GroupID      int64  `bun:"group_id"`
	GroupPath    string `bun:"group_path"`
	Compartments int    `bun:"compartments"`
	DriverName   string `bun:"driver_name"`
	DriverPhone  string `bun:"driver_phone"`
}

func (s *Service) scopedCar(ctx context.Context, idb bun.IDB, p *httpx.Principal, id int64) (*carRef, error) {
	sel := idb.NewSelect().TableExpr("cars AS c").ColumnExpr("c.id, c.plate, c.group_id, g.path AS group_path, c.compartments, c.driver_name, c.driver_phone").
		Join("JOIN org_groups AS g ON g.id = c.group_id").Where("c.id = ?", id)
	c, err := db.ScopedRow(ctx, sel, p, func(r *carRef) string { return r.GroupPath })
	if errors.Is(err, httpx.ErrNotFound) {
		return nil, httpx.Biz("waybillBills.missing", httpx.Field("waybillBills.car"))
	}
	return c, err
}

type stationRef struct {
	ID        int64  `bun:"id"`
	Name      string `bun:"name"`
	Type      string `bun:"station_type"`
	GroupPath string `bun:"group_path"`
}

func (s *Service) scopedStation(ctx context.Context, idb bun.IDB, p *httpx.Principal, id int64, typ, field string) (*stationRef, error) {
	sel := idb.NewSelect().TableExpr("stations AS st").ColumnExpr("st.id, st.name, st.station_type, g.path AS group_path").
		Join("JOIN org_groups AS g ON g.id = st.group_id").Where("st.id = ?", id)
	st, err := db.ScopedRow(ctx, sel, p, func(r *stationRef) string { return r.GroupPath })
	if errors.Is(err, httpx.ErrNotFound) {
		return nil, httpx.Biz("waybillBills.missing", httpx.Field(field))
	}
	if err != nil {
		return nil, err
	}
	if st.Type != typ {
		return nil, httpx.Biz("waybillBills.wrongType", httpx.Field(field), st.Name)
	}
	return st, nil
}

// checked is what the store checks of an input found.
type checked struct {
	car   *carRef
	depot *stationRef
	dests []*stationRef
}

// check runs the store checks of in (after Clean): the car, depot, destinations, products and customer
// in the caller's scope, the depot an oil depot and the destinations oil stations, compartment numbers
// within the car's count and volumes within each compartment's registered capacity, the sales company
// bound to the car's group.
func (s *Service) check(ctx context.Context, idb bun.IDB, p *httpx.Principal, in *Input) (*checked, error) {
	var out checked
	var err error
	if out.car, err = s.scopedCar(ctx, idb, p, in.CarID); err != nil {
		return nil, err
	}
	if in.ID == 0 { // a new waybill (an update asks only when its car changes)
		if err := s.barred(ctx, idb, in.CarID); err != nil {
			return nil, err
		}
	}
	if out.depot, err = s.scopedStation(ctx, idb, p, in.DepotID, station.TypeDepot, "waybillBills.depot"); err != nil {
		return nil, err
	}
	for _, id := range in.StationIDs {
		st, err := s.scopedStation(ctx, idb, p, id, station.TypeOilStation, "waybillBills.destinations")
		if err != nil {
			return nil, err
		}
		out.dests = append(out.dests, st)
	}
	var caps []struct {
		No       int `bun:"no"`
		Capacity int `bun:"capacity_l"`
	}
	if err := idb.NewSelect().TableExpr("compartments").ColumnExpr("no, capacity_l").Where("car_id = ?", in.CarID).Scan(ctx, &caps); err != nil {
		return nil, err
	}
	capOf := map[int]int{}
	for _, c := range caps {
		capOf[c.No] = c.Capacity
	}
	for _, c := range in.Compartments {
		if c.No > out.car.Compartments {
			return nil, httpx.Biz("waybillBills.compOutside", c.No, out.car.Plate, out.car.Compartments)
		}
		if cp := capOf[c.No]; cp > 0 && c.PlannedL > float64(cp) {
			return nil, httpx.Biz("waybillBills.overCapacity", c.No, c.PlannedL, cp)
		}
		var prod struct {
			Path string `bun:"path"`
		}
		err := idb.NewSelect().TableExpr("products AS pr").ColumnExpr("g.path").Join("JOIN org_groups AS g ON g.id = pr.group_id").
			Where("pr.id = ?", c.ProductID).Scan(ctx, &prod)
		if errors.Is(err, sql.ErrNoRows) {
			return nil, compErr(c.No, "waybillBills.missing", httpx.Field("waybillBills.product"))
		}
		if err != nil {
			return nil, err
		}
		if !p.InScope(prod.Path) {
			return nil, httpx.ErrScope
		}
	}
	if in.CustomerID > 0 {
		var path string
		err := idb.NewSelect().TableExpr("customers AS cu").ColumnExpr("g.path").Join("JOIN org_groups AS g ON g.id = cu.group_id").
			Where("cu.id = ?", in.CustomerID).Scan(ctx, &path)
		if errors.Is(err, sql.ErrNoRows) {
			return nil, httpx.Biz("waybillBills.missing", httpx.Field("waybillBills.customer"))
		}
		if err != nil {
			return nil, err
		}
		if !p.InScope(path) {
			return nil, httpx.ErrScope
		}
	}
	if in.SalesGroupID > 0 {
		// the sales company must be bound (sales_trans) to the car's group or a group above it
		n, err := idb.NewSelect().TableExpr("sales_trans AS t").Join("JOIN org_groups AS tg ON tg.id = t.trans_group_id").
			Join("JOIN org_groups AS sg ON sg.id = t.sales_group_id").
			Where("t.sales_group_id = ? AND sg.sales = ?", in.SalesGroupID, true).
			Where("? LIKE tg.path || '%'", out.car.GroupPath).Count(ctx)
		if err != nil {
			return nil, err
		}
		if n == 0 {
			return nil, httpx.Biz("waybillBills.salesNotBound")
		}
	}
	if in.DriverName == "" && in.DriverPhone == "" {
		in.DriverName, in.DriverPhone = out.car.DriverName, out.car.DriverPhone
	}
	if s.Crew != nil {
		at := in.PlannedLoadAt
		if at <= 0 {
			at = s.nowMS()
		}
		if err := s.Crew(ctx, idb, out.car.GroupID, at, in.DriverPhone, in.EscortPhone); err != nil {
			return nil, err
		}
	}
	return &out, nil
}

func optID(v int64) *int64 {
	if v <= 0 {
		return nil
	}
	return &v
}

func rowsOf(in *Input) ([]waybill.Destination, []waybill.Compartment) {
	dests := make([]waybill.Destination, len(in.StationIDs))
	for i, id := range in.StationIDs {
		dests[i] = waybill.Destination{Seq: i + 1, StationID: id}
	}
	comps := make([]waybill.Compartment, len(in.Compartments))
	for i, c := range in.Compartments {
		comps[i] = waybill.Compartment{No: c.No, ProductID: c.ProductID, PlannedL: c.PlannedL, DestSeq: c.DestSeq}
	}
	return dests, comps
}

// number takes the next waybill number of the car's company (outside any transaction: a gap is
// better than a reuse, and SQLite serialises writers).
func (s *Service) number(ctx context.Context, groupID int64) (string, error) {
	code, err := waybill.CompanyCodeOf(ctx, s.db, groupID)
	if err != nil {
		return "", err
	}
	if code == "" {
		code = fmt.Sprintf("G%04d", groupID)
	}
	prefix := waybill.DocPrefix(code, waybill.KindWaybill, s.Now())
	n, err := waybill.NextNumber(ctx, s.db, prefix)
	if err != nil {
		return "", err
	}
	return waybill.Code(prefix, n, 4), nil
}

// newRow is the waybills row of a checked input.
func (s *Service) newRow(p *httpx.Principal, in *Input, groupID int64, no string) *waybill.Row {
	now := s.nowMS()
	return &waybill.Row{GroupID: groupID, SalesGroupID: optID(in.SalesGroupID), No: no, PlanID: optID(in.PlanID), CarID: in.CarID,
		CustomerID: optID(in.CustomerID), DepotID: in.DepotID, DriverName: in.DriverName, DriverPhone: in.DriverPhone,
		EscortName: in.EscortName, EscortPhone: in.EscortPhone, PlannedLoadAt: in.PlannedLoadAt, PlannedArriveAt: in.PlannedArriveAt,
		State: waybill.Planned, StateAt: now, Remark: in.Remark, CreatedBy: p.UserID, CreatedAt: now, UpdatedAt: now}
}

// create stores a new PLANNED waybill for p (validation, store checks, number, rows).
func (s *Service) create(ctx context.Context, p *httpx.Principal, in Input) (*waybill.Row, error) {
	if err := in.Clean(); err != nil {
		return nil, err
	}
	chk, err := s.check(ctx, s.db, p, &in)
	if err != nil {
		return nil, err
	}
	no, err := s.number(ctx, chk.car.GroupID)
	if err != nil {
		return nil, err
	}
	row := s.newRow(p, &in, chk.car.GroupID, no)
	dests, comps := rowsOf(&in)
	err = s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		return waybill.Insert(ctx, tx, row, dests, comps)
	})
	if err != nil {
		return nil, err
	}
	return row, nil
}

// Create stores a new PLANNED waybill as user userID would through add (the same validation and
// scope), without an HTTP request: the demo planner calls it.
func (s *Service) Create(ctx context.Context, userID int64, in Input) (*waybill.Row, error) {
	p, err := s.Principal(ctx, userID)
	if err != nil {
		return nil, err
	}
	row, err := s.create(ctx, p, in)
	if err != nil {
		return nil, err
	}
	s.record(ctx, nil, p, audit.ActionInsert, row.No, row.ID, "")
	s.touch(row.CarID)
	return row, nil
}

// Add is the add endpoint.
func (s *Service) Add(r *http.Request, in Input) (*Detail, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	row, err := s.create(ctx, p, in)
	if err != nil {
		return nil, err
	}
	s.record(ctx, r, p, audit.ActionInsert, row.No, row.ID, "")
	s.touch(row.CarID)
	return s.Detail(ctx, p, row.ID)
}

// wbRef is a waybill with its groups' paths, for scope checks.
type wbRef struct {
	ID        int64         `bun:"id"`
	No        string        `bun:"no"`
	CarID     int64         `bun:"car_id"`
	State     waybill.State `bun:"state"`
	GroupPath string        `bun:"group_path"`
	SalesPath string        `bun:"sales_path"`
}

// scopedBill is a waybill of the carrier's scope (its group in the caller's subtree).
func (s *Service) scopedBill(ctx context.Context, idb bun.IDB, p *httpx.Principal, id int64) (*wbRef, error) {
	if id <= 0 {
		return nil, httpx.Required("id")
	}
	sel := idb.NewSelect().TableExpr("waybills AS w").ColumnExpr("w.id, w.no, w.car_id, w.state, g.path AS group_path").
		Join("JOIN org_groups AS g ON g.id = w.group_id").Where("w.id = ?", id)
	return db.ScopedRow(ctx, sel, p, func(r *wbRef) string { return r.GroupPath })
}

// Update changes a PLANNED waybill (its number and carrier group stay).
func (s *Service) Update(r *http.Request, in Input) (*Detail, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	if in.ID <= 0 {
		return nil, httpx.Required("id")
	}
	if _, err := s.scopedBill(ctx, s.db, p, in.ID); err != nil {
		return nil, err
	}
	if err := in.Clean(); err != nil {
		return nil, err
	}
	var old *wbRef
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var err error
		if old, err = s.scopedBill(ctx, tx, p, in.ID); err != nil {
			return err
		}
		if old.State != waybill.Planned {
			return httpx.Biz("waybillBills.notPlanned", old.No)
		}
		chk, err := s.check(ctx, tx, p, &in)
		if err != nil {
			return err
		}
		if old.CarID != in.CarID {
			if err := s.barred(ctx, tx, in.CarID); err != nil {
				return err
			}
		}
		now := s.nowMS()
		if _, err := tx.NewUpdate().Table("waybills").Set("group_id = ?, sales_group_id = ?, car_id = ?, customer_id = ?, depot_id = ?", chk.car.GroupID, optID(in.SalesGroupID), in.CarID, optID(in.CustomerID), in.DepotID).
			Set("driver_name = ?, driver_phone = ?, escort_name = ?, escort_phone = ?", in.DriverName, in.DriverPhone, in.EscortName, in.EscortPhone).
			Set("planned_load_at = ?, planned_arrive_at = ?, remark = ?, updated_at = ?", in.PlannedLoadAt, in.PlannedArriveAt, in.Remark, now).
			Where("id = ?", in.ID).Exec(ctx); err != nil {
			return err
		}
		for _, t := range []string{"waybill_destinations", "waybill_compartments"} {
			if _, err := tx.NewDelete().TableExpr(t).Where("waybill_id = ?", in.ID).Exec(ctx); err != nil {
				return err
			}
		}
		dests, comps := rowsOf(&in)
		for i := range dests {
			dests[i].WaybillID = in.ID
		}
		for i := range comps {
			comps[i].WaybillID = in.ID
		}
		if _, err := tx.NewInsert().Model(&dests).Exec(ctx); err != nil {
			return err
		}
		_, err = tx.NewInsert().Model(&comps).Exec(ctx)
		return err
	})
	if err != nil {
		return nil, err
	}
	s.record(ctx, r, p, audit.ActionUpdate, old.No, in.ID, "")
	s.touch(old.CarID)
	if old.CarID != in.CarID {
		s.touch(in.CarID)
	}
	return s.Detail(ctx, p, in.ID)
}

// Delete removes a PLANNED waybill (a plan item made into it is free again).
func (s *Service) Delete(r *http.Request, id int64) error {
	ctx, p := r.Context(), httpx.Caller(r)
	var old *wbRef
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var err error
		if old, err = s.scopedBill(ctx, tx, p, id); err != nil {
			return err
		}
		if old.State != waybill.Planned {
			return httpx.Biz("waybillBills.notPlanned", old.No)
		}
		if _, err := tx.NewUpdate().Table("transport_plan_items").Set("waybill_id = NULL").Where("waybill_id = ?", id).Exec(ctx); err != nil {
			return err
		}
		for _, t := range []string{"waybill_steps", "waybill_destinations", "waybill_compartments"} {
			if _, err := tx.NewDelete().TableExpr(t).Where("waybill_id = ?", id).Exec(ctx); err != nil {
				return err
			}
		}
		_, err = tx.NewDelete().TableExpr("waybills").Where("id = ?", id).Exec(ctx)
		return err
	})
	if err != nil {
		return err
	}
	s.record(ctx, r, p, audit.ActionDelete, old.No, id, "")
	s.touch(old.CarID)
	return nil
}
