package app_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/waybill/customer"
	"tankwatch/internal/waybill/product"
	"tankwatch/internal/waybill/sales"
)

// TestWaybillBase: products, customers with stations, customers' cars, sales companies and their
// carriers, and document numbers through the API on both dialects — the demo's seed, validation in
// the caller's language, unique codes, deletes refused while in use, another subsidiary's records and
// groups refused, and parallel number requests that never share a number.
func TestWaybillBase(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		admin := e.Login("admin", "admin123")
		g := e.Groups(admin)
		north, east, shanghai := g["华北分公司"], g["华东分公司"], g["上海车队"]
		f := setup(t, e) // eastadmin: every code, scope 华东
		east1 := f.eastTok

		// the demo seed: four products per subsidiary, a customer per region with its oil stations
		var prods []product.View
		e.MustOK("GET", "/base-info-app/transProduct/list", admin, nil).Decode(&prods)
		perGroup := map[int64]int{}
		for _, p := range prods {
			perGroup[p.GroupID]++
		}
		// 4 per subsidiary; the shared fixture (setup) adds 华北 ones of its own
		if perGroup[east] < 4 || perGroup[g["华南分公司"]] != 4 || perGroup[north] < 5 {
			t.Fatalf("demo products per group: %v", perGroup)
		}
		var eastProds []product.View
		e.MustOK("GET", "/base-info-app/transProduct/list", east1, nil).Decode(&eastProds)
		if len(eastProds) != perGroup[east] || eastProds[0].GroupID != east {
			t.Fatalf("east products: %+v", eastProds)
		}
		var custs []customer.View
		e.MustOK("GET", "/base-info-app/customer/list", admin, nil).Decode(&custs)
		demoCustomers := 0
		for _, c := range custs {
			if strings.HasSuffix(c.Name, "石化销售有限公司") {
				demoCustomers++
				if len(c.StationIDs) == 0 {
					t.Errorf("demo customer %s owns no station", c.Name)
				}
			}
		}
		if demoCustomers != 3 {
			t.Fatalf("demo customers: %+v", custs)
		}
		var pairs []sales.Pair
		e.MustOK("POST", "/base-info-app/baseSalesTrans/findList", admin, map[string]any{}).Decode(&pairs)
		if len(pairs) != 3 {
			t.Fatalf("demo sales pairs: %+v", pairs)
		}
		e.MustOK("POST", "/base-info-app/baseSalesTrans/findList", east1, map[string]any{}).Decode(&pairs)
		if len(pairs) != 1 || pairs[0].TransGroupID != east {
			t.Fatalf("east sees pairs %+v, want its own carrier pair only", pairs)
		}

		// products: add, unique code per group, validation in the caller's language, delete refused in use
		p := e.MustOK("POST", "/base-info-app/transProduct/add", east1, map[string]any{"name": "98# 汽油", "code": "QY98", "product": 2, "grade": "国VIB"})
		var pv product.View
		p.Decode(&pv)
		if pv.Family != 1 || pv.Density20 != 740 || pv.GroupID != east || pv.K0 != nil {
			t.Fatalf("added product %+v", pv)
		}
		if r := e.Call("POST", "/base-info-app/transProduct/add", east1, map[string]any{"name": "x", "code": "QY98", "product": 2}); r.Code != 0 || r.Message != "本组织已有编码为 QY98 的油品" {
			t.Errorf("duplicate code: %s", r.Body)
		}
		// the same code in another group is another product
		e.MustOK("POST", "/base-info-app/transProduct/add", admin, map[string]any{"name": "98# 汽油", "code": "QY98", "product": 2, "groupId": north})
		e.Lang = "en-US"
		if r := e.Call("POST", "/base-info-app/transProduct/add", east1, map[string]any{"name": "x", "code": "X1", "product": 0, "k0": 100}); r.Code != 0 || r.Message != "Enter both K0 and K1, or neither" {
			t.Errorf("k pair: %s", r.Body)
		}
		if r := e.Call("POST", "/base-info-app/transProduct/add", east1, map[string]any{"name": "x", "code": "X1", "product": 0, "density20": 90}); r.Code != 0 || r.Message != "Density at 20 °C must be between 500 and 1100" {
			t.Errorf("density: %s", r.Body)
		}
		e.Lang = ""
		e.MustOK("POST", "/base-info-app/transProduct/update", east1, map[string]any{"id": pv.ID, "name": "98# 汽油", "code": "QY98", "product": 2, "k0": 346.4228, "k1": 0.4388})
		var page httpx.Page[product.View]
		e.MustOK("POST", "/base-info-app/transProduct/page", east1, map[string]any{"name": "qy98", "sortField": "code", "sortOrder": "ascend"}).Decode(&page)
		if page.Total != 1 || page.List[0].K0 == nil || *page.List[0].K0 != 346.4228 {
			t.Fatalf("page: %+v", page)
		}
		// in use by a waybill compartment: refused with the product's name
		var car, depot int64
		mustScan(t, e, "SELECT id FROM cars WHERE group_id IN (SELECT id FROM org_groups WHERE path LIKE (SELECT path FROM org_groups WHERE id = ?) || '%') ORDER BY id LIMIT 1", []any{east}, &car)
		mustScan(t, e, "SELECT id FROM stations WHERE group_id = ? AND station_type = 'yk' ORDER BY id LIMIT 1", []any{east}, &depot)
		var wb int64
		mustScan(t, e, `INSERT INTO waybills (group_id, no, car_id, depot_id, state, state_at, created_at, updated_at) VALUES (?, 'T1', ?, ?, 1, 1, 1, 1) RETURNING id`, []any{east, car, depot}, &wb)
		if _, err := e.DB.NewRaw("INSERT INTO waybill_compartments (waybill_id, no, product_id, planned_l) VALUES (?, 1, ?, 1000)", wb, pv.ID).Exec(t.Context()); err != nil {
			t.Fatal(err)
		}
		if r := e.Call("POST", "/base-info-app/transProduct/delete", east1, map[string]any{"id": pv.ID}); r.Code != 0 || r.Message != "油品“98# 汽油”已被 1 条运单、计划或装油记录使用，不能删除" {
			t.Errorf("delete in use: %s", r.Body)
		}
		// another group's product: refused
		var northProd int64
		mustScan(t, e, "SELECT id FROM products WHERE group_id = ? ORDER BY id LIMIT 1", []any{north}, &northProd)
		if r := e.Call("POST", "/base-info-app/transProduct/delete", east1, map[string]any{"id": northProd}); r.Status != 403 {
			t.Errorf("foreign delete: %d %s", r.Status, r.Body)
		}
		free := e.MustOK("POST", "/base-info-app/transProduct/add", east1, map[string]any{"name": "LNG", "code": "LNG", "product": 3}).ID()
		e.MustOK("POST", "/base-info-app/transProduct/delete", east1, map[string]any{"id": free})

		// customers: stations of the caller's scope only, a station has one owner, numbered codes
		var opts []customer.StationOption
		e.MustOK("GET", "/base-info-app/customer/stations", east1, nil).Decode(&opts)
		if len(opts) == 0 {
			t.Fatal("no oil stations for 华东")
		}
		var northStation int64
		mustScan(t, e, "SELECT id FROM stations WHERE group_id = ? AND station_type = 'jyz' ORDER BY id LIMIT 1", []any{north}, &northStation)
		if r := e.Call("POST", "/base-info-app/customer/add", east1, map[string]any{"name": "越界客户", "stationIds": []int64{northStation}}); r.Status != 403 {
			t.Errorf("foreign station: %d %s", r.Status, r.Body)
		}
		owned := opts[0]
		if owned.CustomerID == nil {
			t.Fatalf("demo station %s has no customer", owned.Name)
		}
		if r := e.Call("POST", "/base-info-app/customer/add", east1, map[string]any{"name": "新客户", "stationIds": []int64{owned.ID}}); r.Code != 0 || !strings.Contains(r.Message, "已属于客户") {
			t.Errorf("owned station: %s", r.Body)
		}
		var depotID int64
		mustScan(t, e, "SELECT id FROM stations WHERE group_id = ? AND station_type = 'yk' ORDER BY id LIMIT 1", []any{east}, &depotID)
		if r := e.Call("POST", "/base-info-app/customer/add", east1, map[string]any{"name": "新客户", "stationIds": []int64{depotID}}); r.Code != 0 || !strings.Contains(r.Message, "不是加油站") {
			t.Errorf("depot as station: %s", r.Body)
		}
		// free the station from the demo customer, give it to a new one with a numbered code
		var demo customer.View
		for _, c := range custs {
			if c.ID == *owned.CustomerID {
				demo = c
			}
		}
		e.MustOK("POST", "/base-info-app/customer/update", east1, map[string]any{"id": demo.ID, "name": demo.Name, "code": demo.Code, "stationIds": demo.StationIDs[1:]})
		var cv customer.View
		e.MustOK("POST", "/base-info-app/customer/add", east1, map[string]any{"name": "浦东石油", "groupId": shanghai, "stationIds": []int64{owned.ID}}).Decode(&cv)
		if !strings.HasSuffix(cv.Code, "KH0001") || len(cv.StationIDs) != 1 || cv.GroupID != shanghai {
			t.Fatalf("numbered customer %+v", cv)
		}
		if r := e.Call("POST", "/base-info-app/customer/add", east1, map[string]any{"name": "x", "code": cv.Code, "groupId": shanghai}); r.Code != 0 || r.Message != "本组织已有编码为 "+cv.Code+" 的客户" {
			t.Errorf("duplicate customer code: %s", r.Body)
		}
		var cp httpx.Page[customer.View]
		e.MustOK("POST", "/base-info-app/customer/page", east1, map[string]any{"stationId": owned.ID}).Decode(&cp)
		if cp.Total != 1 || cp.List[0].ID != cv.ID || cp.List[0].StationNames[0] != owned.Name {
			t.Fatalf("customer page by station: %+v", cp)
		}
		var northCust int64
		mustScan(t, e, "SELECT id FROM customers WHERE group_id = ?", []any{north}, &northCust)
		if r := e.Call("POST", "/base-info-app/customer/update", east1, map[string]any{"id": northCust, "name": "x"}); r.Status != 403 {
			t.Errorf("foreign customer update: %d %s", r.Status, r.Body)
		}

		// customer cars: plate as the registry checks it, one plate per customer, foreign customer refused
		carID := e.MustOK("POST", "/base-info-app/customerCar/add", east1, map[string]any{"customerId": cv.ID, "plate": "沪a 12345", "compartments": 2, "capacityL": 20000}).ID()
		if r := e.Call("POST", "/base-info-app/customerCar/add", east1, map[string]any{"customerId": cv.ID, "plate": "沪A12345"}); r.Code != 0 || r.Message != "该客户已有车牌号为 沪A12345 的车辆" {
			t.Errorf("duplicate plate: %s", r.Body)
		}
		if r := e.Call("POST", "/base-info-app/customerCar/add", east1, map[string]any{"customerId": northCust, "plate": "冀A12345"}); r.Status != 403 {
			t.Errorf("foreign customer car: %d %s", r.Status, r.Body)
		}
		var cars httpx.Page[customer.CarView]
		e.MustOK("POST", "/base-info-app/customerCar/page", east1, map[string]any{"plate": "a1234"}).Decode(&cars)
		if cars.Total != 1 || cars.List[0].Plate != "沪A·12345" || cars.List[0].CustomerName != "浦东石油" {
			t.Fatalf("car page: %+v", cars)
		}
		// a customer on a waybill is kept; without, it goes with its cars
		if _, err := e.DB.NewRaw("UPDATE waybills SET customer_id = ? WHERE id = ?", cv.ID, wb).Exec(t.Context()); err != nil {
			t.Fatal(err)
		}
		if r := e.Call("POST", "/base-info-app/customer/delete", east1, map[string]any{"id": cv.ID}); r.Code != 0 || !strings.Contains(r.Message, "不能删除") {
			t.Errorf("customer in use: %s", r.Body)
		}
		if _, err := e.DB.NewRaw("UPDATE waybills SET customer_id = NULL WHERE id = ?", wb).Exec(t.Context()); err != nil {
			t.Fatal(err)
		}
		e.MustOK("POST", "/base-info-app/customer/delete", east1, map[string]any{"id": cv.ID})
		if r := e.Call("POST", "/base-info-app/customerCar/delete", east1, map[string]any{"id": carID}); r.Code != 0 {
			t.Errorf("car of a deleted customer still there: %s", r.Body)
		}

		// sales companies: create one under 华东 and bind 上海车队; a 华北 carrier or flag is refused
		var sc struct {
			ID    int64 `json:"id"`
			Sales bool  `json:"sales"`
		}
		e.MustOK("POST", "/authority-app/groupInfo/addSalesCompany", east1, map[string]any{"parentId": east, "name": "华东销售", "contact": "赵"}).Decode(&sc)
		if !sc.Sales {
			t.Fatal("new sales company not flagged")
		}
		e.MustOK("POST", "/base-info-app/baseSalesTrans/bindSalesAndTrans", east1, map[string]any{"salesGroupId": sc.ID, "transGroupIds": []int64{shanghai}}).Decode(&pairs)
		if len(pairs) != 1 || pairs[0].TransGroupName != "上海车队" {
			t.Fatalf("bound %+v", pairs)
		}
		if r := e.Call("POST", "/base-info-app/baseSalesTrans/bindSalesAndTrans", east1, map[string]any{"salesGroupId": sc.ID, "transGroupIds": []int64{shanghai, north}}); r.Status != 403 {
			t.Errorf("foreign carrier: %d %s", r.Status, r.Body)
		}
		if r := e.Call("POST", "/base-info-app/baseSalesTrans/bindSalesAndTrans", east1, map[string]any{"salesGroupId": shanghai, "transGroupIds": []int64{}}); r.Code != 0 || r.Message != "“上海车队”不是销售公司，请先将其设为销售公司" {
			t.Errorf("not a sales company: %s", r.Body)
		}
		if r := e.Call("POST", "/authority-app/groupInfo/addSalesCompany", east1, map[string]any{"id": north, "sales": true}); r.Status != 403 {
			t.Errorf("foreign flag: %d %s", r.Status, r.Body)
		}
		e.MustOK("POST", "/authority-app/groupInfo/addSalesCompany", east1, map[string]any{"id": sc.ID, "sales": false})
		if r := e.Call("POST", "/base-info-app/baseSalesTrans/bindSalesAndTrans", east1, map[string]any{"salesGroupId": sc.ID, "transGroupIds": []int64{}}); r.Code != 0 {
			t.Errorf("unflagged company bound: %s", r.Body)
		}

		// document numbers: the caller's company, never shared under parallel calls, foreign company refused
		var northCode, eastCode string
		mustScan(t, e, "SELECT code FROM org_groups WHERE id = ?", []any{north}, &northCode)
		mustScan(t, e, "SELECT code FROM org_groups WHERE id = ?", []any{east}, &eastCode)
		if r := e.Call("GET", "/base-info-app/baseCode/getNextCodeByCode?helpRecordCode="+northCode, east1, nil); r.Status != 403 {
			t.Errorf("foreign company code: %d %s", r.Status, r.Body)
		}
		if r := e.Call("GET", "/base-info-app/baseCode/getNextCodeByCode?kind=XX", east1, nil); r.Code != 0 || !strings.Contains(r.Message, "YD") {
			t.Errorf("bad kind: %s", r.Body)
		}
		day := e.Clock.Now().Add(8 * 3600e9).Format("20060102")
		const n = 12
		got := make([]string, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := e.Call("GET", "/base-info-app/baseCode/getNextCodeByCode?helpRecordCode="+eastCode+"&kind=JH", east1, nil)
				if r.Code == 1 {
					r.Decode(&got[i])
				}
			}()
		}
		wg.Wait()
		seen := map[string]bool{}
		for _, c := range got {
			if !strings.HasPrefix(c, eastCode+"JH"+day) || seen[c] {
				t.Errorf("parallel codes %v", got)
				break
			}
			seen[c] = true
		}
		var first string
		e.MustOK("GET", "/base-info-app/baseCode/getNextCodeByCode", east1, nil).Decode(&first)
		if first != fmt.Sprintf("%sYD%s0001", eastCode, day) {
			t.Errorf("first waybill number %q", first)
		}

		// the dispatcher reads products (03-16) but not customers' pages (06-05); the customer login neither
		disp := e.Login("dispatcher", "dispatch123")
		e.MustOK("GET", "/base-info-app/transProduct/list", disp, nil)
		e.MustOK("GET", "/base-info-app/customer/list", disp, nil)
		if r := e.Call("POST", "/base-info-app/customer/page", disp, map[string]any{}); r.Status != 403 {
			t.Errorf("dispatcher customer page: %d", r.Status)
		}
		cust := e.Login("customer", "customer123")
		if r := e.Call("POST", "/base-info-app/transProduct/add", cust, map[string]any{"name": "x", "code": "x", "product": 0}); r.Status != 403 {
			t.Errorf("customer login adds a product: %d", r.Status)
		}
	})
}

func mustScan(t *testing.T, e *apptest.Env, q string, args []any, dst any) {
	t.Helper()
	if err := e.DB.NewRaw(q, args...).Scan(t.Context(), dst); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}
