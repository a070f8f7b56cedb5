package load

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"

	"github.com/uptrace/bun"

	"tankwatch/internal/audit"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/waybill"
)

// SealFound is one seal number the station's operator found on a compartment.
type SealFound struct {
	Compartment int    `json:"compartment"`
	FoundNo     string `json:"foundNo"`
}

// SealCheckInput is the body of sealCheck.
type SealCheckInput struct {
	WaybillID int64       `json:"waybillId"`
	Seals     []SealFound `json:"seals"`
}

// Mismatch is a compartment whose seal differs from the load record's.
type Mismatch struct {
	Compartment int    `json:"compartment"`
	Expected    string `json:"expected"`
	Found       string `json:"found"`
}

// SealCheckResult is the answer of sealCheck.
type SealCheckResult struct {
	OK         bool       `json:"ok"`
	Mismatches []Mismatch `json:"mismatches"`
	State      string     `json:"state"`
}

// SealCheck stores the seal numbers found at unsealing against the load record's. Every compartment
// that was sealed must be reported. All match → the waybill advances (EvUnseal, cause record: ARRIVED
// → UNSEALED); any mismatch → the waybill is marked and a seal-mismatch difference is stored with the
// evidence (compartment, expected, found). Only for a waybill ARRIVED or later and not final.
func (s *Service) SealCheck(r *http.Request, in SealCheckInput) (*SealCheckResult, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	res := &SealCheckResult{Mismatches: []Mismatch{}}
	var wb *wbRef
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var err error
		if wb, err = scopedWaybill(ctx, tx, p, in.WaybillID); err != nil {
			return err
		}
		if wb.State < waybill.Arrived || wb.State.Final() {
			return httpx.Biz("loadRecord.sealCheckState", stateArg(wb.State))
		}
		var expected []struct {
			Compartment int    `bun:"compartment"`
			SealNo      string `bun:"seal_no"`
		}
		if err := tx.NewSelect().TableExpr("load_record_items AS i").ColumnExpr("i.compartment, i.seal_no").
			Join("JOIN load_records AS r ON r.id = i.record_id").Where("r.waybill_id = ?", wb.ID).
			Where("i.seal_no <> ''").OrderExpr("i.compartment").Scan(ctx, &expected); err != nil {
			return err
		}
		if len(expected) == 0 {
			return httpx.Biz("loadRecord.noSeals")
		}
		found := map[int]string{}
		for _, f := range in.Seals {
			if _, dup := found[f.Compartment]; dup {
				return httpx.Biz("loadRecord.compartmentTwice", f.Compartment)
			}
			v := cleanSeal(f.FoundNo)
			if len([]rune(v)) > MaxSealLen {
				return httpx.Biz("loadRecord.sealTooLong", f.Compartment, MaxSealLen)
			}
			found[f.Compartment] = v
		}
		want := map[int]bool{}
		for _, e := range expected {
			want[e.Compartment] = true
			if found[e.Compartment] == "" {
				return httpx.Biz("loadRecord.sealFoundMissing", e.Compartment)
			}
		}
		extra := make([]int, 0)
		for no := range found {
			if !want[no] {
				extra = append(extra, no)
			}
		}
		if len(extra) > 0 {
			sort.Ints(extra)
			return httpx.Biz("loadRecord.sealNotApplied", extra[0])
		}
		now := s.nowMS()
		for _, e := range expected {
			ok := found[e.Compartment] == e.SealNo
			if !ok {
				res.Mismatches = append(res.Mismatches, Mismatch{Compartment: e.Compartment, Expected: e.SealNo, Found: found[e.Compartment]})
			}
			if _, err := tx.NewRaw(`INSERT INTO seal_checks (waybill_id, compartment, expected_no, found_no, ok, checked_by, checked_at)
				VALUES (?, ?, ?, ?, ?, ?, ?)`, wb.ID, e.Compartment, e.SealNo, found[e.Compartment], ok, p.UserID, now).Exec(ctx); err != nil {
				return err
			}
		}
		res.OK = len(res.Mismatches) == 0
		if res.OK {
			_, row, err := waybill.Advance(ctx, tx, wb.ID, waybill.Move{Evidence: waybill.EvUnseal, Cause: waybill.CauseRecord, UserID: p.UserID}, now)
			if err != nil {
				return err
			}
			res.State = row.State.String()
			return s.sealsChanged(ctx, tx, wb.ID)
		}
		ev, _ := json.Marshal(map[string]any{"mismatches": res.Mismatches})
		row, err := waybill.Mark(ctx, tx, wb.ID, waybill.Move{Evidence: waybill.EvUnseal, Cause: waybill.CauseRecord, UserID: p.UserID,
			Compartment: res.Mismatches[0].Compartment, Reason: httpx.T(r, "loadRecord.sealMismatchReason", len(res.Mismatches)), Detail: string(ev)}, now)
		if err != nil {
			return err
		}
		res.State = row.State.String()
		if err := waybill.AddDiff(ctx, tx, &waybill.DiffRow{WaybillID: wb.ID, GroupID: wb.GroupID, CarID: wb.CarID, Kind: waybill.DiffSealMismatch,
			T: now, Evidence: string(ev)}); err != nil {
			return err
		}
		return s.sealsChanged(ctx, tx, wb.ID)
	})
	if err != nil {
		return nil, err
	}
	s.changed(wb.CarID)
	s.log(r, audit.ActionUpdate, wb.No, wb.ID, fmt.Sprintf("seal check ok=%v mismatches=%d", res.OK, len(res.Mismatches)))
	return res, nil
}

// WaybillOption is a waybill of the caller's scope that takes a load record, for the form.
type WaybillOption struct {
	ID           int64       `json:"id" bun:"id"`
	No           string      `json:"no" bun:"no"`
	State        string      `json:"state" bun:"-"`
	StateN       int         `json:"-" bun:"state"`
	CarID        int64       `json:"carId" bun:"car_id"`
	Plate        string      `json:"plate" bun:"plate"`
	CarComps     int         `json:"carCompartments" bun:"car_comps"`
	DepotName    string      `json:"depotName" bun:"depot_name"`
	RecordID     int64       `json:"recordId" bun:"record_id"`
	Compartments []PlanComp  `json:"compartments" bun:"-"`
	Seals        []SealShown `json:"seals" bun:"-"`
}

// PlanComp is a waybill compartment's plan.
type PlanComp struct {
	No        int     `json:"no" bun:"no"`
	ProductID int64   `json:"productId" bun:"product_id"`
	PlannedL  float64 `json:"plannedL" bun:"planned_l"`
}

// SealShown is a sealed compartment of a waybill awaiting its seal check (numbers are not shown: the
// operator reads them off the truck).
type SealShown struct {
	Compartment int `json:"compartment"`
}

// Options is what the record form and the seal check dialog choose from.
type Options struct {
	Waybills  []WaybillOption `json:"waybills"`
	Unsealing []WaybillOption `json:"unsealing"`
	Products  []Product       `json:"products"`
}

// Options lists the waybills of the caller's scope that take a load record (PLANNED..LOADED), the
// waybills awaiting a seal check (ARRIVED or later, not final, with seal numbers recorded), and the
// products of the caller's scope.
func (s *Service) Options(ctx context.Context, p *httpx.Principal) (*Options, error) {
	out := &Options{Waybills: []WaybillOption{}, Unsealing: []WaybillOption{}, Products: []Product{}}
	base := func() *bun.SelectQuery {
		return s.db.NewSelect().TableExpr("waybills AS w").
			ColumnExpr("w.id, w.no, w.state, w.car_id, c.plate, c.compartments AS car_comps, st.name AS depot_name, COALESCE(r.id, 0) AS record_id").
			Join("JOIN org_groups AS g ON g.id = w.group_id").Join("JOIN cars AS c ON c.id = w.car_id").
			Join("JOIN stations AS st ON st.id = w.depot_id").Join("LEFT JOIN load_records AS r ON r.waybill_id = w.id").
			Where("g.path LIKE ?", p.GroupPath+"%").OrderExpr("w.id DESC").Limit(500)
	}
	if err := base().Where("w.state BETWEEN ? AND ?", waybill.Planned, waybill.Loaded).Scan(ctx, &out.Waybills); err != nil {
		return nil, err
	}
	if err := base().Where("w.state >= ? AND w.state NOT IN (?)", waybill.Arrived, bun.In([]waybill.State{waybill.Closed, waybill.Cancelled})).
		Where("EXISTS (SELECT 1 FROM load_record_items AS i WHERE i.record_id = r.id AND i.seal_no <> '')").Scan(ctx, &out.Unsealing); err != nil {
		return nil, err
	}
	ids := make([]int64, 0, len(out.Waybills))
	for i := range out.Waybills {
		out.Waybills[i].State = waybill.State(out.Waybills[i].StateN).String()
		out.Waybills[i].Compartments = []PlanComp{}
		out.Waybills[i].Seals = []SealShown{}
		ids = append(ids, out.Waybills[i].ID)
	}
	if len(ids) > 0 {
		var comps []struct {
			WaybillID int64 `bun:"waybill_id"`
			PlanComp
		}
		if err := s.db.NewSelect().Table("waybill_compartments").Column("waybill_id", "no", "product_id", "planned_l").
			Where("waybill_id IN (?)", bun.In(ids)).OrderExpr("waybill_id, no").Scan(ctx, &comps); err != nil {
			return nil, err
		}
		at := map[int64]int{}
		for i, w := range out.Waybills {
			at[w.ID] = i
		}
		for _, c := range comps {
			i := at[c.WaybillID]
			out.Waybills[i].Compartments = append(out.Waybills[i].Compartments, c.PlanComp)
		}
	}
	rids := []int64{}
	for i := range out.Unsealing {
		out.Unsealing[i].State = waybill.State(out.Unsealing[i].StateN).String()
		out.Unsealing[i].Compartments = []PlanComp{}
		out.Unsealing[i].Seals = []SealShown{}
		rids = append(rids, out.Unsealing[i].RecordID)
	}
	its, err := items(ctx, s.db, rids)
	if err != nil {
		return nil, err
	}
	for i := range out.Unsealing {
		for _, it := range its[out.Unsealing[i].RecordID] {
			if it.SealNo != "" {
				out.Unsealing[i].Seals = append(out.Unsealing[i].Seals, SealShown{Compartment: it.Compartment})
			}
		}
	}
	err = productSelect(s.db).Where("g.path LIKE ?", p.GroupPath+"%").OrderExpr("p.name, p.id").Scan(ctx, &out.Products)
	return out, err
}
