package stats

import (
	"context"
	"errors"
	"testing"

	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/db/dbtest"
)

// Every number's drill-down, recomputed from the waybills, adds up to the number the rollup gives.
func TestDrillDownEqualsSum(t *testing.T) {
	dbtest.DataHeavy(t)
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		simulateMonth(t, d)
		ctx := context.Background()
		base := []Filter{{Under: "/1/"}, {Under: "/1/4/", SalesView: true}, {Under: "/1/", Products: true}, {Under: "/1/2/", Products: true}}
		for _, f := range base {
			f.From, f.To = 20261101, 20261130
			for _, by := range []By{ByTotal, ByCar, ByGroup, BySales, ByProduct} {
				if by == ByProduct && !f.Products {
					continue
				}
				rows, err := Sum(ctx, d, f, by)
				if err != nil {
					t.Fatal(err)
				}
				for _, r := range rows {
					g := f
					switch by {
					case ByCar:
						g.CarID = r.Key
					case ByGroup:
						g.GroupID = r.Key
					case BySales:
						g.SalesGroupID, g.NoSales = r.Key, r.Key == 0
					case ByProduct:
						g.ProductID = r.Key
					}
					lines, err := Trips(ctx, d, g, OnlyAll, 10000)
					if err != nil {
						t.Fatal(err)
					}
					if got := AddLines(lines); !sameFigures(got.Figures, r.Figures) {
						t.Fatalf("%+v by %s key %d: drill %+v, sum %+v", f, by, r.Key, got.Figures, r.Figures)
					}
					// a trip that carried two products counts once per product in the product split
					if over, _ := Trips(ctx, d, g, OnlyOver, 10000); AddLines(over).OverAllowance != r.OverAllowance || (!f.Products && int64(len(over)) != r.OverAllowance) {
						t.Errorf("%+v by %s key %d: %d over trips listed, %d counted", f, by, r.Key, len(over), r.OverAllowance)
					}
					if timed, _ := Trips(ctx, d, g, OnlyTimed, 10000); AddLines(timed).AvgOutToArrivalMin != r.AvgOutToArrivalMin {
						t.Errorf("%+v by %s key %d: average of the timed trips differs", f, by, r.Key)
					}
				}
			}
		}
		if _, err := Trips(ctx, d, Filter{From: 20261101, To: 20261130, Under: "/1/"}, OnlyAll, 5); !errors.Is(err, ErrTooManyTrips) {
			t.Errorf("limit: %v", err)
		}
	})
}
