package analysis

import (
	"context"
	"sort"

	"github.com/uptrace/bun"

	"tankwatch/internal/stats"
)

// Dimension is what the transportation page breaks its figures down by.
type Dimension string

const (
	DimCompany Dimension = "company" // the carrier group
	DimProduct Dimension = "product"
	DimRoute   Dimension = "route" // depot → first destination station
)

// Row is one line of a breakdown: a company, a product or a route, with its names.
type Row struct {
	Figs
	Name        string  `json:"name"`
	DepotID     int64   `json:"depotId,omitempty"`
	DepotName   string  `json:"depotName,omitempty"`
	StationID   int64   `json:"stationId,omitempty"`
	StationName string  `json:"stationName,omitempty"`
	Spread      *Spread `json:"spread,omitempty"`
}

// Breakdown is the transportation page's table: the set's totals and one row per dimension value.
type Breakdown struct {
	Period Period `json:"period"`
	Totals Figs   `json:"totals"`
	Rows   []Row  `json:"rows"`
}

// Service answers the analysis pages from the rollups.
type Service struct{ db bun.IDB }

// New returns the service.
func New(idb bun.IDB) *Service { return &Service{db: idb} }

// Totals are sc's figures with its abnormal events (nil for a product or a route).
func (s *Service) Totals(ctx context.Context, sc Scope) (Figs, error) {
	ts, err := byKey(ctx, s.db, sc, stats.ByTotal)
	if err != nil {
		return Figs{}, err
	}
	f := Figs{Total: ts[0]}
	if sc.ProductID == 0 && !sc.route() {
		tamper, seals, err := eventCounts(ctx, s.db, sc, stats.ByTotal)
		if err != nil {
			return Figs{}, err
		}
		f.Tampering, f.SealIncidents = ptr(tamper[0]), ptr(seals[0])
	}
	return f, nil
}

// Breakdown sums sc by dim. A product breakdown cannot be narrowed to a route and a route breakdown
// cannot be narrowed to a product (the route rollup holds trip rows, not the product split): the
// handler refuses those combinations.
func (s *Service) Breakdown(ctx context.Context, sc Scope, dim Dimension) (Breakdown, error) {
	out := Breakdown{Period: sc.Period, Rows: []Row{}}
	var err error
	if out.Totals, err = s.Totals(ctx, sc); err != nil {
		return out, err
	}
	switch dim {
	case DimRoute:
		rows, err := sumRoutes(ctx, s.db, sc, "0", true)
		if err != nil {
			return out, err
		}
		for _, r := range rows {
			sp := r.spread()
			out.Rows = append(out.Rows, Row{Figs: Figs{Total: r.Total}, DepotID: r.Depot, StationID: r.Station, Spread: &sp})
		}
	case DimProduct:
		ts, err := stats.Sum(ctx, s.db, stats.Filter{From: sc.From, To: sc.To, Under: sc.Under, GroupID: sc.GroupID, Products: true}, stats.ByProduct)
		if err != nil {
			return out, err
		}
		for _, t := range ts {
			out.Rows = append(out.Rows, Row{Figs: Figs{Total: t}})
		}
	default:
		ts, err := byKey(ctx, s.db, sc, stats.ByGroup)
		if err != nil {
			return out, err
		}
		var tamper, seals map[int64]int64
		if sc.ProductID == 0 && !sc.route() {
			if tamper, seals, err = eventCounts(ctx, s.db, sc, stats.ByGroup); err != nil {
				return out, err
			}
		}
		seen := map[int64]bool{}
		for _, t := range ts {
			seen[t.Key] = true
			out.Rows = append(out.Rows, Row{Figs: Figs{Total: t}})
		}
		// a company with events and no finished trip still has a row
		for _, m := range []map[int64]int64{tamper, seals} {
			for g := range m {
				if !seen[g] {
					seen[g] = true
					t := stats.Total{Key: g}
					t.Derive()
					out.Rows = append(out.Rows, Row{Figs: Figs{Total: t}})
				}
			}
		}
		if tamper != nil {
			for i := range out.Rows {
				k := out.Rows[i].Key
				out.Rows[i].Tampering, out.Rows[i].SealIncidents = ptr(tamper[k]), ptr(seals[k])
			}
		}
	}
	return out, s.name(ctx, dim, out.Rows)
}

// name fills the rows' names.
func (s *Service) name(ctx context.Context, dim Dimension, rows []Row) error {
	table := map[Dimension]string{DimCompany: "org_groups", DimProduct: "products", DimRoute: "stations"}[dim]
	if table == "" {
		table = "org_groups"
	}
	var ids []int64
	for _, r := range rows {
		ids = append(ids, r.Key, r.DepotID, r.StationID)
	}
	names, err := names(ctx, s.db, table, ids)
	if err != nil {
		return err
	}
	if dim == DimProduct {
		// products are kept per company: the same name twice is told apart by its company
		if err := s.productCompanies(ctx, rows, names); err != nil {
			return err
		}
	}
	for i := range rows {
		r := &rows[i]
		if dim == DimRoute {
			r.DepotName, r.StationName = names[r.DepotID], names[r.StationID]
			r.Name = r.DepotName + " → " + r.StationName
			continue
		}
		r.Name = names[r.Key]
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].ShippedV20L > rows[j].ShippedV20L })
	return nil
}

// productCompanies adds the company's name to the products whose names are shared.
func (s *Service) productCompanies(ctx context.Context, rows []Row, names map[int64]string) error {
	seen := map[string]int{}
	for _, r := range rows {
		seen[names[r.Key]]++
	}
	var ids []int64
	for _, r := range rows {
		if seen[names[r.Key]] > 1 {
			ids = append(ids, r.Key)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	var owners []struct {
		ID    int64  `bun:"id"`
		Group string `bun:"g"`
	}
	err := s.db.NewSelect().TableExpr("products AS p").Join("JOIN org_groups AS g ON g.id = p.group_id").
		ColumnExpr("p.id, g.name AS g").Where("p.id IN (?)", bun.In(ids)).Scan(ctx, &owners)
	for _, o := range owners {
		names[o.ID] += "（" + o.Group + "）"
	}
	return err
}

func names(ctx context.Context, idb bun.IDB, table string, ids []int64) (map[int64]string, error) {
	out := map[int64]string{}
	if len(ids) == 0 {
		return out, nil
	}
	var rows []struct {
		ID   int64  `bun:"id"`
		Name string `bun:"name"`
	}
	err := idb.NewSelect().Table(table).Column("id", "name").Where("id IN (?)", bun.In(ids)).Scan(ctx, &rows)
	for _, r := range rows {
		out[r.ID] = r.Name
	}
	return out, err
}

// Point is one step of a series.
type Point struct {
	Period
	Figs
}

// Series is sc's figures step by step (every step present, empty ones with zeros) and their totals.
type Series struct {
	Period Period  `json:"period"`
	Totals Figs    `json:"totals"`
	Points []Point `json:"points"`
}

// Series sums sc per day and adds the days up into the steps of g.
func (s *Service) Series(ctx context.Context, sc Scope, g Grain) (Series, error) {
	out := Series{Period: sc.Period, Points: []Point{}}
	days, err := byKey(ctx, s.db, sc, stats.ByDay)
	if err != nil {
		return out, err
	}
	events := sc.ProductID == 0 && !sc.route()
	var tamper, seals map[int64]int64
	if events {
		if tamper, seals, err = eventCounts(ctx, s.db, sc, stats.ByDay); err != nil {
			return out, err
		}
	}
	byDay := map[int]stats.Figures{}
	for _, d := range days {
		byDay[int(d.Key)] = d.Figures
	}
	var all stats.Total
	var allT, allS int64
	for _, b := range Buckets(sc.Period, g) {
		var t stats.Total
		var nt, ns int64
		for _, d := range stats.Days(b.From, b.To) {
			t.Add(byDay[d])
			nt += tamper[int64(d)]
			ns += seals[int64(d)]
		}
		t.Derive()
		all.Add(t.Figures)
		allT, allS = allT+nt, allS+ns
		p := Point{Period: b, Figs: Figs{Total: t}}
		if events {
			p.Tampering, p.SealIncidents = ptr(nt), ptr(ns)
		}
		out.Points = append(out.Points, p)
	}
	all.Derive()
	out.Totals = Figs{Total: all}
	if events {
		out.Totals.Tampering, out.Totals.SealIncidents = ptr(allT), ptr(allS)
	}
	return out, nil
}

// Comparison is a period's series against the same days of the month before and of the year before,
// with the change of every total in % (nil: nothing to compare with).
type Comparison struct {
	Current   Series              `json:"current"`
	LastMonth Series              `json:"lastMonth"`
	LastYear  Series              `json:"lastYear"`
	MoM       map[string]*float64 `json:"mom"`
	YoY       map[string]*float64 `json:"yoy"`
}

// Compare is the trend page's data.
func (s *Service) Compare(ctx context.Context, sc Scope, g Grain) (Comparison, error) {
	var c Comparison
	var err error
	if c.Current, err = s.Series(ctx, sc, g); err != nil {
		return c, err
	}
	prev := sc
	prev.Period = sc.Previous(1)
	if c.LastMonth, err = s.Series(ctx, prev, g); err != nil {
		return c, err
	}
	prev.Period = sc.Previous(12)
	if c.LastYear, err = s.Series(ctx, prev, g); err != nil {
		return c, err
	}
	c.MoM, c.YoY = Changes(c.Current.Totals, c.LastMonth.Totals), Changes(c.Current.Totals, c.LastYear.Totals)
	return c, nil
}

// Values are the compared figures of f by name (the names the pages and the export use).
func Values(f Figs) map[string]float64 {
	v := map[string]float64{"trips": float64(f.Trips), "shippedV20": f.ShippedV20L, "shippedT": f.ShippedT, "lossL": f.LossL,
		"lossRatePct": f.LossRatePct, "tonKm": f.TonKm, "km": f.Km, "abnormalOpenings": float64(f.AbnormalOpenings),
		"overAllowance": float64(f.OverAllowance)}
	if f.AvgOutToArrivalMin >= 0 {
		v["avgOutToArrivalMin"] = f.AvgOutToArrivalMin
	}
	if f.Tampering != nil {
		v["tampering"] = float64(*f.Tampering)
	}
	if f.SealIncidents != nil {
		v["sealIncidents"] = float64(*f.SealIncidents)
	}
	return v
}

// Figures lists the compared figures in the pages' order.
var Figures = []string{"trips", "shippedV20", "shippedT", "lossL", "lossRatePct", "tonKm", "km", "avgOutToArrivalMin",
	"abnormalOpenings", "overAllowance", "tampering", "sealIncidents"}

// Changes is the change in % of every figure from prev to cur (nil when either is not known or prev is 0).
func Changes(cur, prev Figs) map[string]*float64 {
	c, p := Values(cur), Values(prev)
	out := map[string]*float64{}
	for _, k := range Figures {
		cv, ok1 := c[k]
		pv, ok2 := p[k]
		if ok1 && ok2 {
			out[k] = Change(cv, pv)
		} else {
			out[k] = nil
		}
	}
	return out
}

// Option is a product or a route that has finished trips in a period (the pages' filters offer those).
type Option struct {
	ProductID int64  `json:"productId,omitempty"`
	DepotID   int64  `json:"depotId,omitempty"`
	StationID int64  `json:"stationId,omitempty"`
	Name      string `json:"name"`
	Trips     int64  `json:"trips"`
}

// Options lists the products and the routes of sc's finished trips (of its company, whatever product
// or route it names).
func (s *Service) Options(ctx context.Context, sc Scope) (map[string][]Option, error) {
	sc.ProductID, sc.DepotID, sc.StationID = 0, 0, 0
	out := map[string][]Option{"products": {}, "routes": {}}
	for _, d := range []Dimension{DimProduct, DimRoute} {
		b, err := s.Breakdown(ctx, sc, d)
		if err != nil {
			return nil, err
		}
		for _, r := range b.Rows {
			if d == DimProduct {
				out["products"] = append(out["products"], Option{ProductID: r.Key, Name: r.Name, Trips: r.Trips})
			} else {
				out["routes"] = append(out["routes"], Option{DepotID: r.DepotID, StationID: r.StationID, Name: r.Name, Trips: r.Trips})
			}
		}
	}
	return out, nil
}
