// Package product is the waybill chain's product catalogue (spec route basedata/transProduct, menu
// 03-16): what a compartment carries, with its tank product code (fuel type), its V20 family, its
// default density at 20 °C and an optional K0/K1 override. Products are filed under a group; a code is
// unique within its group.
package product

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/uptrace/bun"

	"tankwatch/internal/audit"
	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/tank"
)

// Permission codes (internal/org/menu.json).
const (
	CodePage   = "03-16"
	CodeAdd    = "03-16-01"
	CodeEdit   = "03-16-02"
	CodeDelete = "03-16-03"
	// pages that pick products: waybills, load records, transport plans
	CodeWaybill = "03-13"
	CodeLoad    = "04-25"
	CodePlan    = "04-24"
	Module      = "transProduct"
)

// Limits of the fields.
const (
	MaxK0      = 2000.0
	MaxK1      = 10.0
	maxName    = 64
	maxCode    = 32
	maxGrade   = 32
	maxRemark  = 255
	familyLast = int(tank.FamilyJet)
)

var codeRe = regexp.MustCompile(`^[A-Za-z0-9#_.-]{1,32}$`)

// Product is a products row.
type Product struct {
	bun.BaseModel `bun:"table:products,alias:p"`

	ID        int64    `bun:"id,pk,autoincrement"`
	GroupID   int64    `bun:"group_id"`
	Code      string   `bun:"code"`
	Name      string   `bun:"name"`
	Grade     string   `bun:"grade"`
	Product   int      `bun:"product"`
	Family    int      `bun:"family"`
	Density20 float64  `bun:"density20"`
	K0        *float64 `bun:"k0"`
	K1        *float64 `bun:"k1"`
	Remark    string   `bun:"remark"`
	CreatedAt int64    `bun:"created_at"`
	UpdatedAt int64    `bun:"updated_at"`
	UpdatedBy int64    `bun:"updated_by"`
}

// Input is the body of add and update.
type Input struct {
	ID        int64    `json:"id"`
	GroupID   int64    `json:"groupId"`
	Code      string   `json:"code"`
	Name      string   `json:"name"`
	Grade     string   `json:"grade"`
	Product   *int     `json:"product"`
	Family    *int     `json:"family"`
	Density20 float64  `json:"density20"`
	K0        *float64 `json:"k0"`
	K1        *float64 `json:"k1"`
	Remark    string   `json:"remark"`
}

func maxLen(field, v string, n int) error {
	if utf8.RuneCountInString(v) > n {
		return httpx.Biz("field.maxLen", httpx.Field(field), n)
	}
	return nil
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// Clean trims and checks in: name and code required, the product code one of tank's, the family
// defaulting from it, the density in tank's range (0: the product's typical density; products
// without a V20 family may keep 0), K0 and K1 both or neither.
func (in *Input) Clean() error {
	in.Code, in.Name = strings.TrimSpace(in.Code), strings.TrimSpace(in.Name)
	in.Grade, in.Remark = strings.TrimSpace(in.Grade), strings.TrimSpace(in.Remark)
	if in.Name == "" {
		return httpx.Required("transProduct.name")
	}
	if in.Code == "" {
		return httpx.Required("transProduct.code")
	}
	if !codeRe.MatchString(in.Code) {
		return httpx.Invalid("transProduct.code")
	}
	for _, c := range []struct {
		f, v string
		n    int
	}{{"transProduct.name", in.Name, maxName}, {"transProduct.code", in.Code, maxCode}, {"transProduct.grade", in.Grade, maxGrade}, {"remark", in.Remark, maxRemark}} {
		if err := maxLen(c.f, c.v, c.n); err != nil {
			return err
		}
	}
	if in.Product == nil {
		return httpx.Required("transProduct.product")
	}
	if *in.Product < 0 || *in.Product >= tank.Products {
		return httpx.Invalid("transProduct.product")
	}
	if in.Family == nil {
		f := int(tank.ProductFamily(*in.Product))
		in.Family = &f
	}
	if *in.Family < 0 || *in.Family > familyLast {
		return httpx.Invalid("transProduct.family")
	}
	if !finite(in.Density20) {
		return httpx.Invalid("transProduct.density20")
	}
	if in.Density20 == 0 {
		in.Density20 = tank.DefaultDensity20(*in.Product)
	}
	if in.Density20 == 0 && *in.Family != int(tank.FamilyNone) {
		return httpx.Required("transProduct.density20")
	}
	if in.Density20 != 0 && (in.Density20 < tank.MinDensity20 || in.Density20 > tank.MaxDensity20) {
		return httpx.Biz("field.range", httpx.Field("transProduct.density20"), tank.MinDensity20, tank.MaxDensity20)
	}
	if (in.K0 == nil) != (in.K1 == nil) {
		return httpx.Biz("transProduct.kPair")
	}
	if in.K0 != nil {
		if !finite(*in.K0) || *in.K0 <= 0 || *in.K0 > MaxK0 {
			return httpx.Biz("field.range", httpx.Field("transProduct.k0"), 0, int(MaxK0))
		}
		if !finite(*in.K1) || *in.K1 < 0 || *in.K1 > MaxK1 {
			return httpx.Biz("field.range", httpx.Field("transProduct.k1"), 0, int(MaxK1))
		}
	}
	return nil
}

// View is a product as the API shows it.
type View struct {
	ID        int64    `json:"id"`
	Code      string   `json:"code"`
	Name      string   `json:"name"`
	Grade     string   `json:"grade"`
	Product   int      `json:"product"`
	Family    int      `json:"family"`
	Density20 float64  `json:"density20"`
	K0        *float64 `json:"k0"`
	K1        *float64 `json:"k1"`
	GroupID   int64    `json:"groupId"`
	GroupName string   `json:"groupName,omitempty"`
	Remark    string   `json:"remark,omitempty"`
	UpdatedAt string   `json:"updatedAt,omitempty"`
}

type row struct {
	Product   `bun:",extend"`
	GroupName string `bun:"group_name"`
	GroupPath string `bun:"group_path"`
}

func (r *row) view() View {
	return View{ID: r.ID, Code: r.Code, Name: r.Name, Grade: r.Grade, Product: r.Product.Product, Family: r.Family,
		Density20: r.Density20, K0: r.K0, K1: r.K1, GroupID: r.GroupID, GroupName: r.GroupName, Remark: r.Remark,
		UpdatedAt: httpx.Time(r.UpdatedAt).String()}
}

// Service is the product catalogue.
type Service struct {
	db    *db.DB
	audit *audit.Log
	Now   func() time.Time
}

// New returns the service.
func New(d *db.DB, a *audit.Log) *Service { return &Service{db: d, audit: a, Now: time.Now} }

func (s *Service) record(r *http.Request, action, target string, id int64) {
	if s.audit != nil {
		s.audit.Record(r.Context(), r, nil, audit.Entry{Module: Module, Action: action, Target: target, TargetID: id})
	}
}

func (s *Service) sel(idb bun.IDB) *bun.SelectQuery {
	return idb.NewSelect().Model((*Product)(nil)).ColumnExpr("p.*").ColumnExpr("g.name AS group_name, g.path AS group_path").
		Join("JOIN org_groups AS g ON g.id = p.group_id")
}

// Query is the body of page.
type Query struct {
	httpx.PageReq
	Name    string `json:"name"` // name or code contains
	Product *int   `json:"product"`
	GroupID int64  `json:"groupId"`
}

var sortCols = map[string]string{"code": "p.code", "name": "p.name", "grade": "p.grade", "product": "p.product",
	"family": "p.family", "density20": "p.density20", "groupName": "g.name", "updatedAt": "p.updated_at"}

// Page lists the products of the caller's scope.
func (s *Service) Page(ctx context.Context, p *httpx.Principal, q Query) (httpx.Page[View], error) {
	var zero httpx.Page[View]
	if err := q.Normalize(); err != nil {
		return zero, err
	}
	order, err := q.OrderBy(sortCols, "g.path ASC, p.code ASC")
	if err != nil {
		return zero, err
	}
	under, err := db.ScopeUnder(ctx, s.db, p, q.GroupID)
	if err != nil {
		return zero, err
	}
	sel := s.sel(s.db).Where("g.path LIKE ?", under+"%")
	if v := strings.TrimSpace(q.Name); v != "" {
		sel = sel.WhereGroup(" AND ", func(w *bun.SelectQuery) *bun.SelectQuery {
			e, a := db.Contains("p.name", v)
			w = w.Where(e, a)
			e, a = db.Contains("UPPER(p.code)", strings.ToUpper(v)) // codes: case-insensitive on both dialects
			return w.WhereOr(e, a)
		})
	}
	if q.Product != nil {
		sel = sel.Where("p.product = ?", *q.Product)
	}
	return db.ScanPage(ctx, sel, q.PageReq, order, "p.id", func(r *row) View { return r.view() })
}

// List is every product of the caller's scope (the pickers of waybills, plans and load records).
func (s *Service) List(ctx context.Context, p *httpx.Principal) ([]View, error) {
	var rows []row
	if err := s.sel(s.db).Where("g.path LIKE ?", p.GroupPath+"%").OrderExpr("g.path, p.code, p.id").Scan(ctx, &rows); err != nil {
		return nil, err
	}
	out := make([]View, len(rows))
	for i := range rows {
		out[i] = rows[i].view()
		out[i].Remark, out[i].UpdatedAt = "", ""
	}
	return out, nil
}

func (s *Service) scoped(ctx context.Context, idb bun.IDB, p *httpx.Principal, id int64) (*row, error) {
	if id <= 0 {
		return nil, httpx.Required("id")
	}
	return db.ScopedRow(ctx, s.sel(idb).Where("p.id = ?", id), p, func(r *row) string { return r.GroupPath })
}

// Save adds (insert) or updates a product of the caller's scope.
func (s *Service) Save(r *http.Request, in Input, insert bool) (*View, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	if !insert && in.ID <= 0 {
		return nil, httpx.Required("id")
	}
	if err := in.Clean(); err != nil {
		return nil, err
	}
	m := new(Product)
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		now := s.Now().UnixMilli()
		if !insert {
			old, err := s.scoped(ctx, tx, p, in.ID)
			if err != nil {
				return err
			}
			*m = old.Product
		} else {
			m.CreatedAt = now
			m.GroupID = p.GroupID
		}
		if in.GroupID > 0 {
			if _, err := db.ScopedGroupPath(ctx, tx, p, in.GroupID); err != nil {
				return err
			}
			m.GroupID = in.GroupID
		}
		m.Code, m.Name, m.Grade, m.Product, m.Family = in.Code, in.Name, in.Grade, *in.Product, *in.Family
		m.Density20, m.K0, m.K1, m.Remark = in.Density20, in.K0, in.K1, in.Remark
		m.UpdatedAt, m.UpdatedBy = now, p.UserID
		exists := httpx.Biz("transProduct.codeExists", m.Code)
		n, err := tx.NewSelect().Model((*Product)(nil)).Where("group_id = ? AND code = ? AND id <> ?", m.GroupID, m.Code, m.ID).Count(ctx)
		if err != nil {
			return err
		}
		if n > 0 {
			return exists
		}
		return db.UniqueAs(db.Save(ctx, tx, m, insert), exists)
	})
	if err != nil {
		return nil, err
	}
	action := audit.ActionUpdate
	if insert {
		action = audit.ActionInsert
	}
	s.record(r, action, m.Name, m.ID)
	got, err := s.scoped(ctx, s.db, p, m.ID)
	if err != nil {
		return nil, err
	}
	v := got.view()
	return &v, nil
}

// Uses counts the records that name product id: waybill compartments, plan items, load record items.
func Uses(ctx context.Context, idb bun.IDB, id int64) (int, error) {
	total := 0
	for _, t := range []string{"waybill_compartments", "transport_plan_items", "load_record_items"} {
		n, err := idb.NewSelect().TableExpr(t).Where("product_id = ?", id).Count(ctx)
		if err != nil {
			return 0, err
		}
		total += int(n)
	}
	return total, nil
}

// Delete removes a product of the caller's scope that no waybill, plan or load record uses.
func (s *Service) Delete(r *http.Request, id int64) error {
	ctx, p := r.Context(), httpx.Caller(r)
	var old *row
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var err error
		if old, err = s.scoped(ctx, tx, p, id); err != nil {
			return err
		}
		n, err := Uses(ctx, tx, id)
		if err != nil {
			return err
		}
		if n > 0 {
			return httpx.Biz("transProduct.inUse", old.Name, n)
		}
		_, err = tx.NewDelete().Model((*Product)(nil)).Where("id = ?", id).Exec(ctx)
		return err
	})
	if err != nil {
		return err
	}
	s.record(r, audit.ActionDelete, old.Name, id)
	return nil
}

// SeedDemo gives group groupID the demo products (0# diesel, 92# and 95# gasoline, jet fuel) it does
// not have yet (by code).
func (s *Service) SeedDemo(ctx context.Context, groupID int64) error {
	now := s.Now().UnixMilli()
	for _, d := range []struct {
		code, name, grade string
		product           int
	}{{"CY0", "0# 柴油", "国VI", tank.ProductDiesel0}, {"QY92", "92# 汽油", "国VIB", tank.ProductGasoline92},
		{"QY95", "95# 汽油", "国VIB", tank.ProductGasoline95}, {"HM3", "航空煤油", "3号", tank.ProductJet}} {
		n, err := s.db.NewSelect().Model((*Product)(nil)).Where("group_id = ? AND code = ?", groupID, d.code).Count(ctx)
		if err != nil {
			return err
		}
		if n > 0 {
			continue
		}
		m := &Product{GroupID: groupID, Code: d.code, Name: d.name, Grade: d.grade, Product: d.product,
			Family: int(tank.ProductFamily(d.product)), Density20: tank.DefaultDensity20(d.product), CreatedAt: now, UpdatedAt: now}
		if _, err := s.db.NewInsert().Model(m).Exec(ctx); err != nil {
			return fmt.Errorf("demo product %s: %w", d.code, err)
		}
	}
	return nil
}

// Routes: page, list, add, update, delete.
func (s *Service) Routes() []httpx.Route {
	const prefix = "/base-info-app/transProduct/"
	type idBody struct {
		ID int64 `json:"id"`
	}
	return []httpx.Route{
		// the caller's own products: no record named
		{Method: "GET", Path: prefix + "list", Access: httpx.Needs(CodePage, CodeWaybill, CodeLoad, CodePlan),
			Handler: func(w http.ResponseWriter, r *http.Request) {
				data, err := s.List(r.Context(), httpx.Caller(r))
				httpx.Respond(w, r, data, err)
			}},
		{Method: "POST", Path: prefix + "page", Access: httpx.Needs(CodePage), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q Query) (any, error) { return s.Page(r.Context(), httpx.Caller(r), q) })},
		{Method: "POST", Path: prefix + "add", Access: httpx.Needs(CodeAdd), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in Input) (any, error) { return s.Save(r, in, true) })},
		{Method: "POST", Path: prefix + "update", Access: httpx.Needs(CodeEdit), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in Input) (any, error) { return s.Save(r, in, false) })},
		{Method: "POST", Path: prefix + "delete", Access: httpx.Needs(CodeDelete), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in idBody) (any, error) { return nil, s.Delete(r, in.ID) })},
	}
}
