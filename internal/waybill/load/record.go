package load

import (
	"context"
	"encoding/json"
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
	"tankwatch/internal/waybill"
)

// Operation log module (catalogue key module.loadRecord).
const ModuleLoadRecord = "loadRecord"

// Service is the load records.
type Service struct {
	db    *db.DB
	audit *audit.Log
	Now   func() time.Time
	// OnChange, when set, is told the car of a waybill whose load record or seal check changed it
	// (the process engine reloads that car's waybill); called after the commit.
	OnChange func(carID int64)
	// OnSeals, when set, is told inside the transaction of every load record written, edited,
	// imported or deleted and of every seal check, with the waybill concerned (the lead seals keep
	// their records from it, D53); an error rolls the change back.
	OnSeals func(ctx context.Context, tx bun.Tx, waybillID int64) error
}

// New returns the service.
func New(d *db.DB, a *audit.Log) *Service { return &Service{db: d, audit: a, Now: time.Now} }

func (s *Service) nowMS() int64 { return s.Now().UnixMilli() }

func (s *Service) log(r *http.Request, action, target string, id int64, detail string) {
	if s.audit == nil || r == nil {
		return
	}
	s.audit.Record(r.Context(), r, nil, audit.Entry{Module: ModuleLoadRecord, Action: action, Target: target, TargetID: id, Detail: detail})
}

func (s *Service) sealsChanged(ctx context.Context, tx bun.Tx, waybillID int64) error {
	if s.OnSeals == nil {
		return nil
	}
	return s.OnSeals(ctx, tx, waybillID)
}

func (s *Service) changed(carID int64) {
	if s.OnChange != nil && carID > 0 {
		s.OnChange(carID)
	}
}

// Record rows.
type recordRow struct {
	bun.BaseModel `bun:"table:load_records"`

	ID        int64  `bun:"id,pk,autoincrement"`
	WaybillID int64  `bun:"waybill_id"`
	GroupID   int64  `bun:"group_id"`
	CarID     int64  `bun:"car_id"`
	DepotID   int64  `bun:"depot_id"`
	TicketNo  string `bun:"ticket_no"`
	LoadedAt  int64  `bun:"loaded_at"`
	Source    int    `bun:"source"`
	Remark    string `bun:"remark"`
	CreatedBy int64  `bun:"created_by"`
	CreatedAt int64  `bun:"created_at"`
	UpdatedAt int64  `bun:"updated_at"`
}

type itemRow struct {
	bun.BaseModel `bun:"table:load_record_items"`

	RecordID    int64   `bun:"record_id,pk"`
	Compartment int     `bun:"compartment,pk"`
	ProductID   int64   `bun:"product_id"`
	VtL         float64 `bun:"vt_l"`
	TempC       float64 `bun:"temp_c"`
	Density20   float64 `bun:"density20"`
	VCF20       float64 `bun:"vcf20"`
	V20L        float64 `bun:"v20_l"`
	MassT       float64 `bun:"mass_t"`
	SealNo      string  `bun:"seal_no"`
}

// wbRef is a waybill with what a load record needs of it.
type wbRef struct {
	ID        int64         `bun:"id"`
	No        string        `bun:"no"`
	GroupID   int64         `bun:"group_id"`
	GroupPath string        `bun:"group_path"`
	CarID     int64         `bun:"car_id"`
	Plate     string        `bun:"plate"`
	CarComps  int           `bun:"car_comps"`
	DepotID   int64         `bun:"depot_id"`
	State     waybill.State `bun:"state"`
	LoadStart int64         `bun:"load_start_at"`
	Dispatch  int64         `bun:"dispatched_at"`
}

func wbSelect(idb bun.IDB) *bun.SelectQuery {
	return idb.NewSelect().TableExpr("waybills AS w").
		ColumnExpr("w.id, w.no, w.group_id, g.path AS group_path, w.car_id, c.plate, c.compartments AS car_comps, w.depot_id, w.state, w.load_start_at, w.dispatched_at").
		Join("JOIN org_groups AS g ON g.id = w.group_id").Join("JOIN cars AS c ON c.id = w.car_id")
}

// scopedWaybill loads a waybill; p nil: no scope check (the depot's system, the demo).
func scopedWaybill(ctx context.Context, idb bun.IDB, p *httpx.Principal, id int64) (*wbRef, error) {
	if id <= 0 {
		return nil, httpx.Required("loadRecord.waybill")
	}
	sel := wbSelect(idb).Where("w.id = ?", id)
	if p == nil {
		var rows []wbRef
		if err := sel.Scan(ctx, &rows); err != nil {
			return nil, err
		}
		if len(rows) == 0 {
			return nil, httpx.ErrNotFound
		}
		return &rows[0], nil
	}
	return db.ScopedRow(ctx, sel, p, func(r *wbRef) string { return r.GroupPath })
}

// Accepts reports whether a waybill in state st takes a load record (a new one or a replacement):
// PLANNED, DISPATCHED, LOADING (the record moves it to LOADED) and LOADED (the record is corrected
// before sealing). From SEALED on the seals are on the truck and the record is what they were checked
// against: it is no longer changed (D44).
func Accepts(st waybill.State) bool { return st >= waybill.Planned && st <= waybill.Loaded }

func productSelect(idb bun.IDB) *bun.SelectQuery {
	return idb.NewSelect().TableExpr("products AS p").
		ColumnExpr("p.id, p.group_id, g.path AS group_path, p.code, p.name, p.product, p.family, p.density20, p.k0, p.k1").
		Join("JOIN org_groups AS g ON g.id = p.group_id")
}

// cleaned is a validated record: its items with figures.
type cleaned struct {
	in    RecordInput
	items []itemRow
	v20   float64
	mass  float64
}

// check validates in against the waybill wb and computes the figures. p nil: no scope check.
func (s *Service) check(ctx context.Context, idb bun.IDB, p *httpx.Principal, wb *wbRef, in RecordInput) (*cleaned, error) {
	in.TicketNo, in.Remark = strings.TrimSpace(in.TicketNo), strings.TrimSpace(in.Remark)
	if len([]rune(in.TicketNo)) > MaxTicketLen {
		return nil, httpx.Biz("field.maxLen", httpx.Field("loadRecord.ticketNo"), MaxTicketLen)
	}
	if len([]rune(in.Remark)) > MaxRemarkLen {
		return nil, httpx.Biz("field.maxLen", httpx.Field("loadRecord.remark"), MaxRemarkLen)
	}
	now := s.nowMS()
	if in.LoadedAt == 0 {
		in.LoadedAt = now
	}
	if in.LoadedAt < 0 || in.LoadedAt > now+10*60_000 {
		return nil, httpx.Biz("loadRecord.loadedAtFuture")
	}
	if !Accepts(wb.State) {
		return nil, httpx.Biz("loadRecord.wrongState", stateArg(wb.State))
	}
	if len(in.Items) == 0 {
		return nil, httpx.Required("loadRecord.items")
	}
	comps := wb.CarComps
	if comps < 1 || comps > MaxCompartments {
		comps = MaxCompartments
	}
	var planned []waybill.Compartment
	if err := idb.NewSelect().Model(&planned).Where("waybill_id = ?", wb.ID).Scan(ctx); err != nil {
		return nil, err
	}
	plannedProduct := map[int]int64{}
	for _, c := range planned {
		plannedProduct[c.No] = c.ProductID
	}
	products := map[int64]*Product{}
	seen := map[int]bool{}
	seals := map[string]int{}
	out := &cleaned{in: in}
	for _, it := range in.Items {
		no := it.Compartment
		if no < 1 || no > comps {
			return nil, httpx.Biz("loadRecord.compartmentRange", no, comps)
		}
		if seen[no] {
			return nil, httpx.Biz("loadRecord.compartmentTwice", no)
		}
		seen[no] = true
		if len(planned) > 0 && plannedProduct[no] == 0 {
			return nil, httpx.Biz("loadRecord.compartmentNotPlanned", no)
		}
		pid := it.ProductID
		if pid == 0 {
			pid = plannedProduct[no]
		}
		if pid == 0 {
			return nil, httpx.Biz("loadRecord.itemRequired", no, httpx.Field("loadRecord.product"))
		}
		prod, ok := products[pid]
		if !ok {
			var rows []Product
			if err := productSelect(idb).Where("p.id = ?", pid).Scan(ctx, &rows); err != nil {
				return nil, err
			}
			if len(rows) == 0 {
				return nil, httpx.Biz("loadRecord.productMissing", no)
			}
			if p != nil && !p.InScope(rows[0].GroupPath) {
				return nil, httpx.ErrScope
			}
			prod = &rows[0]
			products[pid] = prod
		}
		if bad(it.VtL) || it.VtL <= 0 || it.VtL > MaxVtL {
			return nil, httpx.Biz("loadRecord.itemRange", no, httpx.Field("loadRecord.vt"), "0", fmt.Sprint(MaxVtL))
		}
		if bad(it.TempC) || it.TempC < MinTempC || it.TempC > MaxTempC {
			return nil, httpx.Biz("loadRecord.itemRange", no, httpx.Field("loadRecord.temp"), fmt.Sprint(MinTempC), fmt.Sprint(MaxTempC))
		}
		if bad(it.Density20) || it.Density20 < 0 || (it.Density20 > 0 && (it.Density20 < 500 || it.Density20 > 1100)) {
			return nil, httpx.Biz("loadRecord.itemRange", no, httpx.Field("loadRecord.density"), "500", "1100")
		}
		seal := cleanSeal(it.SealNo)
		if len([]rune(seal)) > MaxSealLen {
			return nil, httpx.Biz("loadRecord.sealTooLong", no, MaxSealLen)
		}
		if seal != "" {
			if other, dup := seals[seal]; dup {
				return nil, httpx.Biz("loadRecord.sealTwice", seal, other, no)
			}
			seals[seal] = no
		}
		f := Compute(*prod, it.VtL, it.TempC, it.Density20)
		out.items = append(out.items, itemRow{Compartment: no, ProductID: pid, VtL: round(it.VtL, 1), TempC: round(it.TempC, 2),
			Density20: f.Density20, VCF20: f.VCF20, V20L: f.V20L, MassT: f.MassT, SealNo: seal})
		out.v20 += f.V20L
		out.mass += f.MassT
	}
	out.v20, out.mass = round(out.v20, 1), round(out.mass, 3)
	if len(seals) > 0 {
		nos := make([]string, 0, len(seals))
		for k := range seals {
			nos = append(nos, k)
		}
		var taken []string
		err := idb.NewSelect().TableExpr("load_record_items AS i").ColumnExpr("i.seal_no").
			Join("JOIN load_records AS r ON r.id = i.record_id").Join("JOIN waybills AS w ON w.id = r.waybill_id").
			Where("i.seal_no IN (?)", bun.In(nos)).Where("r.waybill_id <> ?", wb.ID).
			Where("w.state NOT IN (?)", bun.In([]waybill.State{waybill.Closed, waybill.Cancelled})).Limit(1).Scan(ctx, &taken)
		if err != nil {
			return nil, err
		}
		if len(taken) > 0 {
			return nil, httpx.Biz("loadRecord.sealInUse", taken[0])
		}
	}
	return out, nil
}

func bad(v float64) bool { return math.IsNaN(v) || math.IsInf(v, 0) }

// store writes a checked record in tx: replaces the waybill's record if it has one, sets the
// waybill's shipped figures and advances it (EvLoadRecord, cause record).
func (s *Service) store(ctx context.Context, tx bun.Tx, userID int64, source int, wb *wbRef, c *cleaned) (int64, error) {
	now := s.nowMS()
	if c.in.TicketNo == "" {
		code, err := waybill.CompanyCodeOf(ctx, tx, wb.GroupID)
		if err != nil {
			return 0, err
		}
		prefix := waybill.DocPrefix(code, waybill.KindLoad, time.UnixMilli(c.in.LoadedAt))
		n, err := waybill.NextNumber(ctx, tx, prefix) // in the transaction: SQLite has one writer, and a rolled-back number was never shown
		if err != nil {
			return 0, err
		}
		c.in.TicketNo = waybill.Code(prefix, n, 4)
	}
	var existing []recordRow
	if err := tx.NewSelect().Model(&existing).Where("waybill_id = ?", wb.ID).Scan(ctx); err != nil {
		return 0, err
	}
	rec := recordRow{WaybillID: wb.ID, GroupID: wb.GroupID, CarID: wb.CarID, DepotID: wb.DepotID, TicketNo: c.in.TicketNo,
		LoadedAt: c.in.LoadedAt, Source: source, Remark: c.in.Remark, CreatedBy: userID, CreatedAt: now, UpdatedAt: now}
	if len(existing) > 0 {
		rec.ID, rec.CreatedBy, rec.CreatedAt = existing[0].ID, existing[0].CreatedBy, existing[0].CreatedAt
		if _, err := tx.NewUpdate().Model(&rec).WherePK().Exec(ctx); err != nil {
			return 0, err
		}
		if _, err := tx.NewDelete().Model((*itemRow)(nil)).Where("record_id = ?", rec.ID).Exec(ctx); err != nil {
			return 0, err
		}
	} else if _, err := tx.NewInsert().Model(&rec).Returning("id").Exec(ctx); err != nil {
		return 0, err
	}
	for i := range c.items {
		c.items[i].RecordID = rec.ID
	}
	if _, err := tx.NewInsert().Model(&c.items).Exec(ctx); err != nil {
		return 0, err
	}
	if _, err := tx.NewUpdate().Table("waybills").Set("shipped_v20 = ?, shipped_mass_t = ?, updated_at = ?", c.v20, c.mass, now).
		Where("id = ?", wb.ID).Exec(ctx); err != nil {
		return 0, err
	}
	detail, _ := json.Marshal(map[string]any{"recordId": rec.ID, "ticketNo": rec.TicketNo, "v20L": c.v20, "massT": c.mass})
	if _, _, err := waybill.Advance(ctx, tx, wb.ID, waybill.Move{Evidence: waybill.EvLoadRecord, Cause: waybill.CauseRecord,
		UserID: userID, T: c.in.LoadedAt, StationID: wb.DepotID, VolumeL: c.v20, Detail: string(detail)}, now); err != nil {
		return 0, err
	}
	return rec.ID, s.sealsChanged(ctx, tx, wb.ID)
}

// Record stores a load record for the depot's system or the demo (no caller scope): the same checks
// as the console's, then the record, the waybill's shipped V20 and mass and its step to LOADED in one
// transaction. source is waybill.Load*.
func (s *Service) Record(ctx context.Context, userID int64, source int, in RecordInput) (int64, error) {
	return s.save(ctx, nil, userID, source, in)
}

func (s *Service) save(ctx context.Context, p *httpx.Principal, userID int64, source int, in RecordInput) (int64, error) {
	var id, carID int64
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		wb, err := scopedWaybill(ctx, tx, p, in.WaybillID)
		if err != nil {
			return err
		}
		c, err := s.check(ctx, tx, p, wb, in)
		if err != nil {
			return err
		}
		carID = wb.CarID
		id, err = s.store(ctx, tx, userID, source, wb, c)
		return err
	})
	if err != nil {
		return 0, err
	}
	s.changed(carID)
	return id, nil
}

// Save is the console's entry (loadRecord/save): the caller's scope applies to the waybill and products.
func (s *Service) Save(r *http.Request, in RecordInput) (*Detail, error) {
	p := httpx.Caller(r)
	id, err := s.save(r.Context(), p, p.UserID, waybill.LoadEntered, in)
	if err != nil {
		return nil, err
	}
	d, err := s.Detail(r.Context(), p, id)
	if err == nil {
		s.log(r, audit.ActionUpdate, d.WaybillNo, id, fmt.Sprintf("%s V20=%.1f L", d.TicketNo, d.V20L))
	}
	return d, err
}

// Delete removes a load record while its waybill is LOADED (or was corrected back before it): the
// waybill's shipped figures are cleared and a LOADED waybill goes back to LOADING (or DISPATCHED,
// PLANNED: where it stood before the record) as a correction with the reason "load record deleted".
func (s *Service) Delete(r *http.Request, id int64) error {
	ctx, p := r.Context(), httpx.Caller(r)
	var no string
	var carID int64
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		rec, err := s.scopedRecord(ctx, tx, p, id)
		if err != nil {
			return err
		}
		wb, err := scopedWaybill(ctx, tx, p, rec.WaybillID)
		if err != nil {
			return err
		}
		if !Accepts(wb.State) {
			return httpx.Biz("loadRecord.deleteState", stateArg(wb.State))
		}
		no, carID = wb.No, wb.CarID
		if _, err := tx.NewDelete().Model((*recordRow)(nil)).Where("id = ?", rec.ID).Exec(ctx); err != nil {
			return err
		}
		now := s.nowMS()
		if _, err := tx.NewUpdate().Table("waybills").Set("shipped_v20 = 0, shipped_mass_t = 0, loaded_at = 0, updated_at = ?", now).
			Where("id = ?", wb.ID).Exec(ctx); err != nil {
			return err
		}
		if wb.State == waybill.Loaded {
			back := waybill.Planned
			switch {
			case wb.LoadStart > 0:
				back = waybill.Loading
			case wb.Dispatch > 0:
				back = waybill.Dispatched
			}
			if _, err := waybill.Correct(ctx, tx, wb.ID, back, p.UserID, httpx.T(r, "loadRecord.deletedReason", rec.TicketNo), now); err != nil {
				return err
			}
		}
		return s.sealsChanged(ctx, tx, wb.ID)
	})
	if err != nil {
		return err
	}
	s.changed(carID)
	s.log(r, audit.ActionDelete, no, id, "")
	return nil
}

// recView is a record with its waybill, for scope checks and lists.
type recView struct {
	ID           int64         `bun:"id"`
	WaybillID    int64         `bun:"waybill_id"`
	WaybillNo    string        `bun:"waybill_no"`
	WaybillState waybill.State `bun:"waybill_state"`
	GroupPath    string        `bun:"group_path"`
	GroupName    string        `bun:"group_name"`
	CarID        int64         `bun:"car_id"`
	Plate        string        `bun:"plate"`
	DepotID      int64         `bun:"depot_id"`
	DepotName    string        `bun:"depot_name"`
	TicketNo     string        `bun:"ticket_no"`
	LoadedAt     int64         `bun:"loaded_at"`
	Source       int           `bun:"source"`
	Remark       string        `bun:"remark"`
	Items        int           `bun:"items"`
	VtL          float64       `bun:"vt_l"`
	V20L         float64       `bun:"v20_l"`
	MassT        float64       `bun:"mass_t"`
	UpdatedAt    int64         `bun:"updated_at"`
}

func recSelect(idb bun.IDB) *bun.SelectQuery {
	return idb.NewSelect().TableExpr("load_records AS r").
		ColumnExpr("r.id, r.waybill_id, w.no AS waybill_no, w.state AS waybill_state, g.path AS group_path, g.name AS group_name").
		ColumnExpr("r.car_id, c.plate, r.depot_id, st.name AS depot_name, r.ticket_no, r.loaded_at, r.source, r.remark, r.updated_at").
		ColumnExpr("COALESCE(k.items, 0) AS items, COALESCE(k.vt, 0) AS vt_l, COALESCE(k.v20, 0) AS v20_l, COALESCE(k.mass, 0) AS mass_t").
		Join("JOIN waybills AS w ON w.id = r.waybill_id").
		Join("JOIN org_groups AS g ON g.id = r.group_id").
		Join("JOIN cars AS c ON c.id = r.car_id").
		Join("JOIN stations AS st ON st.id = r.depot_id").
		Join(`LEFT JOIN (SELECT record_id, COUNT(*) AS items, SUM(vt_l) AS vt, SUM(v20_l) AS v20, SUM(mass_t) AS mass
			FROM load_record_items GROUP BY record_id) AS k ON k.record_id = r.id`)
}

func (s *Service) scopedRecord(ctx context.Context, idb bun.IDB, p *httpx.Principal, id int64) (*recView, error) {
	if id <= 0 {
		return nil, httpx.Required("id")
	}
	return db.ScopedRow(ctx, recSelect(idb).Where("r.id = ?", id), p, func(r *recView) string { return r.GroupPath })
}

// View is one row of the load records page.
type View struct {
	ID           int64   `json:"id"`
	WaybillID    int64   `json:"waybillId"`
	WaybillNo    string  `json:"waybillNo"`
	WaybillState string  `json:"waybillState"`
	GroupName    string  `json:"groupName"`
	CarID        int64   `json:"carId"`
	Plate        string  `json:"plate"`
	DepotID      int64   `json:"depotId"`
	DepotName    string  `json:"depotName"`
	TicketNo     string  `json:"ticketNo"`
	LoadedAt     int64   `json:"loadedAt"`
	Source       int     `json:"source"`
	Remark       string  `json:"remark"`
	Items        int     `json:"items"`
	VtL          float64 `json:"vtL"`
	V20L         float64 `json:"v20L"`
	MassT        float64 `json:"massT"`
	Seals        string  `json:"seals"`
	UpdatedAt    int64   `json:"updatedAt"`
}

func (r *recView) view() View {
	return View{ID: r.ID, WaybillID: r.WaybillID, WaybillNo: r.WaybillNo, WaybillState: r.WaybillState.String(), GroupName: r.GroupName,
		CarID: r.CarID, Plate: r.Plate, DepotID: r.DepotID, DepotName: r.DepotName, TicketNo: r.TicketNo, LoadedAt: r.LoadedAt,
		Source: r.Source, Remark: r.Remark, Items: r.Items, VtL: round(r.VtL, 1), V20L: round(r.V20L, 1), MassT: round(r.MassT, 3), UpdatedAt: r.UpdatedAt}
}

// ItemView is one compartment of a record.
type ItemView struct {
	Compartment int     `json:"compartment" bun:"compartment"`
	ProductID   int64   `json:"productId" bun:"product_id"`
	ProductName string  `json:"productName" bun:"product_name"`
	VtL         float64 `json:"vtL" bun:"vt_l"`
	TempC       float64 `json:"tempC" bun:"temp_c"`
	Density20   float64 `json:"density20" bun:"density20"`
	VCF20       float64 `json:"vcf20" bun:"vcf20"`
	V20L        float64 `json:"v20L" bun:"v20_l"`
	MassT       float64 `json:"massT" bun:"mass_t"`
	SealNo      string  `json:"sealNo" bun:"seal_no"`
}

// SealCheckView is one stored seal check.
type SealCheckView struct {
	Compartment int    `json:"compartment" bun:"compartment"`
	ExpectedNo  string `json:"expectedNo" bun:"expected_no"`
	FoundNo     string `json:"foundNo" bun:"found_no"`
	OK          bool   `json:"ok" bun:"ok"`
	CheckedAt   int64  `json:"checkedAt" bun:"checked_at"`
}

// Detail is a record with its compartments and the seal checks of its waybill.
type Detail struct {
	View
	ItemList   []ItemView      `json:"itemList"`
	SealChecks []SealCheckView `json:"sealChecks"`
}

func items(ctx context.Context, idb bun.IDB, ids []int64) (map[int64][]ItemView, error) {
	out := map[int64][]ItemView{}
	if len(ids) == 0 {
		return out, nil
	}
	var rows []struct {
		RecordID int64 `bun:"record_id"`
		ItemView
	}
	err := idb.NewSelect().TableExpr("load_record_items AS i").ColumnExpr("i.record_id, i.compartment, i.product_id, p.name AS product_name").
		ColumnExpr("i.vt_l, i.temp_c, i.density20, i.vcf20, i.v20_l, i.mass_t, i.seal_no").
		Join("JOIN products AS p ON p.id = i.product_id").Where("i.record_id IN (?)", bun.In(ids)).
		OrderExpr("i.record_id, i.compartment").Scan(ctx, &rows)
	for _, r := range rows {
		out[r.RecordID] = append(out[r.RecordID], r.ItemView)
	}
	return out, err
}

func sealsOf(list []ItemView) string {
	var s []string
	for _, it := range list {
		if it.SealNo != "" {
			s = append(s, it.SealNo)
		}
	}
	return strings.Join(s, ", ")
}

// Detail returns one record.
func (s *Service) Detail(ctx context.Context, p *httpx.Principal, id int64) (*Detail, error) {
	r, err := s.scopedRecord(ctx, s.db, p, id)
	if err != nil {
		return nil, err
	}
	its, err := items(ctx, s.db, []int64{id})
	if err != nil {
		return nil, err
	}
	d := &Detail{View: r.view(), ItemList: its[id], SealChecks: []SealCheckView{}}
	if d.ItemList == nil {
		d.ItemList = []ItemView{}
	}
	d.Seals = sealsOf(d.ItemList)
	err = s.db.NewSelect().Table("seal_checks").Column("compartment", "expected_no", "found_no", "ok", "checked_at").
		Where("waybill_id = ?", r.WaybillID).OrderExpr("id").Scan(ctx, &d.SealChecks)
	return d, err
}

// Query is the body of page and export.
type Query struct {
	httpx.PageReq
	StartTime httpx.Time `json:"startTime"`
	EndTime   httpx.Time `json:"endTime"`
	GroupID   int64      `json:"groupId"`
	CarID     int64      `json:"carId"`
	DepotID   int64      `json:"depotId"`
	WaybillNo string     `json:"waybillNo"`
	Source    int        `json:"source"`
}

var recSort = map[string]string{"loadedAt": "r.loaded_at", "plate": "c.plate", "waybillNo": "w.no", "depotName": "st.name",
	"v20L": "v20_l", "vtL": "vt_l", "massT": "mass_t", "ticketNo": "r.ticket_no"}

func (s *Service) where(ctx context.Context, p *httpx.Principal, q Query) (*bun.SelectQuery, error) {
	under, err := db.ScopeUnder(ctx, s.db, p, q.GroupID)
	if err != nil {
		return nil, err
	}
	sel := recSelect(s.db).Where("g.path LIKE ?", under+"%")
	if q.StartTime != 0 {
		sel = sel.Where("r.loaded_at >= ?", int64(q.StartTime))
	}
	if q.EndTime != 0 {
		sel = sel.Where("r.loaded_at <= ?", q.EndTime.Through())
	}
	if q.StartTime != 0 && q.EndTime != 0 && q.EndTime < q.StartTime {
		return nil, httpx.Biz("loadRecord.rangeReversed")
	}
	if q.CarID > 0 {
		if err := s.carInScope(ctx, p, q.CarID); err != nil {
			return nil, err
		}
		sel = sel.Where("r.car_id = ?", q.CarID)
	}
	if q.DepotID > 0 {
		if err := s.stationInScope(ctx, p, q.DepotID); err != nil {
			return nil, err
		}
		sel = sel.Where("r.depot_id = ?", q.DepotID)
	}
	if v := strings.TrimSpace(q.WaybillNo); v != "" {
		sel = sel.Where(db.Contains("w.no", v))
	}
	if q.Source != 0 {
		sel = sel.Where("r.source = ?", q.Source)
	}
	return sel, nil
}

func (s *Service) carInScope(ctx context.Context, p *httpx.Principal, id int64) error {
	sel := s.db.NewSelect().TableExpr("cars AS c").ColumnExpr("g.path").Join("JOIN org_groups AS g ON g.id = c.group_id").Where("c.id = ?", id)
	_, err := db.ScopedRow(ctx, sel, p, func(r *struct {
		Path string `bun:"path"`
	}) string {
		return r.Path
	})
	return err
}

func (s *Service) stationInScope(ctx context.Context, p *httpx.Principal, id int64) error {
	sel := s.db.NewSelect().TableExpr("stations AS st").ColumnExpr("g.path").Join("JOIN org_groups AS g ON g.id = st.group_id").Where("st.id = ?", id)
	_, err := db.ScopedRow(ctx, sel, p, func(r *struct {
		Path string `bun:"path"`
	}) string {
		return r.Path
	})
	return err
}

// Page lists the load records of the caller's scope.
func (s *Service) Page(ctx context.Context, p *httpx.Principal, q Query) (httpx.Page[View], error) {
	var zero httpx.Page[View]
	if err := q.Normalize(); err != nil {
		return zero, err
	}
	order, err := q.OrderBy(recSort, "r.loaded_at DESC")
	if err != nil {
		return zero, err
	}
	sel, err := s.where(ctx, p, q)
	if err != nil {
		return zero, err
	}
	page, err := db.ScanPage(ctx, sel, q.PageReq, order, "r.id", func(r *recView) View { return r.view() })
	if err != nil {
		return zero, err
	}
	ids := make([]int64, len(page.List))
	for i := range page.List {
		ids[i] = page.List[i].ID
	}
	its, err := items(ctx, s.db, ids)
	if err != nil {
		return zero, err
	}
	for i := range page.List {
		page.List[i].Seals = sealsOf(its[page.List[i].ID])
	}
	return page, nil
}

// stateArg is a waybill state as a message argument, translated in the reader's language.
func stateArg(st waybill.State) i18n.Field { return i18n.Field("waybillState." + st.String()) }
