package aftersales_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"tankwatch/internal/aftersales"
	"tankwatch/internal/app/apptest"
	"tankwatch/internal/platform/httpx"
)

// TestAutoFaults (D82): the system raises a fault for a car silent longer than the setting's hours and
// for a sensor-fault event, at most one open per car and source kind and never twice for the same
// silence or event; off raises nothing; the page shows them as the system's, in the reader's language;
// the platform setting drives it (the demo has it on).
func TestAutoFaults(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		ctx := t.Context()
		admin := e.Login("admin", "admin123")
		svc := e.App.Faults()
		var cars []int64
		if err := e.DB.NewSelect().Table("cars").Column("id").OrderExpr("id").Limit(3).Scan(ctx, &cars); err != nil || len(cars) < 3 {
			t.Fatalf("cars %v %v", cars, err)
		}
		a, b, c := cars[0], cars[1], cars[2]
		count := func(car int64, kind string) (open, all int) {
			var fs []aftersales.Fault
			if err := e.DB.NewSelect().Model(&fs).Where("car_id = ? AND source_kind = ? AND created_by = 0", car, kind).Scan(ctx); err != nil {
				t.Fatal(err)
			}
			for _, f := range fs {
				if f.State != aftersales.StateClosed {
					open++
				}
			}
			return open, len(fs)
		}
		raise := func(auto aftersales.Auto, silent []aftersales.Silence, want int) {
			t.Helper()
			n, err := svc.RaiseAuto(ctx, auto, silent)
			if err != nil || n != want {
				t.Fatalf("raised %d (%v), want %d", n, err, want)
			}
		}
		hour := int64(3600_000)
		now := e.Clock.Now().UnixMilli()
		silent := []aftersales.Silence{{CarID: a, Since: now - 7*hour}, {CarID: b, Since: now - 5*hour}, {CarID: c, Since: now}}

		// off: nothing
		raise(aftersales.Auto{}, silent, 0)
		// the threshold: only the car silent for more than 6 hours; again: nothing more
		raise(aftersales.Auto{SilentHours: 6}, silent, 1)
		if open, _ := count(a, aftersales.SourceOffline); open != 1 {
			t.Errorf("car a: %d open", open)
		}
		raise(aftersales.Auto{SilentHours: 6}, silent, 0)
		// two hours on, car b crosses the threshold
		e.Clock.Advance(2 * time.Hour)
		raise(aftersales.Auto{SilentHours: 6}, silent, 1)
		raise(aftersales.Auto{SilentHours: 6}, silent, 0)

		// the page: the system's, its symptom from the source, in zh-CN and en-US
		var page httpx.Page[aftersales.View]
		e.MustOK("POST", p+"page", admin, map[string]any{"carId": a, "sourceKind": "offline", "sourceId": a}).Decode(&page)
		if page.Total != 1 || !page.List[0].BySystem || page.List[0].ReportedBy != "系统" || !strings.Contains(page.List[0].Symptom, "系统自动报修") ||
			page.List[0].FaultType != "terminal" || page.List[0].SourceAt.Std().UnixMilli() != now-7*hour || page.List[0].CreatedBy != "" {
			t.Fatalf("system fault %+v", page)
		}
		id := page.List[0].ID
		e.Lang = "en-US"
		e.MustOK("POST", p+"page", admin, map[string]any{"carId": a, "sourceKind": "offline", "sourceId": a}).Decode(&page)
		if page.List[0].ReportedBy != "System" || !strings.Contains(page.List[0].Symptom, "raised by the system") {
			t.Errorf("en-US %+v", page.List[0])
		}
		e.Lang = ""

		// closed: the same silence raises nothing again, a new one does
		e.MustOK("POST", p+"close", admin, map[string]any{"id": id, "resolution": "终端断电，已恢复"})
		raise(aftersales.Auto{SilentHours: 6}, silent, 0)
		silent[0].Since = e.Clock.Now().UnixMilli() - 8*hour
		raise(aftersales.Auto{SilentHours: 6}, silent, 1)
		if open, all := count(a, aftersales.SourceOffline); open != 1 || all != 2 {
			t.Errorf("car a after a new silence: %d open of %d", open, all)
		}

		// a fault someone raised from an offline record and left open stops the system's
		e.MustOK("POST", p+"add", admin, map[string]any{"carId": c, "faultType": "terminal", "symptom": "离线", "sourceKind": "offline",
			"sourceId": c, "sourceAt": now - 20*hour})
		raise(aftersales.Auto{SilentHours: 6}, []aftersales.Silence{{CarID: c, Since: now - 10*hour}}, 0)

		// sensor-fault events: the newest of the look-back window, one open per car; old and other kinds not
		at := e.Clock.Now().UnixMilli()
		event := func(car int64, kind string, start int64) int64 {
			var id int64
			if err := e.DB.NewRaw("INSERT INTO car_tank_events (car_id, compartment, kind, start_at) VALUES (?, 1, ?, ?) RETURNING id", car, kind, start).Scan(ctx, &id); err != nil {
				t.Fatal(err)
			}
			return id
		}
		event(a, "sensorStuck", at-2*hour)
		newest := event(a, "sensorJump", at-hour)
		event(b, "sensorMissing", at-30*hour) // before the look-back window
		event(c, "theft", at-hour)            // not a sensor fault
		raise(aftersales.Auto{Sensor: false}, nil, 0)
		raise(aftersales.Auto{Sensor: true}, nil, 1)
		var f aftersales.Fault
		if err := e.DB.NewSelect().Model(&f).Where("source_kind = ? AND created_by = 0", aftersales.SourceTankEvent).Scan(ctx); err != nil {
			t.Fatal(err)
		}
		if f.CarID != a || f.SourceID != newest || f.FaultType != "probe" {
			t.Errorf("sensor fault %+v", f)
		}
		event(a, "sensorStuck", at-10*60_000)
		raise(aftersales.Auto{Sensor: true}, nil, 0)
		e.MustOK("POST", p+"page", admin, map[string]any{"sourceKind": "tankEvent", "sourceId": newest}).Decode(&page)
		if page.Total != 1 || page.List[0].Symptom != "传感器故障：液位计跳变（系统自动报修）" {
			t.Errorf("sensor fault on the page %+v", page)
		}

		// the platform setting drives it: the demo has it on; off, the system raises nothing
		if got := e.App.SettingsSystem().Current(); got.FaultSilentHours == 0 || !got.FaultSensor {
			t.Errorf("demo settings %+v", got)
		}
		e.MustOK("POST", p+"close", admin, map[string]any{"id": f.ID, "resolution": "更换探杆"})
		e.MustOK("POST", "/base-info-app/system/edit", admin, map[string]any{"faultSilentHours": 0, "faultSensor": false})
		if n, err := e.App.RaiseFaults(ctx); err != nil || n != 0 {
			t.Errorf("off: %d %v", n, err)
		}
		e.MustOK("POST", "/base-info-app/system/edit", admin, map[string]any{"faultSensor": true})
		if n, err := e.App.RaiseFaults(ctx); err != nil || n != 1 {
			t.Errorf("sensor on: %d %v", n, err)
		}
		if r := e.Call("POST", "/base-info-app/system/edit", admin, map[string]any{"faultSilentHours": 721}); r.Code != 0 || !strings.Contains(r.Message, "自动报修") {
			t.Errorf("out of range: %s", r.Body)
		}
	})
}

// TestFaultTypesFromCodeList (D66): the fault types are the code list's: an added type is offered and
// accepted, a disabled one is refused for new faults but stays valid on the faults that hold it, and a
// type in use is not deleted; the seeded list is DefaultTypes, so every stored demo type is valid.
func TestFaultTypesFromCodeList(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		ctx := t.Context()
		admin := e.Login("admin", "admin123")
		items, err := e.App.SettingsCodes().Items(ctx, aftersales.TypeList)
		if err != nil || len(items) != len(aftersales.DefaultTypes) {
			t.Fatalf("seeded %d %v", len(items), err)
		}
		for i, it := range items {
			if it.Code != aftersales.DefaultTypes[i] {
				t.Errorf("item %d is %s", i, it.Code)
			}
		}
		var car int64
		if err := e.DB.NewSelect().Table("cars").Column("id").OrderExpr("id").Limit(1).Scan(ctx, &car); err != nil {
			t.Fatal(err)
		}
		var meta aftersales.Meta
		pump := e.MustOK("POST", "/base-info-app/baseType/add", admin, map[string]any{"type": "faultType", "code": "pump", "labelZh": "卸油泵故障",
			"labelTw": "卸油泵故障", "labelEn": "Pump fault"}).ID()
		e.MustOK("POST", p+"meta", admin, struct{}{}).Decode(&meta)
		if !slices.Contains(meta.Types, "pump") {
			t.Errorf("meta %v", meta.Types)
		}
		v := new(aftersales.View)
		e.MustOK("POST", p+"add", admin, map[string]any{"carId": car, "faultType": "pump", "symptom": "卸油泵不转"}).Decode(v)

		// in use: not deleted; unused: deleted
		if r := e.Call("POST", "/base-info-app/baseType/delete", admin, map[string]any{"id": pump}); r.Code != 0 || !strings.Contains(r.Message, "1 条记录") {
			t.Errorf("delete in use: %s", r.Body)
		}
		// disabled: refused for a new fault and for a change to it, kept on the fault that holds it
		e.MustOK("POST", "/base-info-app/baseType/edit", admin, map[string]any{"id": pump, "labelZh": "卸油泵故障", "enabled": false})
		if r := e.Call("POST", p+"add", admin, map[string]any{"carId": car, "faultType": "pump", "symptom": "x"}); r.Code != 0 || !strings.Contains(r.Message, "故障类型") {
			t.Errorf("disabled type on add: %s", r.Body)
		}
		e.MustOK("POST", p+"edit", admin, map[string]any{"id": v.ID, "carId": car, "faultType": "pump", "symptom": "卸油泵不转，已断电", "reportedAt": v.ReportedAt})
		other := new(aftersales.View)
		e.MustOK("POST", p+"add", admin, map[string]any{"carId": car, "faultType": "wiring", "symptom": "线路松动"}).Decode(other)
		if r := e.Call("POST", p+"edit", admin, map[string]any{"id": other.ID, "carId": car, "faultType": "pump", "symptom": "x", "reportedAt": other.ReportedAt}); r.Code != 0 {
			t.Errorf("changed to a disabled type: %s", r.Body)
		}
		if r := e.Call("POST", p+"add", admin, map[string]any{"carId": car, "faultType": "engine", "symptom": "x"}); r.Code != 0 {
			t.Errorf("unknown type: %s", r.Body)
		}
		e.MustOK("POST", p+"meta", admin, struct{}{}).Decode(&meta)
		if slices.Contains(meta.Types, "pump") {
			t.Errorf("meta offers a disabled type %v", meta.Types)
		}
		e.MustOK("POST", p+"delete", admin, map[string]any{"id": v.ID})
		e.MustOK("POST", "/base-info-app/baseType/delete", admin, map[string]any{"id": pump})
	})
}
