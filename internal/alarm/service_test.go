package alarm_test

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"tankwatch/internal/alarm"
	"tankwatch/internal/app/apptest"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
	"tankwatch/internal/tank"
	"tankwatch/internal/telemetry"

	"github.com/xuri/excelize/v2"
)

func exportRows(t *testing.T, r *apptest.Resp) [][]string {
	t.Helper()
	x, err := excelize.OpenReader(bytes.NewReader(r.Body))
	if err != nil {
		t.Fatalf("export %d: %v", r.Status, err)
	}
	defer x.Close()
	rows, err := x.GetRows(x.GetSheetName(0))
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

type demoCar struct {
	ID    int64  `bun:"id"`
	Plate string `bun:"plate"`
}

// carIn returns a demo car of the named group (its subtree).
func carIn(t *testing.T, e *apptest.Env, group string) demoCar {
	t.Helper()
	var c demoCar
	err := e.DB.NewSelect().TableExpr("cars AS c").ColumnExpr("c.id, c.plate").
		Join("JOIN org_groups AS g ON g.id = c.group_id").
		Where("g.path LIKE (SELECT path FROM org_groups WHERE name = ?) || '%'", group).OrderExpr("c.id").Limit(1).Scan(t.Context(), &c)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// speedingReports drives car at kmh for a minute from at.
func speedingReports(carID int64, at time.Time, kmh float64) []telemetry.Report {
	var out []telemetry.Report
	for s := 0; s <= 60; s += 10 {
		tm := at.Add(time.Duration(s) * time.Second)
		out = append(out, telemetry.Report{CarID: carID, TerminalID: 1, Time: tm, Received: tm, Lat: 31_230_000, Lon: 121_470_000,
			Speed: uint16(kmh * 10)})
	}
	tm := at.Add(70 * time.Second)
	return append(out, telemetry.Report{CarID: carID, TerminalID: 1, Time: tm, Received: tm, Lat: 31_230_000, Lon: 121_470_000, Speed: 400})
}

func sealReport(carID int64, at time.Time, seal tank.Seal) telemetry.Report {
	s := &tank.State{Compartments: 1, Seal: seal}
	s.Devices[0][tank.ManholeCover] = tank.DevInstalled | tank.DevLocked
	return telemetry.Report{CarID: carID, TerminalID: 1, Time: at, Received: at, Lat: 39_900_000, Lon: 116_400_000, Tank: s}
}

type pub struct {
	mu  sync.Mutex
	got map[string][]byte
}

func (p *pub) Publish(topic string, payload []byte) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.got[topic] = payload
	return nil
}

func TestAlarmCalls(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		ctx := t.Context()
		east, north := carIn(t, e, "华东分公司"), carIn(t, e, "华北分公司")
		fake := &pub{got: map[string][]byte{}}
		eng := alarm.NewEngine(alarm.Deps{Service: e.App.Alarms.Service, Cars: e.App.Fleet, Recipients: e.App.Org, Publisher: fake},
			alarm.EngineConfig{}, nil)
		if err := eng.Warm(ctx); err != nil {
			t.Fatal(err)
		}
		at := e.Clock.Now().Add(-time.Hour)
		eng.Evaluate(ctx, speedingReports(east.ID, at, 95))
		eng.Evaluate(ctx, []telemetry.Report{sealReport(north.ID, at, tank.SealSealed), sealReport(north.ID, at.Add(time.Minute), tank.SealBroken)})

		admin, dispatcher, customer := e.Login("admin", "admin123"), e.Login("dispatcher", "dispatch123"), e.Login("customer", "customer123")
		day := map[string]any{"startTime": at.Add(-time.Hour).UnixMilli(), "endTime": e.Clock.Now().UnixMilli()}
		var page httpx.Page[alarm.View]
		e.MustOK("POST", "/alarm-app/alarmMessage/findsome", dispatcher, map[string]any{}).Decode(&page)
		if page.Total != 2 {
			t.Fatalf("dispatcher sees %d alarms, want 2: %+v", page.Total, page.List)
		}
		seal, speed := page.List[0], page.List[1]
		if seal.Type != alarm.CodeSealBroken || seal.Level != 1 || seal.CarID != north.ID || seal.TypeName != "施封破坏" {
			t.Errorf("newest alarm: %+v", seal)
		}
		if speed.Type != alarm.CodeSpeeding || speed.Plate != east.Plate || speed.EndTime == 0 || speed.Detail != "限速 80 km/h，最高 95.0 km/h" {
			t.Errorf("speeding alarm: %+v", speed)
		}
		// seal broken is level I with push on: every user who sees 华北 and the alarm list got it
		if _, ok := fake.got["msg/user/1"]; !ok {
			t.Errorf("admin did not get the level I push: %v", fake.got)
		}
		var m struct {
			Key, Code, Message string
			Texts, Data        map[string]string
		}
		_ = json.Unmarshal(fake.got["msg/user/1"], &m)
		if m.Code != alarm.CodeSealBroken || !strings.Contains(m.Message, "施封破坏") || m.Data["carNumber"] == "" {
			t.Errorf("push message: %+v", m)
		}
		// the console shows the push in its own language (the broker cannot know it)
		if m.Texts["zh-CN"] != m.Message || !strings.Contains(m.Texts["zh-CN"], " 发生 I级报警：") || !strings.Contains(m.Texts["zh-TW"], " 發生 I級報警：") ||
			!strings.HasPrefix(m.Texts["en-US"], m.Data["carNumber"]+": Level I alarm, ") {
			t.Errorf("push texts per language: %v", m.Texts)
		}
		// the type's name per language, for the video wall's tiles
		if m.Data[alarm.TypeNameKey(i18n.ZhCN)] != "施封破坏" || m.Data[alarm.TypeNameKey(i18n.EnUS)] == "" || m.Data[alarm.TypeNameKey(i18n.EnUS)] == "施封破坏" ||
			m.Data[alarm.TypeNameKey(i18n.ZhTW)] == "" {
			t.Errorf("push type names: %v", m.Data)
		}
		if len(fake.got) > 3 {
			t.Errorf("speeding (level III) was pushed too: %v", fake.got)
		}

		// filters
		e.MustOK("POST", "/alarm-app/alarmMessage/findsome", admin, map[string]any{"levels": []int{1}}).Decode(&page)
		if page.Total != 1 || page.List[0].ID != seal.ID {
			t.Errorf("level I filter: %+v", page)
		}
		e.MustOK("POST", "/alarm-app/alarmMessage/findsome", admin, map[string]any{"carNumber": east.Plate[len(east.Plate)-4:]}).Decode(&page)
		if page.Total != 1 || page.List[0].ID != speed.ID {
			t.Errorf("plate filter: %+v", page)
		}
		// the plate without its middle dot, lower-case, finds the same alarm (D30)
		e.MustOK("POST", "/alarm-app/alarmMessage/findsome", admin, map[string]any{"carNumber": strings.ToLower(strings.ReplaceAll(east.Plate, "·", " "))}).Decode(&page)
		if page.Total != 1 || page.List[0].ID != speed.ID {
			t.Errorf("plate filter, other form: %+v", page)
		}
		e.MustOK("POST", "/alarm-app/alarmMessage/findsome", admin, map[string]any{"carNumber": "_"}).Decode(&page)
		if page.Total != 0 {
			t.Errorf("plate filter _ is a wildcard: %+v", page)
		}
		var byCar []alarm.View
		e.MustOK("POST", "/alarm-app/alarmMessage/findListByCarId", admin, map[string]any{"carId": east.ID}).Decode(&byCar)
		if len(byCar) != 1 || byCar[0].ID != speed.ID {
			t.Errorf("findListByCarId: %+v", byCar)
		}

		// validation in the caller's language
		if r := e.Call("POST", "/alarm-app/alarmMessage/findsome", admin, map[string]any{"startTime": "2026-03-01"}); r.Code != 0 || r.Message != "结束时间不能为空" {
			t.Errorf("start without end: %s", r.Body)
		}
		e.Lang = "en-US"
		if r := e.Call("POST", "/alarm-app/alarmMessage/deal", admin, map[string]any{"ids": []int64{seal.ID}, "state": 7}); r.Code != 0 || r.Message != "Processing state is not valid" {
			t.Errorf("bad state: %s", r.Body)
		}
		if r := e.Call("POST", "/alarm-app/alarmMessage/exceptionTypeRatio", admin, map[string]any{}); r.Code != 0 || r.Message != "Start time cannot be empty" {
			t.Errorf("statistics without a range: %s", r.Body)
		}
		e.Lang = ""

		// scope: the 华东 customer may not process 华北's alarm (and has no alarm list at all)
		if r := e.Call("POST", "/alarm-app/alarmMessage/deal", customer, map[string]any{"ids": []int64{seal.ID}, "state": 1}); r.Status != 403 {
			t.Errorf("customer deal: %d %s", r.Status, r.Body)
		}

		// processing
		e.MustOK("POST", "/alarm-app/alarmMessage/deal", dispatcher, map[string]any{"ids": []int64{seal.ID, speed.ID}, "state": 2, "remark": " 已通知司机 "})
		e.MustOK("POST", "/alarm-app/alarmMessage/findsome", admin, map[string]any{"states": []int{2}}).Decode(&page)
		if page.Total != 2 || page.List[0].Remark != "已通知司机" || page.List[0].HandlerName != "dispatcher" {
			t.Errorf("after deal: %+v", page.List)
		}
		var mon []alarm.View
		e.MustOK("POST", "/alarm-app/alarmMessage/selectByMonitor", admin, map[string]any{}).Decode(&mon)
		if len(mon) != 0 {
			t.Errorf("selectByMonitor lists processed alarms: %+v", mon)
		}

		// statistics
		var ratio []alarm.TypeCount
		e.MustOK("POST", "/alarm-app/alarmMessage/exceptionTypeRatio", admin, day).Decode(&ratio)
		if len(ratio) != 2 || ratio[0].Count != 1 {
			t.Errorf("type ratio: %+v", ratio)
		}
		var line []alarm.DayCount
		e.MustOK("POST", "/alarm-app/alarmMessage/exceptionTypeLine", admin, day).Decode(&line)
		if len(line) != 2 || line[0].Day != at.In(httpx.Shanghai).Format("2006-01-02") {
			t.Errorf("type line: %+v", line)
		}
		var rank []alarm.CarCount
		e.MustOK("POST", "/alarm-app/alarmMessage/vehicleRankingRatio", admin, day).Decode(&rank)
		if len(rank) != 2 {
			t.Errorf("ranking: %+v", rank)
		}
		var per httpx.Page[alarm.CarTypes]
		e.MustOK("POST", "/alarm-app/alarmMessage/vehicleAbnormalStatistics", admin, day).Decode(&per)
		if per.Total != 2 || per.List[0].Total != 1 {
			t.Errorf("per vehicle: %+v", per)
		}
		var per2 httpx.Page[alarm.CarSummary]
		e.MustOK("POST", "/alarm-app/alarmMessage/findsome2", admin, map[string]any{}).Decode(&per2)
		if per2.Total != 2 {
			t.Errorf("findsome2: %+v", per2)
		}

		// export
		r := e.Call("POST", "/alarm-app/alarmMessage/export", admin, map[string]any{})
		if r.Status != 200 || !strings.Contains(r.Header.Get("Content-Disposition"), "alarms-") {
			t.Errorf("export: %d %v", r.Status, r.Header)
		}
		// levels read "V级" / "V級" / "Level V", never a bare numeral
		for lang, level := range map[string]*regexp.Regexp{"zh-CN": regexp.MustCompile(`^(I|II|III|IV|V)级$`),
			"zh-TW": regexp.MustCompile(`^(I|II|III|IV|V)級$`), "en-US": regexp.MustCompile(`^Level (I|II|III|IV|V)$`)} {
			e.Lang = lang
			rows := exportRows(t, e.Call("POST", "/alarm-app/alarmMessage/export", admin, map[string]any{}))
			if len(rows) < 2 {
				t.Fatalf("%s: export rows %q", lang, rows)
			}
			for _, row := range rows[1:] {
				if !level.MatchString(row[2]) {
					t.Errorf("%s: level %q", lang, row[2])
				}
			}
		}
		e.Lang = ""

		// control mode: 华东 stops watching speeding; the next episode raises nothing
		var eastGroup int64
		if err := e.DB.NewSelect().TableExpr("org_groups").ColumnExpr("id").Where("name = ?", "华东分公司").Scan(ctx, &eastGroup); err != nil {
			t.Fatal(err)
		}
		if r := e.Call("POST", "/alarm-app/controlMode/save", admin, map[string]any{"groupId": eastGroup, "watched": []string{"offline"},
			"speedLimit": 0, "parkingMinutes": 60, "offlineMinutes": 30, "levelDropLitres": 50}); r.Code != 0 || r.Message != "限速应在 1 到 300 之间" {
			t.Errorf("speed 0: %s", r.Body)
		}
		var cv alarm.ControlView
		e.MustOK("POST", "/alarm-app/controlMode/save", admin, map[string]any{"groupId": eastGroup, "watched": []string{"offline"},
			"speedLimit": 60, "parkingMinutes": 60, "offlineMinutes": 30, "levelDropLitres": 50}).Decode(&cv)
		if cv.Own == nil || cv.Source != alarm.ControlGroup || cv.Effective.SpeedLimit != 60 {
			t.Errorf("saved control: %+v", cv)
		}
		e.MustOK("POST", "/alarm-app/controlMode/get", admin, map[string]any{"carId": east.ID}).Decode(&cv)
		if cv.Own != nil || cv.Source != alarm.ControlGroup || cv.SourceID != eastGroup {
			t.Errorf("car inherits: %+v", cv)
		}
		eng.Evaluate(ctx, speedingReports(east.ID, at.Add(10*time.Minute), 95))
		e.MustOK("POST", "/alarm-app/alarmMessage/findsome", admin, map[string]any{"types": []string{"speeding"}}).Decode(&page)
		if page.Total != 1 {
			t.Errorf("an unwatched type raised an alarm: %+v", page.List)
		}
		e.MustOK("POST", "/alarm-app/controlMode/delete", admin, map[string]any{"groupId": eastGroup}).Decode(&cv)
		if cv.Own != nil || cv.Source != "" || cv.Effective.SpeedLimit != alarm.DefaultSpeedLimit {
			t.Errorf("after delete: %+v", cv)
		}

		// alarm types: level and push editable, validated
		if r := e.Call("POST", "/alarm-app/alarmType/update", admin, map[string]any{"code": "speeding", "level": 6, "group": "driving", "enabled": true, "push": true}); r.Message != "报警级别应在 1 到 5 之间" {
			t.Errorf("level 6: %s", r.Body)
		}
		e.MustOK("POST", "/alarm-app/alarmType/update", admin, map[string]any{"code": "speeding", "level": 2, "group": "driving", "enabled": true, "push": true})
		var types []alarm.TypeView
		e.MustOK("POST", "/alarm-app/alarmType/list", admin, nil).Decode(&types)
		found := false
		for _, ty := range types {
			if ty.Code == "speeding" {
				found = ty.Level == 2 && ty.Push && ty.Name == "超速（平台判定）"
			}
		}
		if !found || len(types) < 30 {
			t.Errorf("types after update (%d): speeding not level 2 with push", len(types))
		}
	})
}

func TestPasswordRecord(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		east, north := carIn(t, e, "华东分公司"), carIn(t, e, "华北分公司")
		at := e.Clock.Now().Add(-time.Hour)
		for _, c := range []*telemetry.Command{
			{TerminalID: 1, CarID: east.ID, Phone: "1", Kind: "unlock", Params: "compartments [1 2]", UserID: 1, Status: telemetry.CommandOK, Reply: "0 success", Created: at},
			{TerminalID: 2, CarID: north.ID, Phone: "2", Kind: "lock", Params: "all compartments", UserID: 1, Status: telemetry.CommandTimeout, Created: at},
			{TerminalID: 1, CarID: east.ID, Phone: "1", Kind: "text", Params: "x", UserID: 1, Status: telemetry.CommandOK, Created: at},
		} {
			if err := e.App.Devices.Commands.Start(t.Context(), c); err != nil {
				t.Fatal(err)
			}
		}
		admin := e.Login("admin", "admin123")
		day := map[string]any{"startTime": at.Add(-time.Hour).UnixMilli(), "endTime": e.Clock.Now().UnixMilli()}
		var page httpx.Page[alarm.LockCommandRow]
		e.MustOK("POST", "/alarm-app/passwordRecord/page", admin, day).Decode(&page)
		if page.Total != 2 || page.List[0].UserName != "admin" {
			t.Fatalf("password record: %+v", page)
		}
		day["carNumber"] = east.Plate
		e.MustOK("POST", "/alarm-app/passwordRecord/page", admin, day).Decode(&page)
		if page.Total != 1 || page.List[0].Plate != east.Plate || page.List[0].Kind != "unlock" || page.List[0].Status != "ok" {
			t.Fatalf("one car: %+v", page)
		}
		// compartments and the terminal's reply read in the caller's language
		for lang, want := range map[string][2]string{"zh-CN": {"1、2 号仓", "成功"}, "zh-TW": {"1、2 號倉", "成功"}, "en-US": {"compartments 1, 2", "success"}} {
			e.Lang = lang
			e.MustOK("POST", "/alarm-app/passwordRecord/page", admin, day).Decode(&page)
			if got := [2]string{page.List[0].ParamsText, page.List[0].Reply}; got != want || page.List[0].Params != "compartments [1 2]" {
				t.Errorf("%s: got %q, want %q", lang, got, want)
			}
		}
		e.Lang = ""
	})
}

// warmEngine is a stopped alarm engine of e's store on e's clock, warmed as at a start.
func warmEngine(t *testing.T, e *apptest.Env) *alarm.Engine {
	t.Helper()
	eng := alarm.NewEngine(alarm.Deps{Service: e.App.Alarms.Service, Cars: e.App.Fleet}, alarm.EngineConfig{}, nil)
	eng.Now = e.Clock.Now
	if err := eng.Warm(t.Context()); err != nil {
		t.Fatal(err)
	}
	return eng
}

func TestEngineWarmStartAndOffline(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		ctx := t.Context()
		car := carIn(t, e, "华南分公司")
		at := e.Clock.Now().Add(-2 * time.Hour)
		newEngine := func() *alarm.Engine { return warmEngine(t, e) }
		eng := newEngine()
		eng.Evaluate(ctx, []telemetry.Report{sealReport(car.ID, at, tank.SealBroken)})
		// a restart takes the open alarm over: no second record, and resealing closes the first
		eng = newEngine()
		eng.Evaluate(ctx, []telemetry.Report{sealReport(car.ID, at.Add(time.Minute), tank.SealBroken), sealReport(car.ID, at.Add(2*time.Minute), tank.SealSealed)})
		// silent since then: offline after 30 minutes, one record
		eng.CheckOffline(ctx)
		eng.CheckOffline(ctx)
		admin := e.Login("admin", "admin123")
		var list []alarm.View
		e.MustOK("POST", "/alarm-app/alarmMessage/findListByCarId", admin, map[string]any{"carId": car.ID}).Decode(&list)
		if len(list) != 2 {
			t.Fatalf("alarms: %+v", list)
		}
		off, seal := list[0], list[1]
		if seal.Type != alarm.CodeSealBroken || seal.EndTime != httpx.TimeOf(at.Add(2*time.Minute)) {
			t.Errorf("seal alarm after restart: %+v", seal)
		}
		if off.Type != alarm.CodeOffline || off.EndTime != 0 || off.StartTime != httpx.TimeOf(at.Add(2*time.Minute)) {
			t.Errorf("offline alarm: %+v", off)
		}
	})
}

// TestEngineOtherNode: two nodes' engines, both started before the alarm (D87, D91). The car's seal
// breaks on A; its terminal moves to B and sends that report again (A's acknowledgement was lost),
// then more reports with the seal broken, then resealed: one alarm, ended by B.
func TestEngineOtherNode(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		ctx := t.Context()
		car := carIn(t, e, "华北分公司")
		at := e.Clock.Now().Add(-time.Hour)
		a, b := warmEngine(t, e), warmEngine(t, e)
		a.Evaluate(ctx, []telemetry.Report{sealReport(car.ID, at, tank.SealBroken)})
		b.Evaluate(ctx, []telemetry.Report{sealReport(car.ID, at, tank.SealBroken)})
		b.Evaluate(ctx, []telemetry.Report{sealReport(car.ID, at.Add(time.Minute), tank.SealBroken)})
		b.Evaluate(ctx, []telemetry.Report{sealReport(car.ID, at.Add(2*time.Minute), tank.SealSealed)})
		admin := e.Login("admin", "admin123")
		var list []alarm.View
		e.MustOK("POST", "/alarm-app/alarmMessage/findListByCarId", admin, map[string]any{"carId": car.ID}).Decode(&list)
		if len(list) != 1 || list[0].Type != alarm.CodeSealBroken || list[0].StartTime != httpx.TimeOf(at) ||
			list[0].EndTime != httpx.TimeOf(at.Add(2*time.Minute)) {
			t.Fatalf("alarms across the two nodes: %+v", list)
		}
	})
}
