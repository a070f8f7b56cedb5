package fleet

import (
	"context"
	"database/sql"
	"errors"
	"net/http"
	"regexp"
	"strconv"
	"strings"

	"github.com/uptrace/bun"

	"tankwatch/internal/audit"
	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/plate"
	"tankwatch/internal/platform/xlsx"
)

// TerminalInput is the body of terminal/insert and update. The car and SIM are set with terminal/bind.
type TerminalInput struct {
	ID           int64  `json:"id"`
	GroupID      int64  `json:"groupId"`
	Phone        string `json:"phone"`
	DeviceID     string `json:"deviceId"`
	Manufacturer string `json:"manufacturer"`
	Model        string `json:"model"`
	Protocol     int    `json:"protocol"`
	AuthCode     string `json:"authCode"`
	Status       *int   `json:"status"`
	Remark       string `json:"remark"`
}

var (
	terminalPhoneRe = regexp.MustCompile(`^\d{1,20}$`)
	deviceIDRe      = regexp.MustCompile(`^[A-Za-z0-9]{0,30}$`)
)

func (in *TerminalInput) clean() error {
	for _, p := range []*string{&in.Phone, &in.DeviceID, &in.Manufacturer, &in.Model, &in.AuthCode, &in.Remark} {
		*p = strings.TrimSpace(*p)
	}
	if in.Phone == "" {
		return httpx.Required("terminalPhone")
	}
	if !terminalPhoneRe.MatchString(in.Phone) {
		return httpx.Invalid("terminalPhone")
	}
	if !deviceIDRe.MatchString(in.DeviceID) {
		return httpx.Invalid("deviceId")
	}
	if in.Protocol == 0 {
		in.Protocol = 2019
	}
	if in.Protocol != 2011 && in.Protocol != 2013 && in.Protocol != 2019 {
		return httpx.Invalid("protocol")
	}
	if in.GroupID <= 0 {
		return httpx.Required("groupId")
	}
	if in.Status == nil {
		one := 1
		in.Status = &one
	}
	if *in.Status != 0 && *in.Status != 1 {
		return httpx.Invalid("status")
	}
	for _, c := range []struct {
		f, v string
		n    int
	}{{"manufacturer", in.Manufacturer, 64}, {"model", in.Model, 64}, {"authCode", in.AuthCode, 64}, {"remark", in.Remark, 255}} {
		if err := maxLen(c.f, c.v, c.n); err != nil {
			return err
		}
	}
	return nil
}

func (in *TerminalInput) apply(t *Terminal) {
	t.GroupID, t.Phone, t.DeviceID, t.Manufacturer, t.Model = in.GroupID, in.Phone, in.DeviceID, in.Manufacturer, in.Model
	t.Protocol, t.AuthCode, t.Status, t.Remark = in.Protocol, in.AuthCode, *in.Status, in.Remark
}

// InsertTerminal creates an unbound terminal in a group of the caller's scope.
func (s *Service) InsertTerminal(r *http.Request, in TerminalInput) (*TerminalView, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	if err := in.clean(); err != nil {
		return nil, err
	}
	t := &Terminal{CreatedAt: s.nowMS()}
	in.apply(t)
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if _, err := scopedGroup(ctx, tx, p, in.GroupID); err != nil {
			return err
		}
		if _, err := tx.NewInsert().Model(t).Returning("id").Exec(ctx); err != nil {
			return db.UniqueAs(err, httpx.Biz("terminal.phoneExists"))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	s.record(r, ModuleTerminal, audit.ActionInsert, t.Phone, t.ID, "")
	return s.terminalView(ctx, t.ID)
}

// UpdateTerminal changes a terminal in scope (not its binding).
func (s *Service) UpdateTerminal(r *http.Request, in TerminalInput) (*TerminalView, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	if in.ID <= 0 {
		return nil, httpx.Required("id")
	}
	if err := in.clean(); err != nil {
		return nil, err
	}
	t := new(Terminal)
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if err := checkScope(ctx, tx, p, "terminals", []int64{in.ID}); err != nil {
			return err
		}
		if _, err := scopedGroup(ctx, tx, p, in.GroupID); err != nil {
			return err
		}
		if err := tx.NewSelect().Model(t).Where("t.id = ?", in.ID).Scan(ctx); err != nil {
			return err
		}
		in.apply(t)
		_, err := tx.NewUpdate().Model(t).Column("group_id", "phone", "device_id", "manufacturer", "model", "protocol", "auth_code", "status", "remark").
			WherePK().Exec(ctx)
		return db.UniqueAs(err, httpx.Biz("terminal.phoneExists"))
	})
	if err != nil {
		return nil, err
	}
	s.record(r, ModuleTerminal, audit.ActionUpdate, t.Phone, t.ID, "")
	return s.terminalView(ctx, t.ID)
}

// DeleteTerminals deletes terminals (which releases their car and SIM) with their binding history;
// all must be in scope or nothing is deleted.
func (s *Service) DeleteTerminals(r *http.Request, ids []int64) (int, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	ids, err := cleanIDs(ids)
	if err != nil {
		return 0, err
	}
	var ts []Terminal
	err = s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if err := checkScope(ctx, tx, p, "terminals", ids); err != nil {
			return err
		}
		if err := tx.NewSelect().Model(&ts).Where("t.id IN (?)", bun.In(ids)).Scan(ctx); err != nil {
			return err
		}
		if _, err := tx.NewDelete().Model((*Binding)(nil)).Where("terminal_id IN (?)", bun.In(ids)).Exec(ctx); err != nil {
			return err
		}
		_, err := tx.NewDelete().Model((*Terminal)(nil)).Where("id IN (?)", bun.In(ids)).Exec(ctx)
		return err
	})
	if err != nil {
		return 0, err
	}
	for _, t := range ts {
		s.record(r, ModuleTerminal, audit.ActionDelete, t.Phone, t.ID, "")
	}
	return len(ts), nil
}

// BindInput is the body of terminal/bind: null (or 0) carId / simId unbinds.
type BindInput struct {
	ID    int64  `json:"id"`
	CarID *int64 `json:"carId"`
	SIMID *int64 `json:"simId"`
}

func nonZero(p *int64) *int64 {
	if p == nil || *p == 0 {
		return nil
	}
	return p
}

func sameID(a, b *int64) bool { return (a == nil && b == nil) || (a != nil && b != nil && *a == *b) }

// Bind sets a terminal's car and SIM. A car or SIM held by another terminal is refused. A change
// closes the terminal's open history row and, unless both are now empty, opens a new one.
func (s *Service) Bind(r *http.Request, in BindInput) (*TerminalView, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	if in.ID <= 0 {
		return nil, httpx.Required("id")
	}
	in.CarID, in.SIMID = nonZero(in.CarID), nonZero(in.SIMID)
	t := new(Terminal)
	var detail string
	changed := false
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if err := checkScope(ctx, tx, p, "terminals", []int64{in.ID}); err != nil {
			return err
		}
		if in.CarID != nil {
			if err := checkScope(ctx, tx, p, "cars", []int64{*in.CarID}); err != nil {
				return err
			}
		}
		if in.SIMID != nil {
			if err := checkScope(ctx, tx, p, "sims", []int64{*in.SIMID}); err != nil {
				return err
			}
		}
		if err := tx.NewSelect().Model(t).Where("t.id = ?", in.ID).Scan(ctx); err != nil {
			return err
		}
		if in.CarID != nil {
			var other []string
			if err := tx.NewSelect().Model((*Terminal)(nil)).Column("phone").Where("car_id = ?", *in.CarID).Where("id <> ?", t.ID).Scan(ctx, &other); err != nil {
				return err
			}
			if len(other) > 0 {
				return httpx.Biz("terminal.carTaken", other[0])
			}
		}
		if in.SIMID != nil {
			var other []string
			if err := tx.NewSelect().Model((*Terminal)(nil)).Column("phone").Where("sim_id = ?", *in.SIMID).Where("id <> ?", t.ID).Scan(ctx, &other); err != nil {
				return err
			}
			if len(other) > 0 {
				return httpx.Biz("terminal.simTaken", other[0])
			}
		}
		if sameID(t.CarID, in.CarID) && sameID(t.SIMID, in.SIMID) {
			return nil
		}
		changed = true
		now := s.nowMS()
		if _, err := tx.NewUpdate().Model((*Binding)(nil)).Set("unbound_at = ?", now).
			Where("terminal_id = ?", t.ID).Where("unbound_at IS NULL").Exec(ctx); err != nil {
			return err
		}
		t.CarID, t.SIMID = in.CarID, in.SIMID
		if _, err := tx.NewUpdate().Model(t).Column("car_id", "sim_id").WherePK().Exec(ctx); err != nil {
			return db.UniqueAs(err, httpx.Biz("terminal.bindRace"))
		}
		if t.CarID != nil || t.SIMID != nil {
			b := &Binding{TerminalID: t.ID, CarID: t.CarID, SIMID: t.SIMID, BoundAt: now, UserID: p.UserID}
			if _, err := tx.NewInsert().Model(b).Returning("id").Exec(ctx); err != nil {
				return err
			}
		}
		detail = audit.Text("oplog.bind", idText(t.CarID), idText(t.SIMID))
		return nil
	})
	if err != nil {
		return nil, err
	}
	if changed {
		s.record(r, ModuleTerminal, ActionBind, t.Phone, t.ID, detail)
	}
	return s.terminalView(ctx, t.ID)
}

func idText(p *int64) string {
	if p == nil {
		return "-"
	}
	return strconv.FormatInt(*p, 10)
}

// CarAt is the car the terminal was bound to at the time (Unix ms), from its binding history; 0 when
// none. No principal: the cluster's orphan sweep asks it for the platform (D117).
func (s *Service) CarAt(ctx context.Context, terminalID, at int64) (int64, error) {
	var b Binding
	err := s.db.NewSelect().Model(&b).Column("car_id").
		Where("terminal_id = ? AND car_id IS NOT NULL AND bound_at <= ? AND (unbound_at IS NULL OR unbound_at > ?)", terminalID, at, at).
		OrderExpr("id DESC").Limit(1).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) || err == nil && b.CarID == nil {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	return *b.CarID, nil
}

// Bindings is a terminal's binding history, newest first.
func (s *Service) Bindings(ctx context.Context, p *httpx.Principal, id int64) ([]BindingView, error) {
	if err := checkScope(ctx, s.db, p, "terminals", []int64{id}); err != nil {
		return nil, err
	}
	var rows []struct {
		Binding
		Plate    string `bun:"plate"`
		MSISDN   string `bun:"msisdn"`
		UserName string `bun:"user_name"`
	}
	err := s.db.NewSelect().Model((*Binding)(nil)).ColumnExpr("b.*").
		ColumnExpr("COALESCE(c.plate, '') AS plate").ColumnExpr("COALESCE(s.msisdn, '') AS msisdn").ColumnExpr("COALESCE(u.name, '') AS user_name").
		Join("LEFT JOIN cars AS c ON c.id = b.car_id").Join("LEFT JOIN sims AS s ON s.id = b.sim_id").Join("LEFT JOIN users AS u ON u.id = b.user_id").
		Where("b.terminal_id = ?", id).OrderExpr("b.id DESC").Scan(ctx, &rows)
	if err != nil {
		return nil, err
	}
	out := make([]BindingView, len(rows))
	for i, b := range rows {
		out[i] = BindingView{ID: b.ID, TerminalID: b.TerminalID, CarID: b.CarID, Plate: b.Plate, SIMID: b.SIMID, MSISDN: b.MSISDN,
			BoundAt: httpx.Time(b.BoundAt), UnboundAt: ms(b.UnboundAt), UserID: b.UserID, UserName: b.UserName}
	}
	return out, nil
}

// TerminalQuery is the body of terminal/page (and export).
type TerminalQuery struct {
	httpx.PageReq
	Phone    string `json:"phone"`
	DeviceID string `json:"deviceId"`
	Plate    string `json:"plate"`
	MSISDN   string `json:"msisdn"`
	GroupID  int64  `json:"groupId"`
	Bound    *bool  `json:"bound"`
	Firmware string `json:"firmware"` // contained in the firmware version
}

// firmwareExpr is a terminal's firmware version: the version pushed by its newest firmware job that
// the terminal answered with success (0x0108 result 0) for upgrade type 0, the terminal itself (D64;
// the push keeps the version when its package is deleted). What the terminal itself reports (0x0107) is
// TerminalView.Attrs, shown beside it (D90).
const firmwareExpr = `COALESCE((SELECT pu.version FROM firmware_jobs AS j JOIN firmware_pushes AS pu ON pu.id = j.push_id
	WHERE j.terminal_id = t.id AND j.status = 4 AND j.result = 0 AND pu.kind = 0 ORDER BY j.updated_at DESC, j.id DESC LIMIT 1), '')`

var terminalSort = map[string]string{"id": "t.id", "phone": "t.phone", "deviceId": "t.device_id", "plate": "c.plate",
	"msisdn": "s.msisdn", "protocol": "t.protocol", "createdAt": "t.created_at", "groupName": "g.name", "firmware": firmwareExpr}

type terminalRow struct {
	Terminal
	GroupName string `bun:"group_name"`
	Plate     string `bun:"plate"`
	MSISDN    string `bun:"msisdn"`
	Firmware  string `bun:"firmware"`
}

func (r *terminalRow) view() *TerminalView {
	v := &TerminalView{ID: r.ID, GroupID: r.GroupID, GroupName: r.GroupName, Phone: r.Phone, DeviceID: r.DeviceID,
		Manufacturer: r.Manufacturer, Model: r.Model, Protocol: r.Protocol, CarID: r.CarID, Plate: r.Plate, SIMID: r.SIMID,
		MSISDN: r.MSISDN, AuthCode: r.AuthCode, Status: r.Status, Remark: r.Remark, CreatedAt: httpx.Time(r.CreatedAt), Firmware: r.Firmware}
	if r.Attrs.At > 0 {
		a := r.Attrs
		v.Attrs = &a
	}
	return v
}

func (s *Service) terminalSelect() *bun.SelectQuery {
	return s.db.NewSelect().Model((*Terminal)(nil)).ColumnExpr("t.*").ColumnExpr("g.name AS group_name").
		ColumnExpr("COALESCE(c.plate, '') AS plate").ColumnExpr("COALESCE(s.msisdn, '') AS msisdn").ColumnExpr(firmwareExpr + " AS firmware").
		Join("JOIN org_groups AS g ON g.id = t.group_id").Join("LEFT JOIN cars AS c ON c.id = t.car_id").
		Join("LEFT JOIN sims AS s ON s.id = t.sim_id")
}

func (s *Service) terminalWhere(ctx context.Context, p *httpx.Principal, q TerminalQuery) (*bun.SelectQuery, error) {
	under, err := underPath(ctx, s.db, p, q.GroupID)
	if err != nil {
		return nil, err
	}
	sel := s.terminalSelect().Where("g.path LIKE ?", under+"%")
	for col, v := range map[string]string{"t.phone": q.Phone, "t.device_id": q.DeviceID, "c.plate_key": plate.Key(q.Plate), "s.msisdn": q.MSISDN,
		firmwareExpr: q.Firmware} {
		if v = strings.TrimSpace(v); v != "" {
			sel = sel.Where(db.Contains(col, v))
		}
	}
	if q.Bound != nil {
		if *q.Bound {
			sel = sel.Where("t.car_id IS NOT NULL")
		} else {
			sel = sel.Where("t.car_id IS NULL")
		}
	}
	return sel, nil
}

// TerminalPage lists terminals in the caller's scope with the bound plate and SIM number.
func (s *Service) TerminalPage(ctx context.Context, p *httpx.Principal, q TerminalQuery) (httpx.Page[*TerminalView], error) {
	var zero httpx.Page[*TerminalView]
	if err := q.Normalize(); err != nil {
		return zero, err
	}
	order, err := q.OrderBy(terminalSort, "t.id")
	if err != nil {
		return zero, err
	}
	sel, err := s.terminalWhere(ctx, p, q)
	if err != nil {
		return zero, err
	}
	return db.ScanPage(ctx, sel, q.PageReq, order, "t.id", (*terminalRow).view)
}

func (s *Service) terminalView(ctx context.Context, id int64) (*TerminalView, error) {
	var rows []terminalRow
	if err := s.terminalSelect().Where("t.id = ?", id).Scan(ctx, &rows); err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, httpx.ErrNotFound
	}
	return rows[0].view(), nil
}

// ExportTerminals is the terminal list (same filters as the page) as a sheet.
func (s *Service) ExportTerminals(r *http.Request, q TerminalQuery) (*xlsx.Sheet, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	sel, err := s.terminalWhere(ctx, p, q)
	if err != nil {
		return nil, err
	}
	var rows []terminalRow
	if err := sel.OrderExpr("t.id").Limit(maxExportRows).Scan(ctx, &rows); err != nil {
		return nil, err
	}
	sh := &xlsx.Sheet{Name: "export.terminals", ASCII: "terminals", Width: 16, Head: []string{"col.id", "col.terminalPhone", "col.deviceId",
		"col.manufacturer", "col.model", "col.firmware", "col.protocol", "col.plate", "col.msisdn", "col.group", "col.createdAt"}}
	for _, t := range rows {
		sh.Rows = append(sh.Rows, []any{t.ID, t.Phone, t.DeviceID, t.Manufacturer, t.Model, t.Firmware, t.Protocol, t.Plate, t.MSISDN,
			t.GroupName, httpx.Time(t.CreatedAt).String()})
	}
	return sh, nil
}
