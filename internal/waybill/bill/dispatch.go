package bill

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"tankwatch/internal/audit"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/telemetry"
	"tankwatch/internal/waybill"
)

// Action names of the operation log beyond insert/update/delete.
const (
	ActionDispatch = "waybillDispatch"
	ActionCancel   = "waybillCancel"
)

// active are the states of a waybill on the road or at the depot: a car has at most one (D43).
var active = []waybill.State{waybill.Dispatched, waybill.Loading, waybill.Loaded, waybill.Sealed, waybill.InTransit,
	waybill.Arrived, waybill.Unsealed, waybill.Unloading, waybill.Received}

// dispatch sends the dispatch text to the car's terminal and, when the terminal took it, moves the
// waybill PLANNED → DISPATCHED (D43: an offline or refusing terminal refuses the dispatch, nothing
// changes; the command log keeps the attempt).
func (s *Service) dispatch(ctx context.Context, r *http.Request, p *httpx.Principal, id int64) (*wbRef, error) {
	w, err := s.scopedBill(ctx, s.db, p, id)
	if err != nil {
		return nil, err
	}
	if w.State != waybill.Planned {
		return nil, httpx.Biz("waybillBills.notPlanned", w.No)
	}
	if err := s.barred(ctx, s.db, w.CarID); err != nil {
		return nil, err
	}
	var other []string
	if err := s.db.NewSelect().TableExpr("waybills").Column("no").Where("car_id = ? AND id <> ? AND state IN (?)", w.CarID, id, bun.In(active)).
		Limit(1).Scan(ctx, &other); err != nil {
		return nil, err
	}
	if len(other) > 0 {
		return nil, httpx.Biz("waybillBills.carBusy", other[0])
	}
	var head struct {
		Depot     string `bun:"depot"`
		Plate     string `bun:"plate"`
		PlannedAt int64  `bun:"planned_load_at"`
	}
	if err := s.db.NewSelect().TableExpr("waybills AS w").ColumnExpr("d.name AS depot, c.plate, w.planned_load_at").
		Join("JOIN stations AS d ON d.id = w.depot_id").Join("JOIN cars AS c ON c.id = w.car_id").
		Where("w.id = ?", id).Scan(ctx, &head); err != nil {
		return nil, err
	}
	depot := head.Depot
	var stops []string
	if err := s.db.NewSelect().TableExpr("waybill_destinations AS wd").ColumnExpr("st.name").Join("JOIN stations AS st ON st.id = wd.station_id").
		Where("wd.waybill_id = ?", id).OrderExpr("wd.seq").Scan(ctx, &stops); err != nil {
		return nil, err
	}
	if s.Commands == nil || s.Sender == nil {
		return nil, errors.New("bill: dispatch needs the command log and the gateway")
	}
	if r == nil {
		if r, err = http.NewRequestWithContext(httpx.WithPrincipal(ctx, p), http.MethodPost, "/", nil); err != nil {
			return nil, err
		}
	}
	text := waybill.DispatchText(w.No, depot, stops)
	if s.DispatchText != nil {
		planned := ""
		if head.PlannedAt > 0 {
			planned = time.UnixMilli(head.PlannedAt).In(httpx.Shanghai).Format("2006-01-02 15:04")
		}
		text = s.DispatchText(ctx, w.GroupPath, text, map[string]string{"plate": head.Plate, "waybillNo": w.No, "depot": depot,
			"stops": strings.Join(stops, "→"), "time": planned})
	}
	v, err := s.Commands.Deliver(r, s.Sender, telemetry.CommandInput{CarID: w.CarID, Kind: telemetry.KindText, Text: text})
	if err != nil {
		return nil, err
	}
	if err := v.Outcome(); err != nil {
		return nil, err
	}
	err = s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		st, _, err := waybill.Advance(ctx, tx, id, waybill.Move{Evidence: waybill.EvDispatch, Cause: waybill.CauseUser, UserID: p.UserID}, s.nowMS())
		if err != nil {
			return err
		}
		if !st.Moved {
			return httpx.Biz("waybillBills.notPlanned", w.No)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	s.record(ctx, r, p, ActionDispatch, w.No, id, audit.Text("oplog.waybillBills.dispatch", v.Plate))
	s.touch(w.CarID)
	return w, nil
}

// Dispatch dispatches waybill id as user userID would through dispatch, without an HTTP request
// (the demo planner).
func (s *Service) Dispatch(ctx context.Context, userID, id int64) error {
	p, err := s.Principal(ctx, userID)
	if err != nil {
		return err
	}
	_, err = s.dispatch(ctx, nil, p, id)
	return err
}

// DispatchHTTP is the dispatch endpoint.
func (s *Service) DispatchHTTP(r *http.Request, id int64) (*Detail, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	if _, err := s.dispatch(ctx, r, p, id); err != nil {
		return nil, err
	}
	return s.Detail(ctx, p, id)
}

// CancelInput is the body of cancel.
type CancelInput struct {
	ID     int64  `json:"id"`
	Reason string `json:"reason"`
}

// Cancel cancels a DISPATCHED…SEALED waybill with the user's reason (EvCancel, CauseUser). A PLANNED
// waybill is deleted instead; one on the road (IN_TRANSIT and later) cannot be cancelled.
func (s *Service) Cancel(r *http.Request, in CancelInput) (*Detail, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	if _, err := s.scopedBill(ctx, s.db, p, in.ID); err != nil {
		return nil, err
	}
	if err := cleanReason(&in.Reason); err != nil {
		return nil, err
	}
	var w *wbRef
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var err error
		if w, err = s.scopedBill(ctx, tx, p, in.ID); err != nil {
			return err
		}
		if w.State < waybill.Dispatched || w.State > waybill.Sealed {
			return httpx.Biz("waybillBills.notCancellable", w.No)
		}
		st, _, err := waybill.Advance(ctx, tx, in.ID, waybill.Move{Evidence: waybill.EvCancel, Cause: waybill.CauseUser, UserID: p.UserID,
			Reason: in.Reason}, s.nowMS())
		if err != nil {
			return err
		}
		if !st.Moved {
			return httpx.Biz("waybillBills.notCancellable", w.No)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	s.record(ctx, r, p, ActionCancel, w.No, in.ID, in.Reason)
	s.touch(w.CarID)
	return s.Detail(ctx, p, in.ID)
}

// FromPlanInput is the body of fromPlan.
type FromPlanInput struct {
	PlanID  int64   `json:"planId"`
	ItemIDs []int64 `json:"itemIds"` // empty: every item of the plan without a waybill
}

// FromPlanResult says what fromPlan made.
type FromPlanResult struct {
	Created  int      `json:"created"`
	Nos      []string `json:"nos"`
	Skipped  int      `json:"skipped"` // items that already had a waybill
	Duration int64    `json:"-"`
}

// FromPlan makes one PLANNED waybill per item of plan in.PlanID (of the caller's scope) that has none:
// the plan's depot and customer, the item's car, destination, product and planned volume in the
// car's first compartment, the plan's day 08:00 as the planned loading time and 18:00 as arrival;
// each item's waybill_id is set. Any item that cannot become a waybill refuses the whole call.
func (s *Service) FromPlan(r *http.Request, in FromPlanInput) (*FromPlanResult, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	if in.PlanID <= 0 {
		return nil, httpx.Required("waybillBills.plan")
	}
	var plan struct {
		ID         int64  `bun:"id"`
		No         string `bun:"no"`
		PlanDate   string `bun:"plan_date"`
		DepotID    int64  `bun:"depot_id"`
		CustomerID *int64 `bun:"customer_id"`
		Path       string `bun:"path"`
	}
	err := s.db.NewSelect().TableExpr("transport_plans AS tp").ColumnExpr("tp.id, tp.no, tp.plan_date, tp.depot_id, tp.customer_id, g.path").
		Join("JOIN org_groups AS g ON g.id = tp.group_id").Where("tp.id = ?", in.PlanID).Scan(ctx, &plan)
	if err != nil {
		if isNoRows(err) {
			return nil, httpx.ErrNotFound
		}
		return nil, err
	}
	if !p.InScope(plan.Path) {
		return nil, httpx.ErrScope
	}
	var items []struct {
		ID        int64   `bun:"id"`
		CarID     int64   `bun:"car_id"`
		StationID int64   `bun:"station_id"`
		ProductID int64   `bun:"product_id"`
		PlannedL  float64 `bun:"planned_l"`
		WaybillID *int64  `bun:"waybill_id"`
	}
	q := s.db.NewSelect().TableExpr("transport_plan_items").ColumnExpr("id, car_id, station_id, product_id, planned_l, waybill_id").
		Where("plan_id = ?", in.PlanID).OrderExpr("id")
	if len(in.ItemIDs) > 0 {
		q = q.Where("id IN (?)", bun.In(in.ItemIDs))
	}
	if err := q.Scan(ctx, &items); err != nil {
		return nil, err
	}
	if len(in.ItemIDs) > 0 && len(items) != len(in.ItemIDs) {
		return nil, httpx.Biz("waybillBills.itemNotInPlan")
	}
	day, err := parseDay(plan.PlanDate)
	if err != nil {
		return nil, httpx.Invalid("waybillBills.planDate")
	}
	res := &FromPlanResult{Nos: []string{}}
	var inputs []Input
	var itemIDs []int64
	for _, it := range items {
		if it.WaybillID != nil {
			res.Skipped++
			continue
		}
		in := Input{CarID: it.CarID, DepotID: plan.DepotID, StationIDs: []int64{it.StationID}, CustomerID: deref(plan.CustomerID),
			PlannedLoadAt: day.Add(8 * 3600e9).UnixMilli(), PlannedArriveAt: day.Add(18 * 3600e9).UnixMilli(), PlanID: plan.ID,
			Compartments: []CompInput{{No: 1, ProductID: it.ProductID, PlannedL: it.PlannedL, DestSeq: 1}}}
		if err := in.Clean(); err != nil {
			return nil, httpx.Biz("waybillBills.itemError", it.ID, httpx.T(r, errKey(err), errArgs(err)...))
		}
		if _, err := s.check(ctx, s.db, p, &in); err != nil {
			if errors.Is(err, httpx.ErrScope) {
				return nil, err
			}
			return nil, httpx.Biz("waybillBills.itemError", it.ID, httpx.T(r, errKey(err), errArgs(err)...))
		}
		inputs = append(inputs, in)
		itemIDs = append(itemIDs, it.ID)
	}
	for i, in := range inputs {
		row, err := s.create(ctx, p, in)
		if err != nil {
			return nil, err
		}
		if _, err := s.db.NewUpdate().Table("transport_plan_items").Set("waybill_id = ?", row.ID).Where("id = ? AND waybill_id IS NULL", itemIDs[i]).
			Exec(ctx); err != nil {
			return nil, err
		}
		s.record(ctx, r, p, audit.ActionInsert, row.No, row.ID, audit.Text("oplog.waybillBills.fromPlan", plan.No))
		s.touch(row.CarID)
		res.Created++
		res.Nos = append(res.Nos, row.No)
	}
	return res, nil
}
