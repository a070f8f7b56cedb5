// Package sales is the sales companies' carriers (baseSalesTrans: which carrier groups haul for which
// sales company; a sales company is an org group flagged sales, internal/org) and the document
// numbers handed out by baseCode/getNextCodeByCode.
package sales

import (
	"context"
	"database/sql"
	"errors"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"tankwatch/internal/audit"
	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/waybill"
)

// Permission codes (internal/org/menu.json).
const (
	CodeBind = "06-04-06" // groupInfo: sales companies and their carriers
	Module   = "salesCompany"
	maxBind  = 500
)

// Service is the sales/carrier bindings and the code sequences.
type Service struct {
	db    *db.DB
	audit *audit.Log
	Now   func() time.Time
}

// New returns the service.
func New(d *db.DB, a *audit.Log) *Service { return &Service{db: d, audit: a, Now: time.Now} }

type groupRef struct {
	ID    int64  `bun:"id"`
	Name  string `bun:"name"`
	Path  string `bun:"path"`
	Sales bool   `bun:"sales"`
}

func (s *Service) group(ctx context.Context, idb bun.IDB, p *httpx.Principal, id int64) (*groupRef, error) {
	if id <= 0 {
		return nil, httpx.Required("salesCompany.salesGroup")
	}
	sel := idb.NewSelect().Table("org_groups").Column("id", "name", "path", "sales").Where("id = ?", id)
	return db.ScopedRow(ctx, sel, p, func(g *groupRef) string { return g.Path })
}

// BindInput is the body of bindSalesAndTrans.
type BindInput struct {
	SalesGroupID  int64   `json:"salesGroupId"`
	TransGroupIDs []int64 `json:"transGroupIds"`
}

// Bind replaces the carriers bound to a sales company of the caller's scope; every carrier must be a
// group of the caller's scope too.
func (s *Service) Bind(r *http.Request, in BindInput) ([]Pair, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	if len(in.TransGroupIDs) > maxBind {
		return nil, httpx.Biz("field.maxCount", httpx.Field("salesCompany.carriers"), maxBind)
	}
	ids := slices.Clone(in.TransGroupIDs)
	slices.Sort(ids)
	ids = slices.Compact(ids)
	var sales *groupRef
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var err error
		if sales, err = s.group(ctx, tx, p, in.SalesGroupID); err != nil {
			return err
		}
		if !sales.Sales {
			return httpx.Biz("salesCompany.notSales", sales.Name)
		}
		for _, id := range ids {
			if id <= 0 {
				return httpx.Invalid("salesCompany.carriers")
			}
			g, err := s.group(ctx, tx, p, id)
			if err != nil {
				return err
			}
			if g.ID == sales.ID {
				return httpx.Biz("salesCompany.selfBind", g.Name)
			}
		}
		if _, err := tx.NewDelete().TableExpr("sales_trans").Where("sales_group_id = ?", sales.ID).Exec(ctx); err != nil {
			return err
		}
		now := s.Now().UnixMilli()
		for _, id := range ids {
			if _, err := tx.NewRaw("INSERT INTO sales_trans (sales_group_id, trans_group_id, created_by, created_at) VALUES (?, ?, ?, ?)",
				sales.ID, id, p.UserID, now).Exec(ctx); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if s.audit != nil {
		s.audit.Record(ctx, r, nil, audit.Entry{Module: Module, Action: audit.ActionUpdate, Target: sales.Name, TargetID: sales.ID,
			Detail: audit.Text("oplog.salesCarriers", len(ids))})
	}
	sid := sales.ID
	return s.Find(ctx, p, FindQuery{SalesGroupID: &sid})
}

// Pair is one binding.
type Pair struct {
	SalesGroupID   int64  `json:"salesGroupId" bun:"sales_group_id"`
	SalesGroupName string `json:"salesGroupName" bun:"sales_group_name"`
	TransGroupID   int64  `json:"transGroupId" bun:"trans_group_id"`
	TransGroupName string `json:"transGroupName" bun:"trans_group_name"`
}

// FindQuery is the body of findList (both optional).
type FindQuery struct {
	SalesGroupID *int64 `json:"salesGroupId"`
	TransGroupID *int64 `json:"transGroupId"`
}

// Find lists the bindings where the caller sees the sales company or the carrier.
func (s *Service) Find(ctx context.Context, p *httpx.Principal, q FindQuery) ([]Pair, error) {
	out := []Pair{}
	sel := s.db.NewSelect().TableExpr("sales_trans AS b").
		ColumnExpr("b.sales_group_id, sg.name AS sales_group_name, b.trans_group_id, tg.name AS trans_group_name").
		Join("JOIN org_groups AS sg ON sg.id = b.sales_group_id").Join("JOIN org_groups AS tg ON tg.id = b.trans_group_id").
		WhereGroup(" AND ", func(w *bun.SelectQuery) *bun.SelectQuery {
			return w.Where("sg.path LIKE ?", p.GroupPath+"%").WhereOr("tg.path LIKE ?", p.GroupPath+"%")
		})
	if q.SalesGroupID != nil {
		sel = sel.Where("b.sales_group_id = ?", *q.SalesGroupID)
	}
	if q.TransGroupID != nil {
		sel = sel.Where("b.trans_group_id = ?", *q.TransGroupID)
	}
	err := sel.OrderExpr("sg.path, tg.path").Scan(ctx, &out)
	return out, err
}

// SeedDemo binds carriers to the sales company salesID (demo; idempotent).
func (s *Service) SeedDemo(ctx context.Context, salesID int64, carriers []int64) error {
	now := s.Now().UnixMilli()
	for _, id := range carriers {
		if _, err := s.db.NewRaw("INSERT INTO sales_trans (sales_group_id, trans_group_id, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
			salesID, id, now).Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}

// Kinds getNextCodeByCode numbers: waybills, plans, load records, customers.
var Kinds = []string{waybill.KindWaybill, waybill.KindPlan, waybill.KindLoad, "KH"}

// NextCode hands out the next document number of company companyCode (the caller's own company code
// when empty) and kind (YD when empty): waybill.DocPrefix + 4 digits, never twice. The company must be
// a group of the caller's scope or one above the caller's group (whose code the caller's documents
// carry, waybill.CompanyCodeOf).
func (s *Service) NextCode(ctx context.Context, p *httpx.Principal, companyCode, kind string) (string, error) {
	companyCode, kind = strings.TrimSpace(companyCode), strings.ToUpper(strings.TrimSpace(kind))
	if kind == "" {
		kind = waybill.KindWaybill
	}
	if !slices.Contains(Kinds, kind) {
		return "", httpx.Biz("baseCode.kind", strings.Join(Kinds, ", "))
	}
	if companyCode == "" {
		var err error
		if companyCode, err = waybill.CompanyCodeOf(ctx, s.db, p.GroupID); err != nil {
			return "", err
		}
		if companyCode == "" {
			return "", httpx.Required("baseCode.company")
		}
	} else {
		var path string
		err := s.db.NewSelect().Table("org_groups").Column("path").Where("code = ?", companyCode).Limit(1).Scan(ctx, &path)
		if errors.Is(err, sql.ErrNoRows) {
			return "", httpx.Biz("baseCode.unknown", companyCode)
		}
		if err != nil {
			return "", err
		}
		if !p.InScope(path) && !strings.HasPrefix(p.GroupPath, path) {
			return "", httpx.ErrScope
		}
	}
	prefix := waybill.DocPrefix(companyCode, kind, s.Now())
	if kind == "KH" {
		prefix = companyCode + kind
	}
	n, err := waybill.NextNumber(ctx, s.db, prefix)
	if err != nil {
		return "", err
	}
	return waybill.Code(prefix, n, 4), nil
}

// Routes: bindSalesAndTrans, findList, getNextCodeByCode.
func (s *Service) Routes() []httpx.Route {
	caller := httpx.Caller
	return []httpx.Route{
		{Method: "POST", Path: "/base-info-app/baseSalesTrans/bindSalesAndTrans", Access: httpx.Needs(CodeBind), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in BindInput) (any, error) { return s.Bind(r, in) })},
		// filters only: every pair listed has a side in the caller's scope
		{Method: "POST", Path: "/base-info-app/baseSalesTrans/findList", Access: httpx.SignedIn,
			Handler: httpx.JSON(func(r *http.Request, q FindQuery) (any, error) { return s.Find(r.Context(), caller(r), q) })},
		{Method: "GET", Path: "/base-info-app/baseCode/getNextCodeByCode", Access: httpx.Needs("03-13-01", "03-13", "04-24", "04-25", "06-05-01"), Scoped: true,
			Handler: func(w http.ResponseWriter, r *http.Request) {
				q := r.URL.Query()
				code, err := s.NextCode(r.Context(), caller(r), q.Get("helpRecordCode"), q.Get("kind"))
				httpx.Respond(w, r, code, err)
			}},
	}
}
