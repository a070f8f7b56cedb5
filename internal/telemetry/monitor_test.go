package telemetry_test

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/tank"
	"tankwatch/internal/telemetry"
)

const monitorPath = "/monitor-app/realTimeMoitoring/"

// monitorFleet applies a known state: 华东 has 沪A·6N337 moving with an overspeed alarm and a tank
// state, 苏E·71C26 resting, 浙B·3Q905 never reported (offline) and 沪B·9F218 (上海车队) moving; 华北
// has 冀A·3K281 moving.
func monitorFleet(le *liveEnv) {
	a := le.report("沪A·6N337", 0, 655)
	a.Alarm, a.Status, a.Mileage, a.HasMileage = 1<<1|1<<16, 3|3<<8, 123456, true
	a.Tank = liveTankState(tank.SealSealed, true)
	a.Tank.Compartments = 3
	a.Tank.Devices[2][tank.DischargeValve] = tank.DevInstalled | tank.DevOpen
	a.Levels = &tank.Levels{N: 1, Probes: [8]tank.Level{{Compartment: 1, LevelMM: 1234, VolumeL: 9876, TempDeci: -35}}}
	b := le.report("苏E·71C26", 0, 12)
	b.Lat, b.Lon = 0, 0 // no fix
	le.live.Apply([]telemetry.Report{a, b, le.report("沪B·9F218", 0, 800), le.report("冀A·3K281", 0, 600)})
}

func monitorCount(t *testing.T, e *apptest.Env, tok, query string) map[string]int {
	t.Helper()
	var got map[string]int
	e.MustOK("GET", monitorPath+"carCount"+query, tok, nil).Decode(&got)
	if got["serverTime"] != int(e.Clock.Now().UnixMilli()) {
		t.Errorf("serverTime %d, want the server's clock %d", got["serverTime"], e.Clock.Now().UnixMilli())
	}
	delete(got, "serverTime")
	return got
}

func monitorExpect(t *testing.T, r *apptest.Resp, status int, msg string) {
	t.Helper()
	if r.Status != status || r.Code != 0 || r.Message != msg {
		t.Fatalf("got %d %s, want %d %q", r.Status, r.Body, status, msg)
	}
}

func TestMonitorCountScope(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		le := liveSetup(t, e)
		monitorFleet(le)
		api := le.api
		admin, customer := e.Login("admin", "admin123"), e.Login("customer", "customer123")
		north, shanghai := le.cars["冀A·3K281"].GroupID, le.cars["沪B·9F218"].GroupID

		if got := monitorCount(t, api, admin, ""); !reflect.DeepEqual(got, liveCounts(12, 3, 1, 8, 1)) {
			t.Fatalf("admin: %v", got)
		}
		if got := monitorCount(t, api, customer, ""); !reflect.DeepEqual(got, liveCounts(4, 2, 1, 1, 1)) {
			t.Fatalf("华东 customer: %v", got)
		}
		if got := monitorCount(t, api, customer, fmt.Sprint("?groupId=", shanghai)); !reflect.DeepEqual(got, liveCounts(1, 1, 0, 0, 0)) {
			t.Fatalf("上海车队: %v", got)
		}
		if got := monitorCount(t, api, admin, fmt.Sprint("?groupId=", north)); !reflect.DeepEqual(got, liveCounts(4, 1, 0, 3, 0)) {
			t.Fatalf("华北 by admin: %v", got)
		}
		monitorExpect(t, api.Call("GET", monitorPath+fmt.Sprint("carCount?groupId=", north), customer, nil), 403, "该记录不在您的数据范围内")
		monitorExpect(t, api.Call("GET", monitorPath+"carCount?groupId=999999", customer, nil), 200, "记录不存在")
		monitorExpect(t, api.Call("GET", monitorPath+"carCount?groupId=abc", customer, nil), 200, "参数 groupId 不正确")
		if r := api.Call("GET", monitorPath+"carCount", "", nil); r.Status != 401 {
			t.Fatalf("no token: %d", r.Status)
		}

		// The cockpit refreshes: time passes and the moving cars go offline.
		e.Clock.Advance(21 * time.Minute)
		if got := monitorCount(t, api, customer, ""); !reflect.DeepEqual(got, liveCounts(4, 0, 0, 4, 1)) {
			t.Fatalf("华东 after 21 minutes: %v", got)
		}
	})
}

func TestMonitorFindCars(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		le := liveSetup(t, e)
		monitorFleet(le)
		api := le.api
		customer := e.Login("customer", "customer123")
		find := func(q map[string]any) httpx.Page[telemetry.LiveCarView] {
			t.Helper()
			var p struct {
				List []struct {
					Plate    string `json:"plate"`
					Code     int    `json:"code"`
					Abnormal bool   `json:"abnormal"`
				} `json:"list"`
				Total int `json:"total"`
			}
			api.MustOK("POST", monitorPath+"findCars", customer, q).Decode(&p)
			out := httpx.Page[telemetry.LiveCarView]{Total: p.Total}
			for _, c := range p.List {
				out.List = append(out.List, telemetry.LiveCarView{Plate: c.Plate, Code: c.Code, Abnormal: c.Abnormal})
			}
			return out
		}
		plates := func(p httpx.Page[telemetry.LiveCarView]) string {
			var s []string
			for _, c := range p.List {
				s = append(s, c.Plate)
			}
			return strings.Join(s, " ")
		}
		// Ordered by group (华东 before its 上海车队) and plate.
		if p := find(map[string]any{}); p.Total != 4 || plates(p) != "沪A·6N337 浙B·3Q905 苏E·71C26 沪B·9F218" {
			t.Fatalf("all: %d %s", p.Total, plates(p))
		}
		if p := find(map[string]any{"code": 4}); plates(p) != "沪A·6N337 沪B·9F218" || p.List[0].Code != 4 || !p.List[0].Abnormal {
			t.Fatalf("code 4: %+v", p)
		}
		if p := find(map[string]any{"code": "7"}); plates(p) != "浙B·3Q905" {
			t.Fatalf("code \"7\": %s", plates(p))
		}
		if p := find(map[string]any{"code": 3}); plates(p) != "沪A·6N337" {
			t.Fatalf("code 3: %s", plates(p))
		}
		if p := find(map[string]any{"carNumber": " 沪"}); plates(p) != "沪A·6N337 沪B·9F218" {
			t.Fatalf("plate filter: %s", plates(p))
		}
		// either form of the plate (track replay and the history vehicle picker search through here)
		if p := find(map[string]any{"carNumber": "沪a 6n"}); plates(p) != "沪A·6N337" {
			t.Fatalf("plate filter, other form: %s", plates(p))
		}
		if p := find(map[string]any{"pageNum": 2, "pageSize": 3}); p.Total != 4 || plates(p) != "沪B·9F218" {
			t.Fatalf("page 2: %d %s", p.Total, plates(p))
		}
		if p := find(map[string]any{"groupId": le.cars["沪B·9F218"].GroupID}); plates(p) != "沪B·9F218" {
			t.Fatalf("上海车队: %s", plates(p))
		}

		var ids []int64
		api.MustOK("POST", monitorPath+"findCarsId", customer, map[string]any{"code": 4}).Decode(&ids)
		if want := []int64{le.cars["沪A·6N337"].ID, le.cars["沪B·9F218"].ID}; !slices.Equal(ids, want) {
			t.Fatalf("findCarsId code 4: %v, want %v", ids, want)
		}

		for _, path := range []string{"findCars", "findCarsId"} {
			monitorExpect(t, api.Call("POST", monitorPath+path, customer, map[string]any{"groupId": le.cars["冀A·3K281"].GroupID}), 403, "该记录不在您的数据范围内")
			monitorExpect(t, api.Call("POST", monitorPath+path, customer, map[string]any{"code": 6}), 200, "状态编码格式不正确")
			monitorExpect(t, api.Call("POST", monitorPath+path, customer, map[string]any{"code": "x"}), 200, "状态编码格式不正确")
			monitorExpect(t, api.Call("POST", monitorPath+path, customer, map[string]any{"groupId": 999999}), 200, "记录不存在")
		}
		monitorExpect(t, api.Call("POST", monitorPath+"findCars", customer, map[string]any{"pageSize": 501}), 200, "每页条数应在 1 到 500 之间")
		monitorExpect(t, api.Call("POST", monitorPath+"findCars", customer, map[string]any{"sortField": "speed"}), 200, "排序字段格式不正确")
	})
}

func TestMonitorExhibitionAndDetails(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		le := liveSetup(t, e)
		monitorFleet(le)
		api := le.api
		admin, customer := e.Login("admin", "admin123"), e.Login("customer", "customer123")
		hu, su, ji := le.cars["沪A·6N337"].ID, le.cars["苏E·71C26"].ID, le.cars["冀A·3K281"].ID

		var markers []map[string]any
		api.MustOK("GET", monitorPath+fmt.Sprintf("carExhibition?carIds=%d,%d,%d", su, hu, su), customer, nil).Decode(&markers)
		if len(markers) != 2 || markers[0]["plate"] != "苏E·71C26" || markers[0]["lng"] != "" || markers[0]["lat"] != "" ||
			markers[1]["lng"] != 121.473701 || markers[1]["lat"] != 31.230416 || markers[1]["speed"] != 65.5 ||
			markers[1]["code"] != 4.0 || markers[1]["abnormal"] != true || markers[1]["time"] != "2026-03-01 15:59:59" {
			t.Fatalf("markers: %v", markers)
		}
		api.MustOK("GET", monitorPath+fmt.Sprint("carExhibition?groupId=", le.cars["沪B·9F218"].GroupID), customer, nil).Decode(&markers)
		if len(markers) != 1 || markers[0]["plate"] != "沪B·9F218" {
			t.Fatalf("group markers: %v", markers)
		}
		api.MustOK("GET", monitorPath+"carExhibition", customer, nil).Decode(&markers)
		if len(markers) != 4 {
			t.Fatalf("scope markers: %v", markers)
		}
		monitorExpect(t, api.Call("GET", monitorPath+fmt.Sprintf("carExhibition?carIds=%d,%d", hu, ji), customer, nil), 403, "该记录不在您的数据范围内")
		monitorExpect(t, api.Call("GET", monitorPath+fmt.Sprintf("carExhibition?carIds=%d,999999", hu), customer, nil), 200, "记录不存在")
		monitorExpect(t, api.Call("GET", monitorPath+"carExhibition?carIds=1,x", customer, nil), 200, "参数 carIds 不正确")
		monitorExpect(t, api.Call("GET", monitorPath+fmt.Sprint("carExhibition?groupId=", le.cars["冀A·3K281"].GroupID), customer, nil), 403, "该记录不在您的数据范围内")

		var d map[string]any
		api.MustOK("GET", monitorPath+fmt.Sprint("carDetails?carId=", hu), customer, nil).Decode(&d)
		comps := d["compartmentStates"].([]any)
		third := comps[2].(map[string]any)["devices"].([]any)[tank.DischargeValve].(map[string]any)
		alarms := d["alarms"].([]any)
		if d["plate"] != "沪A·6N337" || d["driverName"] != "陈志明" || d["groupName"] != "华东分公司" || d["load"] != "full" ||
			d["loadText"] != "满载" || d["mileage"] != 12345.6 || d["online"] != true || d["moving"] != true || d["acc"] != true ||
			d["lockState"] != tank.LockString(liveHuTank()) || d["sealText"] != "已施封" || len(comps) != 3 ||
			third["kind"] != "oilDischargeValve" || third["kindText"] != "卸油阀" || third["open"] != true || third["locked"] != false ||
			len(alarms) != 2 || alarms[0].(map[string]any)["name"] != "超速报警" || alarms[1].(map[string]any)["name"] != "报警位 16" ||
			fmt.Sprint(d["levels"]) != "[map[compartment:1 levelMm:1234 temperature:-3.5 volumeL:9876]]" ||
			fmt.Sprint(d["abnormalReasons"]) != "[终端报警 设备故障]" || d["received"] != "2026-03-01 16:00:00" {
			t.Fatalf("detail: %v", d)
		}
		api.Lang = "en-US"
		api.MustOK("GET", monitorPath+fmt.Sprint("carDetails?carId=", hu), customer, nil).Decode(&d)
		if d["codeText"] != "In transit" || d["alarms"].([]any)[0].(map[string]any)["name"] != "Overspeed" {
			t.Fatalf("detail in English: %v %v", d["codeText"], d["alarms"])
		}
		api.Lang = ""
		api.MustOK("GET", monitorPath+fmt.Sprint("carDetails?carId=", le.cars["浙B·3Q905"].ID), customer, nil).Decode(&d)
		if d["online"] != false || d["code"] != 7.0 || d["lng"] != "" || d["time"] != nil || d["mileage"] != nil || d["lockState"] != "" ||
			len(d["compartmentStates"].([]any)) != 0 {
			t.Fatalf("never reported: %v", d)
		}
		monitorExpect(t, api.Call("GET", monitorPath+fmt.Sprint("carDetails?carId=", ji), customer, nil), 403, "该记录不在您的数据范围内")
		monitorExpect(t, api.Call("GET", monitorPath+"carDetails?carId=999999", customer, nil), 200, "记录不存在")
		monitorExpect(t, api.Call("GET", monitorPath+"carDetails", customer, nil), 200, "缺少参数 carId")

		// A car created after the last registry reload is found at once.
		id := e.MustOK("POST", "/base-info-app/carInfo/insert", admin, map[string]any{
			"groupId": le.cars["沪A·6N337"].GroupID, "plate": "沪C·12345", "compartments": 2}).ID()
		api.MustOK("GET", monitorPath+fmt.Sprint("carDetails?carId=", id), customer, nil).Decode(&d)
		if d["plate"] != "沪C·12345" || d["code"] != 7.0 {
			t.Fatalf("new car: %v", d)
		}
	})
}

// liveHuTank is the tank state monitorFleet gives 沪A·6N337.
func liveHuTank() *tank.State {
	s := liveTankState(tank.SealSealed, true)
	s.Compartments = 3
	s.Devices[2][tank.DischargeValve] = tank.DevInstalled | tank.DevOpen
	return s
}
