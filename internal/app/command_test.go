package app_test

import (
	"context"
	"testing"
	"time"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/fleet"
	"tankwatch/internal/platform/config"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/telemetry"
)

// TestOperatorCommandsReachTerminals sends text, unlock, lock and parameter queries through the HTTP
// call to simulated terminals over real TCP; each is answered, recorded and listed; offline terminals
// and cars without a terminal are refused with a clear message.
func TestOperatorCommandsReachTerminals(t *testing.T) {
	if testing.Short() {
		t.Skip("drives terminals over TCP")
	}
	t.Parallel()
	e := apptest.New(t, "sqlite", config.Config{Demo: true, JT808: "127.0.0.1:0", Theme: "tankcar"})
	if err := e.App.StartDevices(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(e.App.StopDevices)
	admin := e.Login("admin", "admin123")
	var cars httpx.Page[fleet.CarView]
	e.MustOK("POST", "/base-info-app/carInfo/page", admin, map[string]any{"plate": fleet.DemoCars[0].Plate}).Decode(&cars)
	car := cars.List[0]
	var terms httpx.Page[fleet.TerminalView]
	e.MustOK("POST", "/base-info-app/terminal/page", admin, map[string]any{"phone": fleet.DemoCars[0].TerminalPhone}).Decode(&terms)
	termID := terms.List[0].ID

	f := drive(t, e.App.Devices.GatewayAddr(), len(fleet.DemoCars), newAcked())
	waitFor(t, "the first demo terminal to log in", func() bool { return e.App.Devices.Gateway.Online(termID) })

	for _, body := range []map[string]any{
		{"carId": car.ID, "kind": "text", "text": "前方施工，请减速慢行"},
		{"carId": car.ID, "kind": "unlock", "compartments": []int{1, 2}},
		{"carId": car.ID, "kind": "lock"},
		{"carId": car.ID, "kind": "queryParams"},
		{"carId": car.ID, "kind": "setParams", "params": []map[string]any{{"id": 0x0029, "value": 10}}},
	} {
		var v telemetry.CommandView
		e.MustOK("POST", "/base-info-app/terminalCommand/send", admin, body).Decode(&v)
		if v.Status != telemetry.CommandOK || v.ID == 0 || v.Plate != car.Plate {
			t.Errorf("%v: %+v", body["kind"], v)
		}
		// the terminal's general reply (result 0) and the compartments read in the caller's language
		if body["kind"] != "queryParams" && v.Reply != "成功" {
			t.Errorf("%v: reply %q, want 成功", body["kind"], v.Reply)
		}
		if body["kind"] == "unlock" && v.ParamsText != "1、2 号仓" {
			t.Errorf("unlock: params %q", v.ParamsText)
		}
	}
	var page httpx.Page[telemetry.CommandView]
	e.MustOK("POST", "/base-info-app/terminalCommand/page", admin, map[string]any{"carId": car.ID,
		"startTime": shanghai(e.Clock.Now().Add(-time.Hour)), "endTime": shanghai(e.Clock.Now().Add(time.Hour))}).Decode(&page)
	// the operator's five; the gateway's own attribute query at login (D90) is listed too
	sent := 0
	for _, c := range page.List {
		if c.Kind != "queryAttributes" {
			sent++
		}
	}
	if sent != 5 {
		t.Errorf("command log lists %d operator commands, want 5: %+v", sent, page.List)
	}
	for lang, want := range map[string][2]string{"zh-TW": {"成功", "1、2 號倉"}, "en-US": {"success", "compartments 1, 2"}} {
		e.Lang = lang
		e.MustOK("POST", "/base-info-app/terminalCommand/page", admin, map[string]any{"carId": car.ID,
			"startTime": shanghai(e.Clock.Now().Add(-time.Hour)), "endTime": shanghai(e.Clock.Now().Add(time.Hour))}).Decode(&page)
		for _, c := range page.List {
			if c.Kind == "unlock" && (c.Reply != want[0] || c.ParamsText != want[1]) {
				t.Errorf("%s: unlock reads %q / %q, want %q", lang, c.Reply, c.ParamsText, want)
			}
		}
	}
	e.Lang = ""

	// bad input and refusals, in the caller's language
	for _, c := range []struct {
		body map[string]any
		want string
	}{
		{map[string]any{"carId": car.ID, "kind": "text", "text": " "}, "下发内容不能为空"},
		{map[string]any{"carId": car.ID, "kind": "fly"}, "指令类型格式不正确"},
		{map[string]any{"carId": car.ID, "kind": "lock", "compartments": []int{9}}, "仓号应在 1 到 8 之间"},
		{map[string]any{"kind": "lock"}, "车辆不能为空"},
	} {
		if r := e.Call("POST", "/base-info-app/terminalCommand/send", admin, c.body); r.Code != 0 || r.Message != c.want {
			t.Errorf("%v: %d %s, want %s", c.body, r.Code, r.Message, c.want)
		}
	}
	f.Stop()
	waitFor(t, "the terminal to go offline", func() bool { return !e.App.Devices.Gateway.Online(termID) })
	r := e.Call("POST", "/base-info-app/terminalCommand/send", admin, map[string]any{"carId": car.ID, "kind": "lock"})
	if r.Code != 0 || r.Message != "车辆 "+car.Plate+" 的终端不在线，指令未下发" {
		t.Errorf("offline: %s", r.Body)
	}
	e.Lang = "en-US"
	lone := e.MustOK("POST", "/base-info-app/carInfo/insert", admin, map[string]any{"plate": "冀A·77777", "compartments": 3, "groupId": car.GroupID}).ID()
	if r := e.Call("POST", "/base-info-app/terminalCommand/send", admin, map[string]any{"carId": lone, "kind": "lock"}); r.Message != "Vehicle 冀A·77777 has no terminal to send the command to" {
		t.Errorf("no terminal: %s", r.Body)
	}
}

// shanghai formats t as the API's times are written (Asia/Shanghai).
func shanghai(t time.Time) string {
	return t.In(time.FixedZone("CST", 8*3600)).Format("2006-01-02 15:04:05")
}
