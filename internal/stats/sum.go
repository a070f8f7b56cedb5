package stats

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/uptrace/bun"
)

// By is what a sum is grouped by.
type By string

const (
	ByTotal   By = ""        // one row for the whole filtered set
	ByCar     By = "car"     // key: car id
	ByGroup   By = "group"   // key: the carrier group id
	BySales   By = "sales"   // key: the sales company's group id (0: trips sold by no sales company)
	ByProduct By = "product" // key: product id (rows of the product split)
	ByDay     By = "day"     // key: YYYYMMDD
	ByMonth   By = "month"   // key: YYYYMM
)

// Filter selects rollup rows. Under is a group path prefix (the caller's checked scope): the carrier
// group's path, or the sales company's when SalesView is set (the "2" pages). Products selects the
// product split instead of the trip rows (always so when grouping by product).
type Filter struct {
	From, To     int // days YYYYMMDD, inclusive
	Under        string
	SalesView    bool
	CarID        int64
	GroupID      int64 // exactly this carrier group (0: any under Under)
	SalesGroupID int64 // exactly this sales company (0: any)
	NoSales      bool  // only the trips sold by no sales company (the BySales row of key 0)
	ProductID    int64 // with Products: one product
	Products     bool
}

// Total is one grouped sum with its derived figures.
type Total struct {
	Key int64 `bun:"k" json:"key"`
	Figures
	LossRatePct        float64 `bun:"-" json:"lossRatePct"`        // loss over shipped V20, %, 4 decimals
	AvgOutToArrivalMin float64 `bun:"-" json:"avgOutToArrivalMin"` // -1: no timed trip
}

// Derive rounds the sums to a thousandth (a millilitre, a kilogram, a metre) and fills the rate and
// the average from them. The same trips added in another order (the rollup's layers in SQL, a
// drill-down's lines in Go) differ in their last bits; a sum of one-decimal volumes can be exactly
// x.5 litres, which the two then showed as x and x+1 (D122). Rounded here, both are the same number.
func (t *Total) Derive() {
	for _, v := range []*float64{&t.ShippedVtL, &t.ShippedV20L, &t.ShippedT, &t.ReceivedV20L, &t.LossL, &t.Km, &t.TonKm, &t.OutToArrivalMin} {
		*v = math.Round(*v*1000) / 1000
	}
	t.LossRatePct = 0
	if t.ShippedV20L > 0 {
		t.LossRatePct = math.Round(t.LossL/t.ShippedV20L*100*10000) / 10000
	}
	t.AvgOutToArrivalMin = -1
	if t.TimedTrips > 0 {
		t.AvgOutToArrivalMin = math.Round(t.OutToArrivalMin/float64(t.TimedTrips)*10) / 10
	}
}

var keyExpr = map[By]string{ByTotal: "0", ByCar: "s.car_id", ByGroup: "s.group_id", BySales: "s.sales_group_id",
	ByProduct: "s.product_id", ByDay: "s.day", ByMonth: "s.day / 100"}

// Sum adds up the rollup rows that f selects, grouped by by, ordered by key. Whole months are read from
// the monthly rollup and the days at the edges of the period from the daily one (D55); the result is
// the daily rows' sum.
func Sum(ctx context.Context, idb bun.IDB, f Filter, by By) ([]Total, error) {
	return sum(ctx, idb, f, by, true)
}

// source is the rows Sum reads for f: the daily rows of the edge days, and the monthly rows of the whole
// months (with day = YYYYMM00, so that day / 100 is still the month). The filters go into each branch
// so that PostgreSQL reads only the rows it sums (D55).
//
// fast: whole months from the monthly layer, and without a car filter or grouping the group layer (no
// car dimension); otherwise every row from the cars' daily rows (the reference the tests compare with).
func source(idb bun.IDB, f Filter, products, fast, cars, days bool) *bun.RawQuery {
	daily, monthlyT, car := "stat_trip_daily", "stat_trip_monthly", "car_id"
	if fast && !cars {
		daily, monthlyT, car = "stat_trip_group_daily", "stat_trip_group_monthly", "0 AS car_id"
	}
	monthly := fast && !days
	cols := "day, " + car + ", group_id, sales_group_id, product_id, " + monthCols
	var cond []string
	var cargs []any
	if products {
		cond = append(cond, "product_id > 0")
		if f.ProductID > 0 {
			cond, cargs = append(cond, "product_id = ?"), append(cargs, f.ProductID)
		}
	} else {
		cond = append(cond, "product_id = 0")
	}
	scope := "group_id"
	if f.SalesView {
		scope = "sales_group_id"
	}
	cond, cargs = append(cond, scope+" IN (SELECT id FROM org_groups WHERE path LIKE ?)"), append(cargs, f.Under+"%")
	for _, c := range []struct {
		col string
		v   int64
	}{{"car_id", f.CarID}, {"group_id", f.GroupID}, {"sales_group_id", f.SalesGroupID}} {
		if c.v > 0 {
			cond, cargs = append(cond, c.col+" = ?"), append(cargs, c.v)
		}
	}
	if f.NoSales {
		cond = append(cond, "sales_group_id = 0")
	}
	where := strings.Join(cond, " AND ")
	// running: the cars' partial months as differences of their month-to-date rows (D70)
	running := monthly && cars
	var ranges []string
	var args []any
	var months, plus, minus []int
	for m := Month(f.From); f.From <= f.To && m <= Month(f.To); m = Month(NextDay(m*100 + 31)) {
		first, last := m*100+1, int(AddDays(Month(NextDay(m*100+31))*100+1, -1))
		lo, hi := max(f.From, first), min(f.To, last)
		switch {
		case monthly && lo == first && hi == last:
			months = append(months, m)
			continue
		case running:
			plus = append(plus, hi)
			if lo > first {
				minus = append(minus, int(AddDays(lo, -1)))
			}
			continue
		}
		if n := len(ranges); n > 0 && args[2*n-1].(int) == int(AddDays(lo, -1)) {
			args[2*n-1] = hi // the days of consecutive months read as one range
			continue
		}
		ranges = append(ranges, "day BETWEEN ? AND ?")
		args = append(args, lo, hi)
	}
	var parts []string
	if len(ranges) > 0 {
		parts = append(parts, "SELECT "+cols+" FROM "+daily+" WHERE ("+strings.Join(ranges, " OR ")+") AND "+where)
		args = append(args, cargs...)
	}
	if len(months) > 0 {
		parts = append(parts, "SELECT month * 100 AS day, "+car+", group_id, sales_group_id, product_id, "+monthCols+
			" FROM "+monthlyT+" WHERE month IN (?) AND "+where)
		args = append(append(args, bun.In(months)), cargs...)
	}
	if len(plus) > 0 {
		parts = append(parts, "SELECT "+cols+" FROM stat_trip_mtd WHERE day IN (?) AND "+where)
		args = append(append(args, bun.In(plus)), cargs...)
	}
	if len(minus) > 0 {
		// the day before the range is in the same month, so day / 100 is still the range's month
		parts = append(parts, "SELECT day, car_id, group_id, sales_group_id, product_id, "+negated()+
			" FROM stat_trip_mtd WHERE day IN (?) AND "+where)
		args = append(append(args, bun.In(minus)), cargs...)
	}
	if len(parts) == 0 {
		return idb.NewRaw("(SELECT " + cols + " FROM " + daily + " WHERE 1 = 0)")
	}
	return idb.NewRaw("("+strings.Join(parts, " UNION ALL ")+")", args...)
}

// negated is monthCols as 0 - column, each named as itself.
func negated() string {
	var out []string
	for _, c := range strings.Split(monthCols, ",") {
		c = strings.TrimSpace(c)
		out = append(out, "0 - "+c+" AS "+c)
	}
	return strings.Join(out, ", ")
}

func sum(ctx context.Context, idb bun.IDB, f Filter, by By, fast bool) ([]Total, error) {
	key, ok := keyExpr[by]
	if !ok {
		return nil, fmt.Errorf("stats: unknown grouping %q", by)
	}
	sel := idb.NewSelect().TableExpr("? AS s", source(idb, f, f.Products || by == ByProduct, fast, by == ByCar || f.CarID > 0, by == ByDay)).ColumnExpr(key + " AS k").
		ColumnExpr("COALESCE(SUM(s.trips), 0) AS trips, COALESCE(SUM(s.shipped_vt_l), 0.0) AS shipped_vt_l, COALESCE(SUM(s.shipped_v20_l), 0.0) AS shipped_v20_l").
		ColumnExpr("COALESCE(SUM(s.shipped_t), 0.0) AS shipped_t, COALESCE(SUM(s.received_v20_l), 0.0) AS received_v20_l, COALESCE(SUM(s.loss_l), 0.0) AS loss_l").
		ColumnExpr("COALESCE(SUM(s.km), 0.0) AS km, COALESCE(SUM(s.ton_km), 0.0) AS ton_km, COALESCE(SUM(s.timed_trips), 0) AS timed_trips").
		ColumnExpr("COALESCE(SUM(s.out_to_arrival_min), 0.0) AS out_to_arrival_min, COALESCE(SUM(s.abnormal_openings), 0) AS abnormal_openings").
		ColumnExpr("COALESCE(SUM(s.over_allowance), 0) AS over_allowance")
	if by != ByTotal {
		// a key whose running sums did not move in the range adds up to nothing: it had no trip there
		sel = sel.GroupExpr(key).Having("SUM(s.trips) <> 0").OrderExpr(key)
	}
	var out []Total
	if err := sel.Scan(ctx, &out); err != nil {
		return nil, err
	}
	if by == ByTotal && len(out) == 0 {
		out = []Total{{}} // the whole set's total exists even when the set is empty
	}
	for i := range out {
		out[i].round()
		out[i].Derive()
	}
	return out, nil
}

// round drops the last bits that a difference of running sums leaves (20.000000000003 for 20).
func (t *Total) round() {
	for _, v := range []*float64{&t.ShippedVtL, &t.ShippedV20L, &t.ShippedT, &t.ReceivedV20L, &t.LossL, &t.Km, &t.TonKm, &t.OutToArrivalMin} {
		*v = math.Round(*v*1e6) / 1e6
	}
}
