package pages_test

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/uptrace/bun"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/org"
	"tankwatch/internal/stats"
	"tankwatch/internal/stats/pages"
	"tankwatch/internal/waybill"
)

type page struct {
	List     []pages.Row           `json:"list"`
	Total    int                   `json:"total"`
	Sum      pages.Row             `json:"sum"`
	Products []pages.ProductOption `json:"products"`
}

type drill struct {
	Total int         `json:"total"`
	Sum   stats.Total `json:"sum"`
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-6 }

// The product filter of the trip statistics pages: every figure becomes the product's share, the
// drill-down behind each number adds up to it, and the choices are the products carried.
func TestProductFilter(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		ctx := t.Context()
		admin := e.Login("admin", "admin123")
		groups := e.Groups(admin)
		top := groups[org.DemoTopGroup]
		var cars []int64
		if err := e.DB.NewRaw("SELECT id FROM cars ORDER BY id LIMIT 2").Scan(ctx, &cars); err != nil || len(cars) < 2 {
			t.Fatalf("cars %v %v", cars, err)
		}
		var depot int64
		if err := e.DB.NewRaw("SELECT id FROM stations ORDER BY id LIMIT 1").Scan(ctx, &depot); err != nil {
			t.Fatal(err)
		}
		product := func(code, name string) int64 {
			var id int64
			if err := e.DB.NewRaw("INSERT INTO products (group_id, code, name, created_at, updated_at) VALUES (?, ?, ?, 1, 1) RETURNING id",
				top, code, name).Scan(ctx, &id); err != nil {
				t.Fatal(err)
			}
			return id
		}
		p92, p0 := product("PF92", "92#筛选"), product("PF0", "0#筛选")
		n := 0
		// trip closes a trip of car on day with compartments of (product, V20); loss is shared by V20
		trip := func(car int64, day int, loss float64, items ...[2]float64) {
			n++
			var group int64
			if err := e.DB.NewRaw("SELECT group_id FROM cars WHERE id = ?", car).Scan(ctx, &group); err != nil {
				t.Fatal(err)
			}
			v20 := 0.0
			for _, it := range items {
				v20 += it[1]
			}
			at := stats.DayStart(day) + 10*3_600_000
			r := waybill.Row{GroupID: group, CarID: car, DepotID: depot, No: fmt.Sprintf("PF%03d", n), State: waybill.Received, StateAt: at,
				DepartAt: at - 3*3_600_000, ArriveAt: at - 3_600_000, ShippedV20: v20, ShippedMassT: v20 * 0.00074, ReceivedV20: v20 - loss,
				LossL: loss, LossRatePct: loss / v20 * 100, AllowedPct: 0.3, LoadedKm: 80, CreatedAt: at, UpdatedAt: at}
			err := e.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
				var comps []waybill.Compartment
				for i, it := range items {
					comps = append(comps, waybill.Compartment{No: i + 1, ProductID: int64(it[0]), PlannedL: 1, DestSeq: 1})
				}
				if err := waybill.Insert(ctx, tx, &r, []waybill.Destination{{Seq: 1, StationID: depot}}, comps); err != nil {
					return err
				}
				var rec int64
				if err := tx.NewRaw(`INSERT INTO load_records (waybill_id, group_id, car_id, depot_id, loaded_at, source, created_at, updated_at)
					VALUES (?, ?, ?, ?, 1, 1, 1, 1) RETURNING id`, r.ID, group, car, depot).Scan(ctx, &rec); err != nil {
					return err
				}
				for i, it := range items {
					if _, err := tx.NewRaw(`INSERT INTO load_record_items (record_id, compartment, product_id, vt_l, temp_c, density20, vcf20, v20_l, mass_t)
						VALUES (?, ?, ?, ?, 20, 740, 1, ?, ?)`, rec, i+1, int64(it[0]), it[1]+50, it[1], it[1]*0.00074).Exec(ctx); err != nil {
						return err
					}
				}
				_, err := waybill.Correct(ctx, tx, r.ID, waybill.Closed, 1, "test", at)
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		trip(cars[0], 20260203, 30, [2]float64{float64(p92), 6000}, [2]float64{float64(p0), 4000})
		trip(cars[0], 20260211, 10, [2]float64{float64(p92), 5000})
		trip(cars[1], 20260214, 8, [2]float64{float64(p0), 8000})
		if err := e.App.DrainStatsTrips(ctx); err != nil {
			t.Fatal(err)
		}
		period := func(m map[string]any) map[string]any {
			m["start"], m["end"] = "2026-02-01 00:00:00", "2026-02-28 23:59:59"
			m["pageSize"] = 100
			return m
		}
		const carPath = "/monitor-app/realTimeMoitoring/getVehicleTransportationStatisticsPage1"
		var all page
		e.MustOK("POST", carPath, admin, period(map[string]any{})).Decode(&all)
		choices := map[int64]int64{}
		for _, p := range all.Products {
			choices[p.ID] = p.Trips
		}
		if choices[p92] != 2 || choices[p0] != 2 {
			t.Fatalf("product choices = %+v", all.Products)
		}
		// 92#: car 0 carried it twice, 6000 + 5000 V20, loss 30 × 0.6 + 10
		var f92 page
		e.MustOK("POST", carPath, admin, period(map[string]any{"productId": p92})).Decode(&f92)
		if f92.Total != 1 || f92.List[0].Key != cars[0] || f92.Sum.Trips != 2 || !near(f92.Sum.ShippedV20L, 11000) || !near(f92.Sum.LossL, 28) {
			t.Fatalf("92# by car = %+v, sum %+v", f92.List, f92.Sum)
		}
		if len(f92.Products) != len(all.Products) {
			t.Errorf("the choices shrink with the product chosen: %+v", f92.Products)
		}
		var f0 page
		e.MustOK("POST", carPath, admin, period(map[string]any{"productId": p0})).Decode(&f0)
		if f0.Total != 2 || f0.Sum.Trips != 2 || !near(f0.Sum.ShippedV20L, 12000) || !near(f0.Sum.LossL, 20) {
			t.Fatalf("0# by car = %+v, sum %+v", f0.List, f0.Sum)
		}
		// every row's trips and the totals' add up to the filtered figure, on each page kind
		for _, k := range []struct{ kind, path string }{{"car", carPath}, {"company", "/monitor-app/statistics/company/page"}, {"product", "/monitor-app/statistics/product/page"}} {
			var pg page
			e.MustOK("POST", k.path, admin, period(map[string]any{"productId": p0})).Decode(&pg)
			for _, r := range append(pg.List, pg.Sum) {
				q := period(map[string]any{"kind": k.kind, "productId": p0})
				if r.Key == 0 {
					q["all"] = true
				} else {
					q["key"] = r.Key
				}
				var d drill
				e.MustOK("POST", "/monitor-app/statistics/trips", admin, q).Decode(&d)
				if d.Total != int(r.Trips) || d.Sum.Trips != r.Trips || !near(d.Sum.ShippedV20L, r.ShippedV20L) || !near(d.Sum.LossL, r.LossL) {
					t.Errorf("%s row %d: drill %+v, row %+v", k.kind, r.Key, d, r.Total)
				}
			}
		}
		if r := e.Call("POST", carPath, admin, period(map[string]any{"productId": 99999999})); r.Success != 0 || r.Message != "记录不存在" {
			t.Errorf("unknown product: %d %s", r.Status, r.Body)
		}
		if r := e.Call("POST", carPath, admin, period(map[string]any{"productId": "x"})); r.Success != 0 || r.Message == "" {
			t.Errorf("product not a number: %d %s", r.Status, r.Body)
		}
	})
}
