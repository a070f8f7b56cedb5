package registry

import (
	"context"
	"database/sql"
	"errors"
	"net/http"
	"strings"

	"github.com/uptrace/bun"

	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
	"tankwatch/internal/platform/xlsx"
)

// Entry is a car_blacklist row: a car barred from loading from StartAt until EndAt (0: until lifted),
// or until LiftedAt when lifted early.
type Entry struct {
	bun.BaseModel `bun:"table:car_blacklist,alias:k"`

	ID         int64  `bun:"id,pk,autoincrement"`
	GroupID    int64  `bun:"group_id"`
	CarID      int64  `bun:"car_id"`
	Reason     string `bun:"reason"`
	StartAt    int64  `bun:"start_at"`
	EndAt      int64  `bun:"end_at"`
	DecidedBy  int64  `bun:"decided_by"`
	CreatedAt  int64  `bun:"created_at"`
	LiftedAt   int64  `bun:"lifted_at"`
	LiftedBy   int64  `bun:"lifted_by"`
	LiftReason string `bun:"lift_reason"`
}

// Entry states at a time (the list's filter and column).
const (
	EntryActive    = "active"
	EntryScheduled = "scheduled"
	EntryExpired   = "expired"
	EntryLifted    = "lifted"
)

// StateAt is the entry's state at time at.
func (e *Entry) StateAt(at int64) string {
	switch {
	case e.LiftedAt > 0:
		return EntryLifted
	case e.StartAt > at:
		return EntryScheduled
	case e.EndAt > 0 && e.EndAt <= at:
		return EntryExpired
	}
	return EntryActive
}

// activeAt restricts sel (alias k) to the entries that bar their car at time at: started, not ended,
// not lifted by then.
func activeAt(sel *bun.SelectQuery, at int64) *bun.SelectQuery {
	return sel.Where("k.start_at <= ?", at).Where("(k.end_at = 0 OR k.end_at > ?)", at).Where("(k.lifted_at = 0 OR k.lifted_at > ?)", at)
}

// Blacklisted is car carID's entry that bars it at time at (nil, nil when none does).
func Blacklisted(ctx context.Context, idb bun.IDB, carID, at int64) (*Entry, error) {
	e := new(Entry)
	err := activeAt(idb.NewSelect().Model(e).Where("k.car_id = ?", carID), at).OrderExpr("k.start_at DESC, k.id DESC").Limit(1).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return e, nil
}

// Refusal is the waybill service's check (bill.Service.Blacklist): nil when car carID may get a
// waybill at time at, else the refusal naming the plate, the reason and until when.
func Refusal(ctx context.Context, idb bun.IDB, carID, at int64) error {
	e, err := Blacklisted(ctx, idb, carID, at)
	if err != nil || e == nil {
		return err
	}
	var plate string
	if err := idb.NewSelect().TableExpr("cars").Column("plate").Where("id = ?", carID).Scan(ctx, &plate); err != nil {
		return err
	}
	if e.EndAt == 0 {
		return httpx.Biz("carBlacklist.refusedOpen", plate, e.Reason)
	}
	return httpx.Biz("carBlacklist.refused", plate, e.Reason, httpx.Time(e.EndAt).String())
}

// BlackInput is the body of add: the car (in scope), the reason (required), the start (0: now) and
// an optional end.
type BlackInput struct {
	CarID   int64      `json:"carId"`
	Reason  string     `json:"reason"`
	StartAt httpx.Time `json:"startAt"`
	EndAt   httpx.Time `json:"endAt"`
}

// LiftInput is the body of lift: the entry and why it is lifted early.
type LiftInput struct {
	ID     int64  `json:"id"`
	Reason string `json:"reason"`
}

// Clean checks in at time now: the reason, the start (0: now), the end after the start and in the
// future (an entry that is over before it is made bars nothing).
func (in *BlackInput) Clean(now int64) error {
	if in.CarID <= 0 {
		return httpx.Required("carBlacklist.car")
	}
	if err := cleanReason(&in.Reason, "carBlacklist.reason", true); err != nil {
		return err
	}
	if in.StartAt < 0 || in.EndAt < 0 {
		return httpx.Invalid("carBlacklist.period")
	}
	if in.StartAt == 0 {
		in.StartAt = httpx.Time(now)
	}
	if in.EndAt != 0 && in.EndAt <= in.StartAt {
		return httpx.Biz("carBlacklist.endBeforeStart")
	}
	if in.EndAt != 0 && int64(in.EndAt) <= now {
		return httpx.Biz("carBlacklist.endPassed")
	}
	return nil
}

// Add puts a car of the caller's scope on the blacklist. An entry whose period overlaps one of the
// car's entries that is not lifted is refused, naming it.
func (s *Service) Add(r *http.Request, in BlackInput) (*EntryView, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	now := s.nowMS()
	if err := in.Clean(now); err != nil {
		return nil, err
	}
	e := &Entry{CarID: in.CarID, Reason: in.Reason, StartAt: int64(in.StartAt), EndAt: int64(in.EndAt), DecidedBy: p.UserID, CreatedAt: now}
	var car *carRef
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var err error
		if car, err = scopedCar(ctx, tx, p, in.CarID); err != nil {
			return err
		}
		e.GroupID = car.GroupID
		return s.insertEntry(ctx, tx, car.Plate, e)
	})
	if err != nil {
		return nil, err
	}
	s.record(r, ModuleBlack, ActionBlack, car.Plate, e.ID, e.Reason)
	return s.entryView(ctx, p, e.ID)
}

// insertEntry stores e after the overlap check (in tx).
func (s *Service) insertEntry(ctx context.Context, tx bun.IDB, plate string, e *Entry) error {
	var others []Entry
	sel := tx.NewSelect().Model(&others).Where("k.car_id = ?", e.CarID).Where("k.lifted_at = 0")
	if e.EndAt > 0 {
		sel = sel.Where("k.start_at < ?", e.EndAt)
	}
	if err := sel.Where("(k.end_at = 0 OR k.end_at > ?)", e.StartAt).OrderExpr("k.start_at").Limit(1).Scan(ctx); err != nil {
		return err
	}
	if len(others) > 0 {
		o := others[0]
		until := httpx.Time(o.EndAt).String()
		if o.EndAt == 0 {
			return httpx.Biz("carBlacklist.overlapOpen", plate, httpx.Time(o.StartAt).String())
		}
		return httpx.Biz("carBlacklist.overlap", plate, httpx.Time(o.StartAt).String(), until)
	}
	_, err := tx.NewInsert().Model(e).Exec(ctx)
	return err
}

// Lift ends an active or scheduled entry of the caller's scope now, recording who and why.
func (s *Service) Lift(r *http.Request, in LiftInput) (*EntryView, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	if err := cleanReason(&in.Reason, "carBlacklist.liftReason", true); err != nil {
		return nil, err
	}
	var plate string
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		row, err := s.scopedEntry(ctx, tx, p, in.ID)
		if err != nil {
			return err
		}
		plate = row.Plate
		now := s.nowMS()
		switch st := row.StateAt(now); st {
		case EntryLifted, EntryExpired:
			return httpx.Biz("carBlacklist.notLiftable", row.Plate, i18n.Field("carBlacklist.state."+st))
		}
		_, err = tx.NewUpdate().Model((*Entry)(nil)).Set("lifted_at = ?, lifted_by = ?, lift_reason = ?", now, p.UserID, in.Reason).
			Where("id = ? AND lifted_at = 0", in.ID).Exec(ctx)
		return err
	})
	if err != nil {
		return nil, err
	}
	s.record(r, ModuleBlack, ActionLift, plate, in.ID, in.Reason)
	return s.entryView(ctx, p, in.ID)
}

// EntryView is a blacklist entry as the list shows it.
type EntryView struct {
	ID           int64  `json:"id"`
	CarID        int64  `json:"carId"`
	Plate        string `json:"plate"`
	GroupID      int64  `json:"groupId"`
	GroupName    string `json:"groupName"`
	Reason       string `json:"reason"`
	StartAt      string `json:"startAt"`
	EndAt        string `json:"endAt"` // "": until lifted
	State        string `json:"state"`
	DecidedBy    string `json:"decidedBy"`
	CreatedAt    string `json:"createdAt"`
	LiftedAt     string `json:"liftedAt"`
	LiftedByName string `json:"liftedBy"`
	LiftReason   string `json:"liftReason"`
}

type entryRow struct {
	Entry       `bun:",extend"`
	Plate       string `bun:"plate"`
	GroupName   string `bun:"group_name"`
	GroupPath   string `bun:"group_path"`
	DecidedName string `bun:"decided_name"`
	LiftedName  string `bun:"lifted_name"`
}

func (r *entryRow) view(now int64) EntryView {
	return EntryView{ID: r.ID, CarID: r.CarID, Plate: r.Plate, GroupID: r.GroupID, GroupName: r.GroupName, Reason: r.Reason,
		StartAt: httpx.Time(r.StartAt).String(), EndAt: httpx.Time(r.EndAt).String(), State: r.StateAt(now), DecidedBy: r.DecidedName,
		CreatedAt: httpx.Time(r.CreatedAt).String(), LiftedAt: httpx.Time(r.LiftedAt).String(), LiftedByName: r.LiftedName, LiftReason: r.LiftReason}
}

func entrySel(idb bun.IDB) *bun.SelectQuery {
	return idb.NewSelect().Model((*Entry)(nil)).ColumnExpr("k.*").
		ColumnExpr("c.plate, g.name AS group_name, g.path AS group_path, COALESCE(ud.name, '') AS decided_name, COALESCE(ul.name, '') AS lifted_name").
		Join("JOIN cars AS c ON c.id = k.car_id").Join("JOIN org_groups AS g ON g.id = k.group_id").
		Join("LEFT JOIN users AS ud ON ud.id = k.decided_by").Join("LEFT JOIN users AS ul ON ul.id = k.lifted_by")
}

func (s *Service) scopedEntry(ctx context.Context, idb bun.IDB, p *httpx.Principal, id int64) (*entryRow, error) {
	if id <= 0 {
		return nil, httpx.Required("id")
	}
	return db.ScopedRow(ctx, entrySel(idb).Where("k.id = ?", id), p, func(r *entryRow) string { return r.GroupPath })
}

func (s *Service) entryView(ctx context.Context, p *httpx.Principal, id int64) (*EntryView, error) {
	row, err := s.scopedEntry(ctx, s.db, p, id)
	if err != nil {
		return nil, err
	}
	v := row.view(s.nowMS())
	return &v, nil
}

// BlackQuery is the body of the blacklist list and export.
type BlackQuery struct {
	httpx.PageReq
	Plate   string `json:"plate"`
	CarID   int64  `json:"carId"`
	State   string `json:"state"` // active, scheduled, expired, lifted; "": all
	GroupID int64  `json:"groupId"`
}

var blackSort = map[string]string{"plate": "c.plate", "startAt": "k.start_at", "endAt": "k.end_at", "createdAt": "k.created_at",
	"liftedAt": "k.lifted_at", "groupName": "g.name"}

func (s *Service) blackWhere(ctx context.Context, p *httpx.Principal, q BlackQuery, now int64) (*bun.SelectQuery, error) {
	under, err := db.ScopeUnder(ctx, s.db, p, q.GroupID)
	if err != nil {
		return nil, err
	}
	sel := entrySel(s.db).Where("g.path LIKE ?", under+"%")
	if v := strings.TrimSpace(q.Plate); v != "" {
		e, a := db.Contains("c.plate", v)
		sel = sel.Where(e, a)
	}
	if q.CarID > 0 {
		if _, err := scopedCar(ctx, s.db, p, q.CarID); err != nil {
			return nil, err
		}
		sel = sel.Where("k.car_id = ?", q.CarID)
	}
	switch q.State {
	case "":
	case EntryLifted:
		sel = sel.Where("k.lifted_at > 0")
	case EntryScheduled:
		sel = sel.Where("k.lifted_at = 0 AND k.start_at > ?", now)
	case EntryExpired:
		sel = sel.Where("k.lifted_at = 0 AND k.end_at > 0 AND k.end_at <= ?", now)
	case EntryActive:
		sel = activeAt(sel, now).Where("k.lifted_at = 0")
	default:
		return nil, httpx.Invalid("carBlacklist.state")
	}
	return sel, nil
}

// BlackPage lists the blacklist entries of the caller's scope.
func (s *Service) BlackPage(ctx context.Context, p *httpx.Principal, q BlackQuery) (httpx.Page[EntryView], error) {
	var zero httpx.Page[EntryView]
	if err := q.Normalize(); err != nil {
		return zero, err
	}
	order, err := q.OrderBy(blackSort, "k.start_at DESC")
	if err != nil {
		return zero, err
	}
	now := s.nowMS()
	sel, err := s.blackWhere(ctx, p, q, now)
	if err != nil {
		return zero, err
	}
	return db.ScanPage(ctx, sel, q.PageReq, order, "k.id DESC", func(r *entryRow) EntryView { return r.view(now) })
}

// BlackExport writes the filtered entries.
func (s *Service) BlackExport(r *http.Request, q BlackQuery) (*xlsx.Sheet, error) {
	ctx, p, lang := r.Context(), httpx.Caller(r), httpx.Lang(r)
	now := s.nowMS()
	sel, err := s.blackWhere(ctx, p, q, now)
	if err != nil {
		return nil, err
	}
	var rows []entryRow
	if err := sel.OrderExpr("k.start_at DESC, k.id DESC").Limit(maxExport+1).Scan(ctx, &rows); err != nil {
		return nil, err
	}
	if err := tooMany(len(rows)); err != nil {
		return nil, err
	}
	sh := &xlsx.Sheet{Name: "export.carBlacklist", ASCII: "car-blacklist", Head: []string{"field.carBlacklist.plate", "field.carBlacklist.group",
		"field.carBlacklist.reason", "field.carBlacklist.startAt", "field.carBlacklist.endAt", "field.carBlacklist.state",
		"field.carBlacklist.decidedBy", "field.carBlacklist.createdAt", "field.carBlacklist.liftedAt", "field.carBlacklist.liftedBy",
		"field.carBlacklist.liftReason"}}
	for i := range rows {
		v := rows[i].view(now)
		end := v.EndAt
		if end == "" {
			end = i18n.T(lang, "field.carBlacklist.untilLifted")
		}
		sh.Rows = append(sh.Rows, []any{v.Plate, v.GroupName, v.Reason, v.StartAt, end, i18n.T(lang, "field.carBlacklist.state."+v.State),
			v.DecidedBy, v.CreatedAt, v.LiftedAt, v.LiftedByName, v.LiftReason})
	}
	return sh, nil
}
