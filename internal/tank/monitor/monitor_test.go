package monitor_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/fleet"
	"tankwatch/internal/platform/config"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/xlsx"
	"tankwatch/internal/tank"
	"tankwatch/internal/tank/monitor"
	"tankwatch/internal/telemetry"
)

type env struct {
	*apptest.Env
	admin, east string
	cars        map[string]fleet.LiveCar
	groups      map[string]int64
}

// setup: 沪A·6N337 (华东) has two compartments in the catalogue — 1 diesel on a strapping table,
// 2 gasoline 92 with a nominal capacity only — and a committed report with both levels, compartment
// 1's bottom valve open and compartment 2's manhole cover locked; 冀A·3K281 (华北) one level.
func setup(t *testing.T, e *apptest.Env) *env {
	t.Helper()
	ctx := context.Background()
	if err := e.App.Live.Load(ctx); err != nil {
		t.Fatal(err)
	}
	cars, err := e.App.Fleet.LiveCars(ctx)
	if err != nil {
		t.Fatal(err)
	}
	v := &env{Env: e, cars: map[string]fleet.LiveCar{}}
	for _, c := range cars {
		v.cars[c.Plate] = c
	}
	v.admin = e.Login("admin", "admin123")
	v.groups = e.Groups(v.admin)
	role := e.MustOK("POST", "/authority-app/roleInfo/insert", v.admin, map[string]any{"name": "油罐监控员", "groupId": v.groups["华东分公司"],
		"resourceCodes": []string{"04", monitor.CodeTankMonitor, monitor.CodeTankMonitor2VXE}}).ID()
	e.MustOK("POST", "/authority-app/userInfo/insert", v.admin, map[string]any{"name": "tankeast", "password": "secret1",
		"groupId": v.groups["华东分公司"], "roleIds": []int64{role}})
	v.east = e.Login("tankeast", "secret1")

	hu, ji := v.cars["沪A·6N337"], v.cars["冀A·3K281"]
	cat := e.App.IngestCatalog()
	cat.Set(hu.ID, []tank.Compartment{
		{CarID: hu.ID, No: 1, Product: tank.ProductDiesel0, CapacityL: 9000, HeightMM: 1500, Strap: tank.EllipseStrap(10000, 1500, 50)},
		{CarID: hu.ID, No: 2, Product: tank.ProductGasoline92, CapacityL: 8000, HeightMM: 1400}})
	now := e.Clock.Now()
	st := &tank.State{Compartments: 2, Seal: tank.SealSealed}
	st.Devices[0][tank.BottomValve] = tank.DevInstalled | tank.DevOpen
	st.Devices[1][tank.ManholeCover] = tank.DevInstalled | tank.DevLocked
	r := telemetry.Report{TerminalID: hu.TerminalID, CarID: hu.ID, Received: now, Time: now.Add(-time.Second), Lat: 31_230_416, Lon: 121_473_701,
		Tank: st, Levels: &tank.Levels{N: 2, Probes: [8]tank.Level{{Compartment: 1, LevelMM: 750, VolumeL: 4000, TempDeci: 250},
			{Compartment: 2, LevelMM: 300, VolumeL: 2000, TempDeci: 180}}}}
	r.Readings = cat.Convert(hu.ID, r.Levels)
	j := telemetry.Report{TerminalID: ji.TerminalID, CarID: ji.ID, Received: now, Time: now, Lat: 39_000_000, Lon: 116_000_000,
		Levels: &tank.Levels{N: 1, Probes: [8]tank.Level{{Compartment: 1, LevelMM: 100, VolumeL: 700, TempDeci: 100}}}}
	j.Readings = cat.Convert(ji.ID, j.Levels)
	e.App.Live.Apply([]telemetry.Report{r, j})
	return v
}

func TestTankMonitorCar(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		v := setup(t, e)
		hu, ji := v.cars["沪A·6N337"], v.cars["冀A·3K281"]
		var got monitor.CarView
		e.MustOK("POST", "/monitor-app/realTimeMoitoring/tankMonitor", v.east, map[string]any{"carId": hu.ID}).Decode(&got)
		if got.Plate != "沪A·6N337" || !got.Online || !got.HasProbes || !got.HasLock || got.SealText != "已施封" || len(got.Compartments) < 2 {
			t.Fatalf("car: %+v", got)
		}
		c1, c2 := got.Compartments[0], got.Compartments[1]
		half := tank.EllipseStrap(10000, 1500, 50)
		want, _ := half.Volume(750)
		if c1.No != 1 || c1.Source != int(tank.SourceStrap) || c1.SourceText != "容积表" || c1.CapacitySource != "table" ||
			c1.Capacity != 10000 || c1.LevelMM != 750 || c1.Temperature != 25 || c1.ProductName != "0# 柴油" ||
			c1.Volume < want-0.1 || c1.Volume > want+0.1 || c1.FillPct == nil || *c1.FillPct != 50 || c1.V20 >= c1.Volume || c1.MassKg <= 0 {
			t.Errorf("compartment 1: %+v (table volume %v)", c1, want)
		}
		if d := c1.Devices[3]; d.Kind != "bottomValve" || !d.Fitted || !d.Open || d.Locked || !c1.ValvesOpen || c1.CoversOpen {
			t.Errorf("compartment 1 bottom valve: %+v", c1)
		}
		if c2.Source != int(tank.SourceProbe) || c2.Volume != 2000 || c2.CapacitySource != "nominal" || c2.Capacity != 8000 ||
			c2.FillPct == nil || *c2.FillPct != 25 || !c2.Devices[1].Fitted || !c2.Devices[1].Locked || c2.ValvesOpen || c2.CoversOpen {
			t.Errorf("compartment 2: %+v", c2)
		}
		// Another group's car: refused, nothing of it shown.
		r := e.Call("POST", "/monitor-app/realTimeMoitoring/tankMonitor", v.east, map[string]any{"carId": ji.ID})
		if r.Status != 403 || r.Message != "该记录不在您的数据范围内" {
			t.Fatalf("foreign car: %d %s", r.Status, r.Body)
		}
		if r := e.Call("POST", "/monitor-app/realTimeMoitoring/tankMonitor", v.east, map[string]any{}); r.Code != 0 || !strings.Contains(r.Message, "车辆") {
			t.Fatalf("no carId: %s", r.Body)
		}
	})
}

func TestTankMonitorTable(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		v := setup(t, e)
		page := func(tok string, q map[string]any) httpx.Page[monitor.Row] {
			t.Helper()
			var p httpx.Page[monitor.Row]
			e.MustOK("POST", "/monitor-app/tankMonitor2VXE/page", tok, q).Decode(&p)
			return p
		}
		all := page(v.east, map[string]any{"pageSize": 500})
		for _, r := range all.List {
			if strings.HasPrefix(r.Plate, "冀") {
				t.Fatalf("another group's row: %+v", r)
			}
		}
		open := page(v.east, map[string]any{"openOnly": true})
		if open.Total != 1 || open.List[0].Plate != "沪A·6N337" || open.List[0].No != 1 || !open.List[0].ValvesOpen {
			t.Fatalf("openOnly: %+v", open)
		}
		p92 := page(v.east, map[string]any{"product": 1, "fillMin": 20, "fillMax": 30})
		if p92.Total != 1 || p92.List[0].No != 2 || p92.List[0].ProductName != "92# 汽油" {
			t.Fatalf("product + fill: %+v", p92)
		}
		byVol := page(v.east, map[string]any{"sortField": "volume", "sortOrder": "descend", "plate": "6N337"})
		if byVol.Total < 2 || byVol.List[0].No != 1 || byVol.List[1].No != 2 {
			t.Fatalf("sorted by volume: %+v", byVol)
		}
		if p := page(v.admin, map[string]any{"groupId": v.groups["华北分公司"], "pageSize": 500}); p.Total == 0 {
			t.Fatal("admin sees no 华北 rows")
		}
		r := e.Call("POST", "/monitor-app/tankMonitor2VXE/page", v.east, map[string]any{"groupId": v.groups["华北分公司"]})
		if r.Status != 403 || r.Message != "该记录不在您的数据范围内" {
			t.Fatalf("foreign group: %d %s", r.Status, r.Body)
		}
		for body, want := range map[string]string{
			`{"fillMin":50,"fillMax":10}`: "装载率下限不能大于上限",
			`{"fillMin":-1}`:              "装载率下限应在 0 到 1000 之间",
			`{"sortField":"x"}`:           "排序字段格式不正确",
			`{"product":9}`:               "油品格式不正确",
		} {
			if r := e.Call("POST", "/monitor-app/tankMonitor2VXE/page", v.east, body); r.Code != 0 || r.Message != want {
				t.Errorf("%s: %s, want %q", body, r.Body, want)
			}
		}
		// Export needs its button code: tankeast lacks it, admin has it.
		if r := e.Call("POST", "/monitor-app/tankMonitor2VXE/export", v.east, map[string]any{}); r.Status != 403 {
			t.Fatalf("export without 04-17-01: %d", r.Status)
		}
		x := e.Call("POST", "/monitor-app/tankMonitor2VXE/export", v.admin, map[string]any{"openOnly": true})
		if x.Status != 200 || x.Header.Get("Content-Type") != xlsx.ContentType || len(x.Body) < 1000 {
			t.Fatalf("export: %d %s", x.Status, x.Header)
		}
	})
}

func TestGetVtV20(t *testing.T) {
	t.Parallel()
	e := apptest.New(t, "sqlite", apptestConfig())
	v := setup(t, e)
	var got monitor.V20Result
	e.MustOK("POST", "/monitor-app/realTimeMoitoring/getVtV20", v.east, map[string]any{"vt": 10000, "temperature": 30, "density20": 0, "product": 0}).Decode(&got)
	s := tank.ToV20(tank.ProductDiesel0, 10000, 30, 0)
	if !got.Converted || got.Density20 != 840 || got.V20 != float64(int(s.V20L*10+0.5))/10 || got.V20 >= 10000 || got.MassKg <= 0 {
		t.Fatalf("diesel at 30 °C: %+v, ToV20 %+v", got, s)
	}
	e.MustOK("POST", "/monitor-app/realTimeMoitoring/getVtV20", v.east, map[string]any{"vt": 500, "temperature": 10, "product": 3}).Decode(&got)
	if got.Converted || got.V20 != 500 || got.MassKg != 0 {
		t.Fatalf("natural gas: %+v", got)
	}
	for body, want := range map[string]string{
		`{"temperature":20,"product":0}`:                          "油品体积 Vt不能为空",
		`{"vt":-1,"temperature":20,"product":0}`:                  "油品体积 Vt应在 0 到 10000000 之间",
		`{"vt":1e8,"temperature":20,"product":0}`:                 "油品体积 Vt应在 0 到 10000000 之间",
		`{"vt":100,"temperature":120,"product":0}`:                "油温应在 -50 到 100 之间",
		`{"vt":100,"product":0}`:                                  "油温不能为空",
		`{"vt":100,"temperature":20,"density20":300,"product":0}`: "标准密度 ρ20应为 0（使用油品默认值）或 500 到 1100 之间",
		`{"vt":100,"temperature":20}`:                             "油品不能为空",
		`{"vt":100,"temperature":20,"product":7}`:                 "油品格式不正确",
		`{"vt":"x","temperature":20,"product":0}`:                 "字段 vt 的类型错误",
	} {
		if r := e.Call("POST", "/monitor-app/realTimeMoitoring/getVtV20", v.east, body); r.Code != 0 || !strings.HasPrefix(r.Message, want) {
			t.Errorf("%s: %s, want %q", body, r.Body, want)
		}
	}
	e.Lang = "en-US"
	if r := e.Call("POST", "/monitor-app/realTimeMoitoring/getVtV20", v.east, `{"vt":100,"temperature":120,"product":0}`); r.Message != "Temperature must be between -50 and 100" {
		t.Errorf("English: %s", r.Body)
	}
	e.Lang = "zh-TW"
	if r := e.Call("POST", "/monitor-app/realTimeMoitoring/getVtV20", v.east, `{"vt":100,"temperature":20,"density20":2000,"product":0}`); !strings.HasPrefix(r.Message, "標準密度") {
		t.Errorf("zh-TW: %s", r.Body)
	}
}

func apptestConfig() config.Config { return config.Config{Demo: true} }
