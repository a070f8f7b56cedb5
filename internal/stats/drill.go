package stats

import (
	"context"
	"errors"
	"sort"

	"github.com/uptrace/bun"
)

// Only narrows the trips behind a number to those that make it up (the drill-down of a count).
type Only string

const (
	OnlyAll      Only = ""         // every trip of the row
	OnlyOver     Only = "over"     // trips over the loss allowance (overAllowance)
	OnlyOpenings Only = "openings" // trips with openings on the way (abnormalOpenings)
	OnlyTimed    Only = "timed"    // trips with a known out-to-arrival time (the average's trips)
)

// TripLine is one finished trip with the figures it gives the row it is listed under: the trip's own
// figures, or with Filter.Products its products' share (the product split of D50).
type TripLine struct {
	ID, CarID, GroupID, SalesGroupID int64
	ClosedAt                         int64
	Figures
}

// ErrTooManyTrips: the drill-down would read more than the limit of trips.
var ErrTooManyTrips = errors.New("stats: too many trips behind one number")

// Trips recomputes, from the waybills and not from the rollup, the finished trips that f selects and
// the figures each one adds to Sum(f): the list behind a number, whose sums are the number. Trips
// are newest first; more than limit trips is ErrTooManyTrips.
func Trips(ctx context.Context, idb bun.IDB, f Filter, only Only, limit int) ([]TripLine, error) {
	where := "w.closed_at BETWEEN ? AND ?"
	args := []any{DayStart(f.From), DayEnd(f.To)}
	col := "w.group_id"
	if f.SalesView {
		col = "w.sales_group_id"
	}
	where += " AND " + col + " IN (SELECT id FROM org_groups WHERE path LIKE ?)"
	args = append(args, f.Under+"%")
	for _, c := range []struct {
		col string
		v   int64
	}{{"w.car_id", f.CarID}, {"w.group_id", f.GroupID}, {"w.sales_group_id", f.SalesGroupID}} {
		if c.v > 0 {
			where += " AND " + c.col + " = ?"
			args = append(args, c.v)
		}
	}
	if f.NoSales {
		where += " AND (w.sales_group_id IS NULL OR w.sales_group_id = 0)"
	}
	if f.Products && f.ProductID > 0 {
		where += ` AND EXISTS (SELECT 1 FROM load_record_items AS i JOIN load_records AS r ON r.id = i.record_id
			WHERE r.waybill_id = w.id AND i.product_id = ?)`
		args = append(args, f.ProductID)
	}
	var n int
	if err := idb.NewSelect().TableExpr("waybills AS w").ColumnExpr("COUNT(*)").Where("w.state IN (?)", bun.In(finished)).
		Where(where, args...).Scan(ctx, &n); err != nil {
		return nil, err
	}
	if n > limit {
		return nil, ErrTooManyTrips
	}
	trips, err := loadTrips(ctx, idb, where, args...)
	if err != nil {
		return nil, err
	}
	out := make([]TripLine, 0, len(trips))
	for _, t := range trips {
		fig := tripFigures(t)
		if f.Products {
			fig = Figures{}
			for p, pf := range productFigures(t) {
				if f.ProductID == 0 || p == f.ProductID {
					fig.Add(pf)
				}
			}
			if fig.Trips == 0 {
				continue // a trip without a load record has no product rows
			}
		}
		switch {
		case only == OnlyOver && fig.OverAllowance == 0, only == OnlyOpenings && fig.AbnormalOpenings == 0,
			only == OnlyTimed && fig.TimedTrips == 0:
			continue
		}
		out = append(out, TripLine{ID: t.ID, CarID: t.CarID, GroupID: t.GroupID, SalesGroupID: t.SalesGroupID, ClosedAt: t.ClosedAt, Figures: fig})
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].ClosedAt != out[j].ClosedAt {
			return out[i].ClosedAt > out[j].ClosedAt
		}
		return out[i].ID > out[j].ID
	})
	return out, nil
}

// AddLines is the sum of the lines' figures with the derived ones.
func AddLines(lines []TripLine) Total {
	var t Total
	for _, l := range lines {
		t.Add(l.Figures)
	}
	t.Derive()
	return t
}
