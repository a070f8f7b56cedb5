package tankinfo_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"reflect"
	"testing"

	"github.com/xuri/excelize/v2"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/platform/db/dbtest"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/sim"
	"tankwatch/internal/tank"
	"tankwatch/internal/tank/tankinfo"
)

const P = "/base-info-app/tankInfo/"

func expect(t *testing.T, r *apptest.Resp, status int, msg string) {
	t.Helper()
	if r.Status != status || r.Code != 0 || r.Message != msg {
		t.Fatalf("got %d %s, want %d %q", r.Status, r.Body, status, msg)
	}
}

func carPage(t *testing.T, e *apptest.Env, tok string, q map[string]any) httpx.Page[tankinfo.CarSummary] {
	t.Helper()
	var p httpx.Page[tankinfo.CarSummary]
	e.MustOK("POST", P+"carPage", tok, q).Decode(&p)
	return p
}

func getCar(t *testing.T, e *apptest.Env, tok string, id int64) tankinfo.CarView {
	t.Helper()
	var v tankinfo.CarView
	e.MustOK("GET", fmt.Sprintf(P+"car?carId=%d", id), tok, nil).Decode(&v)
	return v
}

func compInput(c tankinfo.CompView) map[string]any {
	return map[string]any{"no": c.No, "product": c.Product, "capacity": c.Capacity, "height": c.Height, "probeType": c.ProbeType,
		"probeOffset": c.ProbeOffset, "density20": c.Density20, "strap": c.Strap}
}

// The demo fleet's cars carry the simulator's tanker; a save replaces a car's compartments, is read
// back as saved, reaches the shared catalog at once, and a wrong table is refused by row, in the
// caller's language, changing nothing.
func TestCarCompartments(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		ctx := context.Background()
		admin := e.Login("admin", "admin123")
		all := carPage(t, e, admin, map[string]any{"pageSize": 100})
		if all.Total == 0 {
			t.Fatal("no demo cars")
		}
		for _, c := range all.List {
			if c.Compartments != sim.Compartments || c.Listed != sim.Compartments || c.Tables != sim.Compartments ||
				c.Capacity != sim.Compartments*sim.CompartmentLitres {
				t.Fatalf("demo car %+v", c)
			}
		}
		if p := carPage(t, e, admin, map[string]any{"tableState": "none"}); p.Total != 0 {
			t.Fatalf("cars without tables: %d", p.Total)
		}
		carID := all.List[0].CarID
		v := getCar(t, e, admin, carID)
		want := tank.EllipseStrap(sim.CompartmentLitres, sim.TankHeightMM, tankinfo.DemoStrapRows)
		if len(v.Compartments) != 3 || !reflect.DeepEqual(tank.Strap(v.Compartments[0].Strap), want) || v.Compartments[0].TableCapacity != 10000 {
			t.Fatalf("car view %+v", v.Compartments[0])
		}
		if got := e.App.TankCatalog.Compartments(carID); len(got) != 3 || len(got[2].Strap) != tankinfo.DemoStrapRows {
			t.Fatalf("catalog after seed: %+v", got)
		}
		// seeding again changes nothing
		before := dbtest.Snapshot(t, e.DB, "compartments")
		if err := e.App.TankInfo.SeedDemo(ctx, []string{all.List[0].Plate}); err != nil {
			t.Fatal(err)
		}
		if after := dbtest.Snapshot(t, e.DB, "compartments"); !reflect.DeepEqual(before, after) {
			t.Fatal("second seed changed compartments")
		}

		// a wrong table: refused with the compartment, row and reason; nothing stored
		bad := make([]map[string]any, 3)
		for i, c := range v.Compartments {
			bad[i] = compInput(c)
		}
		rows := append([]tank.StrapRow{}, v.Compartments[2].Strap...)
		rows[2].HeightMM = rows[1].HeightMM
		bad[2]["strap"] = rows
		e.Lang = "zh-CN"
		expect(t, e.Call("POST", P+"saveCar", admin, map[string]any{"carId": carID, "compartments": bad}), 200, "3 号仓位容积表第3行：高度必须严格递增")
		e.Lang = "en-US"
		expect(t, e.Call("POST", P+"saveCar", admin, map[string]any{"carId": carID, "compartments": bad}), 200,
			"Compartment 3, strapping table row 3: heights must strictly rise")
		bad[2]["strap"] = v.Compartments[2].Strap
		bad[1]["no"] = 1
		e.Lang = "zh-CN"
		expect(t, e.Call("POST", P+"saveCar", admin, map[string]any{"carId": carID, "compartments": bad}), 200, "仓位号 1 重复")
		bad[1]["no"] = 4
		expect(t, e.Call("POST", P+"saveCar", admin, map[string]any{"carId": carID, "compartments": bad}), 200, "仓位号 4 超出该车登记的仓位数（1–3）")
		bad[1]["no"], bad[1]["probeOffset"] = 2, 600
		expect(t, e.Call("POST", P+"saveCar", admin, map[string]any{"carId": carID, "compartments": bad}), 200, "2 号仓位：探杆补偿（毫米）应在 -500 到 500 之间")
		if after := dbtest.Snapshot(t, e.DB, "compartments"); !reflect.DeepEqual(before, after) {
			t.Fatal("refused saves changed compartments")
		}

		// a good save: compartment 1 gets a small table and an offset, 2 keeps its table, 3 is dropped
		small := []tank.StrapRow{{HeightMM: 0, VolumeL: 0}, {HeightMM: 1000, VolumeL: 6000}, {HeightMM: 2000, VolumeL: 12000}}
		in := []map[string]any{compInput(v.Compartments[0]), compInput(v.Compartments[1])}
		in[0]["strap"], in[0]["probeOffset"], in[0]["density20"], in[0]["product"], in[0]["probeType"] = small, -20, 845.5, tank.ProductJet, "雷达"
		var saved tankinfo.CarView
		e.MustOK("POST", P+"saveCar", admin, map[string]any{"carId": carID, "compartments": in}).Decode(&saved)
		c1 := saved.Compartments[0]
		if !c1.Saved || c1.ProbeOffset != -20 || c1.Density20 != 845.5 || c1.Product != tank.ProductJet || c1.TableCapacity != 12000 ||
			!c1.CapacityWarning || len(c1.Strap) != 3 || saved.Compartments[2].Saved {
			t.Fatalf("saved %+v / %+v", c1, saved.Compartments[2])
		}
		if again := getCar(t, e, admin, carID); !reflect.DeepEqual(again, saved) {
			t.Fatalf("read back %+v, saved %+v", again, saved)
		}
		cat := e.App.TankCatalog.Compartments(carID)
		if len(cat) != 2 || cat[0].ProbeOffsetMM != -20 || len(cat[0].Strap) != 3 {
			t.Fatalf("catalog after save: %+v", cat)
		}
		// the catalog converts through the new table: level 520 mm + offset -20 = 500 mm → 3000 L
		lv := &tank.Levels{N: 1}
		lv.Probes[0] = tank.Level{Compartment: 1, LevelMM: 520, VolumeL: 1234, TempDeci: 200}
		if r := e.App.TankCatalog.Convert(carID, lv); len(r) != 1 || r[0].VolumeL != 3000 || r[0].Source != tank.SourceStrap {
			t.Fatalf("convert %+v", r)
		}
		// a fresh catalog loaded from the store agrees
		fresh := tank.NewCatalog()
		if err := fresh.Load(ctx, e.DB); err != nil || !reflect.DeepEqual(fresh.Compartments(carID), cat) {
			t.Fatalf("store and catalog differ: %v\n%+v\n%+v", err, fresh.Compartments(carID), cat)
		}
		for _, f := range []string{"plate", "groupName", "compartments", "listed", "tables", "updatedAt"} {
			for _, o := range []string{"ascend", "descend"} {
				if p := carPage(t, e, admin, map[string]any{"sortField": f, "sortOrder": o, "pageSize": 500}); p.Total != all.Total {
					t.Fatalf("sorted by %s %s: %d", f, o, p.Total)
				}
			}
		}
		if p := carPage(t, e, admin, map[string]any{"sortField": "tables", "sortOrder": "ascend"}); p.List[0].CarID != carID {
			t.Fatalf("fewest tables first: %+v", p.List[0])
		}
		expect(t, e.Call("POST", P+"carPage", admin, map[string]any{"tableState": "half"}), 200, "容积表状态格式不正确")
		if p := carPage(t, e, admin, map[string]any{"tableState": "some"}); p.Total != 1 || p.List[0].CarID != carID || p.List[0].Capacity != 22000 {
			t.Fatalf("partial cars: %+v", p)
		}
		var logged int
		if err := e.DB.NewSelect().Table("operation_logs").ColumnExpr("count(*)").Where("module = ?", tankinfo.ModuleTankInfo).Scan(ctx, &logged); err != nil || logged != 1 {
			t.Fatalf("operation log: %d %v", logged, err)
		}
	})
}

func groundInput(stationID int64, no int) map[string]any {
	return map[string]any{"stationId": stationID, "tankNo": no, "name": "1号罐", "product": 0, "capacity": 30000, "height": 2500,
		"strap":     []tank.StrapRow{{HeightMM: 0, VolumeL: 0}, {HeightMM: 1250, VolumeL: 15000}, {HeightMM: 2500, VolumeL: 30000}},
		"gaugeHost": "127.0.0.1", "gaugePort": 10001, "gaugeTank": 1, "lowStockPct": 15, "coverDaysMin": 2, "waterMaxMm": 30}
}

type stationOpt = tankinfo.StationOption

func stations(t *testing.T, e *apptest.Env, tok string) []stationOpt {
	t.Helper()
	var out []stationOpt
	e.MustOK("GET", P+"stations", tok, nil).Decode(&out)
	return out
}

// tankless reports whether a station has no ground tanks yet (the demo seeds tanks at its filling
// stations; the tests add theirs where there are none).
func tankless(t *testing.T, e *apptest.Env, tok string, stationID int64) bool {
	t.Helper()
	var p httpx.Page[tankinfo.GroundView]
	e.MustOK("POST", P+"groundPage", tok, map[string]any{"stationId": stationID}).Decode(&p)
	return p.Total == 0
}

// Ground tanks: validation, uniqueness per station, round trip, export, delete with the station's
// delete refused while it has tanks.
func TestGroundTanks(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		admin := e.Login("admin", "admin123")
		all := stations(t, e, admin)
		if len(all) < 2 {
			t.Fatalf("stations %+v", all)
		}
		var sts []stationOpt
		for _, s := range all {
			if tankless(t, e, admin, s.ID) {
				sts = append(sts, s)
			}
		}
		if len(sts) == 0 {
			t.Fatal("no station without ground tanks")
		}
		st := sts[0].ID
		e.Lang = "zh-CN"
		with := func(k string, v any) map[string]any { m := groundInput(st, 1); m[k] = v; return m }
		expect(t, e.Call("POST", P+"groundAdd", admin, with("tankNo", 100)), 200, "罐号应在 1 到 99 之间")
		expect(t, e.Call("POST", P+"groundAdd", admin, with("gaugeHost", "300.1.1.1")), 200, "液位仪地址格式不正确")
		expect(t, e.Call("POST", P+"groundAdd", admin, with("gaugePort", 70000)), 200, "液位仪端口应在 1 到 65535 之间")
		expect(t, e.Call("POST", P+"groundAdd", admin, with("gaugeTank", 0)), 200,
			"液位仪连接需要同时填写地址、端口和液位仪上的罐号（都不填表示没有液位仪）")
		expect(t, e.Call("POST", P+"groundAdd", admin, with("strap", []tank.StrapRow{{HeightMM: 0, VolumeL: 10}, {HeightMM: 100, VolumeL: 5}})), 200,
			"第2行：容积不能小于上一行")
		expect(t, e.Call("POST", P+"groundAdd", admin, with("stationId", 999999)), 200, "站点不存在")

		var g tankinfo.GroundView
		e.MustOK("POST", P+"groundAdd", admin, groundInput(st, 1)).Decode(&g)
		if g.ID == 0 || g.TableCapacity != 30000 || len(g.Strap) != 3 || g.GaugePort != 10001 || g.StationName != sts[0].StationName {
			t.Fatalf("added %+v", g)
		}
		expect(t, e.Call("POST", P+"groundAdd", admin, groundInput(st, 1)), 200, fmt.Sprintf("站点“%s”已有 1 号油罐", sts[0].StationName))
		// no gauge: all three empty; IPv6 and host names are addresses too
		noGauge := groundInput(st, 2)
		noGauge["gaugeHost"], noGauge["gaugePort"], noGauge["gaugeTank"], noGauge["strap"] = "", 0, 0, nil
		second := e.MustOK("POST", P+"groundAdd", admin, noGauge).ID()
		upd := groundInput(st, 3)
		upd["id"], upd["gaugeHost"], upd["name"] = second, "::1", "二号罐"
		var u tankinfo.GroundView
		e.MustOK("POST", P+"groundUpdate", admin, upd).Decode(&u)
		if u.TankNo != 3 || u.GaugeHost != "::1" || u.Name != "二号罐" {
			t.Fatalf("updated %+v", u)
		}
		var p httpx.Page[tankinfo.GroundView]
		e.MustOK("POST", P+"groundPage", admin, map[string]any{"stationId": st, "sortField": "tankNo", "sortOrder": "descend"}).Decode(&p)
		if p.Total != 2 || p.List[0].TankNo != 3 || p.List[0].Strap != nil || p.List[1].StrapRows != 3 {
			t.Fatalf("page %+v", p)
		}
		e.MustOK("POST", P+"groundPage", admin, map[string]any{"product": 4}).Decode(&p)
		if p.Total != 0 {
			t.Fatalf("jet tanks %d", p.Total)
		}
		if r := e.Call("POST", P+"groundExport", admin, map[string]any{"stationId": st}); r.Status != 200 || len(r.Body) < 100 {
			t.Fatalf("export %d %s", r.Status, r.Body)
		}

		// the station cannot be deleted while it has tanks
		expect(t, e.Call("POST", "/base-info-app/station/delete", admin, map[string]any{"id": st}), 200,
			"该站点下还有 2 个油罐，请先在“油罐信息”中删除")
		e.MustOK("POST", P+"groundDelete", admin, map[string]any{"id": g.ID})
		e.MustOK("POST", P+"groundDelete", admin, map[string]any{"id": second})
		expect(t, e.Call("GET", fmt.Sprintf(P+"ground?id=%d", g.ID), admin, nil), 200, "记录不存在")
		e.MustOK("POST", "/base-info-app/station/delete", admin, map[string]any{"id": st})
	})
}

// Another group's car, station and tank are refused; a user without the button codes may read only.
func TestScopeAndPermissions(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		admin := e.Login("admin", "admin123")
		g := e.Groups(admin)
		north := carPage(t, e, admin, map[string]any{"groupId": g["华北分公司"], "pageSize": 1}).List[0]
		east := carPage(t, e, admin, map[string]any{"groupId": g["华东分公司"], "pageSize": 1}).List[0]
		var northSt, eastSt int64
		var ns []struct {
			ID      int64 `bun:"id"`
			GroupID int64 `bun:"group_id"`
		}
		if err := e.DB.NewSelect().Table("stations").Column("id", "group_id").Scan(context.Background(), &ns); err != nil {
			t.Fatal(err)
		}
		gp := map[int64]string{}
		for name, id := range g {
			gp[id] = name
		}
		for _, s := range ns {
			if gp[s.GroupID] == "华北分公司" && northSt == 0 && tankless(t, e, admin, s.ID) {
				northSt = s.ID
			}
			if gp[s.GroupID] == "华东分公司" && eastSt == 0 {
				eastSt = s.ID
			}
		}
		if northSt == 0 || eastSt == 0 {
			t.Fatalf("stations north %d east %d", northSt, eastSt)
		}
		northTank := e.MustOK("POST", P+"groundAdd", admin, groundInput(northSt, 1)).ID()

		codes := []string{"03", "03-12", "03-12-01", "03-12-02", "03-12-03", "03-12-04"}
		role := e.MustOK("POST", "/authority-app/roleInfo/insert", admin, map[string]any{"name": "油罐维护", "groupId": g["华东分公司"], "resourceCodes": codes}).ID()
		e.MustOK("POST", "/authority-app/userInfo/insert", admin, map[string]any{"name": "tankops", "password": "tank123", "groupId": g["华东分公司"], "roleIds": []int64{role}})
		ro := e.MustOK("POST", "/authority-app/roleInfo/insert", admin, map[string]any{"name": "油罐查看", "groupId": g["华东分公司"], "resourceCodes": []string{"03", "03-12"}}).ID()
		e.MustOK("POST", "/authority-app/userInfo/insert", admin, map[string]any{"name": "tankview", "password": "tank123", "groupId": g["华东分公司"], "roleIds": []int64{ro}})
		ops, view := e.Login("tankops", "tank123"), e.Login("tankview", "tank123")

		e.Lang = "zh-CN"
		const scope = "该记录不在您的数据范围内"
		before := dbtest.Snapshot(t, e.DB, "compartments")
		beforeG := dbtest.Snapshot(t, e.DB, "ground_tanks")
		northView := getCar(t, e, admin, north.CarID)
		body := map[string]any{"carId": north.CarID, "compartments": []map[string]any{compInput(northView.Compartments[0])}}
		expect(t, e.Call("GET", fmt.Sprintf(P+"car?carId=%d", north.CarID), ops, nil), 403, scope)
		expect(t, e.Call("POST", P+"saveCar", ops, body), 403, scope)
		expect(t, e.Call("POST", P+"strapExport", ops, map[string]any{"carId": north.CarID, "no": 1}), 403, scope)
		expect(t, e.Call("POST", P+"carPage", ops, map[string]any{"groupId": g["华北分公司"]}), 403, scope)
		expect(t, e.Call("POST", P+"groundAdd", ops, groundInput(northSt, 2)), 403, scope)
		upd := groundInput(eastSt, 1)
		upd["id"] = northTank
		expect(t, e.Call("POST", P+"groundUpdate", ops, upd), 403, scope)
		expect(t, e.Call("POST", P+"groundDelete", ops, map[string]any{"id": northTank}), 403, scope)
		expect(t, e.Call("GET", fmt.Sprintf(P+"ground?id=%d", northTank), ops, nil), 403, scope)
		expect(t, e.Call("POST", P+"groundPage", ops, map[string]any{"stationId": northSt}), 403, scope)
		if a, b := dbtest.Snapshot(t, e.DB, "compartments"), dbtest.Snapshot(t, e.DB, "ground_tanks"); !reflect.DeepEqual(before, a) || !reflect.DeepEqual(beforeG, b) {
			t.Fatal("out-of-scope calls changed the tables")
		}
		// in scope the same user works; the list shows only the scope
		if p := carPage(t, e, ops, map[string]any{"pageSize": 100}); p.Total == 0 || p.Total >= carPage(t, e, admin, map[string]any{"pageSize": 1}).Total {
			t.Fatalf("east sees %d cars", p.Total)
		}
		for _, s := range stations(t, e, ops) {
			if s.ID == northSt {
				t.Fatal("east user lists a north station")
			}
		}
		eastView := getCar(t, e, ops, east.CarID)
		e.MustOK("POST", P+"saveCar", ops, map[string]any{"carId": east.CarID, "compartments": []map[string]any{compInput(eastView.Compartments[0])}})

		// read-only: lists yes, changes no
		carPage(t, e, view, map[string]any{})
		const forbidden = "没有权限执行此操作"
		expect(t, e.Call("POST", P+"saveCar", view, map[string]any{"carId": east.CarID, "compartments": []any{}}), 403, forbidden)
		expect(t, e.Call("POST", P+"groundAdd", view, groundInput(eastSt, 5)), 403, forbidden)
		expect(t, e.Call("POST", P+"groundDelete", view, map[string]any{"id": northTank}), 403, forbidden)
		expect(t, e.Call("POST", P+"carExport", view, map[string]any{}), 403, forbidden)
		expect(t, e.Call("POST", P+"strapImport", view, []byte("x")), 403, forbidden)
		cust := e.Login("customer", "customer123")
		expect(t, e.Call("POST", P+"carPage", cust, map[string]any{}), 403, forbidden)
		if r := e.Call("POST", P+"carPage", "", map[string]any{}); r.Status != http.StatusUnauthorized {
			t.Fatalf("no token: %d", r.Status)
		}
	})
}

// A table exported as xlsx imports back to the same rows; a wrong sheet gives row errors.
func TestStrapXlsxRoundTrip(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		admin := e.Login("admin", "admin123")
		car := carPage(t, e, admin, map[string]any{"pageSize": 1}).List[0]
		e.Lang = "zh-CN"
		r := e.Call("POST", P+"strapExport", admin, map[string]any{"carId": car.CarID, "no": 2})
		if r.Status != 200 || r.Header.Get("Content-Type") == "application/json; charset=utf-8" {
			t.Fatalf("export %d %s", r.Status, r.Body)
		}
		f, err := excelize.OpenReader(bytes.NewReader(r.Body))
		if err != nil {
			t.Fatal(err)
		}
		cells, _ := f.GetRows(f.GetSheetList()[0])
		if cells[0][0] != "高度(mm)" || cells[0][1] != "容积(L)" || len(cells) != tankinfo.DemoStrapRows+1 {
			t.Fatalf("sheet head %v rows %d", cells[0], len(cells))
		}
		var res tankinfo.ImportResult
		e.MustOK("POST", P+"strapImport", admin, r.Body).Decode(&res)
		want := tank.EllipseStrap(sim.CompartmentLitres, sim.TankHeightMM, tankinfo.DemoStrapRows)
		if len(res.Errors) != 0 || !reflect.DeepEqual(tank.Strap(res.Rows), want) {
			t.Fatalf("import %d rows, errors %+v", len(res.Rows), res.Errors)
		}
		// break row 4 (sheet row 5) and row 10
		_ = f.SetCellValue(f.GetSheetList()[0], "A5", 1)
		_ = f.SetCellValue(f.GetSheetList()[0], "B10", "多")
		var buf bytes.Buffer
		if err := f.Write(&buf); err != nil {
			t.Fatal(err)
		}
		e.MustOK("POST", P+"strapImport", admin, buf.Bytes()).Decode(&res)
		if len(res.Rows) != 0 || len(res.Errors) != 1 || res.Errors[0].Message != "第10行：高度和容积必须是数字" {
			t.Fatalf("bad import %+v", res)
		}
		_ = f.SetCellValue(f.GetSheetList()[0], "B10", 400)
		buf.Reset()
		_ = f.Write(&buf)
		e.MustOK("POST", P+"strapImport", admin, buf.Bytes()).Decode(&res)
		if len(res.Rows) != 0 || len(res.Errors) == 0 || res.Errors[0].Message != "第5行：高度必须严格递增" {
			t.Fatalf("bad import %+v", res)
		}
		expect(t, e.Call("POST", P+"strapImport", admin, []byte("not a workbook")), 200, "文件不是有效的 xlsx 表格")
		expect(t, e.Call("POST", P+"strapImport", admin, []byte{}), 200, "文件是空的")
		// a compartment without a table has nothing to export
		v := getCar(t, e, admin, car.CarID)
		in := compInput(v.Compartments[0])
		in["strap"] = nil
		e.MustOK("POST", P+"saveCar", admin, map[string]any{"carId": car.CarID, "compartments": []map[string]any{in}})
		expect(t, e.Call("POST", P+"strapExport", admin, map[string]any{"carId": car.CarID, "no": 1}), 200, "还没有保存容积表")
	})
}
