package telemetry_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/fleet"
	"tankwatch/internal/jt808"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/tank"
	"tankwatch/internal/telemetry"
)

// recordsUser signs in a 华东 user holding the record pages (sensor 04-05, cleaning data 04-07, vehicle
// record 04-09, offline record 04-12) but not the raw-store administration.
func (he *histEnv) recordsUser(t *testing.T) string {
	t.Helper()
	role := he.MustOK("POST", "/authority-app/roleInfo/insert", he.admin, map[string]any{"name": "记录查看", "groupId": he.eastGroup,
		"resourceCodes": []string{"04-05", "04-07", "04-09", "04-12"}}).ID()
	he.MustOK("POST", "/authority-app/userInfo/insert", he.admin, map[string]any{"name": "eastrecords", "password": "secret1",
		"groupId": he.eastGroup, "roleIds": []int64{role}})
	return he.Login("eastrecords", "secret1")
}

// changeRow and offlineRow read coordinates ("" or a number) back.
type changeRow struct {
	telemetry.StateChangeView
	Lng any `json:"lng"`
	Lat any `json:"lat"`
}

type offlineRow struct {
	telemetry.OfflineView
	LastLng any `json:"lastLng"`
	LastLat any `json:"lastLat"`
}

// sheet reads the first sheet of an xlsx download.
func sheet(t *testing.T, r *apptest.Resp) [][]string {
	t.Helper()
	if r.Status != 200 || !strings.HasPrefix(r.Header.Get("Content-Type"), "application/vnd.openxmlformats") {
		t.Fatalf("export: %d %s %s", r.Status, r.Header.Get("Content-Type"), r.Body)
	}
	x, err := excelize.OpenReader(bytes.NewReader(r.Body))
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	rows, err := x.GetRows(x.GetSheetName(0))
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

func TestStateChangeRecords(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		he := newHistEnv(t, e, 0)
		user := he.recordsUser(t)
		car, north := he.eastCar, he.northCar
		rep := func(at time.Duration, status, alarm uint32, st *tank.State) telemetry.Report {
			return telemetry.Report{TerminalID: car.TerminalID, CarID: car.ID, Phone: car.Phone, Received: base.Add(at), Time: base.Add(at),
				Status: status, Alarm: alarm, Lat: 31_230_416, Lon: 121_473_701, Tank: st}
		}
		closed := &tank.State{Compartments: 3, Seal: tank.SealSealed}
		open := &tank.State{Compartments: 3, Seal: tank.SealSealed}
		open.Devices[1][tank.BottomValve] = tank.DevInstalled | tank.DevOpen
		broken := &tank.State{Compartments: 3, Seal: tank.SealBroken}
		he.store(t, []telemetry.Report{
			rep(-2*time.Hour, 0, 0, closed), // before the range: the baseline
			rep(0, jt808.StatusACC|jt808.StatusPositioned, 0, closed),
			rep(time.Minute, jt808.StatusACC|jt808.StatusPositioned|3<<8, 1<<1, open),
			rep(2*time.Minute, jt808.StatusPositioned|3<<8, 0, broken),
			{TerminalID: north.TerminalID, CarID: north.ID, Phone: north.Phone, Received: base, Time: base, Status: 1},
		}, nil)

		from, to := shTime(base.Add(-time.Hour)), shTime(base.Add(time.Hour))
		q := map[string]any{"carId": car.ID, "startTime": from, "endTime": to, "pageSize": 50}
		var page httpx.Page[changeRow]
		he.MustOK("POST", "/monitor-app/stateChange/page", user, q).Decode(&page)
		var texts []string
		for _, v := range page.List {
			texts = append(texts, v.Time.String()[11:]+" "+v.Text)
		}
		want := []string{
			"16:02:00 ACC：开 → 关", "16:02:00 报警解除：超速报警", "16:02:00 2 号仓底阀：打开 → 关闭", "16:02:00 铅封：已施封 → 铅封破坏",
			"16:01:00 载重状态：空车 → 满载", "16:01:00 产生报警：超速报警", "16:01:00 2 号仓底阀：关闭 → 打开",
			"16:00:00 ACC：关 → 开", "16:00:00 定位状态：未定位 → 已定位",
		}
		// newest first; at one time the order of derivation is reversed too
		if page.Total != len(want) || len(page.List) != len(want) {
			t.Fatalf("events: %d %q", page.Total, texts)
		}
		got := map[string]bool{}
		for _, s := range texts {
			got[s] = true
		}
		for _, w := range want {
			if !got[w] {
				t.Errorf("missing %q in %q", w, texts)
			}
		}
		if !strings.HasPrefix(texts[0], "16:02:00") || !strings.HasPrefix(texts[len(texts)-1], "16:00:00") {
			t.Errorf("not newest first: %q", texts)
		}
		for _, v := range page.List {
			if v.Kind == telemetry.ChangeOpen {
				if v.Compartment == nil || *v.Compartment != 2 || v.Device != "bottomValve" || v.Plate != "沪A·6N337" ||
					v.Lng != 121.473701 || v.Lat != 31.230416 {
					t.Errorf("device event: %+v", v)
				}
			}
		}

		// one kind, paged, by terminal phone, in English
		he.Lang = "en-US"
		he.MustOK("POST", "/monitor-app/stateChange/page", user, map[string]any{"phone": car.Phone, "startTime": from, "endTime": to,
			"kind": "acc", "pageSize": 1, "pageNum": 2}).Decode(&page)
		if page.Total != 2 || len(page.List) != 1 || page.List[0].Text != "ACC: off → on" {
			t.Errorf("acc page 2: %+v", page)
		}
		rows := sheet(t, he.Call("POST", "/monitor-app/stateChange/export", user, q))
		if len(rows) != 1+len(want) || rows[0][0] != "Time" || rows[1][1] != "沪A·6N337" {
			t.Errorf("export: %q", rows)
		}
		if r := he.Call("POST", "/monitor-app/stateChange/export", user, q); !strings.Contains(r.Header.Get("Content-Disposition"), "state-changes-") {
			t.Errorf("export name: %s", r.Header.Get("Content-Disposition"))
		}
		he.Lang = ""

		// scope and validation like the raw-data calls
		expect(t, he.Call("POST", "/monitor-app/stateChange/page", user, map[string]any{"carId": north.ID, "startTime": from, "endTime": to}), 403, "该记录不在您的数据范围内")
		expect(t, he.Call("POST", "/monitor-app/stateChange/page", user, map[string]any{"phone": north.Phone, "startTime": from, "endTime": to}), 403, "该记录不在您的数据范围内")
		expect(t, he.Call("POST", "/monitor-app/stateChange/export", user, map[string]any{"carId": north.ID, "startTime": from, "endTime": to}), 403, "该记录不在您的数据范围内")
		expect(t, he.Call("POST", "/monitor-app/stateChange/page", user, map[string]any{"startTime": from, "endTime": to}), 200, "请选择车辆或输入终端手机号")
		expect(t, he.Call("POST", "/monitor-app/stateChange/page", user, map[string]any{"carId": car.ID, "startTime": "2026-01-01", "endTime": "2026-02-02"}), 200, "查询时间跨度不能超过 31 天")
		expect(t, he.Call("POST", "/monitor-app/stateChange/page", user, map[string]any{"carId": car.ID, "endTime": to}), 200, "开始时间不能为空")
		expect(t, he.Call("POST", "/monitor-app/stateChange/page", user, map[string]any{"carId": car.ID, "startTime": from, "endTime": to, "kind": "x"}), 200, "变化类型格式不正确")
		expect(t, he.Call("POST", "/monitor-app/stateChange/export", user, map[string]any{"carId": car.ID, "startTime": to, "endTime": from}), 200, "结束时间不能早于开始时间")
		// the raw-data user lacks 04-07
		if r := he.Call("POST", "/monitor-app/stateChange/page", he.east, q); r.Status != 403 {
			t.Errorf("without 04-07: %d %s", r.Status, r.Body)
		}
	})
}

func TestOfflineRecords(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		he := newHistEnv(t, e, 0)
		user := he.recordsUser(t)
		var terms httpx.Page[fleet.TerminalView]
		he.MustOK("POST", "/base-info-app/terminal/page", he.admin, map[string]any{"groupId": he.eastGroup, "bound": true}).Decode(&terms)
		if len(terms.List) < 3 {
			t.Fatalf("east terminals: %+v", terms.List)
		}
		a, b, c := terms.List[0], terms.List[1], terms.List[2]
		// a takes the server's threshold (10 minutes), b keeps the demo's 20, c has 60
		setOffline := func(term fleet.TerminalView, minutes int) {
			var car fleet.CarView
			he.MustOK("GET", fmt.Sprintf("/base-info-app/carInfo/detail?id=%d", *term.CarID), he.admin, nil).Decode(&car)
			he.MustOK("POST", "/base-info-app/carInfo/update", he.admin, map[string]any{"id": car.ID, "plate": car.Plate,
				"compartments": car.Compartments, "groupId": car.GroupID, "offlineMinutes": minutes})
		}
		setOffline(a, 0)
		setOffline(c, 60)

		var reports []telemetry.Report
		at := func(term fleet.TerminalView, minutes ...int) {
			for _, m := range minutes {
				tm := base.Add(time.Duration(m) * time.Minute)
				reports = append(reports, telemetry.Report{TerminalID: term.ID, CarID: *term.CarID, Phone: term.Phone, Received: tm.Add(time.Second),
					Time: tm, Lat: 31_000_000 + int32(-m), Lon: 121_000_000})
			}
		}
		// now is base. a: reports every 5 minutes with a 30-minute silence from -90 to -60, and one
		// before the range that starts at -120 with a silence until -110.
		at(a, -130, -110, -105, -100, -95, -90, -60, -55, -50, -45, -40, -35, -30, -25, -20, -15, -10, -5, 0)
		// b: went silent at -40 and is still offline
		at(b, -60, -50, -45, -40)
		// c: silent for 40 minutes, under its own 60-minute threshold
		at(c, -100, -60, -20, -10)
		he.store(t, reports, nil)
		if err := he.App.Live.Reload(context.Background()); err != nil {
			t.Fatal(err)
		}
		he.h.UseLive(he.App.Live)

		from, to := shTime(base.Add(-2*time.Hour)), shTime(base)
		var page httpx.Page[offlineRow]
		he.MustOK("POST", "/monitor-app/offlineRecord/page", user, map[string]any{"startTime": from, "endTime": to}).Decode(&page)
		var got []string
		for _, v := range page.List {
			end := "-"
			if v.End != 0 {
				end = v.End.String()[11:]
			}
			got = append(got, fmt.Sprintf("%s %s %s %.1f %d", v.Plate, v.Start.String()[11:], end, v.Minutes, v.OfflineMinutes))
		}
		want := []string{
			fmt.Sprintf("%s 15:20:01 - 40.0 20", b.Plate),
			fmt.Sprintf("%s 14:30:01 15:00:01 30.0 10", a.Plate),
			fmt.Sprintf("%s 13:50:01 14:10:01 20.0 10", a.Plate),
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("periods:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		if v := page.List[0]; v.GroupName == "" || v.LastLat != 31.00004 || v.End != 0 {
			t.Errorf("open period: %+v", v)
		}

		// one car; a range that ended: the next report closes the silence
		he.MustOK("POST", "/monitor-app/offlineRecord/page", user, map[string]any{"carId": *a.CarID, "startTime": from,
			"endTime": shTime(base.Add(-75 * time.Minute))}).Decode(&page)
		if page.Total != 2 || page.List[0].End.String()[11:] != "15:00:01" {
			t.Errorf("a until -80: %+v", page)
		}
		he.MustOK("POST", "/monitor-app/offlineRecord/page", user, map[string]any{"groupId": he.eastGroup, "startTime": from, "endTime": to,
			"pageSize": 1, "pageNum": 3}).Decode(&page)
		if page.Total != 3 || len(page.List) != 1 || page.List[0].Plate != a.Plate {
			t.Errorf("page 3: %+v", page)
		}
		rows := sheet(t, he.Call("POST", "/monitor-app/offlineRecord/export", user, map[string]any{"startTime": from, "endTime": to}))
		if len(rows) != 4 || rows[0][0] != "车牌号" || rows[1][3] != "仍离线" || rows[2][4] != "30" {
			t.Errorf("export: %q", rows)
		}

		// scope and validation
		expect(t, he.Call("POST", "/monitor-app/offlineRecord/page", user, map[string]any{"groupId": he.northGroup, "startTime": from, "endTime": to}), 403, "该记录不在您的数据范围内")
		expect(t, he.Call("POST", "/monitor-app/offlineRecord/page", user, map[string]any{"carId": he.northCar.ID, "startTime": from, "endTime": to}), 403, "该记录不在您的数据范围内")
		expect(t, he.Call("POST", "/monitor-app/offlineRecord/export", user, map[string]any{"groupId": he.northGroup, "startTime": from, "endTime": to}), 403, "该记录不在您的数据范围内")
		expect(t, he.Call("POST", "/monitor-app/offlineRecord/page", user, map[string]any{"groupId": 999999, "startTime": from, "endTime": to}), 200, "记录不存在")
		expect(t, he.Call("POST", "/monitor-app/offlineRecord/page", user, map[string]any{"startTime": from}), 200, "结束时间不能为空")
		expect(t, he.Call("POST", "/monitor-app/offlineRecord/page", user, map[string]any{"startTime": "2026-01-01", "endTime": "2026-03-01"}), 200, "查询时间跨度不能超过 31 天")
		expect(t, he.Call("POST", "/monitor-app/offlineRecord/page", user, map[string]any{"startTime": from, "endTime": to, "pageSize": 501}), 200, "每页条数应在 1 到 500 之间")
		if r := he.Call("POST", "/monitor-app/offlineRecord/page", he.east, map[string]any{"startTime": from, "endTime": to}); r.Status != 403 {
			t.Errorf("without 04-12: %d %s", r.Status, r.Body)
		}
	})
}

func TestRecordTablesByPage(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		he := newHistEnv(t, e, 0)
		user := he.recordsUser(t)
		car := he.eastCar
		lv := &tank.Levels{N: 1, Probes: [8]tank.Level{{Compartment: 1, LevelMM: 1500, VolumeL: 12000, TempDeci: 215}}}
		r := func(at time.Duration) telemetry.Report {
			return telemetry.Report{TerminalID: car.TerminalID, CarID: car.ID, Phone: car.Phone, Received: base.Add(at), Time: base.Add(at),
				Status: 3 | 3<<8, Lat: 31_230_416, Lon: 121_473_701, Speed: 655, Mileage: 1005, HasMileage: true, Satellites: 9}
		}
		r1, r2, r3 := r(0), r(time.Minute), r(2*time.Minute)
		r1.Tank = &tank.State{Compartments: 3, Seal: tank.SealSealed}
		r1.Tank.Devices[0][1] = tank.DevInstalled | tank.DevLocked // compartment 1: manhole cover locked
		r1.Tank.Devices[1][2] = tank.DevInstalled | tank.DevOpen   // compartment 2: discharge valve open
		r2.Levels = lv
		r3.Help = &tank.Help{Type: tank.HelpUnlock, RequestID: 7}
		he.store(t, []telemetry.Report{r1, r2, r3}, []telemetry.Frame{{TerminalID: car.TerminalID, CarID: car.ID, Phone: car.Phone, At: base,
			MsgID: 0x0200, Data: locationFrame(t, car.Phone, 1, base, nil)}})
		from, to := shTime(base.Add(-time.Hour)), shTime(base.Add(time.Hour))
		q := func(table, only string) map[string]any {
			return map[string]any{"table": table, "carId": car.ID, "startTime": from, "endTime": to, "only": only}
		}

		// the vehicle record reads positions, the sensor record tank states; neither the frames nor the commands
		var pos httpx.Page[telemetry.PositionView]
		he.MustOK("POST", "/hbase/HbaseServlet", user, q("positions", "")).Decode(&pos)
		if pos.Total != 3 {
			t.Errorf("positions: %+v", pos)
		}
		var ts httpx.Page[telemetry.TankStateView]
		for _, c := range []struct {
			only string
			n    int
		}{{"", 3}, {"lockState", 1}, {"levels", 1}, {"help", 1}} {
			he.MustOK("POST", "/hbase/HbaseServlet", user, q("tankStates", c.only)).Decode(&ts)
			if ts.Total != c.n {
				t.Errorf("tank states only %q: %d, want %d", c.only, ts.Total, c.n)
			}
		}
		if len(ts.List) != 1 || ts.List[0].Help != 1 || ts.List[0].HelpName != "请求开锁" {
			t.Errorf("help rows: %+v", ts.List)
		}
		expect(t, he.Call("POST", "/hbase/HbaseServlet", user, q("tankStates", "x")), 200, "数据内容格式不正确")
		for _, table := range []string{"rawFrames", "commands"} {
			expect(t, he.Call("POST", "/hbase/HbaseServlet", user, q(table, "")), 403, "没有权限执行此操作")
			expect(t, he.Call("POST", "/hbase/HbaseServlet/export", user, q(table, "")), 403, "没有权限执行此操作")
		}
		if r := he.Call("GET", rawQuery(map[string]string{"carId": fmt.Sprint(car.ID), "startTime": from, "endTime": to}), user, nil); r.Status != 403 {
			t.Errorf("raw data without 04-06: %d", r.Status)
		}

		// exports of each table
		rows := sheet(t, he.Call("POST", "/hbase/HbaseServlet/export", user, q("positions", "")))
		if len(rows) != 4 || rows[0][2] != "车牌号" || rows[1][8] != "满载" || rows[1][9] != "100.5" {
			t.Errorf("positions export: %q", rows)
		}
		rows = sheet(t, he.Call("POST", "/hbase/HbaseServlet/export", user, q("tankStates", "levels")))
		if len(rows) != 2 || rows[1][4] != "1 号仓 1500 mm / 12000 L / 21.5 °C" {
			t.Errorf("tank states export: %q", rows)
		}
		// the lock states read as on the page, in the caller's language, not as the 128-digit code
		for lang, want := range map[string]string{
			"zh-CN": "1 号仓 已上锁（打开 0 · 关闭 1 · 上锁 1 · 故障 0）；2 号仓 打开（打开 1 · 关闭 0 · 上锁 0 · 故障 0）",
			"zh-TW": "1 號倉 已上鎖（打開 0 · 關閉 1 · 上鎖 1 · 故障 0）；2 號倉 打開（打開 1 · 關閉 0 · 上鎖 0 · 故障 0）",
			"en-US": "Comp. 1 locked (0 open · 1 closed · 1 locked · 0 fault); Comp. 2 open (1 open · 0 closed · 0 locked · 0 fault)",
		} {
			he.Lang = lang
			rows = sheet(t, he.Call("POST", "/hbase/HbaseServlet/export", user, q("tankStates", "lockState")))
			if len(rows) != 2 || rows[1][2] != want {
				t.Errorf("%s: tank states export lock state: %q", lang, rows)
			}
		}
		he.Lang = ""
		rows = sheet(t, he.Call("POST", "/hbase/HbaseServlet/export", he.east, q("rawFrames", "")))
		if len(rows) != 2 || rows[1][3] != "0x0200" || rows[1][4] != "位置信息汇报" {
			t.Errorf("frames export: %q", rows)
		}
		rows = sheet(t, he.Call("POST", "/hbase/rawHistoryRecord/export", he.east, q("", "")))
		if len(rows) != 2 || rows[0][8] != "解析错误" || !strings.HasPrefix(rows[1][7], "7E0200") {
			t.Errorf("raw data export: %q", rows)
		}
		expect(t, he.Call("POST", "/hbase/rawHistoryRecord/export", he.east, map[string]any{"carId": he.northCar.ID, "startTime": from, "endTime": to}), 403, "该记录不在您的数据范围内")
		expect(t, he.Call("POST", "/hbase/HbaseServlet/export", he.east, q("", "")), 200, "数据表不能为空")

		// the raw frame names its message
		var raw httpx.Page[telemetry.RawFrameView]
		he.Lang = "en-US"
		he.MustOK("GET", rawQuery(map[string]string{"carId": fmt.Sprint(car.ID), "startTime": from, "endTime": to}), he.east, nil).Decode(&raw)
		if len(raw.List) != 1 || raw.List[0].MsgName != "Location report" {
			t.Errorf("msgName: %+v", raw.List)
		}
	})
}
