package app_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/uptrace/bun"
	"github.com/xuri/excelize/v2"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/org"
	"tankwatch/internal/stats"
	"tankwatch/internal/stats/pages"
	"tankwatch/internal/waybill"
)

// tripStatsFix: a 华北 and a 华东 car with finished trips in February 2026, a sales company (a group
// under the top) that sold some of them, and its user.
type tripStatsFix struct {
	admin, east, sales, salesOnly string // tokens: platform admin, 华东 admin (all codes), sales user, sales user without 04-31
	northCar, eastCar, product    int64
	north, eastGroup, salesGroup  int64
	start, end                    int64 // the period: February 2026
}

func tripStatsFixture(t *testing.T, e *apptest.Env) tripStatsFix {
	t.Helper()
	ctx := t.Context()
	f := tripStatsFix{admin: e.Login("admin", "admin123")}
	groups := e.Groups(f.admin)
	f.north, f.eastGroup = groups["华北分公司"], groups["华东分公司"]
	f.salesGroup = newID(e, f.admin, "/authority-app/groupInfo/addChildren", map[string]any{"parentId": groups[org.DemoTopGroup], "name": "销售公司甲"})
	eastRole := newID(e, f.admin, "/authority-app/roleInfo/insert", map[string]any{"name": "统计华东", "groupId": f.eastGroup, "resourceCodes": org.AllCodes()})
	newID(e, f.admin, "/authority-app/userInfo/insert", map[string]any{"name": "statseast", "password": "secret1", "groupId": f.eastGroup, "roleIds": []int64{eastRole}})
	salesRole := newID(e, f.admin, "/authority-app/roleInfo/insert", map[string]any{"name": "销售统计", "groupId": f.salesGroup,
		"resourceCodes": []string{"04", "04-28", "04-31", "04-31-01", "04-32", "04-33"}})
	newID(e, f.admin, "/authority-app/userInfo/insert", map[string]any{"name": "statssales", "password": "secret1", "groupId": f.salesGroup, "roleIds": []int64{salesRole}})
	carrierOnly := newID(e, f.admin, "/authority-app/roleInfo/insert", map[string]any{"name": "仅承运统计", "groupId": f.salesGroup, "resourceCodes": []string{"04", "04-28"}})
	newID(e, f.admin, "/authority-app/userInfo/insert", map[string]any{"name": "statscarrier", "password": "secret1", "groupId": f.salesGroup, "roleIds": []int64{carrierOnly}})
	f.east, f.sales, f.salesOnly = e.Login("statseast", "secret1"), e.Login("statssales", "secret1"), e.Login("statscarrier", "secret1")
	carOf := func(g int64) int64 {
		var id int64
		if err := e.DB.NewRaw("SELECT id FROM cars WHERE group_id = ? ORDER BY id LIMIT 1", g).Scan(ctx, &id); err != nil {
			t.Fatal(err)
		}
		return id
	}
	f.northCar, f.eastCar = carOf(f.north), carOf(f.eastGroup)
	var depot int64
	if err := e.DB.NewRaw("SELECT id FROM stations ORDER BY id LIMIT 1").Scan(ctx, &depot); err != nil {
		t.Fatal(err)
	}
	if err := e.DB.NewRaw("INSERT INTO products (group_id, code, name, created_at, updated_at) VALUES (?, 'TS92', '92#统计', 1, 1) RETURNING id",
		groups[org.DemoTopGroup]).Scan(ctx, &f.product); err != nil {
		t.Fatal(err)
	}
	f.start = stats.DayStart(20260201)
	f.end = stats.DayEnd(20260228)
	n := 0
	// trip finishes a RECEIVED trip through the writers (Correct to CLOSED marks the rollup) on day
	trip := func(group, car int64, sales *int64, day int, v20, loss float64) {
		n++
		at := stats.DayStart(day) + 10*3_600_000
		r := waybill.Row{GroupID: group, SalesGroupID: sales, CarID: car, DepotID: depot, No: fmt.Sprintf("TS%03d", n), State: waybill.Received,
			StateAt: at, DepartAt: at - 3*3_600_000, ArriveAt: at - 3_600_000, ShippedV20: v20, ShippedMassT: v20 * 0.00074, ReceivedV20: v20 - loss,
			LossL: loss, LossRatePct: loss / v20 * 100, AllowedPct: 0.3, LoadedKm: 100, CreatedAt: at, UpdatedAt: at}
		err := e.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			if err := waybill.Insert(ctx, tx, &r, []waybill.Destination{{Seq: 1, StationID: depot}}, []waybill.Compartment{{No: 1, ProductID: f.product, PlannedL: 1, DestSeq: 1}}); err != nil {
				return err
			}
			var rec int64
			if err := tx.NewRaw(`INSERT INTO load_records (waybill_id, group_id, car_id, depot_id, loaded_at, source, created_at, updated_at)
				VALUES (?, ?, ?, ?, 1, 1, 1, 1) RETURNING id`, r.ID, group, car, depot).Scan(ctx, &rec); err != nil {
				return err
			}
			if _, err := tx.NewRaw(`INSERT INTO load_record_items (record_id, compartment, product_id, vt_l, temp_c, density20, vcf20, v20_l, mass_t)
				VALUES (?, 1, ?, ?, 20, 740, 1, ?, ?)`, rec, f.product, v20+100, v20, v20*0.00074).Exec(ctx); err != nil {
				return err
			}
			_, err := waybill.Correct(ctx, tx, r.ID, waybill.Closed, 1, "test", at)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	trip(f.eastGroup, f.eastCar, &f.salesGroup, 20260203, 10000, 20) // sold: 0.2 %
	trip(f.eastGroup, f.eastCar, nil, 20260210, 8000, 40)            // 0.5 %: over 0.3
	trip(f.north, f.northCar, &f.salesGroup, 20260215, 6000, 6)      // sold
	trip(f.north, f.northCar, nil, 20260220, 5000, 5)
	trip(f.north, f.northCar, nil, 20260305, 5000, 5) // March: outside the period
	if err := e.App.DrainStatsTrips(ctx); err != nil {
		t.Fatal(err)
	}
	return f
}

type statsPage struct {
	List  []pages.Row `json:"list"`
	Total int         `json:"total"`
	Sum   pages.Row   `json:"sum"`
	Top   []pages.Row `json:"top"`
	From  string      `json:"from"`
	To    string      `json:"to"`
}

const carStatPath = "/monitor-app/realTimeMoitoring/getVehicleTransportationStatisticsPage1"

func TestTripStatsPages(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		f := tripStatsFixture(t, e)
		period := func(extra map[string]any) map[string]any {
			b := map[string]any{"start": f.start, "end": f.end}
			for k, v := range extra {
				b[k] = v
			}
			return b
		}
		page := func(path, tok string, body map[string]any) statsPage {
			t.Helper()
			var p statsPage
			e.MustOK("POST", path, tok, body).Decode(&p)
			return p
		}
		// the subsidiary sees its own car only: 2 trips, 18000 V20, loss 60 (0.3333 %), 1 over
		east := page(carStatPath, f.east, period(nil))
		var eastRow *pages.Row
		for i := range east.List {
			if east.List[i].Key == f.northCar {
				t.Fatalf("华东 sees the 华北 car: %+v", east.List)
			}
			if east.List[i].Key == f.eastCar {
				eastRow = &east.List[i]
			}
		}
		if eastRow == nil || eastRow.Trips != 2 || eastRow.ShippedV20L != 18000 || eastRow.LossL != 60 || eastRow.LossRatePct != 0.3333 ||
			eastRow.OverAllowance != 1 || eastRow.AvgOutToArrivalMin != 120 || eastRow.GroupName != "华东分公司" {
			t.Fatalf("华东 car row = %+v", eastRow)
		}
		if east.From != "2026-02-01" || east.To != "2026-02-28" {
			t.Errorf("period = %s … %s", east.From, east.To)
		}
		// the platform sees both companies; the March trip is not counted
		comp := page("/monitor-app/statistics/company/page", f.admin, period(map[string]any{"sortField": "trips", "sortOrder": "ascend"}))
		if comp.Sum.Trips < 4 || comp.Sum.Trips != sumTrips(comp.List) {
			t.Fatalf("companies: %+v", comp)
		}
		// the sales company's view: the two trips it sold, on both companies' cars; not the others
		sold := page(carStatPath, f.sales, period(map[string]any{"sales": true}))
		if sold.Total != 2 || sold.Sum.Trips != 2 || sold.Sum.ShippedV20L != 16000 || sold.Sum.LossL != 26 {
			t.Fatalf("sales view = %+v", sold)
		}
		comp2 := page("/monitor-app/statistics/company/page", f.sales, period(map[string]any{"sales": true}))
		if comp2.Total != 1 || comp2.List[0].Key != f.salesGroup || comp2.List[0].Name != "销售公司甲" || comp2.List[0].Trips != 2 {
			t.Fatalf("compStat2 = %+v", comp2)
		}
		// a sales company has no trucks of its own
		if own := page(carStatPath, f.sales, period(nil)); own.Total != 0 || own.Sum.Trips != 0 || own.Sum.AvgOutToArrivalMin != -1 {
			t.Errorf("sales company's own cars = %+v", own)
		}
		// an empty page answers empty lists, not null (the console reads their length)
		if r := e.MustOK("POST", carStatPath, f.sales, period(nil)); !strings.Contains(string(r.Data), `"list":[]`) || !strings.Contains(string(r.Data), `"top":[]`) {
			t.Errorf("empty page = %s", r.Data)
		}
		prod := page("/monitor-app/statistics/product/page", f.east, period(nil))
		if prod.Total != 1 || prod.List[0].Key != f.product || prod.List[0].ShippedV20L != 18000 || prod.List[0].Name != "92#统计" || prod.List[0].GroupName != org.DemoTopGroup {
			t.Errorf("products = %+v", prod)
		}
		// drill-down: the trips behind the 华东 car's numbers add up to them
		var drill struct {
			List  []pages.TripView `json:"list"`
			Sum   stats.Total      `json:"sum"`
			Total int              `json:"total"`
		}
		e.MustOK("POST", "/monitor-app/statistics/trips", f.east, period(map[string]any{"kind": "car", "key": f.eastCar})).Decode(&drill)
		if drill.Total != 2 || drill.Sum.ShippedV20L != eastRow.ShippedV20L || drill.Sum.LossL != eastRow.LossL || drill.List[0].No != "TS002" {
			t.Fatalf("drill = %+v", drill)
		}
		e.MustOK("POST", "/monitor-app/statistics/trips", f.east, period(map[string]any{"kind": "car", "key": f.eastCar, "only": "over"})).Decode(&drill)
		if drill.Total != 1 || drill.List[0].LossL != 40 {
			t.Errorf("over drill = %+v", drill)
		}
		e.MustOK("POST", "/monitor-app/statistics/trips", f.sales, period(map[string]any{"kind": "company", "sales": true, "all": true})).Decode(&drill)
		if drill.Total != 2 || drill.Sum.ShippedV20L != 16000 {
			t.Errorf("sales drill = %+v", drill)
		}
		// export: every row and the totals row
		r := e.Call("POST", "/monitor-app/realTimeMoitoring/exportDataExcel", f.east, period(nil))
		if r.Status != 200 || r.Header.Get("Content-Type") != "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" {
			t.Fatalf("export: %d %s", r.Status, r.Body)
		}
		x, err := excelize.OpenReader(bytes.NewReader(r.Body))
		if err != nil {
			t.Fatal(err)
		}
		cells, _ := x.GetRows(x.GetSheetName(0))
		if len(cells) != east.Total+2 || cells[0][0] != "车牌号" || cells[len(cells)-1][2] != fmt.Sprint(east.Sum.Trips) {
			t.Errorf("export rows = %v", cells)
		}
		// refusals in the caller's language
		for _, c := range []struct {
			tok  string
			path string
			body map[string]any
			msg  string
		}{
			{f.east, carStatPath, map[string]any{}, "统计区间不能为空"},
			{f.east, carStatPath, map[string]any{"start": f.end, "end": f.start}, "结束日期不能早于开始日期"},
			{f.east, carStatPath, period(map[string]any{"sortField": "x"}), "排序字段格式不正确"},
			{f.east, "/monitor-app/statistics/trips", period(map[string]any{"kind": "x"}), "统计类型格式不正确"},
			{f.east, "/monitor-app/statistics/trips", period(map[string]any{"kind": "car", "only": "x"}), "明细类型格式不正确"},
			{f.east, carStatPath, map[string]any{"start": f.start - 4*366*86_400_000, "end": f.end}, "统计区间最长 3 年"},
		} {
			r := e.Call("POST", c.path, c.tok, c.body)
			if r.Message != c.msg {
				t.Errorf("%s %v: %d %q, want %q", c.path, c.body, r.Status, r.Message, c.msg)
			}
		}
		// the "2" view needs the "2" page's code
		if r := e.Call("POST", carStatPath, f.salesOnly, period(map[string]any{"sales": true})); r.Status != 403 {
			t.Errorf("sales view without 04-31: %d %s", r.Status, r.Body)
		}
		// a car of another company
		if r := e.Call("POST", carStatPath, f.east, period(map[string]any{"carId": f.northCar})); r.Status != 403 {
			t.Errorf("华北 car from 华东: %d %s", r.Status, r.Body)
		}
	})
}

func sumTrips(rows []pages.Row) int64 {
	var n int64
	for _, r := range rows {
		n += r.Trips
	}
	return n
}
