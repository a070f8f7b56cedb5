package tank_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/org"
	"tankwatch/internal/platform/config"
	"tankwatch/internal/platform/db/dbtest"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/tank"
)

// sensorEnv serves the sensor routes over the demo instance e (its store, tokens and audit log), so the
// tests do not depend on the app mounting them. Calls that are not sensor routes go to e.
func sensorEnv(t *testing.T, e *apptest.Env) (*apptest.Env, *tank.Sensors) {
	t.Helper()
	s := tank.NewSensors(e.DB, e.App.Audit)
	s.Now = e.Clock.Now
	if err := s.Load(context.Background()); err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	httpx.Mount(mux, e.App.Auth.Guard, s.Routes())
	srv := httptest.NewServer(httpx.Wrap(mux, httpx.NewMetrics(prometheus.NewRegistry()), e.App.Log))
	t.Cleanup(srv.Close)
	se := *e
	se.Srv = srv
	return &se, s
}

func groups(t *testing.T, e *apptest.Env, tok string) map[string]int64 {
	t.Helper()
	return e.Groups(tok)
}

func expect(t *testing.T, r *apptest.Resp, status int, msg string) {
	t.Helper()
	if r.Status != status || r.Code != 0 || r.Message != msg {
		t.Fatalf("got %d %s, want %d %q", r.Status, r.Body, status, msg)
	}
}

func sensorPage(t *testing.T, se *apptest.Env, tok string, q map[string]any) httpx.Page[tank.SensorView] {
	t.Helper()
	var p httpx.Page[tank.SensorView]
	se.MustOK("POST", "/base-info-app/sensor/page", tok, q).Decode(&p)
	return p
}

func TestSensorCRUDValidationAndDecoding(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		se, s := sensorEnv(t, e)
		admin := e.Login("admin", "admin123")
		g := groups(t, e, admin)
		add := func(body map[string]any) *apptest.Resp {
			return se.Call("POST", "/base-info-app/sensor/add", admin, body)
		}
		probe := map[string]any{"name": "前舱液位", "length": 10, "identification": "a1", "decoder": "level"}
		with := func(k string, v any) map[string]any {
			m := map[string]any{}
			for a, b := range probe {
				m[a] = b
			}
			m[k] = v
			return m
		}

		expect(t, add(with("name", " ")), 200, "传感器名称不能为空")
		se.Lang = "en-US"
		expect(t, add(with("name", "")), 200, "Sensor name cannot be empty")
		expect(t, add(with("decoder", "valve")), 200, "Decoder must be one of: level, lock")
		se.Lang = "zh-TW"
		expect(t, add(with("name", "")), 200, "感測器名稱不能為空")
		expect(t, add(with("identification", "XYZ")), 200, "外設識別ID應為 1–8 位十六進位字元（如 A1）")
		se.Lang = ""
		expect(t, add(with("length", 2000)), 200, "报文长度应在 0 到 1024 之间")
		expect(t, add(with("length", 5)), 200, "报文长度应为 0（不检查）或 10（识别ID与数据的字节数）")
		expect(t, add(with("identification", "")), 200, "外设识别ID不能为空")
		expect(t, add(with("identification", "123456789")), 200, "外设识别ID应为 1–8 位十六进制字符（如 A1）")
		expect(t, add(with("decoder", "")), 200, "解码方式不能为空")
		expect(t, add(with("groupId", 999999)), 200, "记录不存在")

		var v tank.SensorView
		se.MustOK("POST", "/base-info-app/sensor/add", admin, probe).Decode(&v)
		if v.ID == 0 || v.Identification != "A1" || v.Decoder != "level" || v.Length != 10 || v.GroupName != org.DemoTopGroup {
			t.Fatalf("added: %+v", v)
		}
		expect(t, add(with("name", "另一个")), 200, "本组织已有外设识别ID为 A1 的传感器")
		// another group may register the same peripheral
		se.MustOK("POST", "/base-info-app/sensor/add", admin, with("groupId", g["华东分公司"]))

		// the gateway decodes with the new sensor at once
		e1, err := s.PassThrough(tank.PassSerial1, hx(t, "A1 01 05F0 000048DA 00EB"))
		if err != nil || e1.Levels == nil || e1.Levels.Probes[0].LevelMM != 1520 {
			t.Fatalf("pass-through: %+v %v", e1, err)
		}
		if _, err := s.PassThrough(tank.PassSerial2, hx(t, "B0 01 00 05")); !errors.Is(err, tank.ErrUnknownSensor) {
			t.Fatalf("unregistered B0: %v", err)
		}
		if e2, err := s.PassThrough(tank.PassTank, hx(t, "E3 03 01 0009")); err != nil || e2.Help == nil {
			t.Fatalf("tank pass-through: %+v %v", e2, err)
		}
		if e4, err := s.PassThrough(0x0B, hx(t, "A1 01 05F0 000048DA 00EB")); err != nil || !e4.Empty() {
			t.Fatalf("IC card pass-through read as tank data: %+v %v", e4, err)
		}

		upd := map[string]any{"id": v.ID, "name": "阀门锁", "length": 0, "identification": "B0", "decoder": "lock"}
		var u tank.SensorView
		se.MustOK("POST", "/base-info-app/sensor/update", admin, upd).Decode(&u)
		if u.Name != "阀门锁" || u.Identification != "B0" || u.GroupID != v.GroupID || u.CreatedAt != v.CreatedAt {
			t.Fatalf("updated: %+v", u)
		}
		if _, err := s.PassThrough(tank.PassSerial1, hx(t, "A1 01 05F0 000048DA 00EB")); err != nil {
			t.Fatalf("A1 of 华东分公司 no longer decoded: %v", err)
		}
		if e3, err := s.PassThrough(tank.PassSerial2, hx(t, "B0 02 03 03")); err != nil || tank.LockString(e3.Tank)[100:104] != "1100" {
			t.Fatalf("lock sensor: %+v %v", e3, err)
		}
		// a fresh registry (start-up) loads the same sensors from the store
		fresh := tank.NewSensors(e.DB, e.App.Audit)
		if _, err := fresh.PassThrough(tank.PassSerial2, hx(t, "B0 02 03 03")); !errors.Is(err, tank.ErrUnknownSensor) {
			t.Fatalf("registry decodes before Load: %v", err)
		}
		if err := fresh.Load(context.Background()); err != nil {
			t.Fatal(err)
		}
		if _, err := fresh.PassThrough(tank.PassSerial2, hx(t, "B0 02 03 03")); err != nil {
			t.Fatalf("after Load: %v", err)
		}

		se.MustOK("POST", "/base-info-app/sensor/add", admin, map[string]any{"name": "后舱液位", "identification": "A2", "decoder": "level"})
		if p := sensorPage(t, se, admin, map[string]any{}); p.Total != 3 || p.List[0].Name != "后舱液位" {
			t.Fatalf("page: %+v", p)
		}
		if p := sensorPage(t, se, admin, map[string]any{"name": "液位", "pageSize": 1, "pageNum": 2}); p.Total != 2 || len(p.List) != 1 {
			t.Fatalf("filtered page: %+v", p)
		}
		if p := sensorPage(t, se, admin, map[string]any{"sortField": "identification", "sortOrder": "ascend"}); p.List[0].Identification != "A1" {
			t.Fatalf("sorted page: %+v", p)
		}
		expect(t, se.Call("POST", "/base-info-app/sensor/page", admin, map[string]any{"sortField": "secret"}), 200, "排序字段格式不正确")

		se.MustOK("POST", "/base-info-app/sensor/delete", admin, map[string]any{"id": v.ID})
		if _, err := s.PassThrough(tank.PassSerial2, hx(t, "B0 02 03 03")); !errors.Is(err, tank.ErrUnknownSensor) {
			t.Fatalf("deleted sensor still decoded: %v", err)
		}
		expect(t, se.Call("POST", "/base-info-app/sensor/delete", admin, map[string]any{"id": v.ID}), 200, "记录不存在")
		expect(t, se.Call("POST", "/base-info-app/sensor/update", admin, upd), 200, "记录不存在")
		expect(t, se.Call("POST", "/base-info-app/sensor/delete", admin, map[string]any{}), 200, "ID不能为空")

		var logged int
		if err := e.DB.NewSelect().Table("operation_logs").ColumnExpr("count(*)").Where("module = ?", tank.ModuleSensor).Scan(context.Background(), &logged); err != nil || logged != 5 {
			t.Fatalf("operation log entries: %d %v", logged, err)
		}
	})
}

func TestSensorScope(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		se, _ := sensorEnv(t, e)
		admin := e.Login("admin", "admin123")
		g := groups(t, e, admin)
		north := se.MustOK("POST", "/base-info-app/sensor/add", admin,
			map[string]any{"groupId": g["华北分公司"], "name": "北方液位", "identification": "C1", "decoder": "level"}).ID()
		east := se.MustOK("POST", "/base-info-app/sensor/add", admin,
			map[string]any{"groupId": g["上海车队"], "name": "上海锁", "identification": "C2", "decoder": "lock"}).ID()

		codes := []string{"03-09", "03-09-01", "03-09-02", "03-09-03"}
		role := e.MustOK("POST", "/authority-app/roleInfo/insert", admin, map[string]any{"name": "传感器维护", "groupId": g["华东分公司"], "resourceCodes": codes}).ID()
		e.MustOK("POST", "/authority-app/userInfo/insert", admin, map[string]any{"name": "sensorops", "password": "sensor123", "groupId": g["华东分公司"], "roleIds": []int64{role}})
		ops := e.Login("sensorops", "sensor123")

		if p := sensorPage(t, se, ops, map[string]any{}); p.Total != 1 || p.List[0].ID != east {
			t.Fatalf("east sees: %+v", p)
		}
		before := dbtest.Snapshot(t, e.DB, "sensors")
		const scope = "该记录不在您的数据范围内"
		expect(t, se.Call("POST", "/base-info-app/sensor/update", ops, map[string]any{"id": north, "name": "x", "identification": "C1", "decoder": "level"}), 403, scope)
		expect(t, se.Call("POST", "/base-info-app/sensor/delete", ops, map[string]any{"id": north}), 403, scope)
		expect(t, se.Call("POST", "/base-info-app/sensor/add", ops, map[string]any{"groupId": g["华北分公司"], "name": "x", "identification": "C3", "decoder": "lock"}), 403, scope)
		expect(t, se.Call("POST", "/base-info-app/sensor/update", ops, map[string]any{"id": east, "groupId": g["华北分公司"], "name": "x", "identification": "C2", "decoder": "lock"}), 403, scope)
		expect(t, se.Call("POST", "/base-info-app/sensor/page", ops, map[string]any{"groupId": g["华北分公司"]}), 403, scope)
		if after := dbtest.Snapshot(t, e.DB, "sensors"); !reflect.DeepEqual(before, after) {
			t.Fatalf("out-of-scope calls changed the table:\n%v\n%v", before, after)
		}

		// inside the scope the same user may work; a new sensor lands in their own group
		var mine tank.SensorView
		se.MustOK("POST", "/base-info-app/sensor/add", ops, map[string]any{"name": "华东液位", "identification": "C1", "decoder": "level"}).Decode(&mine)
		if mine.GroupID != g["华东分公司"] {
			t.Fatalf("added into group %d", mine.GroupID)
		}
		se.MustOK("POST", "/base-info-app/sensor/delete", ops, map[string]any{"id": east})

		cust := e.Login("customer", "customer123")
		expect(t, se.Call("POST", "/base-info-app/sensor/page", cust, map[string]any{}), 403, "没有权限执行此操作")
		expect(t, se.Call("POST", "/base-info-app/sensor/page", "", map[string]any{}), 401, "")
	})
}

// TestPassThroughDuringReload runs the gateway's decoder while the registry reloads (run with -race):
// every message decodes against a complete snapshot.
func TestPassThroughDuringReload(t *testing.T) {
	t.Parallel()
	e := apptest.New(t, "sqlite", config.Config{Demo: true})
	se, s := sensorEnv(t, e)
	admin := e.Login("admin", "admin123")
	se.MustOK("POST", "/base-info-app/sensor/add", admin, map[string]any{"name": "液位", "identification": "A1", "decoder": "level"})
	msg := hx(t, "A1 01 05F0 000048DA 00EB")
	errs := make(chan error, 4)
	for range 4 {
		go func() {
			for range 200 {
				if ext, err := s.PassThrough(tank.PassSerial1, msg); err != nil || ext.Levels == nil {
					errs <- fmt.Errorf("decode during reload: %+v %v", ext, err)
					return
				}
			}
			errs <- nil
		}()
	}
	for range 20 {
		if err := s.Load(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}
