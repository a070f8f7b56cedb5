// Package registry is the electronic-lock registry of issue 16 (DOMAIN.md §3): the locks (blueLock,
// menu 03-05) and their bindings to a car's compartment devices with the history (blueLockBindRecord,
// 03-06), and the car blacklist (carBlacklistRecord, 03-07) that the waybill service consults before a
// car gets a new waybill. The tables are migration 00022 (locks, lock_binds, car_blacklist).
package registry

import (
	"context"
	"database/sql"
	"errors"
	"net/http"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/uptrace/bun"

	"tankwatch/internal/audit"
	"tankwatch/internal/lock"
	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/httpx"
)

// Permission codes (internal/org/menu.json).
const (
	CodePage       = "03-05"
	CodeEdit       = "03-05-01"
	CodeDelete     = "03-05-02"
	CodeBind       = "03-05-03"
	CodeImport     = "03-05-04"
	CodeExport     = "03-05-05"
	CodeBinds      = "03-06"
	CodeBindsExp   = "03-06-01"
	CodeBlacklist  = "03-07"
	CodeBlackAdd   = "03-07-01"
	CodeBlackLift  = "03-07-02"
	CodeBlackExp   = "03-07-03"
	ModuleLock     = "blueLock"
	ModuleBlack    = "carBlacklist"
	ActionBind     = "lockBind"
	ActionUnbind   = "lockUnbind"
	ActionBlack    = "blacklistAdd"
	ActionLift     = "blacklistLift"
	maxModel       = 32
	maxFirmware    = 32
	maxRemark      = 255
	maxReason      = 255
	MaxCompartment = 8
)

// serialRe: 4–32 of A–Z, 0–9 and '-' (after upper-casing).
var serialRe = regexp.MustCompile(`^[A-Z0-9-]{4,32}$`)

// Lock is a locks row.
type Lock struct {
	bun.BaseModel `bun:"table:locks,alias:l"`

	ID          int64       `bun:"id,pk,autoincrement"`
	GroupID     int64       `bun:"group_id"`
	Serial      string      `bun:"serial"`
	Kind        lock.Kind   `bun:"kind"`
	Model       string      `bun:"model"`
	Firmware    string      `bun:"firmware"`
	BatteryPct  int         `bun:"battery_pct"`
	State       lock.State  `bun:"state"`
	Online      bool        `bun:"online"`
	CarID       *int64      `bun:"car_id"`
	Compartment int         `bun:"compartment"`
	Device      lock.Device `bun:"device"`
	LastEventAt int64       `bun:"last_event_at"`
	Remark      string      `bun:"remark"`
	CreatedBy   int64       `bun:"created_by"`
	CreatedAt   int64       `bun:"created_at"`
	UpdatedAt   int64       `bun:"updated_at"`
}

// Service is the lock registry and the car blacklist.
type Service struct {
	db    *db.DB
	audit *audit.Log
	Now   func() time.Time
}

// New returns the service.
func New(d *db.DB, a *audit.Log) *Service { return &Service{db: d, audit: a, Now: time.Now} }

func (s *Service) nowMS() int64 { return s.Now().UnixMilli() }

func (s *Service) record(r *http.Request, module, action, target string, id int64, detail string) {
	if s.audit != nil && r != nil {
		s.audit.Record(r.Context(), r, nil, audit.Entry{Module: module, Action: action, Target: target, TargetID: id, Detail: detail})
	}
}

// NormSerial is a serial as stored: trimmed and upper case.
func NormSerial(s string) string { return strings.ToUpper(strings.TrimSpace(s)) }

// BySerial is the registered lock of serial (any case), nil, nil when none is: the lock-events part
// files what a lock reports under it.
func BySerial(ctx context.Context, idb bun.IDB, serial string) (*Lock, error) {
	m := new(Lock)
	err := idb.NewSelect().Model(m).Where("l.serial = ?", NormSerial(serial)).Limit(1).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return m, nil
}

// Input is the body of save (add when id is 0, else update).
type Input struct {
	ID       int64  `json:"id"`
	GroupID  int64  `json:"groupId"`
	Serial   string `json:"serial"`
	Kind     int    `json:"kind"`
	Model    string `json:"model"`
	Firmware string `json:"firmware"`
	State    int    `json:"state"` // 0: in stock on add, unchanged on update
	Remark   string `json:"remark"`
}

func maxLen(field, v string, n int) error {
	if utf8.RuneCountInString(v) > n {
		return httpx.Biz("field.maxLen", httpx.Field(field), n)
	}
	return nil
}

// Clean trims and checks in: serial 4–32 of A–Z 0–9 '-' (upper-cased), kind BLE or 4G, the lengths,
// a state the user may set (in stock, faulty, retired: "bound" comes from binding only).
func (in *Input) Clean() error {
	in.Serial = NormSerial(in.Serial)
	in.Model, in.Firmware, in.Remark = strings.TrimSpace(in.Model), strings.TrimSpace(in.Firmware), strings.TrimSpace(in.Remark)
	if in.Serial == "" {
		return httpx.Required("blueLock.serial")
	}
	if !serialRe.MatchString(in.Serial) {
		return httpx.Biz("blueLock.serialFormat")
	}
	if in.Kind != int(lock.KindBLE) && in.Kind != int(lock.Kind4G) {
		if in.Kind == 0 {
			return httpx.Required("blueLock.kind")
		}
		return httpx.Invalid("blueLock.kind")
	}
	for _, c := range []struct {
		f, v string
		n    int
	}{{"blueLock.model", in.Model, maxModel}, {"blueLock.firmware", in.Firmware, maxFirmware}, {"remark", in.Remark, maxRemark}} {
		if err := maxLen(c.f, c.v, c.n); err != nil {
			return err
		}
	}
	switch lock.State(in.State) {
	case 0, lock.StateInStock, lock.StateFaulty, lock.StateRetired:
	case lock.StateBound:
		return httpx.Biz("blueLock.stateBound")
	default:
		return httpx.Invalid("blueLock.state")
	}
	return nil
}

// View is a lock as the list shows it.
type View struct {
	ID          int64  `json:"id"`
	Serial      string `json:"serial"`
	Kind        int    `json:"kind"`
	Model       string `json:"model"`
	Firmware    string `json:"firmware"`
	BatteryPct  *int   `json:"batteryPct"` // null: never reported
	State       int    `json:"state"`
	Online      *bool  `json:"online"` // null: no event yet
	LastEventAt string `json:"lastEventAt"`
	CarID       *int64 `json:"carId"`
	Plate       string `json:"plate"`
	Compartment int    `json:"compartment"`
	Device      int    `json:"device"`
	Comps       int    `json:"carCompartments,omitempty"`
	GroupID     int64  `json:"groupId"`
	GroupName   string `json:"groupName"`
	Remark      string `json:"remark"`
	UpdatedAt   string `json:"updatedAt"`
}

type lockRow struct {
	Lock      `bun:",extend"`
	GroupName string `bun:"group_name"`
	GroupPath string `bun:"group_path"`
	Plate     string `bun:"plate"`
	Comps     int    `bun:"car_comps"`
	CarPath   string `bun:"car_path"` // the bound car's group ("" not bound)
}

// carInScope refuses a lock bound to a car outside the caller's scope: its binding is that group's
// (unbinding or moving it writes that car's history).
func (r *lockRow) carInScope(p *httpx.Principal) error {
	if r.CarID != nil && !p.InScope(r.CarPath) {
		return httpx.ErrScope
	}
	return nil
}

func (r *lockRow) view() View {
	v := View{ID: r.ID, Serial: r.Serial, Kind: int(r.Kind), Model: r.Model, Firmware: r.Firmware, State: int(r.State),
		LastEventAt: httpx.Time(r.LastEventAt).String(), CarID: r.CarID, Plate: r.Plate, Compartment: r.Compartment,
		Device: int(r.Device), Comps: r.Comps, GroupID: r.GroupID, GroupName: r.GroupName, Remark: r.Remark,
		UpdatedAt: httpx.Time(r.UpdatedAt).String()}
	if r.BatteryPct >= 0 {
		b := r.BatteryPct
		v.BatteryPct = &b
	}
	if r.LastEventAt > 0 {
		on := r.Online
		v.Online = &on
	}
	return v
}

func lockSel(idb bun.IDB) *bun.SelectQuery {
	return idb.NewSelect().Model((*Lock)(nil)).ColumnExpr("l.*").
		ColumnExpr("g.name AS group_name, g.path AS group_path, COALESCE(c.plate, '') AS plate, COALESCE(c.compartments, 0) AS car_comps").
		ColumnExpr("COALESCE(cg.path, '') AS car_path").
		Join("JOIN org_groups AS g ON g.id = l.group_id").Join("LEFT JOIN cars AS c ON c.id = l.car_id").
		Join("LEFT JOIN org_groups AS cg ON cg.id = c.group_id")
}

func (s *Service) scopedLock(ctx context.Context, idb bun.IDB, p *httpx.Principal, id int64) (*lockRow, error) {
	if id <= 0 {
		return nil, httpx.Required("id")
	}
	return db.ScopedRow(ctx, lockSel(idb).Where("l.id = ?", id), p, func(r *lockRow) string { return r.GroupPath })
}

// Query is the body of the lock list and export.
type Query struct {
	httpx.PageReq
	Serial  string `json:"serial"` // contains
	Plate   string `json:"plate"`  // contains
	Kind    int    `json:"kind"`
	State   int    `json:"state"`
	Bound   *bool  `json:"bound"`
	GroupID int64  `json:"groupId"`
	CarID   int64  `json:"carId"`
}

var lockSort = map[string]string{"serial": "l.serial", "kind": "l.kind", "model": "l.model", "firmware": "l.firmware",
	"batteryPct": "l.battery_pct", "state": "l.state", "lastEventAt": "l.last_event_at", "plate": "c.plate",
	"groupName": "g.name", "updatedAt": "l.updated_at"}

func (s *Service) where(ctx context.Context, p *httpx.Principal, q Query) (*bun.SelectQuery, error) {
	under, err := db.ScopeUnder(ctx, s.db, p, q.GroupID)
	if err != nil {
		return nil, err
	}
	sel := lockSel(s.db).Where("g.path LIKE ?", under+"%")
	if v := NormSerial(q.Serial); v != "" {
		e, a := db.Contains("l.serial", v)
		sel = sel.Where(e, a)
	}
	if v := strings.TrimSpace(q.Plate); v != "" {
		e, a := db.Contains("c.plate", v)
		sel = sel.Where(e, a)
	}
	if q.CarID > 0 {
		if _, err := scopedCar(ctx, s.db, p, q.CarID); err != nil {
			return nil, err
		}
		sel = sel.Where("l.car_id = ?", q.CarID)
	}
	if q.Kind != 0 {
		sel = sel.Where("l.kind = ?", q.Kind)
	}
	if q.State != 0 {
		sel = sel.Where("l.state = ?", q.State)
	}
	if q.Bound != nil {
		if *q.Bound {
			sel = sel.Where("l.car_id IS NOT NULL")
		} else {
			sel = sel.Where("l.car_id IS NULL")
		}
	}
	return sel, nil
}

// Page lists the locks of the caller's scope.
func (s *Service) Page(ctx context.Context, p *httpx.Principal, q Query) (httpx.Page[View], error) {
	var zero httpx.Page[View]
	if err := q.Normalize(); err != nil {
		return zero, err
	}
	order, err := q.OrderBy(lockSort, "l.serial ASC")
	if err != nil {
		return zero, err
	}
	sel, err := s.where(ctx, p, q)
	if err != nil {
		return zero, err
	}
	return db.ScanPage(ctx, sel, q.PageReq, order, "l.id", func(r *lockRow) View { return r.view() })
}

// Save adds (in.ID 0) or updates a lock of the caller's scope; the serial is unique platform-wide.
func (s *Service) Save(r *http.Request, in Input) (*View, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	if err := in.Clean(); err != nil {
		return nil, err
	}
	insert := in.ID == 0
	m := new(Lock)
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		return s.save(ctx, tx, p, &in, m)
	})
	if err != nil {
		return nil, err
	}
	action := audit.ActionUpdate
	if insert {
		action = audit.ActionInsert
	}
	s.record(r, ModuleLock, action, m.Serial, m.ID, "")
	got, err := s.scopedLock(ctx, s.db, p, m.ID)
	if err != nil {
		return nil, err
	}
	v := got.view()
	return &v, nil
}

// save writes a cleaned input in tx (add and import).
func (s *Service) save(ctx context.Context, tx bun.IDB, p *httpx.Principal, in *Input, m *Lock) error {
	now := s.nowMS()
	insert := in.ID == 0
	if insert {
		*m = Lock{GroupID: p.GroupID, BatteryPct: -1, State: lock.StateInStock, CreatedBy: p.UserID, CreatedAt: now}
	} else {
		old, err := s.scopedLock(ctx, tx, p, in.ID)
		if err != nil {
			return err
		}
		*m = old.Lock
	}
	if in.GroupID > 0 {
		if _, err := db.ScopedGroupPath(ctx, tx, p, in.GroupID); err != nil {
			return err
		}
		m.GroupID = in.GroupID
	}
	if in.State != 0 {
		if m.CarID != nil {
			return httpx.Biz("blueLock.stateWhileBound", m.Serial)
		}
		m.State = lock.State(in.State)
	}
	m.Serial, m.Kind, m.Model, m.Firmware, m.Remark = in.Serial, lock.Kind(in.Kind), in.Model, in.Firmware, in.Remark
	m.UpdatedAt = now
	exists := httpx.Biz("blueLock.serialExists", m.Serial)
	n, err := tx.NewSelect().Model((*Lock)(nil)).Where("serial = ? AND id <> ?", m.Serial, m.ID).Count(ctx)
	if err != nil {
		return err
	}
	if n > 0 {
		return exists
	}
	return db.UniqueAs(db.Save(ctx, tx, m, insert), exists)
}

// Delete removes a lock of the caller's scope that is not bound (its binding history goes with it).
func (s *Service) Delete(r *http.Request, id int64) error {
	ctx, p := r.Context(), httpx.Caller(r)
	var old *lockRow
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var err error
		if old, err = s.scopedLock(ctx, tx, p, id); err != nil {
			return err
		}
		if old.CarID != nil {
			return httpx.Biz("blueLock.deleteBound", old.Serial, old.Plate)
		}
		_, err = tx.NewDelete().Model((*Lock)(nil)).Where("id = ?", id).Exec(ctx)
		return err
	})
	if err != nil {
		return err
	}
	s.record(r, ModuleLock, audit.ActionDelete, old.Serial, id, "")
	return nil
}

// carRef is a car with its group, for scope checks and messages.
type carRef struct {
	ID           int64  `bun:"id"`
	Plate        string `bun:"plate"`
	GroupID      int64  `bun:"group_id"`
	GroupPath    string `bun:"group_path"`
	Compartments int    `bun:"compartments"`
}

func carSel(idb bun.IDB) *bun.SelectQuery {
	return idb.NewSelect().TableExpr("cars AS c").ColumnExpr("c.id, c.plate, c.group_id, g.path AS group_path, c.compartments").
		Join("JOIN org_groups AS g ON g.id = c.group_id")
}

func scopedCar(ctx context.Context, idb bun.IDB, p *httpx.Principal, id int64) (*carRef, error) {
	if id <= 0 {
		return nil, httpx.Required("blueLock.car")
	}
	return db.ScopedRow(ctx, carSel(idb).Where("c.id = ?", id), p, func(r *carRef) string { return r.GroupPath })
}
