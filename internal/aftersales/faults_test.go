package aftersales_test

import (
	"strings"
	"testing"

	"tankwatch/internal/aftersales"
	"tankwatch/internal/app/apptest"
	"tankwatch/internal/org"
	"tankwatch/internal/platform/httpx"
)

const p = "/after-sales-app/faultRecord/"

// TestFaults: a scoped administrator files a fault, moves it through the allowed states, closes it with
// its resolution, finds it by the filters, sorts by the time to resolve, exports and deletes it; another
// company's cars and faults are refused and unchanged; a fault raised from a sensor-fault event or an
// offline record keeps its link.
func TestFaults(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		admin := e.Login("admin", "admin123")
		g := e.Groups(admin)
		role := e.MustOK("POST", "/authority-app/roleInfo/insert", admin, map[string]any{"name": "华东售后", "groupId": g["华东分公司"], "resourceCodes": []string{"07"}}).ID()
		tech := e.MustOK("POST", "/authority-app/userInfo/insert", admin, map[string]any{"name": "easttech", "nickName": "马师傅", "password": "secret1", "groupId": g["上海车队"], "roleIds": []int64{role}}).ID()
		east := e.Login("easttech", "secret1")
		car := func(group string) int64 {
			var id int64
			if err := e.DB.NewSelect().TableExpr("cars AS c").Column("c.id").Join("JOIN org_groups AS g ON g.id = c.group_id").
				Where("g.name = ?", group).OrderExpr("c.id").Limit(1).Scan(t.Context(), &id); err != nil {
				t.Fatal(err)
			}
			return id
		}
		eastCar, northCar := car("上海车队"), car("华北分公司")

		// the demo: a dozen faults; the first is 华北's (the authorization matrix relies on it)
		var all httpx.Page[aftersales.View]
		e.MustOK("POST", p+"page", admin, map[string]any{"pageSize": 50, "sortField": "reportedAt", "sortOrder": "ascend"}).Decode(&all)
		if all.Total != 12 {
			t.Fatalf("demo faults: %d", all.Total)
		}
		var first aftersales.View
		for _, v := range all.List {
			if first.ID == 0 || v.ID < first.ID {
				first = v
			}
		}
		if first.GroupName != "华北分公司" {
			t.Errorf("the first demo fault is %s's", first.GroupName)
		}

		// add, validation, scope
		in := map[string]any{"carId": eastCar, "faultType": "probe", "device": "1 号仓液位探杆", "symptom": "读数不变", "reportedBy": "司机 张三"}
		v := new(aftersales.View)
		e.MustOK("POST", p+"add", east, in).Decode(v)
		if v.State != "open" || v.Plate == "" || v.GroupName != "上海车队" {
			t.Fatalf("added %+v", v)
		}
		if r := e.Call("POST", p+"add", east, map[string]any{"carId": eastCar, "faultType": "engine", "symptom": "x"}); r.Code != 0 || !strings.Contains(r.Message, "故障类型") {
			t.Errorf("bad type: %s", r.Body)
		}
		if r := e.Call("POST", p+"add", east, map[string]any{"carId": eastCar, "faultType": "probe", "symptom": 5}); r.Code != 0 || !strings.Contains(r.Message, "symptom") {
			t.Errorf("wrong type: %d %s", r.Status, r.Body)
		}
		if r := e.Call("POST", p+"add", east, map[string]any{"carId": northCar, "faultType": "probe", "symptom": "x"}); r.Status != 403 {
			t.Errorf("foreign car: %d %s", r.Status, r.Body)
		}
		for _, path := range []string{"edit", "close", "delete"} {
			if r := e.Call("POST", p+path, east, map[string]any{"id": first.ID, "carId": eastCar, "faultType": "probe", "symptom": "x", "resolution": "x"}); r.Status != 403 || r.Message != "该记录不在您的数据范围内" {
				t.Errorf("foreign %s: %d %s", path, r.Status, r.Body)
			}
		}

		// moves: open → in progress (a visit, a part) → back to open refused → close needs a resolution
		edit := func(state string, extra map[string]any) *apptest.Resp {
			body := map[string]any{"id": v.ID, "carId": eastCar, "faultType": "probe", "device": "1 号仓液位探杆", "symptom": "读数不变", "state": state,
				"technicianId": tech, "reportedAt": v.ReportedAt}
			for k, x := range extra {
				body[k] = x
			}
			return e.Call("POST", p+"edit", east, body)
		}
		e.Clock.Advance(3 * 3600_000_000_000)
		visits := []map[string]any{{"at": e.Clock.Now().UnixMilli() - 60_000, "technician": "马师傅", "work": "清洗浮子"}}
		if r := edit("inProgress", map[string]any{"visits": visits, "parts": []map[string]any{{"name": "浮子", "quantity": 1}}}); r.Code != 1 {
			t.Fatalf("in progress: %s", r.Body)
		}
		if r := edit("open", nil); r.Code != 0 || !strings.Contains(r.Message, "不能从") {
			t.Errorf("back to open: %s", r.Body)
		}
		if r := e.Call("POST", p+"close", east, map[string]any{"id": v.ID}); r.Code != 0 || !strings.Contains(r.Message, "处理结果") {
			t.Errorf("close without resolution: %s", r.Body)
		}
		e.MustOK("POST", p+"close", east, map[string]any{"id": v.ID, "resolution": "清洗浮子后读数恢复"}).Decode(v)
		if v.State != "closed" || v.ResolveMinutes != 180 || len(v.Visits) != 1 || len(v.Parts) != 1 || v.TechnicianName != "马师傅" {
			t.Errorf("closed %+v", v)
		}
		if r := e.Call("POST", p+"close", east, map[string]any{"id": v.ID, "resolution": "x"}); r.Code != 0 {
			t.Errorf("closed twice: %s", r.Body)
		}

		// filters and sort: 华东's scope only; by state, type, technician; longest to resolve first
		var page httpx.Page[aftersales.View]
		e.MustOK("POST", p+"page", east, map[string]any{"state": "closed", "faultType": "probe", "technicianId": tech}).Decode(&page)
		if page.Total != 1 || page.List[0].ID != v.ID {
			t.Errorf("filtered %+v", page)
		}
		e.MustOK("POST", p+"page", east, map[string]any{"pageSize": 50, "sortField": "resolveMinutes", "sortOrder": "descend"}).Decode(&page)
		for i, x := range page.List {
			if !strings.HasPrefix(x.GroupName, "华东") && x.GroupName != "上海车队" {
				t.Errorf("east sees %s", x.GroupName)
			}
			if i > 0 && x.ResolveMinutes > page.List[i-1].ResolveMinutes {
				t.Errorf("not sorted by time to resolve at %d", i)
			}
		}
		if r := e.Call("POST", p+"page", east, map[string]any{"groupId": g["华北分公司"]}); r.Status != 403 {
			t.Errorf("foreign group: %d", r.Status)
		}
		if r := e.Call("POST", p+"export", east, map[string]any{"state": "closed"}); r.Status != 200 || !strings.Contains(r.Header.Get("Content-Type"), "spreadsheet") {
			t.Errorf("export %d %s", r.Status, r.Header.Get("Content-Type"))
		}

		// raised from a sensor-fault event (of this car only) and from an offline record
		now := e.Clock.Now().UnixMilli()
		var evID int64
		if err := e.DB.NewRaw("INSERT INTO car_tank_events (car_id, compartment, kind, start_at) VALUES (?, 1, 'sensorStuck', ?) RETURNING id", eastCar, now-60_000).Scan(t.Context(), &evID); err != nil {
			t.Fatal(err)
		}
		raised := map[string]any{"carId": eastCar, "faultType": "probe", "symptom": "1 号仓液位卡滞", "sourceKind": "tankEvent", "sourceId": evID}
		e.MustOK("POST", p+"add", east, raised).Decode(v)
		if v.SourceKind != "tankEvent" || v.SourceID != evID {
			t.Errorf("raised %+v", v)
		}
		raised["carId"] = car("华东分公司")
		if r := e.Call("POST", p+"add", east, raised); r.Code != 0 {
			t.Errorf("another car's event: %s", r.Body)
		}
		e.MustOK("POST", p+"add", east, map[string]any{"carId": eastCar, "faultType": "terminal", "symptom": "离线 6 小时", "sourceKind": "offline",
			"sourceId": eastCar, "sourceAt": now - 6*3600_000}).Decode(v)
		e.MustOK("POST", p+"page", east, map[string]any{"sourceKind": "offline", "sourceId": eastCar}).Decode(&page)
		if page.Total != 1 || page.List[0].SourceAt.Std().UnixMilli() != now-6*3600_000 {
			t.Errorf("by source %+v", page)
		}

		e.MustOK("POST", p+"delete", east, map[string]any{"id": v.ID})
		if r := e.Call("POST", p+"delete", east, map[string]any{"id": v.ID}); r.Code != 0 {
			t.Errorf("deleted twice: %s", r.Body)
		}
		var n int
		if err := e.DB.NewSelect().Table("operation_logs").ColumnExpr("COUNT(*)").Where("module = ?", aftersales.Module).Scan(t.Context(), &n); err != nil || n != 6 {
			t.Errorf("operation log: %d %v", n, err)
		}
		_ = org.AllCodes
	})
}
