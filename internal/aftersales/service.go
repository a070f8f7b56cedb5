package aftersales

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"time"

	"github.com/uptrace/bun"

	"tankwatch/internal/audit"
	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
	"tankwatch/internal/settings/codes"
)

// Operation log names.
const (
	Module      = "fault"
	ActionClose = "faultClose"
)

// Fault is a faults row.
type Fault struct {
	bun.BaseModel `bun:"table:faults,alias:f"`

	ID           int64  `bun:"id,pk,autoincrement"`
	GroupID      int64  `bun:"group_id"`
	CarID        int64  `bun:"car_id"`
	Device       string `bun:"device"`
	FaultType    string `bun:"fault_type"`
	Symptom      string `bun:"symptom"`
	ReportedBy   string `bun:"reported_by"`
	ReportedAt   int64  `bun:"reported_at"`
	TechnicianID int64  `bun:"technician_id"`
	State        string `bun:"state"`
	Resolution   string `bun:"resolution"`
	ClosedAt     int64  `bun:"closed_at"`
	Visits       string `bun:"visits"`
	Parts        string `bun:"parts"`
	SourceKind   string `bun:"source_kind"`
	SourceID     int64  `bun:"source_id"`
	SourceAt     int64  `bun:"source_at"`
	CreatedBy    int64  `bun:"created_by"`
	CreatedAt    int64  `bun:"created_at"`
	UpdatedAt    int64  `bun:"updated_at"`
}

// Service keeps the fault records.
type Service struct {
	db    *db.DB
	audit *audit.Log
	Now   func() time.Time
	// Codes reads the fault types' code list (TypeList); nil: DefaultTypes.
	Codes interface {
		Items(ctx context.Context, typ string) ([]codes.Item, error)
	}
}

// Types is the fault type code list: enabled items are offered, disabled ones still name the faults
// that hold them.
func (s *Service) Types(ctx context.Context) ([]codes.Item, error) {
	if s.Codes == nil {
		return codes.Defaults(TypeList), nil
	}
	return s.Codes.Items(ctx, TypeList)
}

// checkType accepts an enabled fault type of the list, or keep (the fault's stored type, which stays
// valid when it was disabled since).
func (s *Service) checkType(ctx context.Context, code, keep string) error {
	if code == "" {
		return httpx.Required("fault.type")
	}
	items, err := s.Types(ctx)
	if err != nil {
		return err
	}
	for _, it := range items {
		if it.Code == code && (it.Enabled || code == keep) {
			return nil
		}
	}
	return httpx.Invalid("fault.type")
}

// typeLabel is a fault type's label in lang (its code when the list no longer has it).
func (s *Service) typeLabel(ctx context.Context, lang i18n.Lang, code string) string {
	items, _ := s.Types(ctx)
	for _, it := range items {
		if it.Code == code {
			return it.Label(lang.String())
		}
	}
	return code
}

// CountByType counts the faults of a type (the code list's usage check: an item in use is not deleted).
func (s *Service) CountByType(ctx context.Context, code string) (int, error) {
	n, err := s.db.NewSelect().Model((*Fault)(nil)).Where("fault_type = ?", code).Count(ctx)
	return int(n), err
}

// New returns the service over d.
func New(d *db.DB, a *audit.Log) *Service { return &Service{db: d, audit: a, Now: time.Now} }

func (s *Service) nowMS() int64 { return s.Now().UnixMilli() }

// Input is the body of add and edit (edit names the fault by id). State defaults to open; closing
// needs a resolution.
type Input struct {
	ID           int64      `json:"id"`
	CarID        int64      `json:"carId"`
	Device       string     `json:"device"`
	FaultType    string     `json:"faultType"`
	Symptom      string     `json:"symptom"`
	ReportedBy   string     `json:"reportedBy"`
	ReportedAt   httpx.Time `json:"reportedAt"`
	TechnicianID int64      `json:"technicianId"`
	State        string     `json:"state"`
	Resolution   string     `json:"resolution"`
	Visits       []Visit    `json:"visits"`
	Parts        []Part     `json:"parts"`
	SourceKind   string     `json:"sourceKind"` // add only: offline or tankEvent
	SourceID     int64      `json:"sourceId"`
	SourceAt     httpx.Time `json:"sourceAt"`
}

// clean checks in at time now.
func (in *Input) clean(now int64) error {
	if in.CarID <= 0 {
		return httpx.Required("fault.car")
	}
	if in.State == "" {
		in.State = StateOpen
	}
	if !slices.Contains(States, in.State) {
		return httpx.Invalid("fault.state")
	}
	if err := text(&in.Symptom, "fault.symptom", maxText, true); err != nil {
		return err
	}
	if err := text(&in.Device, "fault.device", maxShort, false); err != nil {
		return err
	}
	if err := text(&in.ReportedBy, "fault.reportedBy", maxShort, false); err != nil {
		return err
	}
	if err := text(&in.Resolution, "fault.resolution", maxText, false); err != nil {
		return err
	}
	if in.ReportedAt == 0 {
		in.ReportedAt = httpx.Time(now)
	}
	if in.ReportedAt < 0 || int64(in.ReportedAt) > now+60_000 {
		return httpx.Biz("fault.reportedFuture")
	}
	if in.State == StateClosed && in.Resolution == "" {
		return httpx.Biz("fault.resolutionNeeded")
	}
	if in.TechnicianID < 0 {
		return httpx.Invalid("fault.technician")
	}
	return cleanLists(in.Visits, in.Parts, int64(in.ReportedAt), now+60_000)
}

type carRef struct {
	ID      int64  `bun:"id"`
	Plate   string `bun:"plate"`
	GroupID int64  `bun:"group_id"`
	Path    string `bun:"path"`
}

func (s *Service) scopedCar(ctx context.Context, idb bun.IDB, p *httpx.Principal, id int64) (*carRef, error) {
	sel := idb.NewSelect().TableExpr("cars AS c").ColumnExpr("c.id, c.plate, c.group_id, g.path").
		Join("JOIN org_groups AS g ON g.id = c.group_id").Where("c.id = ?", id)
	return db.ScopedRow(ctx, sel, p, func(r *carRef) string { return r.Path })
}

// technician checks that user id (0: none) exists and belongs to a group of the caller's scope.
func (s *Service) technician(ctx context.Context, idb bun.IDB, p *httpx.Principal, id int64) error {
	if id == 0 {
		return nil
	}
	sel := idb.NewSelect().TableExpr("users AS u").ColumnExpr("u.id, g.path").Join("JOIN org_groups AS g ON g.id = u.group_id").Where("u.id = ?", id)
	_, err := db.ScopedRow(ctx, sel, p, func(r *struct {
		ID   int64  `bun:"id"`
		Path string `bun:"path"`
	}) string {
		return r.Path
	})
	if errors.Is(err, httpx.ErrNotFound) {
		return httpx.Invalid("fault.technician")
	}
	return err
}

// source checks the record a fault is raised from: an offline record of the same car, or a sensor
// fault event of the same car.
func (s *Service) source(ctx context.Context, idb bun.IDB, in *Input) error {
	switch in.SourceKind {
	case "":
		in.SourceID, in.SourceAt = 0, 0
		return nil
	case SourceOffline:
		if in.SourceID != in.CarID || in.SourceAt <= 0 {
			return httpx.Invalid("fault.source")
		}
		return nil
	case SourceTankEvent:
		var ev struct {
			CarID int64  `bun:"car_id"`
			Kind  string `bun:"kind"`
		}
		err := idb.NewSelect().Table("car_tank_events").Column("car_id", "kind").Where("id = ?", in.SourceID).Scan(ctx, &ev)
		if errors.Is(err, sql.ErrNoRows) || (err == nil && (ev.CarID != in.CarID || !slices.Contains(SensorFaultKinds, ev.Kind))) {
			return httpx.Invalid("fault.source")
		}
		in.SourceAt = 0
		return err
	}
	return httpx.Invalid("fault.source")
}

func marshal(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// Add files a fault of a car in the caller's scope.
func (s *Service) Add(r *http.Request, in Input) (*View, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	if in.CarID > 0 {
		if _, err := s.scopedCar(ctx, s.db, p, in.CarID); err != nil {
			return nil, err
		}
	}
	now := s.nowMS()
	if err := s.checkType(ctx, in.FaultType, ""); err != nil {
		return nil, err
	}
	if err := in.clean(now); err != nil {
		return nil, err
	}
	f := &Fault{CarID: in.CarID, CreatedBy: p.UserID, CreatedAt: now}
	var car *carRef
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var err error
		if car, err = s.scopedCar(ctx, tx, p, in.CarID); err != nil {
			return err
		}
		if err := s.technician(ctx, tx, p, in.TechnicianID); err != nil {
			return err
		}
		if err := s.source(ctx, tx, &in); err != nil {
			return err
		}
		if in.State != StateOpen && !CanMove(StateOpen, in.State) {
			return httpx.Biz("fault.badMove", i18n.Field("fault.state."+StateOpen), i18n.Field("fault.state."+in.State))
		}
		f.SourceKind, f.SourceID, f.SourceAt = in.SourceKind, in.SourceID, int64(in.SourceAt)
		apply(f, &in, car, now)
		_, err = tx.NewInsert().Model(f).Returning("id").Exec(ctx)
		return err
	})
	if err != nil {
		return nil, err
	}
	s.record(r, audit.ActionInsert, car.Plate, f)
	return s.view(ctx, p, httpx.Lang(r), f.ID)
}

// apply copies the editable fields of in to f.
func apply(f *Fault, in *Input, car *carRef, now int64) {
	f.GroupID, f.Device, f.FaultType, f.Symptom, f.ReportedBy = car.GroupID, in.Device, in.FaultType, in.Symptom, in.ReportedBy
	f.ReportedAt, f.TechnicianID, f.Resolution = int64(in.ReportedAt), in.TechnicianID, in.Resolution
	f.Visits, f.Parts, f.UpdatedAt = marshal(nonNil(in.Visits)), marshal(nonNil(in.Parts)), now
	if in.State == StateClosed && f.State != StateClosed {
		f.ClosedAt = now
	}
	if in.State != StateClosed {
		f.ClosedAt = 0
	}
	f.State = in.State
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func (s *Service) scopedFault(ctx context.Context, idb bun.IDB, p *httpx.Principal, id int64) (*Fault, error) {
	if id <= 0 {
		return nil, httpx.Required("id")
	}
	type row struct {
		Fault `bun:",extend"`
		Path  string `bun:"path"`
	}
	r, err := db.ScopedRow(ctx, idb.NewSelect().Model((*Fault)(nil)).ColumnExpr("f.*, g.path").
		Join("JOIN org_groups AS g ON g.id = f.group_id").Where("f.id = ?", id), p, func(r *row) string { return r.Path })
	if err != nil {
		return nil, err
	}
	return &r.Fault, nil
}

// Edit changes a fault of the caller's scope; its state moves only as allowed (CanMove). The car may
// change to another car of the scope; the source link stays.
func (s *Service) Edit(r *http.Request, in Input) (*View, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	old, err := s.scopedFault(ctx, s.db, p, in.ID)
	if err != nil {
		return nil, err
	}
	if in.CarID > 0 {
		if _, err := s.scopedCar(ctx, s.db, p, in.CarID); err != nil {
			return nil, err
		}
	}
	now := s.nowMS()
	if err := s.checkType(ctx, in.FaultType, old.FaultType); err != nil {
		return nil, err
	}
	if err := in.clean(now); err != nil {
		return nil, err
	}
	var car *carRef
	var f *Fault
	err = s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var err error
		if f, err = s.scopedFault(ctx, tx, p, in.ID); err != nil {
			return err
		}
		if car, err = s.scopedCar(ctx, tx, p, in.CarID); err != nil {
			return err
		}
		if err := s.technician(ctx, tx, p, in.TechnicianID); err != nil {
			return err
		}
		if !CanMove(f.State, in.State) {
			return httpx.Biz("fault.badMove", i18n.Field("fault.state."+f.State), i18n.Field("fault.state."+in.State))
		}
		if f.SourceKind != "" && car.ID != f.CarID {
			return httpx.Biz("fault.sourceCar")
		}
		f.CarID = car.ID
		apply(f, &in, car, now)
		_, err = tx.NewUpdate().Model(f).ExcludeColumn("id", "created_at", "created_by", "source_kind", "source_id", "source_at").WherePK().Exec(ctx)
		return err
	})
	if err != nil {
		return nil, err
	}
	action := audit.ActionUpdate
	if f.State == StateClosed && f.ClosedAt == now {
		action = ActionClose
	}
	s.record(r, action, car.Plate, f)
	return s.view(ctx, p, httpx.Lang(r), f.ID)
}

// CloseInput is the body of close.
type CloseInput struct {
	ID         int64  `json:"id"`
	Resolution string `json:"resolution"`
}

// Close closes a fault with its resolution.
func (s *Service) Close(r *http.Request, in CloseInput) (*View, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	f, err := s.scopedFault(ctx, s.db, p, in.ID)
	if err != nil {
		return nil, err
	}
	if err := text(&in.Resolution, "fault.resolution", maxText, true); err != nil {
		return nil, err
	}
	if f.State == StateClosed {
		return nil, httpx.Biz("fault.alreadyClosed")
	}
	now := s.nowMS()
	res, err := s.db.NewUpdate().Model((*Fault)(nil)).Set("state = ?, resolution = ?, closed_at = ?, updated_at = ?", StateClosed, in.Resolution, now, now).
		Where("id = ? AND state <> ?", f.ID, StateClosed).Exec(ctx)
	if err != nil {
		return nil, err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return nil, httpx.Biz("fault.alreadyClosed")
	}
	f.State, f.Resolution, f.ClosedAt = StateClosed, in.Resolution, now
	s.record(r, ActionClose, s.plate(ctx, f.CarID), f)
	return s.view(ctx, p, httpx.Lang(r), f.ID)
}

// Delete removes a fault of the caller's scope.
func (s *Service) Delete(r *http.Request, id int64) error {
	ctx, p := r.Context(), httpx.Caller(r)
	f, err := s.scopedFault(ctx, s.db, p, id)
	if err != nil {
		return err
	}
	if _, err := s.db.NewDelete().Model((*Fault)(nil)).Where("id = ?", id).Exec(ctx); err != nil {
		return err
	}
	s.record(r, audit.ActionDelete, s.plate(ctx, f.CarID), f)
	return nil
}

func (s *Service) plate(ctx context.Context, carID int64) string {
	var plate string
	_ = s.db.NewSelect().Table("cars").Column("plate").Where("id = ?", carID).Scan(ctx, &plate)
	return plate
}

func (s *Service) record(r *http.Request, action, plate string, f *Fault) {
	if s.audit == nil || r == nil {
		return
	}
	s.audit.Record(r.Context(), r, nil, audit.Entry{Module: Module, Action: action, TargetID: f.ID,
		Target: audit.Text("oplog.fault", plate, audit.Key("fault.type."+f.FaultType)),
		Detail: audit.Text("oplog.faultDetail", audit.Key("fault.state."+f.State), f.Symptom, f.Resolution)})
}
