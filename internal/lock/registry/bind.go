package registry

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/uptrace/bun"

	"tankwatch/internal/audit"
	"tankwatch/internal/lock"
	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
	"tankwatch/internal/platform/xlsx"
)

// BindRow is a lock_binds row: one bind or unbind, who, when and why.
type BindRow struct {
	bun.BaseModel `bun:"table:lock_binds,alias:b"`

	ID          int64       `bun:"id,pk,autoincrement"`
	LockID      int64       `bun:"lock_id"`
	GroupID     int64       `bun:"group_id"`
	CarID       int64       `bun:"car_id"`
	Compartment int         `bun:"compartment"`
	Device      lock.Device `bun:"device"`
	Action      int         `bun:"action"`
	UserID      int64       `bun:"user_id"`
	Reason      string      `bun:"reason"`
	T           int64       `bun:"t"`
}

// BindInput is the body of bind: the lock, the car (in scope), the compartment (1..the car's
// compartments) and the device. Move: a lock bound elsewhere is unbound and bound here in one step.
type BindInput struct {
	LockID      int64  `json:"lockId"`
	CarID       int64  `json:"carId"`
	Compartment int    `json:"compartment"`
	Device      *int   `json:"device"`
	Move        bool   `json:"move"`
	Reason      string `json:"reason"`
}

// UnbindInput is the body of unbind; the reason is required.
type UnbindInput struct {
	LockID int64  `json:"lockId"`
	Reason string `json:"reason"`
}

func cleanReason(v *string, field string, required bool) error {
	*v = strings.TrimSpace(*v)
	if *v == "" && required {
		return httpx.Required(field)
	}
	return maxLen(field, *v, maxReason)
}

// deviceKey is the catalogue key of a device's name.
func deviceKey(d lock.Device) string { return fmt.Sprintf("blueLock.device.%d", d) }

// Bind binds a lock to a car's compartment device, recording it (lock_binds and the operation log).
func (s *Service) Bind(r *http.Request, in BindInput) (*View, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	if err := cleanReason(&in.Reason, "blueLock.reason", false); err != nil {
		return nil, err
	}
	if in.Device == nil {
		return nil, httpx.Required("blueLock.device")
	}
	dev := lock.Device(*in.Device)
	if *in.Device < 0 || dev > lock.DeviceBottomValve {
		return nil, httpx.Invalid("blueLock.device")
	}
	var l *lockRow
	var car *carRef
	var moved *BindRow
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var err error
		if l, err = s.scopedLock(ctx, tx, p, in.LockID); err != nil {
			return err
		}
		if err := l.carInScope(p); err != nil {
			return err
		}
		if car, err = scopedCar(ctx, tx, p, in.CarID); err != nil {
			return err
		}
		comps := min(max(car.Compartments, 1), MaxCompartment)
		if in.Compartment < 1 || in.Compartment > comps {
			return httpx.Biz("blueLock.compartmentRange", car.Plate, comps)
		}
		if l.CarID != nil && *l.CarID == car.ID && l.Compartment == in.Compartment && l.Device == dev {
			return httpx.Biz("blueLock.alreadyThere", l.Serial)
		}
		switch l.State {
		case lock.StateFaulty, lock.StateRetired:
			return httpx.Biz("blueLock.notUsable", l.Serial, i18n.Field(fmt.Sprintf("blueLock.state.%d", l.State)))
		}
		if l.CarID != nil && !in.Move {
			return httpx.Biz("blueLock.boundElsewhere", l.Serial, l.Plate, l.Compartment, i18n.Field(deviceKey(l.Device)))
		}
		var other []string
		if err := tx.NewSelect().Model((*Lock)(nil)).Column("serial").Where("car_id = ? AND compartment = ? AND device = ? AND id <> ?",
			car.ID, in.Compartment, dev, l.ID).Limit(1).Scan(ctx, &other); err != nil {
			return err
		}
		taken := httpx.Biz("blueLock.slotTaken", car.Plate, in.Compartment, i18n.Field(deviceKey(dev)), "")
		if len(other) > 0 {
			taken.Args[3] = other[0]
			return taken
		}
		now := s.nowMS()
		if l.CarID != nil {
			moved = &BindRow{LockID: l.ID, GroupID: groupOfCar(ctx, tx, *l.CarID, l.GroupID), CarID: *l.CarID, Compartment: l.Compartment,
				Device: l.Device, Action: lock.BindUnbound, UserID: p.UserID, Reason: in.Reason, T: now}
			if moved.Reason == "" {
				moved.Reason = i18n.T(httpx.Lang(r), "blueLock.movedTo", car.Plate)
			}
			if _, err := tx.NewInsert().Model(moved).Exec(ctx); err != nil {
				return err
			}
		}
		if _, err := tx.NewUpdate().Model((*Lock)(nil)).Set("car_id = ?, compartment = ?, device = ?, state = ?, updated_at = ?",
			car.ID, in.Compartment, dev, lock.StateBound, now).Where("id = ?", l.ID).Exec(ctx); err != nil {
			return db.UniqueAs(err, taken)
		}
		b := &BindRow{LockID: l.ID, GroupID: car.GroupID, CarID: car.ID, Compartment: in.Compartment, Device: dev,
			Action: lock.BindBound, UserID: p.UserID, Reason: in.Reason, T: now}
		_, err = tx.NewInsert().Model(b).Exec(ctx)
		return err
	})
	if err != nil {
		return nil, err
	}
	if moved != nil {
		s.record(r, ModuleLock, ActionUnbind, l.Serial, l.ID, audit.Text("oplog.lockSlot", l.Plate, moved.Compartment, audit.Key("field."+deviceKey(moved.Device))))
	}
	s.record(r, ModuleLock, ActionBind, l.Serial, l.ID, audit.Text("oplog.lockSlot", car.Plate, in.Compartment, audit.Key("field."+deviceKey(dev))))
	got, err := s.scopedLock(ctx, s.db, p, l.ID)
	if err != nil {
		return nil, err
	}
	v := got.view()
	return &v, nil
}

// groupOfCar is car id's group (def when the car is gone).
func groupOfCar(ctx context.Context, idb bun.IDB, id, def int64) int64 {
	var g int64
	if err := idb.NewSelect().TableExpr("cars").Column("group_id").Where("id = ?", id).Scan(ctx, &g); err != nil || g == 0 {
		return def
	}
	return g
}

// Unbind frees a bound lock (back in stock), recording who, when and why.
func (s *Service) Unbind(r *http.Request, in UnbindInput) (*View, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	if err := cleanReason(&in.Reason, "blueLock.reason", true); err != nil {
		return nil, err
	}
	var l *lockRow
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var err error
		if l, err = s.scopedLock(ctx, tx, p, in.LockID); err != nil {
			return err
		}
		if err := l.carInScope(p); err != nil {
			return err
		}
		if l.CarID == nil {
			return httpx.Biz("blueLock.notBound", l.Serial)
		}
		now := s.nowMS()
		b := &BindRow{LockID: l.ID, GroupID: groupOfCar(ctx, tx, *l.CarID, l.GroupID), CarID: *l.CarID, Compartment: l.Compartment,
			Device: l.Device, Action: lock.BindUnbound, UserID: p.UserID, Reason: in.Reason, T: now}
		if _, err := tx.NewInsert().Model(b).Exec(ctx); err != nil {
			return err
		}
		_, err = tx.NewUpdate().Model((*Lock)(nil)).Set("car_id = NULL, compartment = 0, device = 0, state = ?, updated_at = ?",
			lock.StateInStock, now).Where("id = ?", l.ID).Exec(ctx)
		return err
	})
	if err != nil {
		return nil, err
	}
	s.record(r, ModuleLock, ActionUnbind, l.Serial, l.ID, audit.Text("oplog.lockSlot", l.Plate, l.Compartment, audit.Key("field."+deviceKey(l.Device))))
	got, err := s.scopedLock(ctx, s.db, p, l.ID)
	if err != nil {
		return nil, err
	}
	v := got.view()
	return &v, nil
}

// BindQuery is the body of the binding history list and export.
type BindQuery struct {
	httpx.PageReq
	Serial    string     `json:"serial"`
	Plate     string     `json:"plate"`
	Action    int        `json:"action"`
	GroupID   int64      `json:"groupId"`
	LockID    int64      `json:"lockId"`
	StartTime httpx.Time `json:"startTime"`
	EndTime   httpx.Time `json:"endTime"`
}

// BindView is one binding record.
type BindView struct {
	ID          int64  `json:"id"`
	T           string `json:"t"`
	LockID      int64  `json:"lockId"`
	Serial      string `json:"serial"`
	Kind        int    `json:"kind"`
	CarID       int64  `json:"carId"`
	Plate       string `json:"plate"`
	Compartment int    `json:"compartment"`
	Device      int    `json:"device"`
	Action      int    `json:"action"`
	UserName    string `json:"userName"`
	Reason      string `json:"reason"`
	GroupName   string `json:"groupName"`
}

type bindRow struct {
	BindRow   `bun:",extend"`
	Serial    string `bun:"serial"`
	Kind      int    `bun:"kind"`
	Plate     string `bun:"plate"`
	UserName  string `bun:"user_name"`
	GroupName string `bun:"group_name"`
}

func (r *bindRow) view() BindView {
	return BindView{ID: r.ID, T: httpx.Time(r.T).String(), LockID: r.LockID, Serial: r.Serial, Kind: r.Kind, CarID: r.CarID, Plate: r.Plate,
		Compartment: r.Compartment, Device: int(r.Device), Action: r.Action, UserName: r.UserName, Reason: r.Reason, GroupName: r.GroupName}
}

var bindSort = map[string]string{"t": "b.t", "serial": "l.serial", "plate": "c.plate", "action": "b.action", "userName": "u.name"}

func (s *Service) bindWhere(ctx context.Context, p *httpx.Principal, q BindQuery) (*bun.SelectQuery, error) {
	under, err := db.ScopeUnder(ctx, s.db, p, q.GroupID)
	if err != nil {
		return nil, err
	}
	// the scope as a sub-select and everything else by LEFT JOINs on primary keys (a record's lock always
	// exists: ON DELETE CASCADE), which PostgreSQL leaves out of the count: every page's total counts
	// lock_binds alone, and the newest-first page walks lock_binds_time (docs/PERFORMANCE.md)
	sel := s.db.NewSelect().Model((*BindRow)(nil)).ColumnExpr("b.*").
		ColumnExpr("COALESCE(l.serial, '') AS serial, COALESCE(l.kind, 0) AS kind, COALESCE(c.plate, '') AS plate, COALESCE(u.name, '') AS user_name").
		ColumnExpr("COALESCE(g.name, '') AS group_name").
		Join("LEFT JOIN locks AS l ON l.id = b.lock_id").Join("LEFT JOIN org_groups AS g ON g.id = b.group_id").
		Join("LEFT JOIN cars AS c ON c.id = b.car_id").Join("LEFT JOIN users AS u ON u.id = b.user_id").
		Where("b.group_id IN (SELECT sg.id FROM org_groups AS sg WHERE sg.path LIKE ?)", under+"%")
	if q.LockID > 0 {
		if _, err := s.scopedLock(ctx, s.db, p, q.LockID); err != nil {
			return nil, err
		}
		sel = sel.Where("b.lock_id = ?", q.LockID)
	}
	if v := NormSerial(q.Serial); v != "" {
		e, a := db.Contains("l.serial", v)
		sel = sel.Where(e, a)
	}
	if v := strings.TrimSpace(q.Plate); v != "" {
		e, a := db.Contains("c.plate", v)
		sel = sel.Where(e, a)
	}
	if q.Action != 0 {
		sel = sel.Where("b.action = ?", q.Action)
	}
	if q.StartTime != 0 {
		sel = sel.Where("b.t >= ?", int64(q.StartTime))
	}
	if q.EndTime != 0 {
		sel = sel.Where("b.t <= ?", q.EndTime.Through())
	}
	return sel, nil
}

// BindPage lists the binding history of the caller's scope (the car's group when it happened).
func (s *Service) BindPage(ctx context.Context, p *httpx.Principal, q BindQuery) (httpx.Page[BindView], error) {
	var zero httpx.Page[BindView]
	if err := q.Normalize(); err != nil {
		return zero, err
	}
	order, err := q.OrderBy(bindSort, "b.t DESC")
	if err != nil {
		return zero, err
	}
	sel, err := s.bindWhere(ctx, p, q)
	if err != nil {
		return zero, err
	}
	// records of one moment (a move's unbind and bind) in the order they were written, whichever way
	tie := "b.id DESC"
	if q.SortOrder == "ascend" {
		tie = "b.id"
	}
	return db.ScanPage(ctx, sel, q.PageReq, order, tie, func(r *bindRow) BindView { return r.view() })
}

// maxExport bounds an export: the locks of a 10,000-car fleet (60,000) fit; a longer list is refused
// with a message rather than cut short without a word.
const maxExport = 100_000

// tooMany refuses an export of more than maxExport rows (n is what the query read, at most maxExport+1).
func tooMany(n int) error {
	if n > maxExport {
		return httpx.Biz("blueLock.exportTooMany", maxExport)
	}
	return nil
}

// BindExport writes the filtered binding history.
func (s *Service) BindExport(r *http.Request, q BindQuery) (*xlsx.Sheet, error) {
	ctx, p, lang := r.Context(), httpx.Caller(r), httpx.Lang(r)
	sel, err := s.bindWhere(ctx, p, q)
	if err != nil {
		return nil, err
	}
	var rows []bindRow
	if err := sel.OrderExpr("b.t DESC, b.id DESC").Limit(maxExport+1).Scan(ctx, &rows); err != nil {
		return nil, err
	}
	if err := tooMany(len(rows)); err != nil {
		return nil, err
	}
	sh := &xlsx.Sheet{Name: "export.blueLockBind", ASCII: "lock-bindings", Head: []string{"field.blueLock.t", "field.blueLock.serial",
		"field.blueLock.kind", "field.blueLock.plate", "field.blueLock.compartment", "field.blueLock.device", "field.blueLock.action",
		"field.blueLock.userName", "field.blueLock.reason", "field.blueLock.group"}}
	for _, b := range rows {
		sh.Rows = append(sh.Rows, []any{httpx.Time(b.T).String(), b.Serial, i18n.T(lang, fmt.Sprintf("field.blueLock.kind.%d", b.Kind)), b.Plate,
			b.Compartment, i18n.T(lang, "field."+deviceKey(b.Device)), i18n.T(lang, fmt.Sprintf("field.blueLock.bind.%d", b.Action)), b.UserName, b.Reason, b.GroupName})
	}
	return sh, nil
}
