package app_test

import (
	"bytes"
	"strings"
	"tankwatch/internal/lock"
	"tankwatch/internal/sim"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/lock/registry"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/telemetry"
	"tankwatch/internal/waybill/bill"
)

func init() {
	stateTables = append(stateTables, "locks", "lock_binds", "car_blacklist")
}

// sheetOf is an xlsx workbook of rows.
func sheetOf(t *testing.T, rows [][]any) []byte {
	t.Helper()
	x := excelize.NewFile()
	defer x.Close()
	for i, r := range rows {
		cell, _ := excelize.CoordinatesToCellName(1, i+1)
		if err := x.SetSheetRow("Sheet1", cell, &r); err != nil {
			t.Fatal(err)
		}
	}
	var b bytes.Buffer
	if err := x.Write(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestLockRegistryHTTP: the demo's locks and blacklist, a lock added, bound, moved and unbound through
// the endpoints with its history, the import's preview and row errors, the exports as xlsx.
func TestLockRegistryHTTP(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		admin := e.Login("admin", "admin123")
		east := wbSetup(t, e, "华东分公司")

		// the demo: two locks per compartment of every demo car + 1 faulty + 3 spare
		var comps int
		if err := e.DB.NewRaw("SELECT SUM(compartments) FROM cars").Scan(t.Context(), &comps); err != nil {
			t.Fatal(err)
		}
		var locks httpx.Page[registry.View]
		e.MustOK("POST", "/base-info-app/blueLock/page", admin, map[string]any{}).Decode(&locks)
		if locks.Total != 2*comps+4 {
			t.Errorf("demo locks: %d, want %d", locks.Total, 2*comps+4)
		}
		e.MustOK("POST", "/base-info-app/blueLock/page", admin, map[string]any{"bound": false}).Decode(&locks)
		if locks.Total != 4 {
			t.Errorf("demo locks not bound: %d", locks.Total)
		}
		// the simulated trucks' manhole-cover locks report by sim.LockSerial: the registry knows them
		var firstCars []int64
		if err := e.DB.NewSelect().Table("cars").Column("id").OrderExpr("id").Limit(3).Scan(t.Context(), &firstCars); err != nil {
			t.Fatal(err)
		}
		for i, car := range firstCars {
			var bound struct {
				CarID  int64 `bun:"car_id"`
				Device int   `bun:"device"`
			}
			if err := e.DB.NewSelect().Table("locks").Column("car_id", "device").Where("serial = ?", sim.LockSerial(i, 1)).
				Scan(t.Context(), &bound); err != nil || bound.CarID != car || bound.Device != int(lock.DeviceCover) {
				t.Errorf("demo lock %s: %+v %v, want car %d's compartment 1 cover", sim.LockSerial(i, 1), bound, err, car)
			}
		}
		var black httpx.Page[registry.EntryView]
		e.MustOK("POST", "/base-info-app/carBlacklist/page", admin, map[string]any{}).Decode(&black)
		states := map[string]int{}
		for _, b := range black.List {
			states[b.State]++
		}
		if black.Total != 3 || states["active"] != 1 || states["expired"] != 1 || states["lifted"] != 1 {
			t.Errorf("demo blacklist: %+v", black.List)
		}

		// a lock: added, bound to the east car's 1st compartment bottom valve, moved, unbound
		var l registry.View
		e.MustOK("POST", "/base-info-app/blueLock/save", admin, map[string]any{"serial": "e2e-lock-1", "kind": 2, "model": "M1"}).Decode(&l)
		if r := e.Call("POST", "/base-info-app/blueLock/save", admin, map[string]any{"serial": "E2E-LOCK-1", "kind": 1}); r.Code != 0 || r.Message != "锁编号 E2E-LOCK-1 已登记（锁编号全平台唯一）" {
			t.Errorf("duplicate: %s", r.Body)
		}
		e.MustOK("POST", "/base-info-app/blueLock/bind", admin, map[string]any{"lockId": l.ID, "carId": east.car, "compartment": 1, "device": 3})
		e.Lang = "en-US"
		if r := e.Call("POST", "/base-info-app/blueLock/bind", admin, map[string]any{"lockId": l.ID, "carId": east.car, "compartment": 2, "device": 3}); r.Code != 0 ||
			r.Message != "Lock E2E-LOCK-1 is bound to "+east.plate+" compartment 1, Bottom valve; unbind it first, or choose \"move\"" {
			t.Errorf("rebind: %s", r.Body)
		}
		e.Lang = ""
		e.MustOK("POST", "/base-info-app/blueLock/bind", admin, map[string]any{"lockId": l.ID, "carId": east.car, "compartment": 2, "device": 3, "move": true})
		if r := e.Call("POST", "/base-info-app/blueLock/delete", admin, map[string]any{"id": l.ID}); r.Code != 0 || !strings.Contains(r.Message, "请先解绑再删除") {
			t.Errorf("delete bound: %s", r.Body)
		}
		e.MustOK("POST", "/base-info-app/blueLock/unbind", admin, map[string]any{"lockId": l.ID, "reason": "换新锁"})
		var hist httpx.Page[registry.BindView]
		e.MustOK("POST", "/base-info-app/blueLockBindRecord/page", admin, map[string]any{"serial": "e2e-lock"}).Decode(&hist)
		if hist.Total != 4 || hist.List[0].Action != 2 || hist.List[0].Reason != "换新锁" || hist.List[0].UserName != "admin" || hist.List[3].Compartment != 1 {
			t.Errorf("history: %+v", hist.List)
		}
		var ops struct {
			Total int `json:"total"`
		}
		e.MustOK("POST", "/authority-app/operationLog/page", admin, map[string]any{"target": "E2E-LOCK-1"}).Decode(&ops)
		if ops.Total != 5 { // add, bind, move (unbind + bind), unbind
			t.Errorf("operation log: %d entries", ops.Total)
		}
		// import: the preview names the wrong rows and saves nothing; a clean sheet saves every lock
		bad := sheetOf(t, [][]any{{"锁编号", "锁类型", "型号", "固件版本", "所属组织", "备注"},
			{"IMP-0001", "4G", "M", "V1", "华东分公司", ""}, {"IMP-0001", "BLE", "", "", "", ""}, {"X", "4G", "", "", "", ""},
			{"IMP-0003", "蓝牙一次性锁", "", "", "没有的组织", ""}, {"IMP-0004", "钥匙锁", "", "", "", ""}})
		var res registry.ImportResult
		e.MustOK("POST", "/base-info-app/blueLock/import", admin, bad).Decode(&res)
		want := []string{"第 3 行：锁编号 IMP-0001 与第 2 行重复", "第 4 行：锁编号应为 4–32 位大写字母、数字或“-”",
			"第 5 行：没有名为“没有的组织”的组织（或不在您的数据范围内）", "第 6 行：锁类型格式不正确"}
		if res.Saved != 0 || len(res.Errors) != len(want) {
			t.Fatalf("bad import: %+v", res)
		}
		for i, w := range want {
			if res.Errors[i].Message != w {
				t.Errorf("row error %d: %q, want %q", i, res.Errors[i].Message, w)
			}
		}
		good := sheetOf(t, [][]any{{"锁编号", "锁类型"}, {"imp-0001", "4G 远程锁", "M", "V1", "华东分公司"}, {"IMP-0002", 1}})
		e.MustOK("POST", "/base-info-app/blueLock/importPreview", admin, good).Decode(&res)
		if res.Saved != 0 || len(res.Errors) != 0 || len(res.Rows) != 2 || res.Rows[0].Serial != "IMP-0001" || res.Rows[1].Kind != 1 {
			t.Fatalf("preview: %+v", res)
		}
		e.MustOK("POST", "/base-info-app/blueLock/import", admin, good).Decode(&res)
		e.MustOK("POST", "/base-info-app/blueLock/page", admin, map[string]any{"serial": "IMP-"}).Decode(&locks)
		if res.Saved != 2 || locks.Total != 2 || locks.List[0].GroupName != "华东分公司" {
			t.Errorf("import: %+v, listed %+v", res, locks.List)
		}

		// exports are xlsx files with a row per record
		for _, c := range []struct {
			path string
			body map[string]any
			rows int
		}{
			{"/base-info-app/blueLock/export", map[string]any{"serial": "IMP-"}, 2},
			{"/base-info-app/blueLockBindRecord/export", map[string]any{"serial": "e2e-lock"}, 4},
			{"/base-info-app/carBlacklist/export", map[string]any{}, 3},
		} {
			r := e.Call("POST", c.path, admin, c.body)
			if r.Status != 200 || !strings.Contains(r.Header.Get("Content-Type"), "spreadsheet") {
				t.Fatalf("%s: %d %s", c.path, r.Status, r.Body)
			}
			x, err := excelize.OpenReader(bytes.NewReader(r.Body))
			if err != nil {
				t.Fatal(err)
			}
			rows, _ := x.GetRows(x.GetSheetName(0))
			if len(rows) != c.rows+1 {
				t.Errorf("%s: %d rows", c.path, len(rows))
			}
			x.Close()
		}
		// an unbound lock is deleted
		e.MustOK("POST", "/base-info-app/blueLock/delete", admin, map[string]any{"id": l.ID})
	})
}

// TestBlacklistRefusesWaybills: a blacklisted car is refused a new waybill (add, fromPlan), another
// waybill's car changed to it, and the dispatch of its planned waybill, with the plate, the reason and
// until when in the caller's language; a waybill kept on its car may still be edited; lifting ends it.
func TestBlacklistRefusesWaybills(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		admin := e.Login("admin", "admin123")
		east := wbSetup(t, e, "华东分公司")
		e.App.WaybillBills().Sender = &answering{status: telemetry.CommandOK}
		var other int64
		if err := e.DB.NewRaw("SELECT id FROM cars WHERE group_id = ? AND id <> ? ORDER BY id LIMIT 1", east.group, east.car).Scan(t.Context(), &other); err != nil {
			t.Fatal(err)
		}
		var planned, second bill.Detail
		e.MustOK("POST", "/base-info-app/waybill/add", admin, east.input()).Decode(&planned)
		in2 := east.input()
		in2["carId"] = other
		e.MustOK("POST", "/base-info-app/waybill/add", admin, in2).Decode(&second)

		until := e.Clock.Now().Add(7 * 24 * time.Hour)
		var entry registry.EntryView
		e.MustOK("POST", "/base-info-app/carBlacklist/add", admin, map[string]any{"carId": east.car, "reason": "铅封破损未报备", "endAt": until.UnixMilli()}).Decode(&entry)
		if entry.State != "active" || entry.DecidedBy != "admin" {
			t.Fatalf("entry %+v", entry)
		}
		end := httpx.Time(until.UnixMilli()).String()
		want := map[string]string{
			"zh-CN": "车辆 " + east.plate + " 在黑名单中（原因：铅封破损未报备，至 " + end + "），不能开具运单",
			"zh-TW": "車輛 " + east.plate + " 在黑名單中（原因：铅封破损未报备，至 " + end + "），不能開立運單",
			"en-US": "Vehicle " + east.plate + " is blacklisted (reason: 铅封破损未报备, until " + end + ") and cannot be given a waybill",
		}
		moved := east.input()
		moved["id"], moved["carId"] = second.ID, east.car
		kept := east.input()
		kept["id"], kept["remark"] = planned.ID, "改备注"
		for lang, msg := range want {
			e.Lang = lang
			for _, c := range []struct {
				name, path string
				body       any
			}{
				{"add", "/base-info-app/waybill/add", east.input()},
				{"car changed", "/base-info-app/waybill/update", moved},
				{"dispatch", "/base-info-app/waybill/dispatch", map[string]any{"id": planned.ID}},
			} {
				if r := e.Call("POST", c.path, admin, c.body); r.Status != 200 || r.Code != 0 || r.Message != msg {
					t.Errorf("%s (%s): %s, want %q", c.name, lang, r.Body, msg)
				}
			}
		}
		e.Lang = ""
		// fromPlan: the plan's item for the car is refused, naming it
		var plan int64
		if err := e.DB.NewRaw(`INSERT INTO transport_plans (group_id, no, plan_date, depot_id, created_at, updated_at) VALUES (?, 'BLK1', '2026-03-01', ?, 1, 1) RETURNING id`,
			east.group, east.depot).Scan(t.Context(), &plan); err != nil {
			t.Fatal(err)
		}
		if _, err := e.DB.NewRaw(`INSERT INTO transport_plan_items (plan_id, car_id, station_id, product_id, planned_l) VALUES (?, ?, ?, ?, 5000)`,
			plan, east.car, east.st1, east.prod).Exec(t.Context()); err != nil {
			t.Fatal(err)
		}
		if r := e.Call("POST", "/base-info-app/waybill/fromPlan", admin, map[string]any{"planId": plan}); r.Code != 0 || !strings.Contains(r.Message, want["zh-CN"]) {
			t.Errorf("fromPlan: %s", r.Body)
		}
		// the blacklisted car's planned waybill may still be edited on the same car
		e.MustOK("POST", "/base-info-app/waybill/update", admin, kept)
		// lifted: the car gets waybills again
		e.MustOK("POST", "/base-info-app/carBlacklist/lift", admin, map[string]any{"id": entry.ID, "reason": "已整改"})
		e.MustOK("POST", "/base-info-app/waybill/dispatch", admin, map[string]any{"id": planned.ID})
		e.MustOK("POST", "/base-info-app/waybill/update", admin, moved)
	})
}

// A deleted car's locks go back to stock with an unbinding in their history, and its blacklist entries
// go with it: deleting a car with locks is not refused by the store's keys.
func TestDeletedCarReleasesItsLocks(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		admin := e.Login("admin", "admin123")
		var group int64
		if err := e.DB.NewSelect().Table("cars").Column("group_id").OrderExpr("id").Limit(1).Scan(t.Context(), &group); err != nil {
			t.Fatal(err)
		}
		car := e.MustOK("POST", "/base-info-app/carInfo/insert", admin, map[string]any{"groupId": group, "plate": "沪C·54321", "compartments": 2}).ID()
		var l registry.View
		e.MustOK("POST", "/base-info-app/blueLock/save", admin, map[string]any{"serial": "DEL-CAR-1", "kind": 2}).Decode(&l)
		e.MustOK("POST", "/base-info-app/blueLock/bind", admin, map[string]any{"lockId": l.ID, "carId": car, "compartment": 2, "device": 1})
		e.MustOK("POST", "/base-info-app/carBlacklist/add", admin, map[string]any{"carId": car, "reason": "检查"})
		e.MustOK("POST", "/base-info-app/carInfo/deleteByIds", admin, map[string]any{"ids": []int64{car}})
		var after struct {
			CarID *int64 `bun:"car_id"`
			State int    `bun:"state"`
		}
		if err := e.DB.NewSelect().Table("locks").Column("car_id", "state").Where("id = ?", l.ID).Scan(t.Context(), &after); err != nil ||
			after.CarID != nil || after.State != int(lock.StateInStock) {
			t.Fatalf("lock after its car was deleted: %+v %v", after, err)
		}
		var reasons []string
		if err := e.DB.NewSelect().Table("lock_binds").Column("reason").Where("lock_id = ? AND action = ?", l.ID, lock.BindUnbound).Scan(t.Context(), &reasons); err != nil ||
			len(reasons) != 1 || reasons[0] != "车辆已删除" {
			t.Fatalf("unbinding record %v %v", reasons, err)
		}
		if n, err := e.DB.NewSelect().Table("car_blacklist").Where("car_id = ?", car).Count(t.Context()); err != nil || n != 0 {
			t.Fatalf("blacklist entries of the deleted car: %d %v", n, err)
		}
	})
}
