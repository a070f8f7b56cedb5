package app_test

import (
	"encoding/base64"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"
	"testing"

	"tankwatch/internal/app"
	"tankwatch/internal/app/apptest"
	"tankwatch/internal/auth"
	"tankwatch/internal/fleet"
	"tankwatch/internal/org"
	"tankwatch/internal/platform/config"
	"tankwatch/internal/platform/db/dbtest"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/station"
	"tankwatch/internal/tank"
	"tankwatch/internal/telemetry"
	"tankwatch/internal/waybill"
)

// TestRouteTableDeclarations: every route declares its access, codes exist in menu.json, no pattern
// is registered twice.
func TestRouteTableDeclarations(t *testing.T) {
	t.Parallel()
	e := apptest.New(t, "sqlite", config.Config{})
	seen := map[string]bool{}
	for _, rt := range e.App.Routes() {
		if rt.Access.Kind == httpx.Undeclared || rt.Handler == nil {
			t.Errorf("%s: no access declaration or handler", rt.Pattern())
		}
		if rt.Access.Kind == httpx.Code && len(rt.Access.Codes) == 0 {
			t.Errorf("%s: code access without codes", rt.Pattern())
		}
		for _, c := range rt.Access.Codes {
			if !org.IsCode(c) {
				t.Errorf("%s: code %s is not in menu.json", rt.Pattern(), c)
			}
		}
		if seen[rt.Pattern()] {
			t.Errorf("%s registered twice", rt.Pattern())
		}
		seen[rt.Pattern()] = true
	}
	// an undeclared route is refused at mount time
	func() {
		defer func() {
			if recover() == nil {
				t.Error("undeclared route mounted")
			}
		}()
		httpx.Handle(e.App.Auth.Guard, httpx.Route{Method: "GET", Path: "/x", Handler: nil})
	}()
}

// fixture ids for the matrix.
type fixture struct {
	eastTok, nobodyTok     string // tokens: 华东 scoped administrator (all codes), a user without route codes
	foreignUser, northRole int64  // records in 华北分公司 (outside 华东's scope)
	north, shanghai, east  int64  // groups
	eastRole, customer     int64  // records inside 华东's scope
	eastAdmin              int64
	// fleet records: a car, SIM and terminal (bound together) in 华北 and in 华东
	northCar, northSIM, northTerm int64
	eastCar, eastSIM, eastTerm    int64
	eastPlate, eastPhone          string
	northPhone                    string
	northSensor                   int64
	northHelp                     int64 // a help record of the 华北 car
	eastICCID, eastMSISDN         string
	northStation, northSuspect    int64
	northAlarm                    int64 // an alarm record of a 华北 car
	northTank                     int64 // a ground tank of the 华北 station
	northCalib                    int64 // a remote calibration command of the 华北 car
	// waybill base data (issue 15): a 华北 product, customer, customer car, oil station and company code
	northProduct, northCustomer, northCustCar, northJYZ int64
	northCode                                           string
	northWaybill, northDiff                             int64      // an UNLOADING waybill of the 华北 car and a difference of it
	loads                                               loadsIDs   // plans, waybills, load records of 华北 (waybill_loads_test.go)
	northBills                                          northBills // 华北's waybill records (waybill_bills_test.go)
}

func newID(e *apptest.Env, token, path string, body any) int64 {
	return e.MustOK("POST", path, token, body).ID()
}

func setup(t *testing.T, e *apptest.Env) fixture {
	admin := e.Login("admin", "admin123")
	var f fixture
	groups := map[string]int64{}
	var tree []*org.GroupView
	e.MustOK("POST", "/authority-app/groupInfo/findTrees", admin, map[string]any{}).Decode(&tree)
	var walk func([]*org.GroupView)
	walk = func(gs []*org.GroupView) {
		for _, g := range gs {
			groups[g.Name] = g.ID
			walk(g.Children)
		}
	}
	walk(tree)
	f.north, f.east, f.shanghai = groups["华北分公司"], groups["华东分公司"], groups["上海车队"]
	if f.north == 0 || f.east == 0 || f.shanghai == 0 {
		t.Fatalf("demo groups missing: %v", groups)
	}
	f.eastRole = newID(e, admin, "/authority-app/roleInfo/insert", map[string]any{"name": "华东管理员", "groupId": f.east, "resourceCodes": org.AllCodes()})
	f.eastAdmin = newID(e, admin, "/authority-app/userInfo/insert", map[string]any{"name": "eastadmin", "password": "secret1", "groupId": f.east, "roleIds": []int64{f.eastRole}})
	// 08 (the supply-chain link) guards no route; 07 now guards the after-sales pages (D69)
	homeOnly := newID(e, admin, "/authority-app/roleInfo/insert", map[string]any{"name": "仅供应链", "resourceCodes": []string{"08"}})
	newID(e, admin, "/authority-app/userInfo/insert", map[string]any{"name": "nobody", "password": "secret1", "groupId": f.east, "roleIds": []int64{homeOnly}})
	f.northRole = newID(e, admin, "/authority-app/roleInfo/insert", map[string]any{"name": "华北角色", "groupId": f.north, "resourceCodes": []string{"01"}})
	f.foreignUser = newID(e, admin, "/authority-app/userInfo/insert", map[string]any{"name": "northuser", "password": "secret1", "groupId": f.north, "roleIds": []int64{f.northRole}})
	var users httpx.Page[org.UserView]
	e.MustOK("POST", "/authority-app/userInfo/page", admin, map[string]any{"name": "customer"}).Decode(&users)
	f.customer = users.List[0].ID
	fleetIDs := func(groupID int64) fleet.TerminalView {
		var ts httpx.Page[fleet.TerminalView]
		e.MustOK("POST", "/base-info-app/terminal/page", admin, map[string]any{"groupId": groupID, "bound": true}).Decode(&ts)
		if len(ts.List) == 0 || ts.List[0].CarID == nil || ts.List[0].SIMID == nil {
			t.Fatalf("no bound demo terminal in group %d", groupID)
		}
		return ts.List[0]
	}
	nt, et := fleetIDs(f.north), fleetIDs(f.east)
	f.northCar, f.northSIM, f.northTerm, f.northPhone = *nt.CarID, *nt.SIMID, nt.ID, nt.Phone
	f.northSensor = newID(e, admin, "/base-info-app/sensor/add", map[string]any{"groupId": f.north, "name": "液位探杆", "identification": "C1", "decoder": "level"})
	f.eastCar, f.eastSIM, f.eastTerm, f.eastPlate, f.eastPhone = *et.CarID, *et.SIMID, et.ID, et.Plate, et.Phone
	if v, ok, err := e.App.Help.Record(t.Context(), &telemetry.Report{TerminalID: f.northTerm, CarID: f.northCar, Time: e.Clock.Now(),
		Help: &tank.Help{Type: tank.HelpUnlock, RequestID: 9}}); err != nil || !ok {
		t.Fatalf("help record: %v %v", ok, err)
	} else {
		f.northHelp = v.ID
	}
	var sims httpx.Page[fleet.SIMView]
	e.MustOK("POST", "/base-info-app/simInfo/page", admin, map[string]any{"msisdn": et.MSISDN}).Decode(&sims)
	f.eastICCID, f.eastMSISDN = sims.List[0].ICCID, sims.List[0].MSISDN
	var sts httpx.Page[station.View]
	e.MustOK("POST", "/base-info-app/station/page", admin, map[string]any{"groupId": f.north}).Decode(&sts)
	if len(sts.List) == 0 {
		t.Fatal("no demo station in 华北")
	}
	f.northStation = sts.List[0].ID
	if err := e.DB.NewRaw(`SELECT gt.id FROM ground_tanks AS gt JOIN stations AS st ON st.id = gt.station_id
WHERE st.group_id = ? ORDER BY gt.id LIMIT 1`, f.north).Scan(t.Context(), &f.northTank); err != nil {
		t.Fatal("no demo ground tank in 华北: ", err)
	}
	if err := e.App.Stations.RecordSuspect(t.Context(), f.north, 39_000_000, 116_000_000, e.Clock.Now(), f.northCar); err != nil {
		t.Fatal(err)
	}
	var sus httpx.Page[station.SuspectView]
	e.MustOK("POST", "/base-info-app/suspectedStation/page", admin, map[string]any{"groupId": f.north}).Decode(&sus)
	f.northSuspect = sus.List[0].ID
	f.eastTok = e.Login("eastadmin", "secret1")
	f.nobodyTok = e.Login("nobody", "secret1")
	f.northAlarm = insertAlarm(t, e, f.northCar)
	f.northCalib = insertCalib(t, e, f.northCar, f.north, f.northTerm)
	f.northWaybill, f.northDiff = insertWaybillDiff(t, e, f.north, f.northCar, f.northStation)
	f.northBills = insertNorthBills(t, e, f.north, f.northCar)
	// a password of the 华北 car, so that viewing it from 华东 has something to refuse
	e.MustOK("POST", "/base-info-app/carPassword/set", admin, map[string]any{"carId": f.northCar, "password": "123456"})
	f.northProduct = newID(e, admin, "/base-info-app/transProduct/add", map[string]any{"name": "华北矩阵油品", "code": "AZN1", "product": 0, "groupId": f.north})
	f.northCustomer = newID(e, admin, "/base-info-app/customer/add", map[string]any{"name": "华北矩阵客户", "code": "AZN1", "groupId": f.north})
	f.northCustCar = newID(e, admin, "/base-info-app/customerCar/add", map[string]any{"customerId": f.northCustomer, "plate": "冀A·AZ001"})
	if err := e.DB.NewRaw("SELECT id FROM stations WHERE group_id = ? AND station_type = 'jyz' ORDER BY id LIMIT 1", f.north).Scan(t.Context(), &f.northJYZ); err != nil {
		t.Fatal("no demo oil station in 华北: ", err)
	}
	if err := e.DB.NewRaw("SELECT code FROM org_groups WHERE id = ?", f.north).Scan(t.Context(), &f.northCode); err != nil {
		t.Fatal(err)
	}
	f.loads = setupLoads(t, e)
	return f
}

// insertWaybill stores a PLANNED waybill of a car (the waybill endpoints of other parts are not needed).
func insertWaybill(t *testing.T, e *apptest.Env, groupID, carID, depotID int64) int64 {
	t.Helper()
	now := e.Clock.Now().UnixMilli()
	r := waybill.Row{GroupID: groupID, No: fmt.Sprintf("YD-T-%d-%d", groupID, carID), CarID: carID, DepotID: depotID,
		State: waybill.Planned, StateAt: now, CreatedAt: now, UpdatedAt: now}
	if err := waybill.Insert(t.Context(), e.DB, &r, []waybill.Destination{{Seq: 1, StationID: depotID}}, nil); err != nil {
		t.Fatal(err)
	}
	return r.ID
}

type call struct {
	query string // appended to the path
	body  any
}

// foreignCalls are, per scoped route, requests that name a record outside 华东's scope.
func foreignCalls(f fixture) map[string][]call {
	q := func(k string, v int64) string { return "?" + k + "=" + fmt.Sprint(v) }
	day := "&startTime=2026-03-01%2000:00:00&endTime=2026-03-01%2023:59:59"
	return map[string][]call{
		"GET /authority-app/resourceInfo/findTreesForLogin": {{query: q("userId", f.foreignUser)}, {query: q("userId", f.customer)}},
		"POST /authority-app/userInfo/page":                 {{body: map[string]any{"groupId": f.north}}},
		"GET /authority-app/userInfo/detail":                {{query: q("id", f.foreignUser)}},
		"POST /monitor-app/transportProcess/page": {{body: map[string]any{"groupId": f.north}}, {body: map[string]any{"carId": f.northCar}},
			{body: map[string]any{"stationId": f.northStation}}, {body: map[string]any{"depotId": f.northStation}}},
		"GET /monitor-app/transportProcess/detail": {{query: q("waybillId", f.northWaybill)}},
		"POST /monitor-app/transportRecord/page":   {{body: map[string]any{"groupId": f.north}}, {body: map[string]any{"carId": f.northCar}}},
		"POST /monitor-app/transportRecord/export": {{body: map[string]any{"groupId": f.north}}, {body: map[string]any{"stationId": f.northStation}}},
		"POST /authority-app/userInfo/insert": {
			{body: map[string]any{"name": "newuser", "password": "secret1", "groupId": f.north}},
			{body: map[string]any{"name": "newuser", "password": "secret1", "groupId": f.east, "roleIds": []int64{f.northRole}}},
		},
		"POST /authority-app/userInfo/update": {
			{body: map[string]any{"id": f.foreignUser, "name": "northuser", "groupId": f.north}},
			{body: map[string]any{"id": f.customer, "name": "customer", "groupId": f.north}},
			{body: map[string]any{"id": f.customer, "name": "customer", "groupId": f.east, "roleIds": []int64{f.northRole}}},
		},
		"POST /authority-app/userInfo/deleteByIds": {
			{body: map[string]any{"ids": []int64{f.foreignUser}}},
			{body: map[string]any{"ids": []int64{f.customer, f.foreignUser}}},
		},
		"GET /authority-app/userInfo/resetPassword": {{query: q("id", f.foreignUser)}},
		"POST /authority-app/userInfo/updateStatus": {{body: map[string]any{"id": f.foreignUser, "status": 0}}},
		"POST /authority-app/userInfo/unlock":       {{body: map[string]any{"id": f.foreignUser}}},
		"GET /authority-app/roleInfo/detail":        {{query: q("id", f.northRole)}},
		"POST /authority-app/roleInfo/insert":       {{body: map[string]any{"name": "x", "groupId": f.north}}},
		"POST /authority-app/roleInfo/update": {
			{body: map[string]any{"id": f.northRole, "name": "x", "groupId": f.north}},
			{body: map[string]any{"id": f.eastRole, "name": "华东管理员", "groupId": f.north, "resourceCodes": org.AllCodes()}},
		},
		"POST /authority-app/roleInfo/deleteByIds": {{body: map[string]any{"ids": []int64{f.northRole}}}},
		"POST /authority-app/groupInfo/add": {
			{body: map[string]any{"parentId": f.north, "name": "x"}},
			{body: map[string]any{"name": "new top"}},
		},
		"POST /authority-app/groupInfo/addChildren": {{body: map[string]any{"parentId": f.north, "name": "x"}}},
		"POST /authority-app/groupInfo/edit": {
			{body: map[string]any{"id": f.north, "name": "x"}},
			{body: map[string]any{"id": f.shanghai, "name": "上海车队", "parentId": f.north}},
		},
		"POST /authority-app/groupInfo/delete":              {{body: map[string]any{"id": f.north}}},
		"GET /authority-app/groupInfo/findParents":          {{query: q("id", f.north)}},
		"POST /authority-app/groupInfo/findAllChildren":     {{body: map[string]any{"id": f.north}}},
		"POST /authority-app/groupInfo/findAllChildrenPage": {{body: map[string]any{"id": f.north}}},
		"POST /authority-app/groupInfo/editImgAndTittle":    {{body: map[string]any{"id": f.north, "title": "x"}}},

		// fleet registry
		"POST /base-info-app/carInfo/page":   {{body: map[string]any{"groupId": f.north}}},
		"GET /base-info-app/carInfo/detail":  {{query: q("id", f.northCar)}},
		"POST /base-info-app/carInfo/insert": {{body: map[string]any{"plate": "冀A·99999", "compartments": 3, "groupId": f.north}}},
		"POST /base-info-app/carInfo/update": {
			{body: map[string]any{"id": f.northCar, "plate": "冀A·99999", "compartments": 3, "groupId": f.north}},
			{body: map[string]any{"id": f.northCar, "plate": "冀A·99999", "compartments": 3, "groupId": f.east}},
			{body: map[string]any{"id": f.eastCar, "plate": f.eastPlate, "compartments": 3, "groupId": f.north}},
		},
		"POST /base-info-app/carInfo/deleteByIds": {{body: map[string]any{"ids": []int64{f.northCar}}}, {body: map[string]any{"ids": []int64{f.eastCar, f.northCar}}}},
		"POST /base-info-app/carInfo/move": {
			{body: map[string]any{"ids": []int64{f.northCar}, "groupId": f.east}},
			{body: map[string]any{"ids": []int64{f.eastCar}, "groupId": f.north}},
		},
		"POST /base-info-app/carInfo/export":            {{body: map[string]any{"groupId": f.north}}},
		"GET /base-info-app/carVideoChannel/selectsome": {{query: q("carId", f.northCar)}},
		"POST /base-info-app/carVideoChannel/save":      {{body: map[string]any{"carId": f.northCar, "channels": []any{}}}},
		"POST /base-info-app/simInfo/page":              {{body: map[string]any{"groupId": f.north}}},
		"POST /base-info-app/simInfo/insert":            {{body: map[string]any{"iccid": "89860400000000000001", "msisdn": "1440000000001", "groupId": f.north}}},
		"POST /base-info-app/simInfo/update": {
			{body: map[string]any{"id": f.northSIM, "iccid": "89860400000000000001", "msisdn": "1440000000001", "groupId": f.north}},
			{body: map[string]any{"id": f.eastSIM, "iccid": f.eastICCID, "msisdn": f.eastMSISDN, "groupId": f.north}},
		},
		"POST /base-info-app/simInfo/deleteByIds": {{body: map[string]any{"ids": []int64{f.northSIM}}}},
		"POST /base-info-app/simInfo/export":      {{body: map[string]any{"groupId": f.north}}},
		"POST /base-info-app/terminal/page":       {{body: map[string]any{"groupId": f.north}}},
		"POST /base-info-app/terminal/insert":     {{body: map[string]any{"phone": "013999999999", "groupId": f.north}}},
		"POST /base-info-app/terminal/update": {
			{body: map[string]any{"id": f.northTerm, "phone": "013999999999", "groupId": f.north}},
			{body: map[string]any{"id": f.eastTerm, "phone": f.eastPhone, "groupId": f.north}},
		},
		"POST /base-info-app/terminal/deleteByIds": {{body: map[string]any{"ids": []int64{f.northTerm}}}},
		"POST /base-info-app/terminal/bind": {
			{body: map[string]any{"id": f.northTerm, "carId": nil, "simId": nil}},
			{body: map[string]any{"id": f.eastTerm, "carId": f.northCar, "simId": f.eastSIM}},
			{body: map[string]any{"id": f.eastTerm, "carId": f.eastCar, "simId": f.northSIM}},
		},
		"GET /base-info-app/terminal/bindings":              {{query: q("id", f.northTerm)}},
		"POST /base-info-app/terminal/export":               {{body: map[string]any{"groupId": f.north}}},
		"POST /base-info-app/terminal/queryAttributes":      {{body: map[string]any{"id": f.northTerm}}},
		"POST /authority-app/groupInfo/selectCarsByGroupId": {{body: map[string]any{"groupId": f.north}}},

		// history and raw data
		"GET /hbase/rawHistoryRecord": {{query: q("carId", f.northCar) + day}, {query: "?phone=" + f.northPhone + day}},
		"GET /hbase/HbaseServlet": {{query: q("carId", f.northCar) + day + "&table=positions"},
			{query: "?phone=" + f.northPhone + day + "&table=rawFrames"}},
		"POST /hbase/HbaseServlet": {{body: map[string]any{"table": "tankStates", "carId": f.northCar, "startTime": "2026-03-01 00:00:00", "endTime": "2026-03-01 23:59:59"}}},
		"POST /hbase/rawHistoryRecord/export": {{body: map[string]any{"carId": f.northCar, "startTime": "2026-03-01", "endTime": "2026-03-02"}},
			{body: map[string]any{"phone": f.northPhone, "startTime": "2026-03-01", "endTime": "2026-03-02"}}},
		"POST /hbase/HbaseServlet/export": {{body: map[string]any{"table": "positions", "carId": f.northCar, "startTime": "2026-03-01", "endTime": "2026-03-02"}}},
		"POST /monitor-app/stateChange/page": {{body: map[string]any{"carId": f.northCar, "startTime": "2026-03-01", "endTime": "2026-03-02"}},
			{body: map[string]any{"phone": f.northPhone, "startTime": "2026-03-01", "endTime": "2026-03-02"}}},
		"POST /monitor-app/stateChange/export":   {{body: map[string]any{"carId": f.northCar, "startTime": "2026-03-01", "endTime": "2026-03-02"}}},
		"POST /monitor-app/offlineRecord/page":   {{body: map[string]any{"groupId": f.north, "startTime": "2026-03-01", "endTime": "2026-03-02"}}, {body: map[string]any{"carId": f.northCar, "startTime": "2026-03-01", "endTime": "2026-03-02"}}},
		"POST /monitor-app/offlineRecord/export": {{body: map[string]any{"groupId": f.north, "startTime": "2026-03-01", "endTime": "2026-03-02"}}},
		// tank events (D36)
		"POST /monitor-app/realTimeMoitoring/getDiffDataStatusPage":        {{body: map[string]any{"groupId": f.north}}},
		"POST /monitor-app/bizDiffRecord/export":                           {{body: map[string]any{"groupId": f.north}}},
		"POST /monitor-app/bizDiffRecord/review":                           {{body: map[string]any{"id": f.northDiff, "reason": "看过"}}},
		"POST /monitor-app/transportProcess/correct":                       {{body: map[string]any{"waybillId": f.northWaybill, "state": "CLOSED", "reason": "补录"}}},
		"POST /monitor-app/transportProcess/receive":                       {{body: map[string]any{"waybillId": f.northWaybill, "destSeq": 1, "receivedV20": 900}}},
		"POST /monitor-app/carEventRecord/page":                            {{body: map[string]any{"groupId": f.north}}, {body: map[string]any{"carId": f.northCar}}},
		"POST /monitor-app/carEventRecord/export":                          {{body: map[string]any{"groupId": f.north}}, {body: map[string]any{"carId": f.northCar}}},
		"POST /base-info-app/AllDataValveStates/getAllDataValveStatesPage": {{body: map[string]any{"groupId": f.north}}, {body: map[string]any{"carId": f.northCar}}},
		"POST /base-info-app/AllDataValveStates/export":                    {{body: map[string]any{"groupId": f.north}}, {body: map[string]any{"carId": f.northCar}}},
		// level trends (D38)
		"POST /monitor-app/realTimeMoitoring/levelChart": {{body: map[string]any{"carId": f.northCar, "start": "2026-03-01 00:00:00", "end": "2026-03-02 00:00:00"}}},
		"GET /monitor-app/realTimeMoitoring/positionAt":  {{query: q("carId", f.northCar) + "&t=1772323200000"}},
		"GET /hbase/levelChart2":                         {{query: q("tankId", f.northTank)}},
		"POST /monitor-app/groundTank/status":            {{body: map[string]any{"groupId": f.north}}, {body: map[string]any{"stationId": f.northStation}}},
		"POST /monitor-app/groundTank/gauges":            {{body: map[string]any{"groupId": f.north}}, {body: map[string]any{"stationId": f.northStation}}},
		"POST /monitor-app/tankEventRecord/page": {{body: map[string]any{"groupId": f.north}}, {body: map[string]any{"stationId": f.northStation}},
			{body: map[string]any{"tankId": f.northTank}}},
		"POST /monitor-app/tankEventRecord/export": {{body: map[string]any{"tankId": f.northTank}}},

		// live state and monitoring
		"GET /monitor-app/realTimeMoitoring/carCount":      {{query: q("groupId", f.north)}},
		"POST /monitor-app/realTimeMoitoring/findCars":     {{body: map[string]any{"groupId": f.north, "pageNum": 1, "pageSize": 10}}},
		"POST /monitor-app/cockpit/summary":                {{body: map[string]any{"groupId": f.north}}},
		"POST /monitor-app/realTimeMoitoring/findCarsId":   {{body: map[string]any{"groupId": f.north}}},
		"GET /monitor-app/realTimeMoitoring/carExhibition": {{query: q("carIds", f.northCar)}, {query: q("groupId", f.north)}},
		"GET /monitor-app/realTimeMoitoring/carDetails":    {{query: q("carId", f.northCar)}},
		"GET /monitor-app/realTimeMoitoring/track":         {{query: q("carId", f.northCar) + day}},

		// the waybill map (issue 15, wb-map)
		"POST /monitor-app/realTimeMoitoring/findCarsByWaybill":     {{body: map[string]any{"groupId": f.north}}},
		"GET /monitor-app/realTimeMoitoring/carExhibitionByWaybill": {{query: q("carId", f.northCar)}},
		"POST /monitor-app/realTimeMoitoring/findWaybillHistory":    {{body: map[string]any{"groupId": f.north}}, {body: map[string]any{"carId": f.northCar}}},

		// downlink commands
		"POST /base-info-app/terminalCommand/send": {{body: map[string]any{"carId": f.northCar, "kind": "text", "text": "请靠边停车"}},
			{body: map[string]any{"carId": f.northCar, "kind": "unlock"}}},
		"POST /base-info-app/terminalCommand/page": {{body: map[string]any{"carId": f.northCar, "startTime": "2026-03-01 00:00:00", "endTime": "2026-03-01 23:59:59"}}},

		// sensor registry
		"POST /base-info-app/sensor/page":   {{body: map[string]any{"groupId": f.north}}},
		"POST /base-info-app/sensor/add":    {{body: map[string]any{"groupId": f.north, "name": "x", "identification": "C3", "decoder": "lock"}}},
		"POST /base-info-app/sensor/update": {{body: map[string]any{"id": f.northSensor, "name": "x", "identification": "C1", "decoder": "level"}}},
		"POST /base-info-app/sensor/delete": {{body: map[string]any{"id": f.northSensor}}},

		// help records
		"POST /base-info-app/helpRecord/page":   {{body: map[string]any{"groupId": f.north}}},
		"POST /base-info-app/helpRecord/export": {{body: map[string]any{"groupId": f.north}}},
		"POST /base-info-app/helpRecord/deal":   {{body: map[string]any{"id": f.northHelp, "dealType": 1}}, {body: map[string]any{"id": f.northHelp, "dealType": 3}}},
		// system messages
		"POST /authority-app/message/send": {{body: map[string]any{"title": "t", "content": "c", "userIds": []int64{f.foreignUser}}},
			{body: map[string]any{"title": "t", "content": "c", "groupIds": []int64{f.north}}},
			{body: map[string]any{"title": "t", "content": "c", "userIds": []int64{f.customer}, "groupIds": []int64{f.north}}}},
		// stations
		"GET /base-info-app/station/nearStation": {{query: q("groupId", f.north) + "&lng=116.37&lat=39.84"}},
		"GET /base-info-app/station/view":        {{query: q("id", f.northStation)}},
		"GET /base-info-app/station/viewStation": {{query: q("groupId", f.north)}},
		"GET /base-info-app/station/fence": {{query: q("stationId", f.northStation)},
			{query: q("groupId", f.north) + "&lng=116.37&lat=39.84"}},
		"POST /base-info-app/station/stationTreeByPlatform":    {{body: map[string]any{"groupId": f.north}}},
		"POST /base-info-app/station/stationTreeByCustomizing": {{body: map[string]any{"groupId": f.north}}},
		"POST /base-info-app/station/stationTreeBySales":       {{body: map[string]any{"groupId": f.north}}},
		"POST /base-info-app/station/page":                     {{body: map[string]any{"groupId": f.north}}},
		"POST /base-info-app/station/export":                   {{body: map[string]any{"groupId": f.north}}},
		"POST /base-info-app/station/add": {{body: map[string]any{"groupId": f.north, "stationName": "x", "stationType": "jyz",
			"fenceType": 2, "fenceCenter": "116.1,39.1", "raduis": 100}},
			{body: map[string]any{"stationName": "x", "stationType": "jyz", "fenceType": 2, "fenceCenter": "116.1,39.1", "raduis": 100,
				"suspectId": f.northSuspect}}},
		"POST /base-info-app/station/update": {{body: map[string]any{"id": f.northStation, "stationName": "x", "stationType": "jyz",
			"fenceType": 2, "fenceCenter": "116.1,39.1", "raduis": 100}}},
		"POST /base-info-app/station/delete":           {{body: map[string]any{"id": f.northStation}}},
		"POST /base-info-app/suspectedStation/page":    {{body: map[string]any{"groupId": f.north}}},
		"POST /base-info-app/suspectedStation/dismiss": {{body: map[string]any{"id": f.northSuspect}}},
		// alarms
		"POST /alarm-app/alarmMessage/findListByCarId": {{body: map[string]any{"carId": f.northCar}}},
		"POST /alarm-app/alarmMessage/findsome":        {{body: map[string]any{"groupId": f.north}}, {body: map[string]any{"carId": f.northCar}}},
		"POST /alarm-app/alarmMessage/findsome2":       {{body: map[string]any{"groupId": f.north}}},
		"POST /alarm-app/alarmMessage/selectByMonitor": {{body: map[string]any{"groupId": f.north}}},
		"POST /alarm-app/alarmMessage/deal":            {{body: map[string]any{"ids": []int64{f.northAlarm}, "state": 1, "remark": "x"}}},
		"POST /alarm-app/alarmMessage/export":          {{body: map[string]any{"groupId": f.north}}},
		"POST /alarm-app/alarmMessage/exceptionTypeRatio": {{body: map[string]any{"groupId": f.north, "startTime": "2026-03-01", "endTime": "2026-03-02"}},
			{body: map[string]any{"carId": f.northCar, "startTime": "2026-03-01", "endTime": "2026-03-02"}}},
		"POST /alarm-app/alarmMessage/vehicleRankingRatio":       {{body: map[string]any{"groupId": f.north, "startTime": "2026-03-01", "endTime": "2026-03-02"}}},
		"POST /alarm-app/alarmMessage/vehicleAbnormalStatistics": {{body: map[string]any{"groupId": f.north, "startTime": "2026-03-01", "endTime": "2026-03-02"}}},
		"POST /alarm-app/alarmMessage/exceptionTypeLine":         {{body: map[string]any{"groupId": f.north, "startTime": "2026-03-01", "endTime": "2026-03-02"}}},
		"POST /alarm-app/parkingTimeOut/getByCarId":              {{body: map[string]any{"carId": f.northCar}}},
		"POST /alarm-app/parkingTimeOut/page":                    {{body: map[string]any{"groupId": f.north}}},
		"POST /alarm-app/controlMode/get":                        {{body: map[string]any{"groupId": f.north}}, {body: map[string]any{"carId": f.northCar}}},
		"POST /alarm-app/controlMode/save": {{body: map[string]any{"groupId": f.north, "watched": []string{"speeding"}, "speedLimit": 60,
			"parkingMinutes": 60, "offlineMinutes": 30, "levelDropLitres": 50}}},
		"POST /alarm-app/controlMode/delete": {{body: map[string]any{"carId": f.northCar}}},
		"POST /alarm-app/passwordRecord/page": {{body: map[string]any{"groupId": f.north, "startTime": "2026-03-01", "endTime": "2026-03-02"}},
			{body: map[string]any{"carId": f.northCar, "startTime": "2026-03-01", "endTime": "2026-03-02"}}},
		"POST /alarm-app/lockRecord/page": {{body: map[string]any{"groupId": f.north}}},
		// car passwords and their viewing records
		"POST /base-info-app/carPassword/page":   {{body: map[string]any{"groupId": f.north}}},
		"POST /base-info-app/carPassword/export": {{body: map[string]any{"groupId": f.north}}},
		"POST /base-info-app/carPassword/set": {{body: map[string]any{"carId": f.northCar, "password": "654321"}},
			{body: map[string]any{"carId": f.northCar}}, {body: map[string]any{"carId": f.northCar, "resend": true}}},
		"POST /base-info-app/carPassword/view":         {{body: map[string]any{"carId": f.northCar}}, {body: map[string]any{"carId": f.northCar, "reason": "x"}}},
		"POST /alarm-app/passwordViewingRecord/page":   {{body: map[string]any{"groupId": f.north}}},
		"POST /alarm-app/passwordViewingRecord/export": {{body: map[string]any{"groupId": f.north}}},
		// tank base data
		"POST /base-info-app/tankInfo/carPage":   {{body: map[string]any{"groupId": f.north}}},
		"GET /base-info-app/tankInfo/car":        {{query: q("carId", f.northCar)}},
		"POST /base-info-app/tankInfo/saveCar":   {{body: map[string]any{"carId": f.northCar, "compartments": []any{}}}},
		"POST /base-info-app/tankInfo/carExport": {{body: map[string]any{"groupId": f.north}}},
		"POST /base-info-app/tankInfo/groundPage": {{body: map[string]any{"groupId": f.north}},
			{body: map[string]any{"stationId": f.northStation}}},
		"GET /base-info-app/tankInfo/ground":        {{query: q("id", f.northTank)}},
		"POST /base-info-app/tankInfo/groundAdd":    {{body: map[string]any{"stationId": f.northStation, "tankNo": 91}}},
		"POST /base-info-app/tankInfo/groundUpdate": {{body: map[string]any{"id": f.northTank, "stationId": f.northStation, "tankNo": 90}}},
		"POST /base-info-app/tankInfo/groundDelete": {{body: map[string]any{"id": f.northTank}}},
		"POST /base-info-app/tankInfo/groundExport": {{body: map[string]any{"groupId": f.north}}, {body: map[string]any{"stationId": f.northStation}}},
		"POST /base-info-app/tankInfo/strapExport":  {{body: map[string]any{"carId": f.northCar, "no": 1}}, {body: map[string]any{"tankId": f.northTank}}},
		// tank monitor
		"POST /monitor-app/realTimeMoitoring/tankMonitor": {{body: map[string]any{"carId": f.northCar}}},
		"POST /monitor-app/tankMonitor2VXE/page":          {{body: map[string]any{"groupId": f.north}}},
		"POST /monitor-app/tankMonitor2VXE/export":        {{body: map[string]any{"groupId": f.north}}},
		// remote calibration
		"POST /monitor-app/parameter/values":  {{body: map[string]any{"carId": f.northCar}}},
		"POST /monitor-app/parameter/read":    {{body: map[string]any{"carId": f.northCar}}},
		"POST /monitor-app/parameter/set":     {{body: map[string]any{"carId": f.northCar, "params": []map[string]any{{"id": 1, "value": 30}}}}},
		"GET /monitor-app/parameter/command":  {{query: fmt.Sprintf("?id=%d", f.northCalib)}},
		"POST /monitor-app/parameter/history": {{body: map[string]any{"carId": f.northCar}}},
		"POST /monitor-app/parameter/export":  {{body: map[string]any{"carId": f.northCar}}},
		// waybill base data (issue 15)
		"POST /base-info-app/transProduct/page": {{body: map[string]any{"groupId": f.north}}},
		"POST /base-info-app/transProduct/add":  {{body: map[string]any{"name": "x", "code": "X9", "product": 0, "groupId": f.north}}},
		"POST /base-info-app/transProduct/update": {
			{body: map[string]any{"id": f.northProduct, "name": "x", "code": "X9", "product": 0}},
		},
		"POST /base-info-app/transProduct/delete": {{body: map[string]any{"id": f.northProduct}}},
		"POST /base-info-app/customer/page":       {{body: map[string]any{"groupId": f.north}}, {body: map[string]any{"stationId": f.northJYZ}}},
		"POST /base-info-app/customer/add": {
			{body: map[string]any{"name": "x", "groupId": f.north}},
			{body: map[string]any{"name": "x", "stationIds": []int64{f.northJYZ}}},
		},
		"POST /base-info-app/customer/update": {
			{body: map[string]any{"id": f.northCustomer, "name": "x"}},
		},
		"POST /base-info-app/customer/delete":    {{body: map[string]any{"id": f.northCustomer}}},
		"POST /base-info-app/customerCar/page":   {{body: map[string]any{"customerId": f.northCustomer}}},
		"POST /base-info-app/customerCar/add":    {{body: map[string]any{"customerId": f.northCustomer, "plate": "冀A·12345"}}},
		"POST /base-info-app/customerCar/update": {{body: map[string]any{"id": f.northCustCar, "customerId": f.northCustomer, "plate": "冀A·12345"}}},
		"POST /base-info-app/customerCar/delete": {{body: map[string]any{"id": f.northCustCar}}},
		"POST /authority-app/groupInfo/addSalesCompany": {
			{body: map[string]any{"parentId": f.north, "name": "x"}},
			{body: map[string]any{"id": f.north, "sales": true}},
		},
		"POST /base-info-app/baseSalesTrans/bindSalesAndTrans": {{body: map[string]any{"salesGroupId": f.north, "transGroupIds": []int64{}}}},
		"GET /base-info-app/baseCode/getNextCodeByCode":        {{query: "?helpRecordCode=" + f.northCode + "&kind=YD"}},
	}
}

// insertCalib stores a finished remote calibration read of car (as the service would) and returns its id.
func insertCalib(t *testing.T, e *apptest.Env, carID, groupID, termID int64) int64 {
	t.Helper()
	var path string
	if err := e.DB.NewRaw("SELECT path FROM org_groups WHERE id = ?", groupID).Scan(t.Context(), &path); err != nil {
		t.Fatal(err)
	}
	var id int64
	if err := e.DB.NewRaw(`INSERT INTO calib_commands (car_id, terminal_id, plate, group_id, group_path, user_id, user_name, kind, items, state, created_at)
		VALUES (?, ?, 'x', ?, ?, 1, 'admin', 'read', '[]', 'acknowledged', 1) RETURNING id`, carID, termID, groupID, path).Scan(t.Context(), &id); err != nil {
		t.Fatal(err)
	}
	return id
}

// insertAlarm stores an unprocessed speeding alarm of car (as the engine would) and returns its id.
func insertAlarm(t *testing.T, e *apptest.Env, carID int64) int64 {
	t.Helper()
	var car struct {
		GroupID int64  `bun:"group_id"`
		Path    string `bun:"path"`
		Plate   string `bun:"plate"`
	}
	if err := e.DB.NewSelect().TableExpr("cars AS c").ColumnExpr("c.group_id, g.path, c.plate").
		Join("JOIN org_groups AS g ON g.id = c.group_id").Where("c.id = ?", carID).Scan(t.Context(), &car); err != nil {
		t.Fatal(err)
	}
	var id int64
	if err := e.DB.NewRaw("INSERT INTO alarms (car_id, group_id, group_path, plate, type_code, level, start_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
		carID, car.GroupID, car.Path, car.Plate, "speeding", 3, e.Clock.Now().UnixMilli()).Scan(t.Context(), &id); err != nil {
		t.Fatal(err)
	}
	return id
}

var stateTables = append([]string{"org_groups", "users", "roles", "role_codes", "user_roles", "tokens", "operation_logs",
	"cars", "sims", "terminals", "terminal_bindings", "car_video_channels", "sensors", "commands", "help_records",
	"messages", "message_recipients", "stations", "suspected_stations", "suspected_station_cars",
	"alarms", "alarm_types", "alarm_controls", "parking_periods", "car_passwords", "password_views",
	"compartments", "ground_tanks",
	"products", "customers", "customer_stations", "customer_cars", "sales_trans", "code_sequences",
	"locks", "lock_binds", "car_blacklist"}, partTables...)

// partTables are issue 18's parts' tables (each part's authz_<part>_test.go).
var partTables = slices.Concat(staffTables, equipmentTables, firmwareTables, settingsTables, noticesTables, faultsTables)

// TestAuthorizationMatrix calls every registered endpoint without a token, with an expired and a revoked
// token, as a user lacking its code, and (for endpoints taking ids) with another group's records.
func TestAuthorizationMatrix(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		f := setup(t, e)
		// an expired token and a logged-out token of the all-codes east administrator
		expired := e.Login("eastadmin", "secret1")
		if _, err := e.DB.NewUpdate().TableExpr("tokens").Set("expires_at = ?", e.Clock.Now().UnixMilli()-1).
			Where("hash = ?", auth.HashToken(expired)).Exec(t.Context()); err != nil {
			t.Fatal(err)
		}
		revoked := e.Login("eastadmin", "secret1")
		e.MustOK("GET", "/authority-app/logOut", revoked, nil)

		calls := foreignCalls(f)
		maps.Copy(calls, loadsCalls(f.loads))
		maps.Copy(calls, waybillForeignCalls(f))
		// issue 16's parts
		maps.Copy(calls, locksCalls(setupLocks(t, e, f)))
		maps.Copy(calls, lockEventsForeignCalls(f))
		maps.Copy(calls, sealsCalls(f))
		maps.Copy(calls, lockStatsCalls(f))
		maps.Copy(calls, tripStatsForeignCalls(f))
		maps.Copy(calls, overviewForeignCalls(f))
		maps.Copy(calls, analysisForeignCalls(f))
		// issue 18's parts
		maps.Copy(calls, staffCalls(f))
		maps.Copy(calls, equipmentCalls(f))
		maps.Copy(calls, firmwareCalls(f))
		maps.Copy(calls, settingsCalls(f))
		maps.Copy(calls, noticesCalls(f))
		maps.Copy(calls, faultsCalls(f))
		maps.Copy(calls, videoCalls(f)) // issue 17
		covered := map[string]bool{}
		// The refused calls (no code, another group's records) must change nothing: dbtest.Unchanged makes them
		// in one pass between two snapshots of the store, and call by call only when it changed.
		type refusal struct {
			what, method, path, tok, message string
			body                             any
		}
		var refused []refusal
		for _, rt := range e.App.Routes() {
			pattern := rt.Pattern()
			path := strings.ReplaceAll(rt.Path, "{id}", "1")
			path = strings.ReplaceAll(path, "{theme}", "tankcar")
			if rt.Access.Kind == httpx.Public || rt.Access.Kind == httpx.Optional {
				if r := e.Call(rt.Method, path, "", "{}"); r.Status == 401 {
					t.Errorf("%s: public route answered 401", pattern)
				}
				continue
			}
			for name, tok := range map[string]string{"none": "", "garbage": "not-a-token", "expired": expired, "revoked": revoked} {
				r := e.Call(rt.Method, path, tok, "{}")
				if r.Status != 401 || r.Error != "invalid_token" {
					t.Errorf("%s with %s token: %d %s, want 401 invalid_token", pattern, name, r.Status, r.Body)
				}
			}
			if rt.Access.Kind == httpx.Code {
				refused = append(refused, refusal{pattern + " without its code", rt.Method, path, f.nobodyTok, "没有权限执行此操作", "{}"})
			}
			if rt.Scoped {
				cs, ok := calls[pattern]
				if !ok {
					t.Errorf("%s is scoped but the matrix has no out-of-scope request for it", pattern)
				}
				covered[pattern] = true
				for i, c := range cs {
					refused = append(refused, refusal{fmt.Sprintf("%s foreign request %d", pattern, i), rt.Method, path + c.query, f.eastTok, "该记录不在您的数据范围内", c.body})
				}
			}
		}
		call := func(c refusal) {
			r := e.Call(c.method, c.path, c.tok, c.body)
			if r.Status != 403 || r.Code != 0 || r.Message != c.message {
				t.Errorf("%s: %d %s, want 403 %s", c.what, r.Status, r.Body, c.message)
			}
		}
		steps := make([]dbtest.Step, len(refused))
		for i, c := range refused {
			steps[i] = dbtest.Step{What: c.what, Run: func() { call(c) }}
		}
		dbtest.Unchanged(t, e.DB, stateTables, steps...)
		for pattern := range calls {
			if !covered[pattern] {
				t.Errorf("matrix entry %s is not a scoped route", pattern)
			}
		}
		// the same caller can act inside its scope (the 403s above are about scope, not a broken caller)
		e.MustOK("GET", fmt.Sprintf("/authority-app/userInfo/detail?id=%d", f.customer), f.eastTok, nil)
		e.MustOK("GET", fmt.Sprintf("/authority-app/groupInfo/findParents?id=%d", f.shanghai), f.eastTok, nil)
		e.MustOK("POST", "/authority-app/groupInfo/addChildren", f.eastTok, map[string]any{"parentId": f.shanghai, "name": "浦东班组"})
		e.MustOK("GET", "/authority-app/resourceInfo/findTreesForLogin?userId="+url.QueryEscape(fmt.Sprint(f.eastAdmin)), f.eastTok, nil)
		e.MustOK("GET", fmt.Sprintf("/base-info-app/carInfo/detail?id=%d", f.eastCar), f.eastTok, nil)
		e.MustOK("GET", fmt.Sprintf("/base-info-app/terminal/bindings?id=%d", f.eastTerm), f.eastTok, nil)
		e.MustOK("POST", "/base-info-app/carPassword/set", f.eastTok, map[string]any{"carId": f.eastCar, "password": "654321"})
		e.MustOK("POST", "/base-info-app/carPassword/view", f.eastTok, map[string]any{"carId": f.eastCar})
	})
}

var _ = app.Version

// TestTenantMatrix: a subsidiary's administrator — holding every code, policeType-edit included — is
// refused every platform-wide setting (the platform group's title, logo and theme, alarm types and
// levels, the platform group's control mode, sensor identifications clashing with another group's)
// with nothing changed, and may do the same to their own group; the platform administrator may change
// them; the platform's dispatcher (no policeType-edit) may not change alarm types (D29).
func TestTenantMatrix(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		f := setup(t, e)
		if err := e.App.Alarms.Service.Load(t.Context()); err != nil { // the engine is not started here
			t.Fatal(err)
		}
		admin := e.Login("admin", "admin123")
		dispatcher := e.Login("dispatcher", "dispatch123")
		root := e.Groups(admin)[org.DemoTopGroup]
		logo := "data:image/png;base64," + base64.StdEncoding.EncodeToString([]byte("\x89PNG\r\n\x1a\nlogo"))
		speeding := func(level int, enabled bool) map[string]any {
			return map[string]any{"code": "speeding", "level": level, "group": "driving", "enabled": enabled, "push": true}
		}
		control := func(groupID int64) map[string]any {
			return map[string]any{"groupId": groupID, "watched": []string{"speeding"}, "speedLimit": 60, "parkingMinutes": 60,
				"offlineMinutes": 30, "levelDropLitres": 50}
		}
		type attempt struct {
			name, path string
			body       map[string]any
			status     int
			msg        [3]string // zh-CN, zh-TW, en-US
		}
		platformOnly := [3]string{"这是全平台的设置，只有平台管理员可以修改", "這是全平台的設定，只有平台管理員可以修改",
			"This is a platform-wide setting; only a platform administrator can change it"}
		forbidden := [3]string{"没有权限执行此操作", "沒有權限執行此操作", "You do not have permission for this action"}
		scope := [3]string{"该记录不在您的数据范围内", "該記錄不在您的資料範圍內", "This record is outside your data scope"}
		taken := func(id string) [3]string {
			return [3]string{
				"外设识别ID " + id + " 与其他组织已登记的传感器冲突（识别ID相同但解码方式或报文长度不同，或一个是另一个的前缀），终端上报的数据将无法正确解码，请核对识别ID",
				"外設識別ID " + id + " 與其他組織已登記的感測器衝突（識別ID相同但解碼方式或報文長度不同，或一個是另一個的前綴），終端上報的資料將無法正確解碼，請核對識別ID",
				"Peripheral identification ID " + id + " clashes with a sensor registered by another group (the same ID with another decoder or message length, or one ID is a prefix of the other), so terminal reports could not be decoded correctly; check the ID"}
		}
		eastSensor := newID(e, f.eastTok, "/base-info-app/sensor/add", map[string]any{"name": "华东锁", "identification": "D1", "decoder": "lock"})
		refusals := []attempt{
			{"title of the platform group", "/authority-app/groupInfo/editImgAndTittle", map[string]any{"id": root, "title": "华东说了算"}, 403, platformOnly},
			{"logo of the platform group", "/authority-app/groupInfo/editImgAndTittle", map[string]any{"id": root, "logo": logo}, 403, platformOnly},
			{"theme of the platform group", "/authority-app/groupInfo/editImgAndTittle", map[string]any{"id": root, "theme": "escort"}, 403, platformOnly},
			{"an alarm type switched off", "/alarm-app/alarmType/update", speeding(3, false), 403, platformOnly},
			{"an alarm level", "/alarm-app/alarmType/update", speeding(1, true), 403, platformOnly},
			{"the platform group's control mode", "/alarm-app/controlMode/save", control(root), 403, scope},
			{"a sensor ID of 华北 with another decoder", "/base-info-app/sensor/add", map[string]any{"name": "x", "identification": "C1", "decoder": "lock"}, 200, taken("C1")},
			{"a sensor ID of 华北 with another length", "/base-info-app/sensor/add", map[string]any{"name": "x", "identification": "C1", "decoder": "level", "length": 10}, 200, taken("C1")},
			{"a sensor ID extending 华北's", "/base-info-app/sensor/add", map[string]any{"name": "x", "identification": "C1FF", "decoder": "lock"}, 200, taken("C1FF")},
			{"a sensor ID that 华北's extends", "/base-info-app/sensor/add", map[string]any{"name": "x", "identification": "C1", "decoder": "lock", "groupId": f.shanghai}, 200, taken("C1")},
			{"an own sensor renamed onto 华北's ID", "/base-info-app/sensor/update", map[string]any{"id": eastSensor, "name": "华东锁", "identification": "C1", "decoder": "lock"}, 200, taken("C1")},
		}
		refuse := func(a attempt) {
			for i, lang := range []string{"zh-CN", "zh-TW", "en-US"} {
				e.Lang = lang
				r := e.Call("POST", a.path, f.eastTok, a.body)
				if r.Status != a.status || r.Code != 0 || r.Message != a.msg[i] {
					t.Errorf("subsidiary administrator, %s (%s): %d %s, want %d %q", a.name, lang, r.Status, r.Body, a.status, a.msg[i])
				}
			}
			e.Lang = ""
		}
		steps := make([]dbtest.Step, len(refusals))
		for i, a := range refusals {
			steps[i] = dbtest.Step{What: "subsidiary administrator, " + a.name, Run: func() { refuse(a) }}
		}
		dbtest.Unchanged(t, e.DB, stateTables, steps...)
		// 华北's level probe C1 still decodes: nothing of another group was overwritten or dropped
		if x, err := e.App.Sensors.PassThrough(tank.PassSerial1, []byte{0xC1, 0x01, 0x05, 0xF0, 0, 0, 0x48, 0xDA, 0x00, 0xEB}); err != nil || x.Levels == nil {
			t.Errorf("华北's sensor no longer decodes: %+v %v", x, err)
		}

		// the platform's dispatcher lacks policeType-edit
		dbtest.Unchanged(t, e.DB, stateTables, dbtest.Step{What: "the dispatcher's alarm type change", Run: func() {
			if r := e.Call("POST", "/alarm-app/alarmType/update", dispatcher, speeding(1, true)); r.Status != 403 || r.Message != forbidden[0] {
				t.Errorf("dispatcher changed an alarm type: %d %s", r.Status, r.Body)
			}
		}}, dbtest.Step{What: "the dispatcher's title change", Run: func() {
			if r := e.Call("POST", "/authority-app/groupInfo/editImgAndTittle", dispatcher, map[string]any{"id": root, "title": "x"}); r.Status != 403 || r.Message != forbidden[0] {
				t.Errorf("dispatcher changed the platform title: %d %s", r.Status, r.Body)
			}
		}})

		// the subsidiary administrator does the same to their own group
		e.MustOK("POST", "/authority-app/groupInfo/editImgAndTittle", f.eastTok, map[string]any{"id": f.east, "title": "华东平台", "logo": logo, "theme": "escort"})
		e.MustOK("POST", "/alarm-app/controlMode/save", f.eastTok, control(f.east))
		e.MustOK("POST", "/base-info-app/sensor/add", f.eastTok, map[string]any{"name": "同型液位", "identification": "C1", "decoder": "level"})
		e.MustOK("POST", "/base-info-app/sensor/update", f.eastTok, map[string]any{"id": eastSensor, "name": "华东锁", "identification": "D2", "decoder": "lock"})
		// an insert naming another group's row by id creates a row of its own (db.Save never writes by a
		// caller's id on insert): 华北's sensor stays as it was
		mine := newID(e, f.eastTok, "/base-info-app/sensor/add", map[string]any{"id": f.northSensor, "name": "华东液位", "identification": "D3", "decoder": "level"})
		if mine == f.northSensor {
			t.Error("sensor/add with another group's id wrote that row")
		}
		var north struct {
			GroupID int64  `bun:"group_id"`
			Name    string `bun:"name"`
		}
		if err := e.DB.NewSelect().Table("sensors").Column("group_id", "name").Where("id = ?", f.northSensor).Scan(t.Context(), &north); err != nil ||
			north.GroupID != f.north || north.Name != "液位探杆" {
			t.Errorf("华北's sensor after an add naming its id: %+v %v", north, err)
		}
		if x, err := e.App.Sensors.PassThrough(tank.PassSerial1, []byte{0xC1, 0x01, 0x05, 0xF0, 0, 0, 0x48, 0xDA, 0x00, 0xEB}); err != nil || x.Levels == nil {
			t.Errorf("C1 registered by two groups alike: %+v %v", x, err)
		}

		// the platform administrator changes the platform-wide settings
		e.MustOK("POST", "/authority-app/groupInfo/editImgAndTittle", admin, map[string]any{"id": root, "title": "平台标题", "logo": logo, "theme": "escort"})
		e.MustOK("POST", "/alarm-app/alarmType/update", admin, speeding(1, true))
		e.MustOK("POST", "/alarm-app/controlMode/save", admin, control(root))
		var types []struct {
			Code  string `json:"code"`
			Level int    `json:"level"`
		}
		e.MustOK("POST", "/alarm-app/alarmType/list", admin, map[string]any{}).Decode(&types)
		for _, ty := range types {
			if ty.Code == "speeding" && ty.Level != 1 {
				t.Errorf("speeding level %d after the platform administrator's change", ty.Level)
			}
		}
	})
}
