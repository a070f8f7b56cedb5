package station_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/platform/config"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/sim"
	"tankwatch/internal/station"
)

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

func page(t *testing.T, e *apptest.Env, tok string, q map[string]any) httpx.Page[station.View] {
	t.Helper()
	var p httpx.Page[station.View]
	e.MustOK("POST", "/base-info-app/station/page", tok, q).Decode(&p)
	return p
}

func TestStationCRUDValidationScope(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		admin := e.Login("admin", "admin123")
		g := groups(t, e, admin)
		// the demo seed registered every simulator place, under its region's subsidiary
		all := page(t, e, admin, map[string]any{"pageSize": 1})
		if all.Total != len(sim.DemoPlaces) {
			t.Fatalf("demo stations: %d, want %d", all.Total, len(sim.DemoPlaces))
		}
		if err := e.App.Stations.SeedDemo(context.Background()); err != nil {
			t.Fatal(err)
		}
		if n := page(t, e, admin, map[string]any{"pageSize": 1}).Total; n != all.Total {
			t.Fatalf("seed again: %d stations, want %d", n, all.Total)
		}
		depots := page(t, e, admin, map[string]any{"stationType": "yk", "groupId": g["华东分公司"], "pageSize": 100})
		if depots.Total != 5 {
			t.Errorf("华东 depots: %d", depots.Total)
		}

		poly := map[string]any{"groupId": g["上海车队"], "stationName": "测试多边形站", "stationType": "wlcc", "fenceType": 1,
			"fencePoints": "121.40,31.10;121.41,31.10;121.41,31.11;121.40,31.11", "contact": "张三"}
		with := func(k string, v any) map[string]any {
			m := map[string]any{}
			for a, b := range poly {
				m[a] = b
			}
			m[k] = v
			return m
		}
		e.Lang = "zh-CN"
		expect(t, e.Call("POST", "/base-info-app/station/add", admin, with("stationName", " ")), 200, "站点名称不能为空")
		expect(t, e.Call("POST", "/base-info-app/station/add", admin, with("stationType", "xx")), 200, "站点类型格式不正确")
		expect(t, e.Call("POST", "/base-info-app/station/add", admin, with("fencePoints", "121.40,31.10;121.41,31.10")), 200,
			"多边形围栏至少需要 3 个不同的顶点")
		// a bowtie (points drawn across the diagonal) is refused, naming the two edges that cross
		bowtie := with("fencePoints", "121.40,31.10;121.41,31.11;121.41,31.10;121.40,31.11")
		expect(t, e.Call("POST", "/base-info-app/station/add", admin, bowtie), 200,
			"多边形围栏的边不能相交、相接或重叠：第 1–2 点的边与第 3–4 点的边相交，请按顺序沿边界描点")
		e.Lang = "zh-TW"
		expect(t, e.Call("POST", "/base-info-app/station/add", admin, bowtie), 200,
			"多邊形圍欄的邊不能相交、相接或重疊：第 1–2 點的邊與第 3–4 點的邊相交，請按順序沿邊界描點")
		e.Lang = "en-US"
		expect(t, e.Call("POST", "/base-info-app/station/add", admin, bowtie), 200,
			"The edges of a polygon fence must not cross, touch or overlap: the edge between points 1–2 meets the edge between points 3–4; draw the points in order along the boundary")
		expect(t, e.Call("POST", "/base-info-app/station/add", admin, with("fencePoints", "121.40;31.10")), 200,
			`Coordinates must be "longitude,latitude", points separated by semicolons`)
		expect(t, e.Call("POST", "/base-info-app/station/add", admin, map[string]any{"stationName": "c", "stationType": "cng",
			"fenceType": 2, "fenceCenter": "121.4,31.1", "raduis": 5}), 200, "Radius must be between 10 m and 50 km")
		e.Lang = ""

		var v station.View
		e.MustOK("POST", "/base-info-app/station/add", admin, poly).Decode(&v)
		if v.FencePoints != "121.400000,31.100000;121.410000,31.100000;121.410000,31.110000;121.400000,31.110000" ||
			v.GroupName != "上海车队" || v.Lng < 121.404 || v.Lng > 121.406 {
			t.Fatalf("added %+v", v)
		}
		expect(t, e.Call("POST", "/base-info-app/station/add", admin, poly), 200, "本组织已有名为 测试多边形站 的站点")

		// a 华东分公司 user sees 华东's stations and this one, not 华北's
		role := e.MustOK("POST", "/authority-app/roleInfo/insert", admin, map[string]any{"name": "华东站点", "groupId": g["华东分公司"],
			"resourceCodes": []string{"03", "03-10"}}).ID()
		e.MustOK("POST", "/authority-app/userInfo/insert", admin, map[string]any{"name": "eastst", "password": "secret1",
			"groupId": g["华东分公司"], "roleIds": []int64{role}})
		cust := e.Login("eastst", "secret1")
		if p := page(t, e, cust, map[string]any{"stationName": "测试多边形站"}); p.Total != 1 {
			t.Errorf("customer sees %d", p.Total)
		}
		north := page(t, e, admin, map[string]any{"groupId": g["华北分公司"], "pageSize": 1}).List[0]
		expect(t, e.Call("GET", fmt.Sprintf("/base-info-app/station/view?id=%d", north.ID), cust, nil), 403, "该记录不在您的数据范围内")
		var ms []station.MapStation
		e.MustOK("GET", "/base-info-app/station/viewStation", cust, nil).Decode(&ms)
		for _, m := range ms {
			if m.ID == north.ID {
				t.Fatal("viewStation leaks 华北")
			}
		}

		// the index follows changes: inside the polygon now, outside once it is moved
		sh := e.App.Stations
		if id, name, ok := sh.StationAt("/1/", 31_105_000, 121_405_000); !ok || id != v.ID || name != "测试多边形站" {
			t.Fatalf("StationAt: %d %s %v", id, name, ok)
		}
		upd := with("fenceType", 2)
		upd["id"], upd["fenceCenter"], upd["raduis"] = v.ID, "121.50,31.20", 200
		e.MustOK("POST", "/base-info-app/station/update", admin, upd).Decode(&v)
		if v.FencePoints != "" || v.FenceCenter != "121.500000,31.200000" {
			t.Fatalf("updated %+v", v)
		}
		if _, _, ok := sh.StationAt("/1/", 31_105_000, 121_405_000); ok {
			t.Error("old fence still indexed")
		}
		var near []station.Near
		e.MustOK("GET", "/base-info-app/station/nearStation?lng=121.5&lat=31.203&radius=1000", admin, nil).Decode(&near)
		if len(near) == 0 || near[0].ID != v.ID || near[0].Distance < 130 || near[0].Distance > 140 {
			t.Fatalf("near: %+v", near)
		}
		var fd struct {
			FenceData map[string]station.FenceEntry `json:"fenceData"`
		}
		e.MustOK("GET", fmt.Sprintf("/base-info-app/station/fence?stationId=%d", v.ID), admin, nil).Decode(&fd)
		if f := fd.FenceData[fmt.Sprint(v.ID)]; f.AreaType != 2 || f.Data != "121.500000,31.200000;200" || f.Type != "wlcc" {
			t.Fatalf("fence: %+v", fd)
		}
		e.MustOK("POST", "/base-info-app/station/delete", admin, map[string]any{"id": v.ID})
		if _, _, ok := sh.StationAt("/1/", 31_200_000, 121_500_000); ok {
			t.Error("deleted station still indexed")
		}
		// operation log
		var logs httpx.Page[map[string]any]
		e.MustOK("POST", "/authority-app/operationLog/page", admin, map[string]any{"module": "station"}).Decode(&logs)
		if logs.Total != 3 {
			t.Errorf("operation log: %d entries", logs.Total)
		}
	})
}

func TestStationAtDemoAndCompany(t *testing.T) {
	t.Parallel()
	e := apptest.New(t, "sqlite", apptestDemo())
	s := e.App.Stations
	for _, p := range sim.DemoPlaces {
		lat, lon := int32(p.Lat*1e6), int32(p.Lon*1e6)
		// a car of any group of the company, stopped on the place (where the simulator unloads)
		if _, name, ok := s.StationAt("/1/3/", lat, lon); !ok || name != p.Name {
			t.Errorf("%s: %s %v", p.Name, name, ok)
		}
		// another company's car is not at this company's station
		if _, _, ok := s.StationAt("/99/", lat, lon); ok {
			t.Errorf("%s matched another company", p.Name)
		}
	}
	if _, _, ok := s.StationAt("/1/", 35_000_000, 110_000_000); ok {
		t.Error("a point in the fields matched")
	}
	if len(s.Places()) != len(sim.DemoPlaces) {
		t.Errorf("places: %d", len(s.Places()))
	}
}

func TestTrees(t *testing.T) {
	t.Parallel()
	e := apptest.New(t, "sqlite", apptestDemo())
	admin := e.Login("admin", "admin123")
	count := func(path string) (int, []*station.TreeNode) {
		var ns []*station.TreeNode
		e.MustOK("POST", "/base-info-app/station/"+path, admin, map[string]any{}).Decode(&ns)
		n := 0
		for _, x := range ns {
			n += x.Count
		}
		return n, ns
	}
	for _, p := range []string{"stationTreeByPlatform", "stationTreeByCustomizing", "stationTreeBySales"} {
		if n, ns := count(p); n != len(sim.DemoPlaces) {
			t.Errorf("%s: %d stations in %d roots", p, n, len(ns))
		}
	}
	_, types := count("stationTreeByCustomizing")
	if len(types) != 2 || types[0].Name != "油库" || types[1].Name != "加油站" {
		t.Errorf("types: %+v", types)
	}
	_, sales := count("stationTreeBySales")
	if len(sales) != 3 {
		t.Errorf("sales: %d roots", len(sales))
	}
}

func TestRecordSuspect(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		admin := e.Login("admin", "admin123")
		g := groups(t, e, admin)
		s, ctx := e.App.Stations, context.Background()
		at := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
		east, north := g["华东分公司"], g["华北分公司"]
		// 1, 2 and 3 within 300 m of each other; 4 is 1 km away; 5 is the same point for another company? no:
		// 华北 is the same company, so it joins; cars are counted once
		rec := func(group int64, lat, lon int32, car int64, d time.Duration) {
			if err := s.RecordSuspect(ctx, group, lat, lon, at.Add(d), car); err != nil {
				t.Fatal(err)
			}
		}
		rec(east, 31_000_000, 121_000_000, 1, 0)
		rec(east, 31_001_000, 121_001_000, 2, time.Hour)
		rec(north, 31_000_500, 121_000_500, 1, -time.Hour)
		rec(east, 31_010_000, 121_000_000, 3, 0)
		// concurrent records of one place make one suspect
		var wg sync.WaitGroup
		for i := range 8 {
			wg.Add(1)
			go func() { defer wg.Done(); rec(east, 30_500_000, 120_500_000, int64(10+i), 0) }()
		}
		wg.Wait()
		var p httpx.Page[station.SuspectView]
		e.MustOK("POST", "/base-info-app/suspectedStation/page", admin, map[string]any{}).Decode(&p)
		if p.Total != 3 {
			t.Fatalf("suspects: %+v", p.List)
		}
		top, second := p.List[0], p.List[1]
		if top.Count != 8 || top.CarCount != 8 {
			t.Errorf("concurrent: %+v", top)
		}
		if second.Count != 3 || second.CarCount != 2 || second.FirstTime != httpx.TimeOf(at.Add(-time.Hour)) ||
			second.LastTime != httpx.TimeOf(at.Add(time.Hour)) || second.GroupName != "华东分公司" {
			t.Errorf("cluster: %+v", second)
		}
		// dismiss removes one; promote turns one into a station
		e.MustOK("POST", "/base-info-app/suspectedStation/dismiss", admin, map[string]any{"id": top.ID})
		e.MustOK("POST", "/base-info-app/station/add", admin, map[string]any{"stationName": "新站", "stationType": "jyz",
			"fenceType": 2, "fenceCenter": fmt.Sprintf("%f,%f", second.Lng, second.Lat), "raduis": 300, "suspectId": second.ID,
			"groupId": east})
		e.MustOK("POST", "/base-info-app/suspectedStation/page", admin, map[string]any{"groupId": east}).Decode(&p)
		if p.Total != 1 {
			t.Errorf("after dismiss and promote: %+v", p.List)
		}
		if _, _, ok := s.StationAt("/1/3/", 31_000_500, 121_000_500); !ok {
			t.Error("promoted station not indexed")
		}
	})
}

func apptestDemo() config.Config { return config.Config{Demo: true} }

func TestHandlersParamsAndExport(t *testing.T) {
	t.Parallel()
	e := apptest.New(t, "sqlite", apptestDemo())
	admin := e.Login("admin", "admin123")
	e.Lang = "zh-CN"
	expect(t, e.Call("GET", "/base-info-app/station/nearStation?lng=abc&lat=31", admin, nil), 200, "参数 lng 不正确")
	expect(t, e.Call("GET", "/base-info-app/station/nearStation?lng=0&lat=0", admin, nil), 200, "经纬度格式不正确")
	expect(t, e.Call("GET", "/base-info-app/station/nearStation?lng=121&lat=31&radius=200000", admin, nil), 200, "搜索半径（米）应在 1 到 100000 之间")
	expect(t, e.Call("GET", "/base-info-app/station/view", admin, nil), 200, "缺少参数 id")
	// the fence call near a demo depot (上海石化, 500 m circle) returns it as "centre;radius"
	var fd struct {
		FenceData map[string]station.FenceEntry `json:"fenceData"`
	}
	e.MustOK("GET", "/base-info-app/station/fence?lng=121.34&lat=30.721", admin, nil).Decode(&fd)
	found := false
	for _, f := range fd.FenceData {
		if f.Name == "中国石化上海石化油库" && f.AreaType == 2 && f.Data == "121.340000,30.720000;500" && f.Type == "yk" {
			found = true
		}
	}
	if !found {
		t.Fatalf("fence data: %+v", fd)
	}
	r := e.Call("POST", "/base-info-app/station/export", admin, map[string]any{"stationType": "yk"})
	if r.Status != 200 || r.Header.Get("Content-Type") != "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" || len(r.Body) < 1000 {
		t.Fatalf("export: %d %s", r.Status, r.Header)
	}
}
