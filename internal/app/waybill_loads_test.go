package app_test

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/waybill"
	"tankwatch/internal/waybill/load"
	"tankwatch/internal/waybill/plan"
)

func init() {
	stateTables = append(stateTables, "transport_plans", "transport_plan_items", "load_records", "load_record_items",
		"seal_checks", "diff_records", "waybills", "waybill_steps")
}

// loadsWbFixture: rows a load test needs, inserted with SQL (products and waybills belong to other parts).
type loadsWbFixture struct {
	group, car, depot, dest, product int64
	plate                            string
}

func groupOfName(t *testing.T, e *apptest.Env, name string) int64 {
	t.Helper()
	var id int64
	if err := e.DB.NewRaw("SELECT id FROM org_groups WHERE name = ?", name).Scan(t.Context(), &id); err != nil {
		t.Fatalf("group %s: %v", name, err)
	}
	return id
}

// loadsFixture picks a car, a depot and a station of group name (or its subtree) and adds a gasoline
// product (ρ20 740) to the group.
func loadsFixture(t *testing.T, e *apptest.Env, name string) loadsWbFixture {
	t.Helper()
	ctx := t.Context()
	f := loadsWbFixture{group: groupOfName(t, e, name)}
	var path string
	if err := e.DB.NewRaw("SELECT path FROM org_groups WHERE id = ?", f.group).Scan(ctx, &path); err != nil {
		t.Fatal(err)
	}
	if err := e.DB.NewRaw(`SELECT c.id, c.plate FROM cars AS c JOIN org_groups AS g ON g.id = c.group_id
		WHERE g.path LIKE ? ORDER BY c.id LIMIT 1`, path+"%").Scan(ctx, &f.car, &f.plate); err != nil {
		t.Fatalf("car of %s: %v", name, err)
	}
	if err := e.DB.NewRaw("SELECT id FROM stations WHERE group_id = ? AND station_type = 'yk' ORDER BY id LIMIT 1", f.group).Scan(ctx, &f.depot); err != nil {
		t.Fatalf("depot of %s: %v", name, err)
	}
	if err := e.DB.NewRaw("SELECT id FROM stations WHERE group_id = ? AND station_type <> 'yk' ORDER BY id LIMIT 1", f.group).Scan(ctx, &f.dest); err != nil {
		t.Fatalf("station of %s: %v", name, err)
	}
	if err := e.DB.NewRaw(`INSERT INTO products (group_id, code, name, product, family, density20, created_at, updated_at)
		VALUES (?, ?, ?, 2, 1, 740, 1, 1) RETURNING id`, f.group, "P95-"+fmt.Sprint(f.group), "95#汽油"+name).Scan(ctx, &f.product); err != nil {
		t.Fatal(err)
	}
	return f
}

// newWaybill stores a PLANNED waybill of f's car with 2 compartments of f's product (what the waybill
// service's add or fromPlan makes).
func newWaybill(t *testing.T, e *apptest.Env, f loadsWbFixture, no string) int64 {
	t.Helper()
	now := e.Clock.Now().UnixMilli()
	r := &waybill.Row{GroupID: f.group, No: no, CarID: f.car, DepotID: f.depot, StateAt: now, CreatedAt: now, UpdatedAt: now}
	err := waybill.Insert(t.Context(), e.DB, r, []waybill.Destination{{Seq: 1, StationID: f.dest}},
		[]waybill.Compartment{{No: 1, ProductID: f.product, PlannedL: 8000, DestSeq: 1}, {No: 2, ProductID: f.product, PlannedL: 8000, DestSeq: 1}})
	if err != nil {
		t.Fatal(err)
	}
	return r.ID
}

func setState(t *testing.T, e *apptest.Env, id int64, st waybill.State) {
	t.Helper()
	if _, err := e.DB.NewRaw("UPDATE waybills SET state = ? WHERE id = ?", st, id).Exec(t.Context()); err != nil {
		t.Fatal(err)
	}
}

func wbRow(t *testing.T, e *apptest.Env, id int64) waybill.Row {
	t.Helper()
	var r waybill.Row
	if err := e.DB.NewSelect().Model(&r).Where("id = ?", id).Scan(t.Context()); err != nil {
		t.Fatal(err)
	}
	return r
}

func refused(t *testing.T, r *apptest.Resp, want string) {
	t.Helper()
	if r.Code == 1 || !strings.Contains(r.Message, want) {
		t.Errorf("want a refusal containing %q, got %d %s", want, r.Status, r.Body)
	}
}

// TestTransportPlans: a plan with its number, items and progress; an item with a waybill is locked and
// its plan cannot be deleted; the car items page filters by waybill state; another group's plan is
// refused.
func TestTransportPlans(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		admin := e.Login("admin", "admin123")
		f := loadsFixture(t, e, "华东分公司")
		n := loadsFixture(t, e, "华北分公司")
		item := map[string]any{"carId": f.car, "stationId": f.dest, "productId": f.product, "plannedL": 16000}
		body := map[string]any{"planDate": "2026-03-02", "depotId": f.depot, "groupId": f.group, "title": "华东 3 月 2 日", "items": []any{item, item}}
		var pv plan.PlanView
		e.MustOK("POST", "/base-info-app/transportPlan/add", admin, body).Decode(&pv)
		if !strings.Contains(pv.No, "JH20260301") || pv.Total != 2 || pv.PlannedL != 32000 || pv.Items[0].Plate != f.plate || pv.Items[0].WaybillState != "" {
			t.Fatalf("plan %+v", pv)
		}
		// validation names the field in the caller's language
		e.Lang = "en-US"
		bad := map[string]any{"planDate": "2026-03-02", "depotId": f.depot, "items": []any{map[string]any{"carId": f.car, "stationId": f.dest, "productId": f.product}}}
		refused(t, e.Call("POST", "/base-info-app/transportPlan/add", admin, bad), "Item 1: the planned volume")
		e.Lang = ""
		refused(t, e.Call("POST", "/base-info-app/transportPlan/add", admin, map[string]any{"depotId": f.depot}), "计划日期不能为空")
		// a waybill made from the first item (as fromPlan does)
		wb := newWaybill(t, e, f, "YDPLAN1")
		if _, err := e.DB.NewRaw("UPDATE transport_plan_items SET waybill_id = ? WHERE id = ?", wb, pv.Items[0].ID).Exec(t.Context()); err != nil {
			t.Fatal(err)
		}
		setState(t, e, wb, waybill.Closed)
		e.MustOK("GET", fmt.Sprintf("/base-info-app/transportPlan/detail?id=%d", pv.ID), admin, nil).Decode(&pv)
		if pv.Items[0].WaybillNo != "YDPLAN1" || pv.Items[0].WaybillState != "CLOSED" || !pv.Items[0].Delivered || pv.DeliveredN != 1 || pv.WithWaybill != 1 {
			t.Fatalf("progress %+v", pv)
		}
		refused(t, e.Call("POST", "/base-info-app/transportPlan/delete", admin, map[string]any{"id": pv.ID}), "1 条明细生成了运单")
		// the item with a waybill keeps its figures; the other may change or go
		upd := map[string]any{"id": pv.ID, "planDate": "2026-03-02", "depotId": f.depot,
			"items": []any{map[string]any{"id": pv.Items[0].ID, "carId": f.car, "stationId": f.dest, "productId": f.product, "plannedL": 1}}}
		refused(t, e.Call("POST", "/base-info-app/transportPlan/update", admin, upd), "第1条明细已生成运单")
		upd["items"] = []any{map[string]any{"id": pv.Items[0].ID, "carId": f.car, "stationId": f.dest, "productId": f.product, "plannedL": 16000}}
		e.MustOK("POST", "/base-info-app/transportPlan/update", admin, upd).Decode(&pv)
		if pv.Total != 1 {
			t.Fatalf("after update %+v", pv)
		}
		var items httpx.Page[plan.ItemView]
		e.MustOK("POST", "/base-info-app/transportPlanCarItem/page", admin, map[string]any{"state": "CLOSED", "carId": f.car}).Decode(&items)
		if items.Total != 1 || items.List[0].WaybillNo != "YDPLAN1" {
			t.Fatalf("items %+v", items)
		}
		e.MustOK("POST", "/base-info-app/transportPlanCarItem/page", admin, map[string]any{"state": "NONE"}).Decode(&items)
		if items.Total != 0 {
			t.Fatalf("items without waybill %+v", items)
		}
		if r := e.Call("POST", "/base-info-app/transportPlanCarItem/export", admin, map[string]any{}); r.Status != 200 || !strings.Contains(r.Header.Get("Content-Type"), "spreadsheet") {
			t.Fatalf("export %d %s", r.Status, r.Body)
		}
		// a plan of 华北 cannot be made from 华东, nor read
		north := map[string]any{"planDate": "2026-03-02", "depotId": n.depot, "groupId": n.group,
			"items": []any{map[string]any{"carId": n.car, "stationId": n.dest, "productId": n.product, "plannedL": 100}}}
		np := e.MustOK("POST", "/base-info-app/transportPlan/add", admin, north).ID()
		east := eastAdmin(t, e, admin, f.group)
		if r := e.Call("GET", fmt.Sprintf("/base-info-app/transportPlan/detail?id=%d", np), east, nil); r.Status != 403 {
			t.Errorf("foreign plan read: %d %s", r.Status, r.Body)
		}
		if r := e.Call("POST", "/base-info-app/transportPlan/add", east, north); r.Status != 403 {
			t.Errorf("foreign plan add: %d %s", r.Status, r.Body)
		}
		var page httpx.Page[plan.PlanView]
		e.MustOK("POST", "/base-info-app/transportPlan/page", east, map[string]any{}).Decode(&page)
		if page.Total != 1 || page.List[0].ID != pv.ID {
			t.Errorf("east sees %+v", page)
		}
		e.MustOK("POST", "/base-info-app/transportPlan/delete", admin, map[string]any{"id": np})
	})
}

// eastAdmin adds a user of group holding the 04 codes and returns its token.
func eastAdmin(t *testing.T, e *apptest.Env, admin string, group int64) string {
	t.Helper()
	codes := []string{"04-24", "04-24-01", "04-24-02", "04-24-03", "04-27", "04-27-01", "04-25", "04-25-01", "04-25-02", "04-25-03", "04-25-04", "04-25-05"}
	role := e.MustOK("POST", "/authority-app/roleInfo/insert", admin, map[string]any{"name": "华东调度", "groupId": group, "resourceCodes": codes}).ID()
	e.MustOK("POST", "/authority-app/userInfo/insert", admin, map[string]any{"name": "eastdispatch", "password": "secret1", "groupId": group, "roleIds": []int64{role}})
	return e.Login("eastdispatch", "secret1")
}

// TestLoadRecords: a record moves the waybill to LOADED with a step of cause record and sets its
// shipped V20 and mass; wrong states, duplicate seals and another group's waybills are refused; the
// seal check at unsealing advances or flags; the report adds up the records; the import saves nothing
// while a row is wrong.
func TestLoadRecords(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		admin := e.Login("admin", "admin123")
		f := loadsFixture(t, e, "华东分公司")
		n := loadsFixture(t, e, "华北分公司")
		wb := newWaybill(t, e, f, "YDLOAD1")
		setState(t, e, wb, waybill.Loading)
		loadedAt := e.Clock.Now().Add(-3600e9).UnixMilli()
		rec := map[string]any{"waybillId": wb, "ticketNo": "T-001", "loadedAt": loadedAt, "items": []any{
			map[string]any{"compartment": 1, "vtL": 10000, "tempC": 30, "sealNo": "qf001"},
			map[string]any{"compartment": 2, "vtL": 10000, "tempC": 0, "density20": 740, "sealNo": "QF002"},
		}}
		var d load.Detail
		e.MustOK("POST", "/monitor-app/loadRecord/save", admin, rec).Decode(&d)
		if d.V20L != 20120.4 || len(d.ItemList) != 2 || math.Abs(d.ItemList[0].VCF20-0.9877) > 0.000006 || d.ItemList[0].SealNo != "QF001" || d.WaybillState != "LOADED" {
			t.Fatalf("record %+v", d)
		}
		row := wbRow(t, e, wb)
		if row.State != waybill.Loaded || row.ShippedV20 != 20120.4 || math.Abs(row.ShippedMassT-14.867) > 0.0015 || row.LoadedAt != loadedAt {
			t.Fatalf("waybill %+v", row)
		}
		steps, _ := waybill.Steps(t.Context(), e.DB, wb)
		last := steps[len(steps)-1]
		if last.From != waybill.Loading || last.To != waybill.Loaded || last.Cause != waybill.CauseRecord || last.Evidence != int(waybill.EvLoadRecord) {
			t.Fatalf("step %+v", last)
		}
		// corrected while LOADED: replaced, no second step
		rec["items"] = []any{map[string]any{"compartment": 1, "vtL": 9000, "tempC": 20, "sealNo": "QF001"}}
		e.MustOK("POST", "/monitor-app/loadRecord/save", admin, rec).Decode(&d)
		if d.V20L != 9000 || wbRow(t, e, wb).ShippedV20 != 9000 {
			t.Fatalf("replaced %+v", d)
		}
		if s2, _ := waybill.Steps(t.Context(), e.DB, wb); len(s2) != len(steps) {
			t.Errorf("a correction stored a step")
		}
		// the same seal on another open waybill is refused; a seal twice in one record too
		wb2 := newWaybill(t, e, f, "YDLOAD2")
		r2 := map[string]any{"waybillId": wb2, "items": []any{map[string]any{"compartment": 1, "vtL": 5000, "tempC": 15, "sealNo": "qf001 "}}}
		refused(t, e.Call("POST", "/monitor-app/loadRecord/save", admin, r2), "铅封号 QF001 已用于另一张未完结的运单")
		r2["items"] = []any{map[string]any{"compartment": 1, "vtL": 5000, "tempC": 15, "sealNo": "A1"}, map[string]any{"compartment": 2, "vtL": 5000, "tempC": 15, "sealNo": "a1"}}
		refused(t, e.Call("POST", "/monitor-app/loadRecord/save", admin, r2), "同时用于1号仓和2号仓")
		r2["items"] = []any{map[string]any{"compartment": 3, "vtL": 5000, "tempC": 15}}
		refused(t, e.Call("POST", "/monitor-app/loadRecord/save", admin, r2), "")
		e.Lang = "zh-TW"
		r2["items"] = []any{map[string]any{"compartment": 1, "vtL": 5000, "tempC": 95}}
		refused(t, e.Call("POST", "/monitor-app/loadRecord/save", admin, r2), "1號倉：溫度(°C)應在 -40 到 80 之間")
		e.Lang = ""
		// a record on a waybill past LOADED is refused; and on a cancelled one
		setState(t, e, wb2, waybill.Sealed)
		r2["items"] = []any{map[string]any{"compartment": 1, "vtL": 5000, "tempC": 15}}
		refused(t, e.Call("POST", "/monitor-app/loadRecord/save", admin, r2), "运单状态为「已施封」")
		setState(t, e, wb2, waybill.Cancelled)
		refused(t, e.Call("POST", "/monitor-app/loadRecord/save", admin, r2), "已作废")
		// another group's waybill: refused from 华东; a customer has no load record code
		nwb := newWaybill(t, e, n, "YDNORTH1")
		east := eastAdmin(t, e, admin, f.group)
		r3 := map[string]any{"waybillId": nwb, "items": []any{map[string]any{"compartment": 1, "vtL": 5000, "tempC": 15}}}
		if r := e.Call("POST", "/monitor-app/loadRecord/save", east, r3); r.Status != 403 {
			t.Errorf("foreign waybill: %d %s", r.Status, r.Body)
		}
		if r := e.Call("POST", "/monitor-app/loadRecord/page", e.Login("customer", "customer123"), map[string]any{}); r.Status != 403 {
			t.Errorf("customer: %d %s", r.Status, r.Body)
		}
		var page httpx.Page[load.View]
		e.MustOK("POST", "/monitor-app/loadRecord/page", east, map[string]any{}).Decode(&page)
		if page.Total != 1 || page.List[0].Seals != "QF001" || page.List[0].Plate != f.plate {
			t.Fatalf("page %+v", page)
		}
		// the demo depot's Go API: no scope, same checks
		if _, err := e.App.LoadRecords().Record(t.Context(), 0, waybill.LoadDepot, load.RecordInput{WaybillID: nwb,
			Items: []load.ItemInput{{Compartment: 1, VtL: 8000, TempC: 30}}}); err != nil {
			t.Fatal(err)
		}
		if r := wbRow(t, e, nwb); r.State != waybill.Loaded || r.ShippedV20 != 7901.6 {
			t.Fatalf("north waybill %+v", r)
		}

		// report over the period by car: figures traceable to the records
		var rep load.Report
		e.MustOK("POST", "/monitor-app/realTimeMoitoring/loadReport", admin, map[string]any{
			"startTime": loadedAt - 86400e3, "endTime": e.Clock.Now().UnixMilli(), "groupBy": "product"}).Decode(&rep)
		if rep.Total.Count != 2 || rep.Total.V20L != 16901.6 || len(rep.Lines) != 2 {
			t.Fatalf("report %+v", rep)
		}
		for _, l := range rep.Lines {
			sum := 0.0
			for _, rr := range l.Records {
				sum += rr.V20L
			}
			if math.Abs(sum-l.V20L) > 0.05 || l.Count != len(l.Records) {
				t.Errorf("line %+v does not add up", l)
			}
		}
		e.MustOK("POST", "/monitor-app/realTimeMoitoring/loadReport", east, map[string]any{
			"startTime": loadedAt - 86400e3, "endTime": e.Clock.Now().UnixMilli()}).Decode(&rep)
		if rep.Total.Count != 1 || rep.Lines[0].Name != f.plate {
			t.Fatalf("east report %+v", rep)
		}

		// seal check: not before arrival; a mismatch flags and records a difference; all matching unseals
		check := map[string]any{"waybillId": wb, "seals": []any{map[string]any{"compartment": 1, "foundNo": "QF009"}}}
		refused(t, e.Call("POST", "/monitor-app/loadRecord/sealCheck", admin, check), "只有已到站且未完结")
		setState(t, e, wb, waybill.Arrived)
		var res load.SealCheckResult
		e.MustOK("POST", "/monitor-app/loadRecord/sealCheck", admin, check).Decode(&res)
		if res.OK || len(res.Mismatches) != 1 || res.Mismatches[0].Expected != "QF001" || res.State != "ARRIVED" {
			t.Fatalf("mismatch %+v", res)
		}
		var diffs []waybill.DiffRow
		if err := e.DB.NewSelect().Model(&diffs).Where("waybill_id = ?", wb).Scan(t.Context()); err != nil || len(diffs) != 1 ||
			diffs[0].Kind != waybill.DiffSealMismatch || !strings.Contains(diffs[0].Evidence, `"found":"QF009"`) {
			t.Fatalf("diffs %+v %v", diffs, err)
		}
		if !wbRow(t, e, wb).Flagged {
			t.Error("not flagged")
		}
		check["seals"] = []any{map[string]any{"compartment": 1, "foundNo": "qf001"}}
		e.MustOK("POST", "/monitor-app/loadRecord/sealCheck", admin, check).Decode(&res)
		if !res.OK || res.State != "UNSEALED" {
			t.Fatalf("match %+v", res)
		}
		steps, _ = waybill.Steps(t.Context(), e.DB, wb)
		if last := steps[len(steps)-1]; last.To != waybill.Unsealed || last.Cause != waybill.CauseRecord {
			t.Fatalf("unseal step %+v", last)
		}
		// once sealed on, the record cannot be deleted
		refused(t, e.Call("POST", "/monitor-app/loadRecord/delete", admin, map[string]any{"id": d.ID}), "不能删除装油记录")

		// import: a wrong row saves nothing; then all right saves one record per waybill
		wb3 := newWaybill(t, e, f, "YDIMP1")
		day := e.Clock.Now().Add(-7200e9).In(httpx.Shanghai).Format("2006-01-02 15:04")
		sheet := func(rows ...[]any) []byte {
			x := excelize.NewFile()
			for i, r := range append([][]any{{"运单号", "装油单号", "装油时间", "仓号", "油品", "Vt", "温度", "密度", "铅封号"}}, rows...) {
				cell, _ := excelize.CoordinatesToCellName(1, i+1)
				_ = x.SetSheetRow("Sheet1", cell, &r)
			}
			var b bytes.Buffer
			_ = x.Write(&b)
			return b.Bytes()
		}
		good := []any{"YDIMP1", "TK9", day, 1, "", 8000, 25, "", "IM1"}
		wrong := []any{"YDNOPE", "TK9", day, 1, "", 8000, 25, "", "IM2"}
		var ir load.ImportResult
		e.MustOK("POST", "/monitor-app/loadRecord/import", east, sheet(good, wrong)).Decode(&ir)
		if ir.Saved != 0 || len(ir.Errors) != 1 || !strings.Contains(ir.Errors[0].Message, "第3行：运单 YDNOPE 不存在") {
			t.Fatalf("import with a wrong row %+v", ir)
		}
		if wbRow(t, e, wb3).State != waybill.Planned {
			t.Fatal("a wrong import saved")
		}
		e.MustOK("POST", "/monitor-app/loadRecord/importPreview", east, sheet(good)).Decode(&ir)
		if ir.Saved != 0 || len(ir.Errors) != 0 || ir.Rows[0].V20L == 0 || ir.Rows[0].Plate != f.plate {
			t.Fatalf("preview %+v", ir)
		}
		e.MustOK("POST", "/monitor-app/loadRecord/import", east, sheet(good)).Decode(&ir)
		if ir.Saved != 1 || wbRow(t, e, wb3).State != waybill.Loaded {
			t.Fatalf("import %+v", ir)
		}
		if r := e.Call("POST", "/monitor-app/loadRecord/export", east, map[string]any{}); r.Status != 200 || !strings.Contains(r.Header.Get("Content-Type"), "spreadsheet") {
			t.Fatalf("export %d", r.Status)
		}
		// delete while LOADED: back to PLANNED with a correction step
		var ip httpx.Page[load.View]
		e.MustOK("POST", "/monitor-app/loadRecord/page", east, map[string]any{"waybillNo": "YDIMP1"}).Decode(&ip)
		e.MustOK("POST", "/monitor-app/loadRecord/delete", east, map[string]any{"id": ip.List[0].ID})
		if r := wbRow(t, e, wb3); r.State != waybill.Planned || r.ShippedV20 != 0 {
			t.Fatalf("after delete %+v", r)
		}
	})
}

// loadsCalls are the out-of-scope requests of the plan and load record routes for the authorization
// matrix: records of 华北 created by setupLoads.
type loadsIDs struct{ plan, waybill, record, car, group, station, eastDepot, eastStation, eastCar, eastProduct int64 }

func setupLoads(t *testing.T, e *apptest.Env) loadsIDs {
	t.Helper()
	n := loadsFixture(t, e, "华北分公司")
	ea := loadsFixture(t, e, "华东分公司")
	admin := e.Login("admin", "admin123")
	pl := e.MustOK("POST", "/base-info-app/transportPlan/add", admin, map[string]any{"planDate": "2026-03-01", "depotId": n.depot, "groupId": n.group,
		"items": []any{map[string]any{"carId": n.car, "stationId": n.dest, "productId": n.product, "plannedL": 100}}}).ID()
	wb := newWaybill(t, e, n, "YDMATRIX")
	rid, err := e.App.LoadRecords().Record(t.Context(), 0, waybill.LoadDepot, load.RecordInput{WaybillID: wb, LoadedAt: e.Clock.Now().UnixMilli(),
		Items: []load.ItemInput{{Compartment: 1, VtL: 100, TempC: 20, SealNo: "MATRIX1"}}})
	if err != nil {
		t.Fatal(err)
	}
	return loadsIDs{plan: pl, waybill: wb, record: rid, car: n.car, group: n.group, station: n.depot,
		eastDepot: ea.depot, eastStation: ea.dest, eastCar: ea.car, eastProduct: ea.product}
}

func loadsCalls(l loadsIDs) map[string][]call {
	q := func(k string, v int64) string { return "?" + k + "=" + fmt.Sprint(v) }
	eastItem := []any{map[string]any{"carId": l.eastCar, "stationId": l.eastStation, "productId": l.eastProduct, "plannedL": 10}}
	period := map[string]any{"startTime": 1, "endTime": 2e12, "groupId": l.group}
	return map[string][]call{
		"POST /base-info-app/transportPlan/page":               {{body: map[string]any{"groupId": l.group}}, {body: map[string]any{"depotId": l.station}}},
		"GET /base-info-app/transportPlan/detail":              {{query: q("id", l.plan)}},
		"POST /base-info-app/transportPlan/add":                {{body: map[string]any{"planDate": "2026-03-01", "depotId": l.station}}, {body: map[string]any{"planDate": "2026-03-01", "depotId": l.eastDepot, "groupId": l.group, "items": eastItem}}},
		"POST /base-info-app/transportPlan/update":             {{body: map[string]any{"id": l.plan, "planDate": "2026-03-01", "depotId": l.eastDepot, "items": eastItem}}},
		"POST /base-info-app/transportPlan/delete":             {{body: map[string]any{"id": l.plan}}},
		"POST /base-info-app/transportPlanCarItem/page":        {{body: map[string]any{"groupId": l.group}}, {body: map[string]any{"carId": l.car}}},
		"POST /base-info-app/transportPlanCarItem/export":      {{body: map[string]any{"groupId": l.group}}, {body: map[string]any{"carId": l.car}}},
		"POST /monitor-app/loadRecord/page":                    {{body: map[string]any{"groupId": l.group}}, {body: map[string]any{"carId": l.car}}},
		"GET /monitor-app/loadRecord/detail":                   {{query: q("id", l.record)}},
		"POST /monitor-app/loadRecord/save":                    {{body: map[string]any{"waybillId": l.waybill, "items": []any{map[string]any{"compartment": 1, "vtL": 10, "tempC": 20}}}}},
		"POST /monitor-app/loadRecord/delete":                  {{body: map[string]any{"id": l.record}}},
		"POST /monitor-app/loadRecord/export":                  {{body: map[string]any{"depotId": l.station}}},
		"POST /monitor-app/loadRecord/sealCheck":               {{body: map[string]any{"waybillId": l.waybill, "seals": []any{map[string]any{"compartment": 1, "foundNo": "X"}}}}},
		"POST /monitor-app/realTimeMoitoring/loadReport":       {{body: period}},
		"POST /monitor-app/realTimeMoitoring/exportLoadReport": {{body: period}},
	}
}
