// Package pages is the car, company and product statistics of issue 16 (carStat, compStat,
// transportProductStat and their sales-company twins, D50/D55): sums of the trip rollup per car,
// carrier company, sales company or product over a period, sorted and paged with the totals of the
// whole set, the trips behind every number, and the xlsx exports.
package pages

import (
	"context"
	"database/sql"
	"errors"
	"sort"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/stats"
)

// Kind is what a page's rows are.
type Kind string

const (
	KindCar     Kind = "car"     // carStat / carStat2: one row per car
	KindCompany Kind = "company" // compStat: per carrier group; compStat2: per sales company
	KindProduct Kind = "product" // transportProductStat / 2: per product (the product split)
)

// Page codes (menu.json): the read code and the export button of each page, carrier view then sales view.
var codes = map[Kind][2][2]string{
	KindCar:     {{"04-28", "04-28-01"}, {"04-31", "04-31-01"}},
	KindCompany: {{"04-29", "04-29-01"}, {"04-32", "04-32-01"}},
	KindProduct: {{"04-30", "04-30-01"}, {"04-33", "04-33-01"}},
}

// ReadCodes are every page's read code, ExportCodes every export button (the routes' Needs).
func ReadCodes(k Kind) []string   { return []string{codes[k][0][0], codes[k][1][0]} }
func ExportCodes(k Kind) []string { return []string{codes[k][0][1], codes[k][1][1]} }

// MaxDays bounds a period (three years).
const MaxDays = 3*366 + 1

// MaxDrillTrips bounds the trips listed behind one number.
const MaxDrillTrips = 50_000

// Service answers the pages.
type Service struct {
	db  bun.IDB
	Now func() time.Time
}

// New returns the service.
func New(idb bun.IDB) *Service { return &Service{db: idb, Now: time.Now} }

// Query is the body of the pages, their exports and the drill-down.
type Query struct {
	httpx.PageReq
	Start httpx.Time `json:"start"`
	End   httpx.Time `json:"end"`
	// Sales: the "2" page, the sales company's view (its sold trips, grouped by sales company on compStat2).
	Sales        bool  `json:"sales"`
	GroupID      int64 `json:"groupId"`      // the carrier group (sales view: the sales company's group) to look under
	CarID        int64 `json:"carId"`        // one car
	SalesGroupID int64 `json:"salesGroupId"` // one sales company (carrier view)
	ProductID    int64 `json:"productId"`    // one product
}

// Row is one line of a page: the sums of its key and what names it.
type Row struct {
	stats.Total
	Name      string `json:"name"`
	GroupName string `json:"groupName,omitempty"` // a car's carrier, a product's company
}

// Result is a page: the sorted, paged rows, the totals of every row, the top ten by V20 (the chart)
// and the period actually counted (whole Asia/Shanghai days).
type Result struct {
	httpx.Page[Row]
	Sum  Row    `json:"sum"`
	Top  []Row  `json:"top"`
	From string `json:"from"`
	To   string `json:"to"`
	// Products are the product filter's choices: the products carried in the period and scope (the
	// other filters applied, not the product itself), largest V20 first.
	Products []ProductOption `json:"products"`
}

// ProductOption is one product of the product filter.
type ProductOption struct {
	ID        int64  `json:"id"`
	Name      string `json:"name"`
	GroupName string `json:"groupName"`
	Trips     int64  `json:"trips"`
}

// code is the permission the caller needs for k in its view (export: the button).
func code(k Kind, sales, export bool) string {
	v, e := 0, 0
	if sales {
		v = 1
	}
	if export {
		e = 1
	}
	return codes[k][v][e]
}

// filter checks the query (period, view permission, scope, ids) and returns the rollup filter.
func (s *Service) filter(ctx context.Context, p *httpx.Principal, k Kind, q *Query, export bool) (stats.Filter, error) {
	if !p.Has(code(k, q.Sales, export)) {
		return stats.Filter{}, httpx.ErrForbidden
	}
	if q.Start == 0 || q.End == 0 {
		return stats.Filter{}, httpx.Required("tripStats.period")
	}
	if q.End < q.Start {
		return stats.Filter{}, httpx.Biz("tripStats.endBeforeStart")
	}
	f := stats.Filter{From: stats.Day(int64(q.Start)), To: stats.Day(int64(q.End)), SalesView: q.Sales, Products: k == KindProduct}
	if len(stats.Days(f.From, f.To)) > MaxDays {
		return f, httpx.Biz("tripStats.periodTooLong", 3)
	}
	under, err := db.ScopeUnder(ctx, s.db, p, q.GroupID)
	if err != nil {
		return f, err
	}
	f.Under = under
	if q.CarID > 0 {
		var path string
		err := s.db.NewSelect().TableExpr("cars AS c").ColumnExpr("g.path").Join("JOIN org_groups AS g ON g.id = c.group_id").
			Where("c.id = ?", q.CarID).Scan(ctx, &path)
		if errors.Is(err, sql.ErrNoRows) {
			return f, httpx.ErrNotFound
		} else if err != nil {
			return f, err
		}
		// the sales view lists the carriers' trucks that carried its loads: the rows are limited to its sold trips anyway
		if !q.Sales && !p.InScope(path) {
			return f, httpx.ErrScope
		}
		f.CarID = q.CarID
	}
	if q.SalesGroupID > 0 {
		var path string
		err := s.db.NewSelect().Table("org_groups").Column("path").Where("id = ?", q.SalesGroupID).Scan(ctx, &path)
		if errors.Is(err, sql.ErrNoRows) {
			return f, httpx.ErrNotFound
		} else if err != nil {
			return f, err
		}
		if q.Sales && !p.InScope(path) {
			return f, httpx.ErrScope
		}
		f.SalesGroupID = q.SalesGroupID
	}
	if q.ProductID > 0 {
		n, err := s.db.NewSelect().Table("products").Where("id = ?", q.ProductID).Count(ctx)
		if err != nil {
			return f, err
		}
		if n == 0 {
			return f, httpx.ErrNotFound
		}
		f.ProductID, f.Products = q.ProductID, true
	}
	return f, nil
}

// by is the grouping of a page.
func by(k Kind, sales bool) stats.By {
	switch {
	case k == KindCar:
		return stats.ByCar
	case k == KindProduct:
		return stats.ByProduct
	case sales:
		return stats.BySales
	}
	return stats.ByGroup
}

// rows sums the page's rows and its totals and names the rows.
func (s *Service) rows(ctx context.Context, k Kind, q *Query, f stats.Filter) ([]Row, Row, error) {
	sums, err := stats.Sum(ctx, s.db, f, by(k, q.Sales))
	if err != nil {
		return nil, Row{}, err
	}
	tot, err := stats.Sum(ctx, s.db, f, stats.ByTotal)
	if err != nil {
		return nil, Row{}, err
	}
	out := make([]Row, len(sums))
	for i, t := range sums {
		out[i] = Row{Total: t}
	}
	if err := s.name(ctx, k, out); err != nil {
		return nil, Row{}, err
	}
	return out, Row{Total: tot[0]}, nil
}

// name fills the rows' names: plate and carrier, group, sales company or product.
func (s *Service) name(ctx context.Context, k Kind, rows []Row) error {
	if len(rows) == 0 {
		return nil
	}
	ids := make([]int64, len(rows))
	for i, r := range rows {
		ids[i] = r.Key
	}
	var names []struct {
		ID    int64  `bun:"id"`
		Name  string `bun:"name"`
		Group string `bun:"grp"`
	}
	var sel *bun.SelectQuery
	switch {
	case k == KindCar:
		sel = s.db.NewSelect().TableExpr("cars AS c").ColumnExpr("c.id, c.plate AS name, g.name AS grp").
			Join("JOIN org_groups AS g ON g.id = c.group_id").Where("c.id IN (?)", bun.In(ids))
	case k == KindProduct:
		// products are each company's own: the same name can stand for several, the company tells them apart
		sel = s.db.NewSelect().TableExpr("products AS c").ColumnExpr("c.id, c.name, g.name AS grp").
			Join("JOIN org_groups AS g ON g.id = c.group_id").Where("c.id IN (?)", bun.In(ids))
	default:
		sel = s.db.NewSelect().TableExpr("org_groups AS c").ColumnExpr("c.id, c.name, '' AS grp").Where("c.id IN (?)", bun.In(ids))
	}
	if err := sel.Scan(ctx, &names); err != nil {
		return err
	}
	byID := make(map[int64]int, len(names))
	for i, n := range names {
		byID[n.ID] = i
	}
	for i := range rows {
		if j, ok := byID[rows[i].Key]; ok {
			rows[i].Name, rows[i].GroupName = names[j].Name, names[j].Group
		}
	}
	return nil
}

// sortKeys are the sortable columns.
var sortKeys = map[string]func(r *Row) float64{
	"trips": func(r *Row) float64 { return float64(r.Trips) }, "shippedVt": func(r *Row) float64 { return r.ShippedVtL },
	"shippedV20": func(r *Row) float64 { return r.ShippedV20L }, "shippedT": func(r *Row) float64 { return r.ShippedT },
	"receivedV20": func(r *Row) float64 { return r.ReceivedV20L }, "lossL": func(r *Row) float64 { return r.LossL },
	"lossRatePct": func(r *Row) float64 { return r.LossRatePct }, "km": func(r *Row) float64 { return r.Km },
	"tonKm": func(r *Row) float64 { return r.TonKm }, "avgOutToArrivalMin": func(r *Row) float64 { return r.AvgOutToArrivalMin },
	"abnormalOpenings": func(r *Row) float64 { return float64(r.AbnormalOpenings) },
	"overAllowance":    func(r *Row) float64 { return float64(r.OverAllowance) },
}

// order sorts rows by the query's column (default: shipped V20, largest first); ties by name.
func order(rows []Row, field, dir string) error {
	if field == "" {
		field, dir = "shippedV20", "descend"
	}
	asc := !strings.HasPrefix(strings.ToLower(dir), "desc")
	if field == "name" {
		sort.SliceStable(rows, func(i, j int) bool {
			if asc {
				return rows[i].Name < rows[j].Name
			}
			return rows[i].Name > rows[j].Name
		})
		return nil
	}
	key, ok := sortKeys[field]
	if !ok {
		return httpx.Invalid("tripStats.sortField")
	}
	sort.SliceStable(rows, func(i, j int) bool {
		a, b := key(&rows[i]), key(&rows[j])
		if a == b {
			return rows[i].Name < rows[j].Name
		}
		return (a < b) == asc
	})
	return nil
}

// Page is one page's rows.
func (s *Service) Page(ctx context.Context, p *httpx.Principal, k Kind, q Query) (*Result, error) {
	if err := q.Normalize(); err != nil {
		return nil, err
	}
	f, err := s.filter(ctx, p, k, &q, false)
	if err != nil {
		return nil, err
	}
	rows, sum, err := s.rows(ctx, k, &q, f)
	if err != nil {
		return nil, err
	}
	res := &Result{Sum: sum, From: dayText(f.From), To: dayText(f.To)}
	top := append([]Row{}, rows...) // [] rather than null when there are no rows
	_ = order(top, "shippedV20", "descend")
	res.Top = top[:min(10, len(top))]
	if err := order(rows, q.SortField, q.SortOrder); err != nil {
		return nil, err
	}
	res.Page = httpx.Page[Row]{List: []Row{}, Total: len(rows), PageNum: q.PageNum, PageSize: q.PageSize}
	if lo := (q.PageNum - 1) * q.PageSize; lo < len(rows) {
		res.List = rows[lo:min(lo+q.PageSize, len(rows))]
	}
	if res.Products, err = s.products(ctx, f); err != nil {
		return nil, err
	}
	return res, nil
}

// products lists the product filter's choices under f without its product.
func (s *Service) products(ctx context.Context, f stats.Filter) ([]ProductOption, error) {
	f.ProductID, f.Products = 0, true
	sums, err := stats.Sum(ctx, s.db, f, stats.ByProduct)
	if err != nil {
		return nil, err
	}
	rows := make([]Row, len(sums))
	for i, t := range sums {
		rows[i] = Row{Total: t}
	}
	if err := s.name(ctx, KindProduct, rows); err != nil {
		return nil, err
	}
	_ = order(rows, "shippedV20", "descend")
	out := make([]ProductOption, len(rows))
	for i, r := range rows {
		out[i] = ProductOption{ID: r.Key, Name: r.Name, GroupName: r.GroupName, Trips: r.Trips}
	}
	return out, nil
}

// dayText is YYYYMMDD as YYYY-MM-DD.
func dayText(d int) string {
	return time.Date(d/10000, time.Month(d/100%100), d%100, 0, 0, 0, 0, time.UTC).Format("2006-01-02")
}
