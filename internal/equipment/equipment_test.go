package equipment_test

import (
	"strconv"
	"strings"
	"testing"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/equipment"
	"tankwatch/internal/org"
	"tankwatch/internal/platform/httpx"
)

const (
	page       = "/base-info-app/equipment/page"
	save       = "/base-info-app/equipment/save"
	del        = "/base-info-app/equipment/delete"
	export     = "/base-info-app/equipment/export"
	functions  = "/base-info-app/equipment/carFunctions?carId="
	modelPage  = "/authority-app/equipmentFun/page"
	modelSave  = "/authority-app/equipmentFun/save"
	modelDel   = "/authority-app/equipmentFun/delete"
	modelList  = "/authority-app/equipmentFun/list"
	outOfScope = "该记录不在您的数据范围内"
)

type env struct {
	*apptest.Env
	admin, east string
	groups      map[string]int64
}

// setup signs in the platform administrator and makes an administrator of 华东 holding every code.
func setup(t *testing.T, e *apptest.Env) env {
	admin := e.Login("admin", "admin123")
	groups := e.Groups(admin)
	role := e.MustOK("POST", "/authority-app/roleInfo/insert", admin, map[string]any{"name": "华东管理员", "groupId": groups["华东分公司"],
		"resourceCodes": org.AllCodes()}).ID()
	e.MustOK("POST", "/authority-app/userInfo/insert", admin, map[string]any{"name": "eastadmin", "password": "secret1",
		"groupId": groups["华东分公司"], "roleIds": []int64{role}})
	return env{Env: e, admin: admin, east: e.Login("eastadmin", "secret1"), groups: groups}
}

func (v env) list(tok string, q map[string]any) httpx.Page[equipment.View] {
	v.T.Helper()
	if q["pageSize"] == nil {
		q["pageSize"] = 500
	}
	var out httpx.Page[equipment.View]
	v.MustOK("POST", page, tok, q).Decode(&out)
	return out
}

func (v env) model(name string) equipment.Model {
	v.T.Helper()
	var ms httpx.Page[equipment.Model]
	v.MustOK("POST", modelPage, v.admin, map[string]any{"name": name}).Decode(&ms)
	for _, m := range ms.List {
		if m.Name == name {
			return m
		}
	}
	v.T.Fatalf("no model %s", name)
	return equipment.Model{}
}

// TestDemoListMirrorsTheRegisters: the demo's terminals, locks and station gauges are in the list
// with their registers' places, the models link, and the filters and the export agree with the rows.
func TestDemoListMirrorsTheRegisters(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		v := setup(t, e)
		var terms httpx.Page[struct {
			Phone string `json:"phone"`
		}]
		e.MustOK("POST", "/base-info-app/terminal/page", v.admin, map[string]any{"pageSize": 500}).Decode(&terms)
		all := v.list(v.admin, map[string]any{"kind": "terminal"})
		if all.Total != terms.Total || terms.Total == 0 {
			t.Fatalf("terminals: %d in the list, %d registered", all.Total, terms.Total)
		}
		byModel := map[string]int{}
		for _, d := range all.List {
			if !d.Mirror || d.CarID == nil || d.Plate == "" || d.ID == 0 {
				t.Errorf("demo terminal row %+v", d)
			}
			byModel[d.ModelName]++
		}
		if byModel["TW-808T"] == 0 || byModel["TW-808L"] != 2 {
			t.Errorf("terminal models %v", byModel)
		}
		locks := v.list(v.admin, map[string]any{"kind": "lock", "pageSize": 5, "sortField": "serial"})
		if locks.Total == 0 || locks.List[0].ModelName == "" || !locks.List[0].Mirror {
			t.Errorf("locks %+v", locks)
		}
		gauges := v.list(v.admin, map[string]any{"kind": "gauge"})
		if gauges.Total == 0 || gauges.List[0].StationName == "" || gauges.List[0].ModelName != "TLS-450" {
			t.Errorf("gauges %+v", gauges)
		}
		cams := v.list(v.admin, map[string]any{"kind": "camera"})
		if cams.Total == 0 || cams.List[0].Mirror || cams.List[0].Plate == "" {
			t.Errorf("cameras %+v", cams)
		}
		today := equipment.Today(e.Clock.Now())
		counts := 0
		for w := range 4 {
			got := v.list(v.admin, map[string]any{"warranty": w})
			counts += got.Total
			for _, d := range got.List {
				if int(d.Warranty) != w {
					t.Errorf("warranty filter %d: row %s %s is %d (today %s)", w, d.Serial, d.WarrantyEnd, d.Warranty, today)
				}
			}
			if w >= 2 && got.Total == 0 {
				t.Errorf("no demo device with warranty state %d", w)
			}
		}
		whole := v.list(v.admin, map[string]any{"pageSize": 1})
		if counts != whole.Total {
			t.Errorf("warranty states add up to %d of %d", counts, whole.Total)
		}
		sorted := v.list(v.admin, map[string]any{"sortField": "warrantyEnd", "sortOrder": "descend", "pageSize": 50})
		for i := 1; i < len(sorted.List); i++ {
			if sorted.List[i-1].WarrantyEnd < sorted.List[i].WarrantyEnd {
				t.Fatalf("not sorted by warranty: %s before %s", sorted.List[i-1].WarrantyEnd, sorted.List[i].WarrantyEnd)
			}
		}
		part := all.List[0].Serial[len(all.List[0].Serial)-4:]
		for _, d := range v.list(v.admin, map[string]any{"serial": part}).List {
			if !strings.Contains(strings.ToUpper(d.Serial), part) {
				t.Errorf("serial filter %s: %s", part, d.Serial)
			}
		}
		if r := e.Call("POST", page, v.admin, map[string]any{"sortField": "nope"}); r.Code != 0 {
			t.Errorf("unknown sort: %s", r.Body)
		}
		if r := e.Call("POST", page, v.admin, map[string]any{"warranty": 7}); r.Code != 0 {
			t.Errorf("unknown warranty state: %s", r.Body)
		}
		r := e.Call("POST", export, v.admin, map[string]any{"kind": "terminal"})
		if r.Status != 200 || !strings.Contains(r.Header.Get("Content-Type"), "spreadsheet") || len(r.Body) < 1000 {
			t.Errorf("export: %d %s %d bytes", r.Status, r.Header.Get("Content-Type"), len(r.Body))
		}
	})
}

// TestMirroredRowKeepsItsRegister: a lock's extra fields are added and removed here, the lock stays
// in the lock registry; a terminal that is not registered cannot be entered here.
func TestMirroredRowKeepsItsRegister(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		v := setup(t, e)
		var bare *equipment.View
		for _, d := range v.list(v.admin, map[string]any{"kind": "lock"}).List {
			if d.ID == 0 {
				bare = &d
				break
			}
		}
		if bare == nil {
			t.Fatal("every demo lock has extra fields")
		}
		lockModel := v.model("TW-BL120")
		var got equipment.View
		// the serial in another case, a place that is ignored: the register decides
		v.MustOK("POST", save, v.admin, map[string]any{"kind": "lock", "serial": strings.ToLower(bare.Serial), "installDate": "2025-06-01",
			"warrantyEnd": "2027-06-01", "state": 2, "notes": "更换电池", "modelId": lockModel.ID, "carId": 999999}).Decode(&got)
		if got.ID == 0 || got.Serial != bare.Serial || got.InstallDate != "2025-06-01" || got.State != equipment.StateInRepair ||
			got.ModelName != "TW-BL120" || !sameCar(got.CarID, bare.CarID) {
			t.Fatalf("saved %+v from %+v", got, bare)
		}
		if r := e.Call("POST", save, v.admin, map[string]any{"kind": "lock", "serial": bare.Serial, "modelId": v.model("TW-808T").ID}); r.Message != "型号 TW-808T 不是该类设备的型号" {
			t.Errorf("a terminal model on a lock: %s", r.Body)
		}
		var d equipment.Deleted
		v.MustOK("POST", del, v.admin, map[string]any{"kind": "lock", "serial": bare.Serial}).Decode(&d)
		if !d.Mirror {
			t.Error("deleting a lock's fields does not say it was a mirror")
		}
		if r := e.Call("POST", del, v.admin, map[string]any{"kind": "lock", "serial": bare.Serial}); r.Code != 0 {
			t.Errorf("deleting fields that are gone: %s", r.Body)
		}
		again := v.list(v.admin, map[string]any{"kind": "lock", "serial": bare.Serial})
		if again.Total != 1 || again.List[0].ID != 0 || again.List[0].InstallDate != "" {
			t.Errorf("after delete: %+v", again.List)
		}
		var locks httpx.Page[struct {
			Serial string `json:"serial"`
		}]
		e.MustOK("POST", "/base-info-app/blueLock/page", v.admin, map[string]any{"serial": bare.Serial}).Decode(&locks)
		if locks.Total != 1 {
			t.Errorf("the lock left its register: %+v", locks)
		}
		if r := e.Call("POST", save, v.admin, map[string]any{"kind": "terminal", "serial": "013900000000"}); r.Code != 0 ||
			r.Message != "终端 013900000000 未登记：终端请在“终端管理”中添加" {
			t.Errorf("unregistered terminal: %s", r.Body)
		}
	})
}

func sameCar(a, b *int64) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }

// TestOwnDeviceCycle: a camera is added on a car, checked, changed, moved to a station and deleted.
func TestOwnDeviceCycle(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		v := setup(t, e)
		term := v.list(v.admin, map[string]any{"kind": "terminal", "pageSize": 1}).List[0]
		cam := v.model("HK-C6")
		in := map[string]any{"kind": "camera", "serial": "cam-test-01", "modelId": cam.ID, "carId": *term.CarID, "installDate": "2026-01-10",
			"warrantyEnd": "2026-03-20", "notes": "罐顶"}
		var got equipment.View
		v.MustOK("POST", save, v.admin, in).Decode(&got)
		if got.ID == 0 || got.Serial != "CAM-TEST-01" || got.Mirror || got.Plate != term.Plate || got.Warranty != equipment.WarrantyExpiring ||
			got.State != equipment.StateInService || got.VideoChannels != 1 {
			t.Fatalf("added %+v", got)
		}
		e.Lang = "en-US"
		if r := e.Call("POST", save, v.admin, in); r.Message != "A device of this kind with serial CAM-TEST-01 is already registered" {
			t.Errorf("duplicate: %s", r.Body)
		}
		e.Lang = ""
		if r := e.Call("POST", save, v.admin, map[string]any{"kind": "probe", "serial": "cam-test-01"}); r.Code != 1 {
			t.Errorf("the same serial of another kind: %s", r.Body)
		}
		for _, bad := range []map[string]any{
			{"kind": "camera", "serial": "X2", "warrantyEnd": "2026-02-30"},
			{"kind": "camera", "serial": "X2", "installDate": "2026-02-01", "warrantyEnd": "2026-01-01"},
			{"kind": "camera", "serial": "X2", "modelId": 99999},
			{"kind": "camera", "serial": "X2", "carId": 99999},
			{"kind": "4", "serial": "X2"},
			{"kind": 4, "serial": "X2"}, // the former number: not a code
			{"kind": "dashcam", "serial": "X2"},
			{"kind": "camera", "serial": strings.Repeat("A", 65)},
		} {
			if r := e.Call("POST", save, v.admin, bad); r.Code != 0 || r.Message == "" {
				t.Errorf("accepted %v: %s", bad, r.Body)
			}
		}
		in["id"], in["state"], in["carId"], in["stationId"] = got.ID, 2, 0, v.station(t, v.admin)
		var upd equipment.View
		v.MustOK("POST", save, v.admin, in).Decode(&upd)
		if upd.ID != got.ID || upd.State != equipment.StateInRepair || upd.CarID != nil || upd.StationName == "" {
			t.Errorf("updated %+v", upd)
		}
		var d equipment.Deleted
		v.MustOK("POST", del, v.admin, map[string]any{"id": got.ID}).Decode(&d)
		if d.Mirror || v.list(v.admin, map[string]any{"serial": "CAM-TEST-01", "kind": "camera"}).Total != 0 {
			t.Errorf("delete: %+v", d)
		}
		if r := e.Call("POST", del, v.admin, map[string]any{"id": got.ID}); r.Code != 0 {
			t.Errorf("delete twice: %s", r.Body)
		}
	})
}

func (v env) station(t *testing.T, tok string) int64 {
	var sts httpx.Page[struct {
		ID int64 `json:"id"`
	}]
	v.MustOK("POST", "/base-info-app/station/page", tok, map[string]any{"groupId": v.groups["华东分公司"]}).Decode(&sts)
	if len(sts.List) == 0 {
		t.Fatal("no station in 华东")
	}
	return sts.List[0].ID
}

// TestScope: 华东's administrator sees 华东's devices only, and cannot change, delete or read the
// functions of 华北's.
func TestScope(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		v := setup(t, e)
		north := v.list(v.admin, map[string]any{"groupId": v.groups["华北分公司"], "kind": "terminal", "pageSize": 1}).List[0]
		mine := v.list(v.east, map[string]any{})
		if mine.Total == 0 || mine.Total >= v.list(v.admin, map[string]any{}).Total {
			t.Errorf("华东 sees %d", mine.Total)
		}
		for _, d := range mine.List {
			if d.Key == north.Key {
				t.Errorf("华东 sees 华北's %s", d.Serial)
			}
		}
		for _, c := range []struct {
			path string
			body any
		}{
			{page, map[string]any{"groupId": v.groups["华北分公司"]}},
			{page, map[string]any{"carId": *north.CarID}},
			{save, map[string]any{"kind": "terminal", "serial": north.Serial, "notes": "x"}},
			{save, map[string]any{"kind": "camera", "serial": "CAM-N1", "carId": *north.CarID}},
			{del, map[string]any{"id": north.ID}},
			{export, map[string]any{"groupId": v.groups["华北分公司"]}},
		} {
			if r := e.Call("POST", c.path, v.east, c.body); r.Status != 403 || r.Message != outOfScope {
				t.Errorf("%s %v: %d %s", c.path, c.body, r.Status, r.Body)
			}
		}
		if r := e.Call("GET", functions+itoa(*north.CarID), v.east, nil); r.Status != 403 {
			t.Errorf("functions of 华北's car: %d %s", r.Status, r.Body)
		}
		if v.list(v.admin, map[string]any{"kind": "terminal", "serial": north.Serial}).List[0].Notes != north.Notes {
			t.Error("a refused save changed 华北's terminal")
		}
	})
}

// TestModelsArePlatformWide: 华东's administrator holding the codes reads the models but may not
// change them; the platform's may, and a model in use is neither deleted nor given another kind.
func TestModelsArePlatformWide(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		v := setup(t, e)
		var ms equipment.ModelList
		v.MustOK("POST", modelPage, v.east, map[string]any{"video": true}).Decode(&ms)
		var mine equipment.ModelList
		v.MustOK("POST", modelPage, v.admin, map[string]any{"pageSize": 1}).Decode(&mine)
		if ms.Editable || !mine.Editable {
			t.Errorf("editable: 华东 %v, platform %v", ms.Editable, mine.Editable)
		}
		if ms.Total == 0 {
			t.Fatal("no models with video")
		}
		for _, m := range ms.List {
			if m.VideoChannels == 0 {
				t.Errorf("video filter: %+v", m)
			}
		}
		body := map[string]any{"name": "TW-900", "kind": "terminal", "videoChannels": 8, "channelNames": []string{"前", "后"}, "probes": 6, "lockBle": true, "can": true}
		for _, c := range []struct{ path string }{{modelSave}, {modelDel}} {
			if r := e.Call("POST", c.path, v.east, body); r.Status != 403 {
				t.Errorf("%s by a subsidiary: %d %s", c.path, r.Status, r.Body)
			}
		}
		var m equipment.Model
		v.MustOK("POST", modelSave, v.admin, body).Decode(&m)
		if m.ID == 0 || len(m.ChannelNames) != 2 || m.VideoChannels != 8 || !m.LockBLE || !m.CAN || m.Probes != 6 {
			t.Fatalf("saved %+v", m)
		}
		if r := e.Call("POST", modelSave, v.admin, map[string]any{"name": "tw-900", "kind": "terminal"}); r.Message != "型号 tw-900 已存在" {
			t.Errorf("duplicate name: %s", r.Body)
		}
		if r := e.Call("POST", modelSave, v.admin, map[string]any{"name": "TW-901", "kind": "terminal", "videoChannels": 1, "channelNames": []string{"a", "b"}}); r.Code != 0 {
			t.Errorf("more names than channels: %s", r.Body)
		}
		var opts []equipment.ModelOption
		v.MustOK("GET", modelList+"?kind=terminal", v.east, nil).Decode(&opts)
		if len(opts) < 3 {
			t.Errorf("terminal models for the form: %+v", opts)
		}
		used := v.model("TW-808T")
		if r := e.Call("POST", modelDel, v.admin, map[string]any{"id": used.ID}); r.Code != 0 || !strings.Contains(r.Message, "不能删除") {
			t.Errorf("deleting a model in use: %s", r.Body)
		}
		used.Kind = equipment.KindCamera
		if r := e.Call("POST", modelSave, v.admin, used); r.Code != 0 {
			t.Errorf("changing the kind of a model in use: %s", r.Body)
		}
		v.MustOK("POST", modelDel, v.admin, map[string]any{"id": m.ID})
		if r := e.Call("POST", modelDel, v.admin, map[string]any{"id": m.ID}); r.Code != 0 {
			t.Errorf("deleting twice: %s", r.Body)
		}
	})
}

// TestCarFunctions: a car on the video terminal model offers its channels, one on the economy model
// hides video; a car none of whose devices has a model shows everything.
func TestCarFunctions(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		v := setup(t, e)
		fn := func(car int64) equipment.Functions {
			var f equipment.Functions
			v.MustOK("GET", functions+itoa(car), v.admin, nil).Decode(&f)
			return f
		}
		var video, plain *equipment.View
		for _, d := range v.list(v.admin, map[string]any{"kind": "terminal"}).List {
			switch d.ModelName {
			case "TW-808T":
				video = &d
			case "TW-808L":
				plain = &d
			}
		}
		if video == nil || plain == nil {
			t.Fatal("demo terminal models missing")
		}
		if f := fn(*video.CarID); !f.Known || !f.ShowVideo || f.VideoChannels != 4 || f.ChannelNames[0] != "前方道路" || !f.ShowLocks {
			t.Errorf("video car: %+v", f)
		}
		if f := fn(*plain.CarID); !f.Known || f.ShowVideo || f.VideoChannels != 0 {
			t.Errorf("economy car: %+v", f)
		}
		// the economy terminal retired: its model no longer counts; its car's locks' models still do
		v.MustOK("POST", save, v.admin, map[string]any{"kind": "terminal", "serial": plain.Serial, "modelId": v.model("TW-808L").ID, "state": 3})
		if f := fn(*plain.CarID); f.ShowVideo != !f.Known {
			t.Errorf("after retiring the terminal: %+v", f)
		}
		car := e.MustOK("POST", "/base-info-app/carInfo/insert", v.admin, map[string]any{"groupId": v.groups["华东分公司"], "plate": "沪A9E123",
			"compartments": 2}).ID()
		if f := fn(car); f.Known || !f.ShowVideo || !f.ShowLocks {
			t.Errorf("a car without devices: %+v", f)
		}
		if r := e.Call("GET", functions+"0", v.admin, nil); r.Code != 0 {
			t.Errorf("no car: %s", r.Body)
		}
	})
}

func itoa(v int64) string { return strconv.FormatInt(v, 10) }

// TestPlaces: the form's places are the caller's cars and stations.
func TestPlaces(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		v := setup(t, e)
		var all, east equipment.Places
		v.MustOK("POST", "/base-info-app/equipment/places", v.admin, map[string]any{}).Decode(&all)
		v.MustOK("POST", "/base-info-app/equipment/places", v.east, map[string]any{}).Decode(&east)
		if len(all.Cars) == 0 || len(all.Stations) == 0 || len(east.Cars) == 0 {
			t.Fatalf("places %+v / %+v", all, east)
		}
		for _, c := range append(east.Cars, east.Stations...) {
			if c.GroupName == "华北分公司" {
				t.Errorf("华东 is offered %+v", c)
			}
		}
		plate := east.Cars[0].Name
		var one equipment.Places
		v.MustOK("POST", "/base-info-app/equipment/places", v.east, map[string]any{"text": plate[len(plate)-3:]}).Decode(&one)
		if len(one.Cars) == 0 || one.Cars[0].Name != plate && !strings.Contains(one.Cars[0].Name, plate[len(plate)-3:]) {
			t.Errorf("search %s: %+v", plate, one.Cars)
		}
	})
}
