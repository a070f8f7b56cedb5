// Package customer is the waybill chain's customers (spec route access/customer, menu 06-05) with the
// oil stations they own, and the customers' own cars (access/customerCar, menu 06-06). Customers are
// filed under a group; a customer's code is unique within its group and, when not entered, numbered
// from the company's KH sequence (waybill.NextNumber).
package customer

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/uptrace/bun"

	"tankwatch/internal/audit"
	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/waybill"
)

// Permission codes (internal/org/menu.json).
const (
	CodePage      = "06-05"
	CodeAdd       = "06-05-01"
	CodeEdit      = "06-05-02"
	CodeDelete    = "06-05-03"
	CodeCarPage   = "06-06"
	CodeCarAdd    = "06-06-01"
	CodeCarEdit   = "06-06-02"
	CodeCarDelete = "06-06-03"
	CodeWaybill   = "03-13"
	CodePlan      = "04-24"
	Module        = "customer"
	ModuleCar     = "customerCar"
	// KindCustomer is the sequence kind of customer codes: companyCode + "KH" + 4 digits.
	KindCustomer = "KH"
	// StationType is the type of the stations a customer owns (oil stations).
	StationType = "jyz"
	maxStations = 500
)

var (
	codeRe   = regexp.MustCompile(`^[A-Za-z0-9_-]{1,32}$`)
	mobileRe = regexp.MustCompile(`^1\d{10}$`)
	phoneRe  = regexp.MustCompile(`^[0-9+() -]{5,32}$`)
)

func maxLen(field, v string, n int) error {
	if utf8.RuneCountInString(v) > n {
		return httpx.Biz("field.maxLen", httpx.Field(field), n)
	}
	return nil
}

// Customer is a customers row.
type Customer struct {
	bun.BaseModel `bun:"table:customers,alias:cu"`

	ID        int64  `bun:"id,pk,autoincrement"`
	GroupID   int64  `bun:"group_id"`
	Code      string `bun:"code"`
	Name      string `bun:"name"`
	Contact   string `bun:"contact"`
	Phone     string `bun:"phone"`
	Address   string `bun:"address"`
	Remark    string `bun:"remark"`
	CreatedAt int64  `bun:"created_at"`
	UpdatedAt int64  `bun:"updated_at"`
	UpdatedBy int64  `bun:"updated_by"`
}

// Input is the body of customer add and update.
type Input struct {
	ID         int64   `json:"id"`
	GroupID    int64   `json:"groupId"`
	Code       string  `json:"code"` // empty: numbered (companyCode + KH + 4 digits)
	Name       string  `json:"name"`
	Contact    string  `json:"contact"`
	Phone      string  `json:"phone"`
	Address    string  `json:"address"`
	Remark     string  `json:"remark"`
	StationIDs []int64 `json:"stationIds"`
}

// Clean trims and checks in.
func (in *Input) Clean() error {
	for _, p := range []*string{&in.Code, &in.Name, &in.Contact, &in.Phone, &in.Address, &in.Remark} {
		*p = strings.TrimSpace(*p)
	}
	if in.Name == "" {
		return httpx.Required("customer.name")
	}
	if in.Code != "" && !codeRe.MatchString(in.Code) {
		return httpx.Invalid("customer.code")
	}
	if in.Phone != "" && !phoneRe.MatchString(in.Phone) {
		return httpx.Invalid("customer.phone")
	}
	for _, c := range []struct {
		f, v string
		n    int
	}{{"customer.name", in.Name, 64}, {"contact", in.Contact, 64}, {"address", in.Address, 200}, {"remark", in.Remark, 255}} {
		if err := maxLen(c.f, c.v, c.n); err != nil {
			return err
		}
	}
	if len(in.StationIDs) > maxStations {
		return httpx.Biz("field.maxCount", httpx.Field("customer.stations"), maxStations)
	}
	slices.Sort(in.StationIDs)
	in.StationIDs = slices.Compact(in.StationIDs)
	for _, id := range in.StationIDs {
		if id <= 0 {
			return httpx.Invalid("customer.stations")
		}
	}
	return nil
}

// View is a customer as the API shows it.
type View struct {
	ID           int64    `json:"id"`
	Code         string   `json:"code"`
	Name         string   `json:"name"`
	GroupID      int64    `json:"groupId"`
	StationIDs   []int64  `json:"stationIds"`
	GroupName    string   `json:"groupName,omitempty"`
	Contact      string   `json:"contact,omitempty"`
	Phone        string   `json:"phone,omitempty"`
	Address      string   `json:"address,omitempty"`
	Remark       string   `json:"remark,omitempty"`
	StationNames []string `json:"stationNames,omitempty"`
	Cars         int      `json:"cars"`
	UpdatedAt    string   `json:"updatedAt,omitempty"`
}

type row struct {
	Customer  `bun:",extend"`
	GroupName string `bun:"group_name"`
	GroupPath string `bun:"group_path"`
	Cars      int    `bun:"cars"`
}

func (r *row) view() View {
	return View{ID: r.ID, Code: r.Code, Name: r.Name, GroupID: r.GroupID, StationIDs: []int64{}, GroupName: r.GroupName,
		Contact: r.Contact, Phone: r.Phone, Address: r.Address, Remark: r.Remark, Cars: r.Cars, UpdatedAt: httpx.Time(r.UpdatedAt).String()}
}

// Service is the customers and their cars.
type Service struct {
	db    *db.DB
	audit *audit.Log
	Now   func() time.Time
}

// New returns the service.
func New(d *db.DB, a *audit.Log) *Service { return &Service{db: d, audit: a, Now: time.Now} }

func (s *Service) record(r *http.Request, module, action, target string, id int64) {
	if s.audit != nil {
		s.audit.Record(r.Context(), r, nil, audit.Entry{Module: module, Action: action, Target: target, TargetID: id})
	}
}

func (s *Service) sel(idb bun.IDB) *bun.SelectQuery {
	return idb.NewSelect().Model((*Customer)(nil)).ColumnExpr("cu.*").ColumnExpr("g.name AS group_name, g.path AS group_path").
		ColumnExpr("(SELECT COUNT(*) FROM customer_cars AS cc WHERE cc.customer_id = cu.id) AS cars").
		Join("JOIN org_groups AS g ON g.id = cu.group_id")
}

// stations fills the views' station ids and names.
func (s *Service) stations(ctx context.Context, idb bun.IDB, vs []View) error {
	if len(vs) == 0 {
		return nil
	}
	ids := make([]int64, len(vs))
	at := make(map[int64]int, len(vs))
	for i, v := range vs {
		ids[i], at[v.ID] = v.ID, i
	}
	var links []struct {
		CustomerID int64  `bun:"customer_id"`
		StationID  int64  `bun:"station_id"`
		Name       string `bun:"name"`
	}
	if err := idb.NewSelect().TableExpr("customer_stations AS cs").ColumnExpr("cs.customer_id, cs.station_id, st.name").
		Join("JOIN stations AS st ON st.id = cs.station_id").Where("cs.customer_id IN (?)", bun.In(ids)).
		OrderExpr("cs.customer_id, st.name, st.id").Scan(ctx, &links); err != nil {
		return err
	}
	for _, l := range links {
		v := &vs[at[l.CustomerID]]
		v.StationIDs = append(v.StationIDs, l.StationID)
		v.StationNames = append(v.StationNames, l.Name)
	}
	return nil
}

// Query is the body of customer/page.
type Query struct {
	httpx.PageReq
	Name      string `json:"name"` // name or code contains
	GroupID   int64  `json:"groupId"`
	StationID int64  `json:"stationId"`
}

var sortCols = map[string]string{"code": "cu.code", "name": "cu.name", "contact": "cu.contact", "groupName": "g.name",
	"cars": "cars", "updatedAt": "cu.updated_at"}

func containsEither(sel *bun.SelectQuery, v string, cols ...string) *bun.SelectQuery {
	return sel.WhereGroup(" AND ", func(w *bun.SelectQuery) *bun.SelectQuery {
		for i, c := range cols {
			e, a := db.Contains(c, v)
			if strings.HasPrefix(c, "UPPER(") {
				e, a = db.Contains(c, strings.ToUpper(v))
			}
			if i == 0 {
				w = w.Where(e, a)
			} else {
				w = w.WhereOr(e, a)
			}
		}
		return w
	})
}

// Page lists the customers of the caller's scope.
func (s *Service) Page(ctx context.Context, p *httpx.Principal, q Query) (httpx.Page[View], error) {
	var zero httpx.Page[View]
	if err := q.Normalize(); err != nil {
		return zero, err
	}
	order, err := q.OrderBy(sortCols, "g.path ASC, cu.code ASC")
	if err != nil {
		return zero, err
	}
	under, err := db.ScopeUnder(ctx, s.db, p, q.GroupID)
	if err != nil {
		return zero, err
	}
	sel := s.sel(s.db).Where("g.path LIKE ?", under+"%")
	if v := strings.TrimSpace(q.Name); v != "" {
		sel = containsEither(sel, v, "cu.name", "UPPER(cu.code)")
	}
	if q.StationID > 0 {
		if _, err := s.scopedStation(ctx, s.db, p, q.StationID); err != nil {
			return zero, err
		}
		sel = sel.Where("cu.id IN (SELECT customer_id FROM customer_stations WHERE station_id = ?)", q.StationID)
	}
	page, err := db.ScanPage(ctx, sel, q.PageReq, order, "cu.id", func(r *row) View { return r.view() })
	if err != nil {
		return zero, err
	}
	return page, s.stations(ctx, s.db, page.List)
}

// List is every customer of the caller's scope with its station ids (the pickers of waybills and plans).
func (s *Service) List(ctx context.Context, p *httpx.Principal) ([]View, error) {
	var rows []row
	if err := s.sel(s.db).Where("g.path LIKE ?", p.GroupPath+"%").OrderExpr("g.path, cu.code, cu.id").Scan(ctx, &rows); err != nil {
		return nil, err
	}
	out := make([]View, len(rows))
	for i := range rows {
		out[i] = View{ID: rows[i].ID, Code: rows[i].Code, Name: rows[i].Name, GroupID: rows[i].GroupID, StationIDs: []int64{}, Cars: rows[i].Cars}
	}
	if err := s.stations(ctx, s.db, out); err != nil {
		return nil, err
	}
	for i := range out {
		out[i].StationNames = nil
	}
	return out, nil
}

func (s *Service) scoped(ctx context.Context, idb bun.IDB, p *httpx.Principal, id int64) (*row, error) {
	if id <= 0 {
		return nil, httpx.Required("id")
	}
	return db.ScopedRow(ctx, s.sel(idb).Where("cu.id = ?", id), p, func(r *row) string { return r.GroupPath })
}

type stationRef struct {
	ID          int64  `bun:"id"`
	Name        string `bun:"name"`
	StationType string `bun:"station_type"`
	GroupPath   string `bun:"group_path"`
}

func (s *Service) scopedStation(ctx context.Context, idb bun.IDB, p *httpx.Principal, id int64) (*stationRef, error) {
	sel := idb.NewSelect().TableExpr("stations AS st").ColumnExpr("st.id, st.name, st.station_type, g.path AS group_path").
		Join("JOIN org_groups AS g ON g.id = st.group_id").Where("st.id = ?", id)
	st, err := db.ScopedRow(ctx, sel, p, func(r *stationRef) string { return r.GroupPath })
	if errors.Is(err, httpx.ErrNotFound) {
		return nil, httpx.Biz("customer.stationMissing", id)
	}
	return st, err
}

// Save adds (insert) or updates a customer of the caller's scope with its stations: each an oil station
// of the caller's scope that no other customer owns.
func (s *Service) Save(r *http.Request, in Input, insert bool) (*View, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	if !insert && in.ID <= 0 {
		return nil, httpx.Required("id")
	}
	if err := in.Clean(); err != nil {
		return nil, err
	}
	// a new customer without a code is numbered first, on the DB itself (never inside the transaction:
	// SQLite has one writer), after the scope check, so a foreign group burns no number
	numbered := ""
	if insert && in.Code == "" {
		gid := p.GroupID
		if in.GroupID > 0 {
			if _, err := db.ScopedGroupPath(ctx, s.db, p, in.GroupID); err != nil {
				return nil, err
			}
			gid = in.GroupID
		}
		for _, id := range in.StationIDs {
			if _, err := s.scopedStation(ctx, s.db, p, id); err != nil {
				return nil, err
			}
		}
		var err error
		if numbered, err = s.nextCode(ctx, gid); err != nil {
			return nil, err
		}
	}
	m := new(Customer)
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		now := s.Now().UnixMilli()
		if !insert {
			old, err := s.scoped(ctx, tx, p, in.ID)
			if err != nil {
				return err
			}
			m.ID, m.GroupID, m.Code, m.CreatedAt = old.ID, old.GroupID, old.Code, old.CreatedAt
		} else {
			m.CreatedAt, m.GroupID = now, p.GroupID
		}
		if in.GroupID > 0 {
			if _, err := db.ScopedGroupPath(ctx, tx, p, in.GroupID); err != nil {
				return err
			}
			m.GroupID = in.GroupID
		}
		for _, id := range in.StationIDs {
			st, err := s.scopedStation(ctx, tx, p, id)
			if err != nil {
				return err
			}
			if st.StationType != StationType {
				return httpx.Biz("customer.notOilStation", st.Name)
			}
			var other []string
			if err := tx.NewSelect().TableExpr("customer_stations AS cs").ColumnExpr("cu.name").
				Join("JOIN customers AS cu ON cu.id = cs.customer_id").Where("cs.station_id = ? AND cs.customer_id <> ?", id, m.ID).
				Limit(1).Scan(ctx, &other); err != nil {
				return err
			}
			if len(other) > 0 {
				return httpx.Biz("customer.stationOwned", st.Name, other[0])
			}
		}
		if in.Code != "" {
			m.Code = in.Code
		} else if insert {
			m.Code = numbered
		}
		m.Name, m.Contact, m.Phone, m.Address, m.Remark = in.Name, in.Contact, in.Phone, in.Address, in.Remark
		m.UpdatedAt, m.UpdatedBy = now, p.UserID
		exists := httpx.Biz("customer.codeExists", m.Code)
		n, err := tx.NewSelect().Model((*Customer)(nil)).Where("group_id = ? AND code = ? AND id <> ?", m.GroupID, m.Code, m.ID).Count(ctx)
		if err != nil {
			return err
		}
		if n > 0 {
			return exists
		}
		if err := db.UniqueAs(db.Save(ctx, tx, m, insert), exists); err != nil {
			return err
		}
		if _, err := tx.NewDelete().TableExpr("customer_stations").Where("customer_id = ?", m.ID).Exec(ctx); err != nil {
			return err
		}
		for _, id := range in.StationIDs {
			if _, err := tx.NewRaw("INSERT INTO customer_stations (customer_id, station_id) VALUES (?, ?)", m.ID, id).Exec(ctx); err != nil {
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
	s.record(r, Module, action, m.Name, m.ID)
	return s.one(ctx, p, m.ID)
}

func (s *Service) one(ctx context.Context, p *httpx.Principal, id int64) (*View, error) {
	got, err := s.scoped(ctx, s.db, p, id)
	if err != nil {
		return nil, err
	}
	vs := []View{got.view()}
	if err := s.stations(ctx, s.db, vs); err != nil {
		return nil, err
	}
	return &vs[0], nil
}

// nextCode numbers a customer of group groupID: its company code + KH + 4 digits, from the company's
// sequence on the DB itself (a number is never reused, even if this transaction fails).
func (s *Service) nextCode(ctx context.Context, groupID int64) (string, error) {
	company, err := waybill.CompanyCodeOf(ctx, s.db, groupID)
	if err != nil {
		return "", err
	}
	prefix := company + KindCustomer
	n, err := waybill.NextNumber(ctx, s.db, prefix)
	if err != nil {
		return "", err
	}
	return waybill.Code(prefix, n, 4), nil
}

// Delete removes a customer of the caller's scope (with its stations list and cars) that no waybill or
// plan names.
func (s *Service) Delete(r *http.Request, id int64) error {
	ctx, p := r.Context(), httpx.Caller(r)
	var old *row
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var err error
		if old, err = s.scoped(ctx, tx, p, id); err != nil {
			return err
		}
		total := 0
		for _, t := range []string{"waybills", "transport_plans"} {
			n, err := tx.NewSelect().TableExpr(t).Where("customer_id = ?", id).Count(ctx)
			if err != nil {
				return err
			}
			total += int(n)
		}
		if total > 0 {
			return httpx.Biz("customer.inUse", old.Name, total)
		}
		for _, t := range []string{"customer_cars", "customer_stations"} {
			if _, err := tx.NewDelete().TableExpr(t).Where("customer_id = ?", id).Exec(ctx); err != nil {
				return err
			}
		}
		_, err = tx.NewDelete().Model((*Customer)(nil)).Where("id = ?", id).Exec(ctx)
		return err
	})
	if err != nil {
		return err
	}
	s.record(r, Module, audit.ActionDelete, old.Name, id)
	return nil
}

// StationOption is an oil station of the caller's scope for the customer form's multi-select.
type StationOption struct {
	ID           int64  `json:"id" bun:"id"`
	Name         string `json:"name" bun:"name"`
	GroupName    string `json:"groupName" bun:"group_name"`
	CustomerID   *int64 `json:"customerId" bun:"customer_id"`
	CustomerName string `json:"customerName" bun:"customer_name"`
}

// Stations lists the oil stations of the caller's scope with the customer owning each.
func (s *Service) Stations(ctx context.Context, p *httpx.Principal) ([]StationOption, error) {
	out := []StationOption{}
	err := s.db.NewSelect().TableExpr("stations AS st").ColumnExpr("st.id, st.name, g.name AS group_name").
		ColumnExpr("cs.customer_id, COALESCE(cu.name, '') AS customer_name").
		Join("JOIN org_groups AS g ON g.id = st.group_id").
		Join("LEFT JOIN customer_stations AS cs ON cs.station_id = st.id").
		Join("LEFT JOIN customers AS cu ON cu.id = cs.customer_id").
		Where("g.path LIKE ?", p.GroupPath+"%").Where("st.station_type = ?", StationType).
		OrderExpr("st.name, st.id").Scan(ctx, &out)
	return out, err
}

// SeedDemo files the demo customer name (code) under group groupID owning stationIDs, with its cars
// (plates); idempotent by code.
func (s *Service) SeedDemo(ctx context.Context, groupID int64, code, name, contact, phone string, stationIDs []int64, cars []CarInput) error {
	return s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		n, err := tx.NewSelect().Model((*Customer)(nil)).Where("group_id = ? AND code = ?", groupID, code).Count(ctx)
		if err != nil || n > 0 {
			return err
		}
		now := s.Now().UnixMilli()
		m := &Customer{GroupID: groupID, Code: code, Name: name, Contact: contact, Phone: phone, CreatedAt: now, UpdatedAt: now}
		if _, err := tx.NewInsert().Model(m).Returning("id").Exec(ctx); err != nil {
			return err
		}
		for _, id := range stationIDs {
			if _, err := tx.NewRaw("INSERT INTO customer_stations (customer_id, station_id) VALUES (?, ?) ON CONFLICT DO NOTHING", m.ID, id).Exec(ctx); err != nil {
				return err
			}
		}
		for _, c := range cars {
			c.CustomerID = m.ID
			if err := c.Clean(); err != nil {
				return fmt.Errorf("demo customer car %s: %w", c.Plate, err)
			}
			car := c.row()
			car.CreatedAt, car.UpdatedAt = now, now
			if _, err := tx.NewInsert().Model(car).Exec(ctx); err != nil {
				return err
			}
		}
		return nil
	})
}
