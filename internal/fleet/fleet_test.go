package fleet_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/fleet"
	"tankwatch/internal/org"
	"tankwatch/internal/platform/httpx"
)

func groupIDs(t *testing.T, e *apptest.Env, tok string) map[string]int64 {
	t.Helper()
	return e.Groups(tok)
}

func expectFail(t *testing.T, r *apptest.Resp, msg string) {
	t.Helper()
	if r.Status != 200 || r.Code != 0 || r.Message != msg {
		t.Fatalf("got %d %s, want code 0 %q", r.Status, r.Body, msg)
	}
}

func expectStatus(t *testing.T, r *apptest.Resp, status int, msg string) {
	t.Helper()
	if r.Status != status || r.Code != 0 || r.Message != msg {
		t.Fatalf("got %d %s, want %d %q", r.Status, r.Body, status, msg)
	}
}

func carPage(t *testing.T, e *apptest.Env, tok string, q map[string]any) httpx.Page[fleet.CarView] {
	t.Helper()
	var p httpx.Page[fleet.CarView]
	e.MustOK("POST", "/base-info-app/carInfo/page", tok, q).Decode(&p)
	return p
}

func TestCarCRUDAndValidation(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		admin := e.Login("admin", "admin123")
		g := groupIDs(t, e, admin)
		ins := func(body map[string]any) *apptest.Resp {
			return e.Call("POST", "/base-info-app/carInfo/insert", admin, body)
		}
		car := map[string]any{"plate": "沪C·12345", "groupId": g["华东分公司"], "compartments": 3, "fuelType": 1,
			"smallManholeCoverNumber": 3, "manholeCoverNumber": 3, "oilDischargeValveNumber": 2, "bottomValveNumber": 3,
			"probeLengths": []int{1700, 1650, 1700}, "vin": "lfv2a21k8a4123456", "driverPhone": "13912345678"}
		with := func(k string, v any) map[string]any {
			m := map[string]any{}
			for a, b := range car {
				m[a] = b
			}
			if v == nil {
				delete(m, k)
			} else {
				m[k] = v
			}
			return m
		}
		expectFail(t, ins(with("plate", "")), "车牌号不能为空")
		expectFail(t, ins(with("compartments", nil)), "仓数不能为空")
		e.Lang = "en-US"
		expectFail(t, ins(with("plate", " ")), "Licence plate number cannot be empty")
		expectFail(t, ins(with("compartments", 0)), "Compartment count cannot be empty")
		e.Lang = "zh-TW"
		expectFail(t, ins(with("plate", "")), "車牌號不能為空")
		expectFail(t, ins(with("compartments", nil)), "倉數不能為空")
		e.Lang = ""
		expectFail(t, ins(with("plate", "ABC123")), "车牌号格式不正确")
		expectFail(t, ins(with("compartments", 9)), "仓数应在 1 到 8 之间")
		expectFail(t, ins(with("fuelType", 4)), "油品类型应在 0 到 3 之间")
		expectFail(t, ins(with("bottomValveNumber", 4)), "底阀数应在 0 到 3 之间")
		expectFail(t, ins(with("probeLengths", []int{1700})), "探杆长度的个数应等于仓数 3")
		expectFail(t, ins(with("vin", "123")), "车架号格式不正确")
		expectFail(t, ins(with("driverPhone", "12345")), "司机电话格式不正确")

		var v fleet.CarView
		e.MustOK("POST", "/base-info-app/carInfo/insert", admin, car).Decode(&v)
		if v.Plate != "沪C·12345" || v.VIN != "LFV2A21K8A4123456" || v.GroupName != "华东分公司" || len(v.ProbeLengths) != 3 ||
			v.OilDischargeValveNumber != 2 || v.LoadingMethod != 1 || v.TerminalID != nil {
			t.Fatalf("inserted car: %+v", v)
		}
		expectFail(t, ins(with("vin", "")), "车牌号 沪C·12345 已被其他车辆使用（不计中间点、空格与大小写）")
		expectFail(t, ins(with("plate", "沪C·12346")), "车架号已存在")

		upd := with("id", v.ID)
		upd["driverName"], upd["groupId"] = "钱师傅", g["上海车队"]
		var u fleet.CarView
		e.MustOK("POST", "/base-info-app/carInfo/update", admin, upd).Decode(&u)
		if u.DriverName != "钱师傅" || u.GroupName != "上海车队" || u.CreatedAt != v.CreatedAt {
			t.Fatalf("updated car: %+v", u)
		}
		var d fleet.CarView
		e.MustOK("GET", fmt.Sprintf("/base-info-app/carInfo/detail?id=%d", v.ID), admin, nil).Decode(&d)
		if d.DriverName != "钱师傅" {
			t.Fatalf("detail: %+v", d)
		}
		expectFail(t, e.Call("GET", "/base-info-app/carInfo/detail?id=999999", admin, nil), "记录不存在")

		// paging and filters: 12 demo cars + 1
		if p := carPage(t, e, admin, map[string]any{}); p.Total != 13 {
			t.Fatalf("total %d", p.Total)
		}
		if p := carPage(t, e, admin, map[string]any{"groupId": g["华东分公司"]}); p.Total != 5 {
			t.Fatalf("华东 subtree: %d", p.Total)
		}
		if p := carPage(t, e, admin, map[string]any{"plate": "粤", "sortField": "plate", "sortOrder": "descend"}); p.Total != 4 || p.List[0].Plate < p.List[3].Plate {
			t.Fatalf("plate filter: %+v", p)
		}
		if p := carPage(t, e, admin, map[string]any{"driverName": "钱"}); p.Total != 1 {
			t.Fatalf("driver filter: %d", p.Total)
		}
		expectFail(t, e.Call("POST", "/base-info-app/carInfo/page", admin, map[string]any{"sortField": "nope"}), "排序字段格式不正确")

		// move, then delete (no terminal bound)
		e.MustOK("POST", "/base-info-app/carInfo/move", admin, map[string]any{"ids": []int64{v.ID}, "groupId": g["华南分公司"]})
		e.MustOK("GET", fmt.Sprintf("/base-info-app/carInfo/detail?id=%d", v.ID), admin, nil).Decode(&d)
		if d.GroupName != "华南分公司" {
			t.Fatalf("moved: %s", d.GroupName)
		}
		var n int
		e.MustOK("POST", "/base-info-app/carInfo/deleteByIds", admin, map[string]any{"ids": []int64{v.ID}}).Decode(&n)
		if n != 1 {
			t.Fatalf("deleted %d", n)
		}
		expectFail(t, e.Call("GET", fmt.Sprintf("/base-info-app/carInfo/detail?id=%d", v.ID), admin, nil), "记录不存在")

		// the operation log has the car's insert, update, move and delete
		var log httpx.Page[struct {
			Module, Action, Target string
		}]
		e.MustOK("POST", "/authority-app/operationLog/page", admin, map[string]any{"module": "car", "target": "沪C·12345"}).Decode(&log)
		if log.Total != 4 {
			t.Fatalf("operation log: %+v", log)
		}
	})
}

func TestScopeCustomer(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		admin := e.Login("admin", "admin123")
		g := groupIDs(t, e, admin)
		cust := e.Login("customer", "customer123")
		// the customer (华东分公司, monitoring only) sees 华东's four cars, including 上海车队's
		var tree []*fleet.TreeNode
		e.MustOK("POST", "/authority-app/groupInfo/findCars", cust, map[string]any{}).Decode(&tree)
		if len(tree) != 1 || tree[0].Name != "华东分公司" || tree[0].Type != "group" {
			t.Fatalf("customer tree roots: %+v", tree)
		}
		plates := leaves(tree)
		if len(plates) != 4 {
			t.Fatalf("customer cars: %v", plates)
		}
		for _, p := range plates {
			if !strings.HasPrefix(p, "沪") && !strings.HasPrefix(p, "苏") && !strings.HasPrefix(p, "浙") {
				t.Fatalf("foreign car in customer's tree: %s", p)
			}
		}
		var page httpx.Page[fleet.CarView]
		e.MustOK("POST", "/authority-app/groupInfo/selectCarsByGroupId", cust, map[string]any{"groupId": g["华东分公司"], "pageSize": 2}).Decode(&page)
		if page.Total != 4 || len(page.List) != 2 {
			t.Fatalf("selectCarsByGroupId: %+v", page)
		}
		e.MustOK("GET", fmt.Sprintf("/base-info-app/carInfo/detail?id=%d", page.List[0].ID), cust, nil)
		var chans []fleet.Channel
		e.MustOK("GET", fmt.Sprintf("/base-info-app/carVideoChannel/selectsome?carId=%d", page.List[0].ID), cust, nil).Decode(&chans)
		if len(chans) != 4 || chans[0].ChannelNo != 1 || !chans[0].Enabled {
			t.Fatalf("channels: %+v", chans)
		}
		north := carPage(t, e, admin, map[string]any{"groupId": g["华北分公司"]})
		expectStatus(t, e.Call("GET", fmt.Sprintf("/base-info-app/carInfo/detail?id=%d", north.List[0].ID), cust, nil), 403, "该记录不在您的数据范围内")
		expectStatus(t, e.Call("POST", "/authority-app/groupInfo/selectCarsByGroupId", cust, map[string]any{"groupId": g["华北分公司"]}), 403, "该记录不在您的数据范围内")
		// no registry pages for the customer
		expectStatus(t, e.Call("POST", "/base-info-app/carInfo/page", cust, map[string]any{}), 403, "没有权限执行此操作")
		expectStatus(t, e.Call("POST", "/base-info-app/terminal/page", cust, map[string]any{}), 403, "没有权限执行此操作")
	})
}

func leaves(ns []*fleet.TreeNode) []string {
	var out []string
	for _, n := range ns {
		if n.Type == "car" {
			out = append(out, n.Plate)
		}
		out = append(out, leaves(n.Children)...)
	}
	return out
}

func TestFindCarsTree(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		admin := e.Login("admin", "admin123")
		var tree []*fleet.TreeNode
		e.MustOK("POST", "/authority-app/groupInfo/findCars", admin, map[string]any{}).Decode(&tree)
		if len(tree) != 1 || tree[0].Name != org.DemoTopGroup || len(tree[0].Children) != 3 {
			t.Fatalf("tree: %+v", tree)
		}
		if n := len(leaves(tree)); n != len(fleet.DemoCars) {
			t.Fatalf("cars in tree: %d", n)
		}
		// 上海车队 is under 华东分公司 with its car
		var east *fleet.TreeNode
		for _, c := range tree[0].Children {
			if c.Name == "华东分公司" {
				east = c
			}
		}
		var sh *fleet.TreeNode
		for _, c := range east.Children {
			if c.Type == "group" && c.Name == "上海车队" {
				sh = c
			}
		}
		if sh == nil || len(sh.Children) != 1 || sh.Children[0].Plate != "沪B·9F218" {
			t.Fatalf("上海车队: %+v", sh)
		}
		// filtered by plate: only 华南's cars and their groups
		e.MustOK("POST", "/authority-app/groupInfo/findCars", admin, map[string]any{"name": "粤"}).Decode(&tree)
		if ls := leaves(tree); len(ls) != 4 || len(tree[0].Children) != 1 || tree[0].Children[0].Name != "华南分公司" {
			t.Fatalf("filtered tree: %v %+v", ls, tree[0].Children)
		}
		e.MustOK("POST", "/authority-app/groupInfo/findCars", admin, map[string]any{"name": "nothing-like-this"}).Decode(&tree)
		if len(tree) != 0 {
			t.Fatalf("no match: %+v", tree)
		}
		// the seed is idempotent
		if err := e.App.Fleet.SeedDemo(t.Context(), 0); err != nil {
			t.Fatal(err)
		}
		if p := carPage(t, e, admin, map[string]any{}); p.Total != len(fleet.DemoCars) {
			t.Fatalf("after second seed: %d", p.Total)
		}
	})
}

func TestBindingRules(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		admin := e.Login("admin", "admin123")
		g := groupIDs(t, e, admin)
		south := g["华南分公司"]
		carID := e.MustOK("POST", "/base-info-app/carInfo/insert", admin, map[string]any{"plate": "粤A·D1234", "groupId": south, "compartments": 2}).ID()
		expectFail(t, e.Call("POST", "/base-info-app/simInfo/insert", admin, map[string]any{"iccid": "", "msisdn": "1440000000001", "groupId": south}), "ICCID不能为空")
		expectFail(t, e.Call("POST", "/base-info-app/simInfo/insert", admin, map[string]any{"iccid": "8986", "msisdn": "1440000000001", "groupId": south}), "ICCID格式不正确")
		expectFail(t, e.Call("POST", "/base-info-app/simInfo/insert", admin, map[string]any{"iccid": "89860400000000000001", "msisdn": "144", "groupId": south}), "SIM 卡号格式不正确")
		expectFail(t, e.Call("POST", "/base-info-app/simInfo/insert", admin, map[string]any{"iccid": "89860400000000000001", "msisdn": "1440000000001", "operator": "xx", "groupId": south}), "运营商格式不正确")
		simID := e.MustOK("POST", "/base-info-app/simInfo/insert", admin, map[string]any{"iccid": "89860400000000000001", "msisdn": "1440000000001", "operator": "cmcc", "groupId": south}).ID()
		expectFail(t, e.Call("POST", "/base-info-app/simInfo/insert", admin, map[string]any{"iccid": "89860400000000000001", "msisdn": "1440000000002", "groupId": south}), "ICCID 已存在")
		expectFail(t, e.Call("POST", "/base-info-app/terminal/insert", admin, map[string]any{"phone": "13800a", "groupId": south}), "终端手机号格式不正确")
		expectFail(t, e.Call("POST", "/base-info-app/terminal/insert", admin, map[string]any{"phone": "013800000001", "protocol": 2015, "groupId": south}), "协议版本格式不正确")
		termID := e.MustOK("POST", "/base-info-app/terminal/insert", admin, map[string]any{"phone": "013800000001", "deviceId": "T1", "groupId": south}).ID()
		expectFail(t, e.Call("POST", "/base-info-app/terminal/insert", admin, map[string]any{"phone": "013800000001", "groupId": south}), "终端手机号已存在")

		var tv fleet.TerminalView
		e.MustOK("POST", "/base-info-app/terminal/bind", admin, map[string]any{"id": termID, "carId": carID, "simId": simID}).Decode(&tv)
		if tv.Plate != "粤A·D1234" || tv.MSISDN != "1440000000001" || tv.Protocol != 2019 {
			t.Fatalf("bound terminal: %+v", tv)
		}
		// the car and SIM are taken: another terminal cannot have them
		other := e.MustOK("POST", "/base-info-app/terminal/insert", admin, map[string]any{"phone": "013800000002", "groupId": south}).ID()
		expectFail(t, e.Call("POST", "/base-info-app/terminal/bind", admin, map[string]any{"id": other, "carId": carID}), "该车辆已绑定终端 013800000001，请先解绑")
		expectFail(t, e.Call("POST", "/base-info-app/terminal/bind", admin, map[string]any{"id": other, "simId": simID}), "该 SIM 卡已装在终端 013800000001 中，请先解绑")
		e.Lang = "en-US"
		expectFail(t, e.Call("POST", "/base-info-app/terminal/bind", admin, map[string]any{"id": other, "carId": carID}), "The vehicle is already bound to terminal 013800000001, unbind it first")
		e.Lang = ""
		// bound car and SIM cannot be deleted
		expectFail(t, e.Call("POST", "/base-info-app/carInfo/deleteByIds", admin, map[string]any{"ids": []int64{carID}}), "车辆 粤A·D1234 已绑定终端，请先解绑")
		expectFail(t, e.Call("POST", "/base-info-app/simInfo/deleteByIds", admin, map[string]any{"ids": []int64{simID}}), "SIM 卡 1440000000001 已装在终端中，请先解绑")
		var cv fleet.CarView
		e.MustOK("GET", fmt.Sprintf("/base-info-app/carInfo/detail?id=%d", carID), admin, nil).Decode(&cv)
		if cv.TerminalID == nil || *cv.TerminalID != termID || cv.TerminalPhone != "013800000001" {
			t.Fatalf("car's terminal: %+v", cv)
		}

		// swap the SIM away, then unbind everything: history closes and opens rows
		boundAt := e.Clock.Now().UnixMilli()
		e.Clock.Advance(60_000_000_000)
		e.MustOK("POST", "/base-info-app/terminal/bind", admin, map[string]any{"id": termID, "carId": carID, "simId": nil})
		e.MustOK("POST", "/base-info-app/terminal/bind", admin, map[string]any{"id": termID, "carId": carID}) // no change
		e.MustOK("POST", "/base-info-app/terminal/bind", admin, map[string]any{"id": other, "simId": simID})
		e.MustOK("POST", "/base-info-app/terminal/bind", admin, map[string]any{"id": termID, "carId": nil})
		var hist []fleet.BindingView
		e.MustOK("GET", fmt.Sprintf("/base-info-app/terminal/bindings?id=%d", termID), admin, nil).Decode(&hist)
		if len(hist) != 2 || hist[0].SIMID != nil || hist[0].Plate != "粤A·D1234" || hist[0].UnboundAt == 0 ||
			hist[1].MSISDN != "1440000000001" || hist[1].UnboundAt == 0 || hist[1].UserName != "admin" {
			t.Fatalf("history: %+v", hist)
		}
		// the car a terminal was bound to at a time (the cluster's orphan sweep, D117)
		for _, c := range []struct{ at, want int64 }{{boundAt - 1, 0}, {boundAt, carID}, {boundAt + 30_000, carID}, {boundAt + 60_000, 0}} {
			if got, err := e.App.Fleet.CarAt(context.Background(), termID, c.at); err != nil || got != c.want {
				t.Errorf("CarAt(%d): %d %v, want %d", c.at-boundAt, got, err, c.want)
			}
		}
		e.MustOK("GET", fmt.Sprintf("/base-info-app/terminal/bindings?id=%d", other), admin, nil).Decode(&hist)
		if len(hist) != 1 || hist[0].UnboundAt != 0 {
			t.Fatalf("other's history: %+v", hist)
		}
		var log httpx.Page[struct{ Action string }]
		e.MustOK("POST", "/authority-app/operationLog/page", admin, map[string]any{"module": "terminal", "action": "bind"}).Decode(&log)
		if log.Total != 4 { // bind, drop the SIM, the other terminal takes the SIM, unbind
			t.Fatalf("bind log entries: %d", log.Total)
		}
		// terminal page joins plate and SIM number
		var tp httpx.Page[fleet.TerminalView]
		e.MustOK("POST", "/base-info-app/terminal/page", admin, map[string]any{"msisdn": "1440000000001"}).Decode(&tp)
		if tp.Total != 1 || tp.List[0].ID != other {
			t.Fatalf("terminal page: %+v", tp)
		}
		// now the car can go; the SIM only once its terminal is deleted
		e.MustOK("POST", "/base-info-app/carInfo/deleteByIds", admin, map[string]any{"ids": []int64{carID}})
		e.MustOK("POST", "/base-info-app/terminal/deleteByIds", admin, map[string]any{"ids": []int64{other}})
		e.MustOK("POST", "/base-info-app/simInfo/deleteByIds", admin, map[string]any{"ids": []int64{simID}})
	})
}

func TestChannelsAndExport(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		admin := e.Login("admin", "admin123")
		car := carPage(t, e, admin, map[string]any{"pageSize": 1}).List[0]
		path := fmt.Sprintf("/base-info-app/carVideoChannel/selectsome?carId=%d", car.ID)
		var chans []fleet.Channel
		e.MustOK("POST", "/base-info-app/carVideoChannel/save", admin, map[string]any{"carId": car.ID,
			"channels": []map[string]any{{"channelNo": 2, "name": "驾驶室", "enabled": true}, {"channelNo": 9, "name": "后方", "enabled": false}}}).Decode(&chans)
		if len(chans) != 2 || chans[1].ChannelNo != 9 || chans[1].Enabled {
			t.Fatalf("saved: %+v", chans)
		}
		e.MustOK("GET", path, admin, nil).Decode(&chans)
		if len(chans) != 2 {
			t.Fatalf("read back: %+v", chans)
		}
		expectFail(t, e.Call("POST", "/base-info-app/carVideoChannel/save", admin, map[string]any{"carId": car.ID,
			"channels": []map[string]any{{"channelNo": 33}}}), "通道号应在 1 到 32 之间")
		expectFail(t, e.Call("POST", "/base-info-app/carVideoChannel/save", admin, map[string]any{"carId": car.ID,
			"channels": []map[string]any{{"channelNo": 1}, {"channelNo": 1}}}), "视频通道 1 重复")

		for _, c := range []struct{ path, name string }{
			{"/base-info-app/carInfo/export", "cars-"}, {"/base-info-app/simInfo/export", "sim-cards-"}, {"/base-info-app/terminal/export", "terminals-"},
		} {
			r := e.Call("POST", c.path, admin, map[string]any{})
			if r.Status != 200 || r.Header.Get("Content-Type") != "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" ||
				!strings.Contains(r.Header.Get("Content-Disposition"), `filename="`+c.name) || len(r.Body) < 1000 || string(r.Body[:2]) != "PK" {
				t.Fatalf("%s: %d %v %d bytes", c.path, r.Status, r.Header, len(r.Body))
			}
		}
		// the car export holds a header and one row per car, in the caller's language
		e.Lang = "en-US"
		r := e.Call("POST", "/base-info-app/carInfo/export", admin, map[string]any{"plate": "粤"})
		e.Lang = ""
		x, err := excelize.OpenReader(bytes.NewReader(r.Body))
		if err != nil {
			t.Fatal(err)
		}
		rows, err := x.GetRows(x.GetSheetName(0))
		if err != nil || len(rows) != 5 || rows[0][1] != "Plate" || !strings.HasPrefix(rows[1][1], "粤") {
			t.Fatalf("export rows: %v %v", rows, err)
		}
		// SIM page
		var sp httpx.Page[fleet.SIMView]
		e.MustOK("POST", "/base-info-app/simInfo/page", admin, map[string]any{"sortField": "msisdn"}).Decode(&sp)
		if sp.Total != len(fleet.DemoCars) || sp.List[0].TerminalID == nil {
			t.Fatalf("sim page: %+v", sp)
		}
	})
}
