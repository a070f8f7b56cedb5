package app_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/uptrace/bun"
	"github.com/xuri/excelize/v2"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/jt808"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/telemetry"
	"tankwatch/internal/waybill"
	"tankwatch/internal/waybill/bill"
)

// answering is a gateway whose terminals answer every command with one status, remembering the texts.
type answering struct {
	status string
	mu     sync.Mutex
	texts  []string
}

func (s *answering) Send(ctx context.Context, terminalID int64, msg jt808.Message, c *telemetry.Command) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t, ok := msg.(*jt808.Text); ok {
		s.texts = append(s.texts, t.Text)
	}
	c.Status, c.ID = s.status, 1
	return nil
}

// wbFixture: a company's car (with a terminal), depot, two stations and two products.
type wbFixture struct {
	group, car, depot, st1, st2, prod, prod2 int64
	plate, depotName, st1Name                string
}

func wbSetup(t *testing.T, e *apptest.Env, company string) wbFixture {
	t.Helper()
	ctx := t.Context()
	var f wbFixture
	var path string
	if err := e.DB.NewRaw("SELECT id, path FROM org_groups WHERE name = ?", company).Scan(ctx, &f.group, &path); err != nil {
		t.Fatal(err)
	}
	if err := e.DB.NewRaw(`SELECT c.id, c.plate FROM cars AS c JOIN org_groups AS g ON g.id = c.group_id
		WHERE g.path LIKE ? AND EXISTS (SELECT 1 FROM terminals AS t WHERE t.car_id = c.id) ORDER BY c.id LIMIT 1`, path+"%").Scan(ctx, &f.car, &f.plate); err != nil {
		t.Fatalf("car of %s: %v", company, err)
	}
	if err := e.DB.NewRaw("SELECT id, name FROM stations WHERE group_id = ? AND station_type = 'yk' ORDER BY id LIMIT 1", f.group).Scan(ctx, &f.depot, &f.depotName); err != nil {
		t.Fatal(err)
	}
	var sts []struct {
		ID   int64  `bun:"id"`
		Name string `bun:"name"`
	}
	if err := e.DB.NewRaw("SELECT id, name FROM stations WHERE group_id = ? AND station_type = 'jyz' ORDER BY id LIMIT 2", f.group).Scan(ctx, &sts); err != nil || len(sts) < 2 {
		t.Fatalf("stations of %s: %v", company, err)
	}
	f.st1, f.st2, f.st1Name = sts[0].ID, sts[1].ID, sts[0].Name
	for i, p := range []*int64{&f.prod, &f.prod2} {
		if err := e.DB.NewRaw(`INSERT INTO products (group_id, code, name, product, family, density20, created_at, updated_at)
			VALUES (?, ?, ?, 1, 1, 835, 1, 1) RETURNING id`, f.group, fmt.Sprintf("P%d-%d", f.group, i), fmt.Sprintf("0号柴油%d", i)).Scan(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

func (f wbFixture) input() map[string]any {
	load := int64(1_772_352_000_000) // 2026-03-01 16:00 CST
	return map[string]any{"carId": f.car, "depotId": f.depot, "stationIds": []int64{f.st1, f.st2},
		"plannedLoadAt": load, "plannedArriveAt": load + 4*3600_000, "escortName": "李四", "escortPhone": "13900000000",
		"compartments": []map[string]any{{"no": 1, "productId": f.prod, "plannedL": 8000, "destSeq": 1},
			{"no": 2, "productId": f.prod2, "plannedL": 5000, "destSeq": 2}}}
}

func TestWaybillBills(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		admin := e.Login("admin", "admin123")
		east := wbSetup(t, e, "华东分公司")
		north := wbSetup(t, e, "华北分公司")
		gw := &answering{status: telemetry.CommandOK}
		e.App.WaybillBills().Sender = gw

		// create: number from the company code, driver from the car, PLANNED
		var d bill.Detail
		e.MustOK("POST", "/base-info-app/waybill/add", admin, east.input()).Decode(&d)
		if d.State != "PLANNED" || !strings.Contains(d.No, waybill.KindWaybill+"20260301") || len(d.Destinations) != 2 ||
			len(d.Compartments) != 2 || d.PlannedL != 13000 || d.Plate != east.plate || d.DepotName != east.depotName {
			t.Fatalf("created %+v", d)
		}
		// store rules: compartment outside the car, a depot that is a station, arrival before load
		bad := east.input()
		bad["compartments"] = []map[string]any{{"no": 8, "productId": east.prod, "plannedL": 100}}
		if r := e.Call("POST", "/base-info-app/waybill/add", admin, bad); r.Success != 0 || !strings.Contains(r.Message, "8 号仓位超出车辆") {
			t.Errorf("compartment 8: %s", r.Body)
		}
		bad = east.input()
		bad["depotId"] = east.st2
		bad["stationIds"] = []int64{east.st1, east.depot}
		if r := e.Call("POST", "/base-info-app/waybill/add", admin, bad); r.Success != 0 || !strings.Contains(r.Message, "站点类型不对") {
			t.Errorf("station as depot: %s", r.Body)
		}
		bad = east.input()
		bad["salesGroupId"] = north.group
		if r := e.Call("POST", "/base-info-app/waybill/add", admin, bad); r.Success != 0 || !strings.Contains(r.Message, "未与车辆所属承运单位绑定") {
			t.Errorf("unbound sales company: %s", r.Body)
		}
		e.Lang = "en-US"
		bad = east.input()
		bad["plannedArriveAt"] = bad["plannedLoadAt"]
		if r := e.Call("POST", "/base-info-app/waybill/add", admin, bad); r.Success != 0 || r.Message != "The planned arrival must be after the planned loading" {
			t.Errorf("arrival: %s", r.Body)
		}
		e.Lang = ""

		// update while PLANNED
		up := east.input()
		up["id"] = d.ID
		up["remark"] = "改"
		var u bill.Detail
		e.MustOK("POST", "/base-info-app/waybill/update", admin, up).Decode(&u)
		if u.Remark != "改" || u.No != d.No {
			t.Errorf("updated %+v", u)
		}
		// lists: carrier page, state counts, archive empty
		var pg httpx.Page[bill.View]
		e.MustOK("POST", "/base-info-app/waybill/page", admin, map[string]any{"no": d.No[len(d.No)-6:]}).Decode(&pg)
		if pg.Total != 1 || pg.List[0].ID != d.ID || len(pg.List[0].Destinations) != 2 {
			t.Errorf("page %+v", pg)
		}
		e.MustOK("POST", "/base-info-app/waybill/page", admin, map[string]any{"stationId": east.st2, "state": "PLANNED"}).Decode(&pg)
		if pg.Total != 1 {
			t.Errorf("by destination: %+v", pg)
		}
		var counts map[string]int
		e.MustOK("POST", "/base-info-app/waybill/stateCounts", admin, map[string]any{}).Decode(&counts)
		if counts["PLANNED"] != 1 {
			t.Errorf("counts %v", counts)
		}

		// dispatch: the text reaches the terminal, DISPATCHED, step with CauseUser
		e.MustOK("POST", "/base-info-app/waybill/dispatch", admin, map[string]any{"id": d.ID}).Decode(&u)
		if u.State != "DISPATCHED" || len(gw.texts) != 1 || !strings.HasPrefix(gw.texts[0], "运单 "+d.No+"："+east.depotName+"→"+east.st1Name) {
			t.Errorf("dispatched %s %v", u.State, gw.texts)
		}
		steps, _ := waybill.Steps(t.Context(), e.DB, d.ID)
		if len(steps) != 1 || steps[0].Cause != waybill.CauseUser || steps[0].To != waybill.Dispatched {
			t.Errorf("steps %+v", steps)
		}
		// edit / delete / dispatch after dispatch refused
		for _, c := range []struct {
			path string
			body any
		}{{"update", up}, {"delete", map[string]any{"id": d.ID}}, {"dispatch", map[string]any{"id": d.ID}}} {
			if r := e.Call("POST", "/base-info-app/waybill/"+c.path, admin, c.body); r.Success != 0 || !strings.Contains(r.Message, "已派单") {
				t.Errorf("%s after dispatch: %s", c.path, r.Body)
			}
		}
		// a second waybill of the same car cannot be dispatched while the first is under way
		var d2 bill.Detail
		e.MustOK("POST", "/base-info-app/waybill/add", admin, east.input()).Decode(&d2)
		if r := e.Call("POST", "/base-info-app/waybill/dispatch", admin, map[string]any{"id": d2.ID}); r.Success != 0 || !strings.Contains(r.Message, d.No) {
			t.Errorf("busy car: %s", r.Body)
		}
		// cancel needs a reason; DISPATCHED → CANCELLED
		if r := e.Call("POST", "/base-info-app/waybill/cancel", admin, map[string]any{"id": d.ID}); r.Success != 0 || !strings.Contains(r.Message, "取消原因") {
			t.Errorf("cancel without reason: %s", r.Body)
		}
		e.MustOK("POST", "/base-info-app/waybill/cancel", admin, map[string]any{"id": d.ID, "reason": "客户取消"}).Decode(&u)
		if u.State != "CANCELLED" || u.Reason != "客户取消" {
			t.Errorf("cancelled %+v", u)
		}
		e.MustOK("POST", "/base-info-app/waybill/archivePage", admin, map[string]any{}).Decode(&pg)
		if pg.Total != 1 || pg.List[0].ID != d.ID {
			t.Errorf("archive %+v", pg)
		}
		// cancel after IN_TRANSIT refused
		e.MustOK("POST", "/base-info-app/waybill/dispatch", admin, map[string]any{"id": d2.ID})
		if err := e.DB.RunInTx(t.Context(), nil, func(ctx context.Context, tx bun.Tx) error {
			_, err := waybill.Correct(ctx, tx, d2.ID, waybill.InTransit, 1, "测试", 1)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if r := e.Call("POST", "/base-info-app/waybill/cancel", admin, map[string]any{"id": d2.ID, "reason": "晚了"}); r.Success != 0 || !strings.Contains(r.Message, "才能取消") {
			t.Errorf("cancel in transit: %s", r.Body)
		}

		// an offline terminal refuses the dispatch and leaves the waybill PLANNED
		gw.status = telemetry.CommandOffline
		var d3 bill.Detail
		e.MustOK("POST", "/base-info-app/waybill/add", admin, north.input()).Decode(&d3)
		if r := e.Call("POST", "/base-info-app/waybill/dispatch", admin, map[string]any{"id": d3.ID}); r.Success != 0 || !strings.Contains(r.Message, "不在线") {
			t.Errorf("offline: %s", r.Body)
		}
		e.MustOK("GET", fmt.Sprintf("/base-info-app/waybill/detail?id=%d", d3.ID), admin, nil).Decode(&u)
		if u.State != "PLANNED" {
			t.Errorf("offline dispatch moved it: %s", u.State)
		}

		// another group's waybill: a 华东 dispatcher is refused every id of 华北
		eastTok := eastUser(t, e, admin)
		for _, c := range []struct {
			method, path string
			body         any
		}{
			{"GET", fmt.Sprintf("/base-info-app/waybill/detail?id=%d", d3.ID), nil},
			{"POST", "/base-info-app/waybill/update", func() map[string]any { m := north.input(); m["id"] = d3.ID; return m }()},
			{"POST", "/base-info-app/waybill/delete", map[string]any{"id": d3.ID}},
			{"POST", "/base-info-app/waybill/dispatch", map[string]any{"id": d3.ID}},
			{"POST", "/base-info-app/waybill/cancel", map[string]any{"id": d3.ID, "reason": "x"}},
			{"POST", "/base-info-app/waybill/add", north.input()},
		} {
			if r := e.Call(c.method, c.path, eastTok, c.body); r.Status != 403 {
				t.Errorf("%s as 华东: %d %s", c.path, r.Status, r.Body)
			}
		}
		e.MustOK("POST", "/base-info-app/waybill/page", eastTok, map[string]any{}).Decode(&pg)
		for _, v := range pg.List {
			if v.ID == d3.ID {
				t.Error("华北's waybill listed for 华东")
			}
		}
		// delete while PLANNED
		e.MustOK("POST", "/base-info-app/waybill/delete", admin, map[string]any{"id": d3.ID})
		var logged int
		if err := e.DB.NewRaw("SELECT COUNT(*) FROM operation_logs WHERE module = ?", bill.Module).Scan(t.Context(), &logged); err != nil || logged < 8 {
			t.Errorf("operation log rows %d %v", logged, err)
		}

		// the Go API: Create and Dispatch without a request
		gw.status = telemetry.CommandOK
		row, err := e.App.WaybillBills().Create(t.Context(), 1, bill.Input{CarID: north.car, DepotID: north.depot, StationIDs: []int64{north.st1},
			PlannedLoadAt: 1, PlannedArriveAt: 2, Compartments: []bill.CompInput{{No: 1, ProductID: north.prod, PlannedL: 1000}}})
		if err != nil {
			t.Fatal(err)
		}
		if err := e.App.WaybillBills().Dispatch(t.Context(), 1, row.ID); err != nil {
			t.Fatal(err)
		}

		// sales view: a sales company bound to the carrier sees the waybill, with the carrier's name
		var sales int64
		var eastPath string
		ctx := t.Context()
		if err := e.DB.NewRaw("SELECT path FROM org_groups WHERE id = ?", east.group).Scan(ctx, &eastPath); err != nil {
			t.Fatal(err)
		}
		if err := e.DB.NewRaw("INSERT INTO org_groups (parent_id, name, sales, created_at) VALUES (?, '华东销售', TRUE, 1) RETURNING id", east.group).Scan(ctx, &sales); err != nil {
			t.Fatal(err)
		}
		if _, err := e.DB.NewRaw("UPDATE org_groups SET path = ? WHERE id = ?", fmt.Sprintf("%s%d/", eastPath, sales), sales).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := e.DB.NewRaw("INSERT INTO sales_trans (sales_group_id, trans_group_id, created_at) VALUES (?, ?, 1)", sales, east.group).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		in := east.input()
		in["salesGroupId"] = sales
		var ds bill.Detail
		e.MustOK("POST", "/base-info-app/waybill/add", admin, in).Decode(&ds)
		e.MustOK("POST", "/base-info-app/waybill/pageBySales", admin, map[string]any{"groupId": sales}).Decode(&pg)
		if pg.Total != 1 || pg.List[0].ID != ds.ID || pg.List[0].GroupName != "华东分公司" || pg.List[0].SalesGroupName != "华东销售" {
			t.Errorf("sales page %+v", pg)
		}
		// export of the filter
		r := e.Call("POST", "/base-info-app/waybill/export", admin, map[string]any{"no": ds.No})
		x, err := excelize.OpenReader(bytes.NewReader(r.Body))
		if err != nil {
			t.Fatalf("export: %v %s", err, r.Body)
		}
		rows, _ := x.GetRows(x.GetSheetList()[0])
		if len(rows) != 2 || rows[1][0] != ds.No || rows[1][1] != "已计划" {
			t.Errorf("export rows %v", rows)
		}
	})
}

// eastUser signs in a 华东 dispatcher holding every waybill code.
func eastUser(t *testing.T, e *apptest.Env, admin string) string {
	t.Helper()
	east := e.Groups(admin)["华东分公司"]
	role := e.MustOK("POST", "/authority-app/roleInfo/insert", admin, map[string]any{"name": "华东运单", "groupId": east,
		"resourceCodes": []string{"03", "03-13", "03-13-01", "03-13-02", "03-13-03", "03-13-04", "03-13-05", "03-13-06", "03-13-07", "03-13-08", "03-14", "03-15"}}).ID()
	e.MustOK("POST", "/authority-app/userInfo/insert", admin, map[string]any{"name": "eastwb", "password": "secret1", "groupId": east, "roleIds": []int64{role}})
	return e.Login("eastwb", "secret1")
}

// TestWaybillImport: preview reports each wrong row in the reader's language; import stores nothing
// while any row is wrong, and every row once all are right.
func TestWaybillImport(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		admin := e.Login("admin", "admin123")
		east := wbSetup(t, e, "华东分公司")
		var st2 string
		if err := e.DB.NewRaw("SELECT name FROM stations WHERE id = ?", east.st2).Scan(t.Context(), &st2); err != nil {
			t.Fatal(err)
		}
		book := func(rows ...[]any) []byte {
			x := excelize.NewFile()
			head := []any{"车牌号", "油库", "目的站", "计划装油", "计划到达", "司机", "电话", "押运员", "电话", "客户", "备注", "油品1", "量1", "站1"}
			_ = x.SetSheetRow("Sheet1", "A1", &head)
			for i, r := range rows {
				_ = x.SetSheetRow("Sheet1", fmt.Sprintf("A%d", i+2), &r)
			}
			var b bytes.Buffer
			_ = x.Write(&b)
			return b.Bytes()
		}
		good := []any{east.plate, east.depotName, east.st1Name + "、" + st2, "2026-03-02 08:00", "2026-03-02 12:00", "", "", "", "", "", "", "0号柴油0", "8000", "2"}
		badStation := []any{east.plate, east.depotName, "不存在的站", "2026-03-02 08:00", "2026-03-02 12:00", "", "", "", "", "", "", "0号柴油0", "8000", ""}
		badTime := []any{east.plate, east.depotName, east.st1Name, "2026-03-02 08:00", "2026-03-01 12:00", "", "", "", "", "", "", "0号柴油0", "8000", ""}
		var res bill.ImportResult
		e.Lang = "en-US"
		e.MustOK("POST", "/base-info-app/waybill/importPreview", admin, book(good, badStation, badTime)).Decode(&res)
		if res.Errors != 2 || len(res.Rows) != 3 || res.Rows[0].Error != "" || res.Rows[1].Row != 3 ||
			res.Rows[1].Error != `Destinations "不存在的站" not found` || res.Rows[2].Error != "The planned arrival must be after the planned loading" {
			t.Errorf("preview %+v", res)
		}
		e.Lang = ""
		e.MustOK("POST", "/base-info-app/waybill/import", admin, book(good, badStation)).Decode(&res)
		var n int
		if err := e.DB.NewRaw("SELECT COUNT(*) FROM waybills").Scan(t.Context(), &n); err != nil || n != 0 || res.Created != 0 || !strings.Contains(res.Rows[1].Error, "找不到目的站") {
			t.Errorf("a wrong row saved something: %d %+v", n, res)
		}
		e.MustOK("POST", "/base-info-app/waybill/import", admin, book(good, good)).Decode(&res)
		if res.Created != 2 || len(res.Nos) != 2 {
			t.Fatalf("import %+v", res)
		}
		var d bill.Detail
		var id int64
		_ = e.DB.NewRaw("SELECT id FROM waybills WHERE no = ?", res.Nos[0]).Scan(t.Context(), &id)
		e.MustOK("GET", fmt.Sprintf("/base-info-app/waybill/detail?id=%d", id), admin, nil).Decode(&d)
		if len(d.Destinations) != 2 || len(d.Compartments) != 1 || d.Compartments[0].DestSeq != 2 || d.PlannedL != 8000 {
			t.Errorf("imported %+v", d)
		}
		if r := e.Call("POST", "/base-info-app/waybill/import", admin, []byte("not a workbook")); r.Success != 0 || !strings.Contains(r.Message, "xlsx") {
			t.Errorf("not xlsx: %s", r.Body)
		}
	})
}

// northBills are 华北's waybill records for the authorization matrix.
type northBills struct{ waybill, plan, depot, station, product, car int64 }

// insertNorthBills stores a product, a transport plan with one item and a PLANNED waybill of car in
// group (the matrix's out-of-scope records of the waybill routes).
func insertNorthBills(t *testing.T, e *apptest.Env, group, car int64) northBills {
	t.Helper()
	ctx := t.Context()
	nb := northBills{car: car}
	if err := e.DB.NewRaw("SELECT id FROM stations WHERE group_id = ? AND station_type = 'yk' ORDER BY id LIMIT 1", group).Scan(ctx, &nb.depot); err != nil {
		t.Fatal(err)
	}
	if err := e.DB.NewRaw("SELECT id FROM stations WHERE group_id = ? AND station_type = 'jyz' ORDER BY id LIMIT 1", group).Scan(ctx, &nb.station); err != nil {
		t.Fatal(err)
	}
	if err := e.DB.NewRaw(`INSERT INTO products (group_id, code, name, created_at, updated_at) VALUES (?, 'N92', '92号汽油', 1, 1) RETURNING id`, group).Scan(ctx, &nb.product); err != nil {
		t.Fatal(err)
	}
	if err := e.DB.NewRaw(`INSERT INTO transport_plans (group_id, no, plan_date, depot_id, created_at, updated_at) VALUES (?, 'NJH1', '2026-03-01', ?, 1, 1) RETURNING id`,
		group, nb.depot).Scan(ctx, &nb.plan); err != nil {
		t.Fatal(err)
	}
	if _, err := e.DB.NewRaw(`INSERT INTO transport_plan_items (plan_id, car_id, station_id, product_id, planned_l) VALUES (?, ?, ?, ?, 5000)`,
		nb.plan, car, nb.station, nb.product).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	row := &waybill.Row{GroupID: group, No: "NYD1", CarID: car, DepotID: nb.depot, State: waybill.Planned, CreatedAt: 1, UpdatedAt: 1}
	if err := waybill.Insert(ctx, e.DB, row, []waybill.Destination{{Seq: 1, StationID: nb.station}},
		[]waybill.Compartment{{No: 1, ProductID: nb.product, PlannedL: 1000, DestSeq: 1}}); err != nil {
		t.Fatal(err)
	}
	nb.waybill = row.ID
	return nb
}

// input is a valid add/update body naming 华北's records.
func (nb northBills) input(id int64) map[string]any {
	return map[string]any{"id": id, "carId": nb.car, "depotId": nb.depot, "stationIds": []int64{nb.station}, "plannedLoadAt": 1, "plannedArriveAt": 2,
		"compartments": []map[string]any{{"no": 1, "productId": nb.product, "plannedL": 100}}}
}

// waybillForeignCalls are the out-of-scope requests of the waybill routes.
func waybillForeignCalls(f fixture) map[string][]call {
	nb := f.northBills
	g := map[string]any{"groupId": f.north}
	id := map[string]any{"id": nb.waybill}
	return map[string][]call{
		"POST /base-info-app/waybill/page":          {{body: g}},
		"POST /base-info-app/waybill/stateCounts":   {{body: g}},
		"POST /base-info-app/waybill/pageBySales":   {{body: g}},
		"POST /base-info-app/waybill/archivePage":   {{body: g}},
		"GET /base-info-app/waybill/detail":         {{query: fmt.Sprintf("?id=%d", nb.waybill)}},
		"POST /base-info-app/waybill/add":           {{body: nb.input(0)}},
		"POST /base-info-app/waybill/update":        {{body: nb.input(nb.waybill)}},
		"POST /base-info-app/waybill/delete":        {{body: id}},
		"POST /base-info-app/waybill/dispatch":      {{body: id}},
		"POST /base-info-app/waybill/cancel":        {{body: map[string]any{"id": nb.waybill, "reason": "x"}}},
		"POST /base-info-app/waybill/fromPlan":      {{body: map[string]any{"planId": nb.plan}}},
		"POST /base-info-app/waybill/export":        {{body: g}},
		"POST /base-info-app/waybill/exportBySales": {{body: g}},
		"POST /base-info-app/waybill/exportArchive": {{body: g}},
	}
}
