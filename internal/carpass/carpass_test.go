package carpass_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/carpass"
	"tankwatch/internal/fleet"
	"tankwatch/internal/jt808"
	"tankwatch/internal/platform/config"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/telemetry"
)

// carOf is a demo car with a terminal in group.
func carOf(e *apptest.Env, tok string, group int64) (int64, string) {
	var ts httpx.Page[fleet.TerminalView]
	e.MustOK("POST", "/base-info-app/terminal/page", tok, map[string]any{"groupId": group, "bound": true}).Decode(&ts)
	if len(ts.List) == 0 || ts.List[0].CarID == nil {
		e.T.Fatalf("no bound terminal in group %d", group)
	}
	return *ts.List[0].CarID, ts.List[0].Plate
}

func carPage(e *apptest.Env, tok string, q map[string]any) (httpx.Page[carpass.CarView], string) {
	var p httpx.Page[carpass.CarView]
	r := e.MustOK("POST", "/base-info-app/carPassword/page", tok, q)
	r.Decode(&p)
	return p, string(r.Body)
}

func records(e *apptest.Env, tok string, q map[string]any) httpx.Page[carpass.Record] {
	var p httpx.Page[carpass.Record]
	e.MustOK("POST", "/alarm-app/passwordViewingRecord/page", tok, q).Decode(&p)
	return p
}

func failsWith(t *testing.T, r *apptest.Resp, status int, msg string) {
	t.Helper()
	if r.Status != status || r.Code != 0 || r.Message != msg {
		t.Errorf("got %d %s, want %d %q", r.Status, r.Body, status, msg)
	}
}

// TestSetViewRecordsScope: a password is validated, stored (pending while the terminal is offline),
// never listed, revealed only by view, which writes one record per reveal; records and passwords stay
// within the caller's scope.
func TestSetViewRecordsScope(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		admin := e.Login("admin", "admin123")
		g := e.Groups(admin)
		east, eastPlate := carOf(e, admin, g["华东分公司"])
		north, northPlate := carOf(e, admin, g["华北分公司"])
		set := func(tok string, body map[string]any) *apptest.Resp {
			return e.Call("POST", "/base-info-app/carPassword/set", tok, body)
		}

		// validation, in the caller's language, stores nothing
		for _, pw := range []string{"12345", "1234567", "12a456", "12 456", "１２３４５６"} {
			for lang, want := range map[string]string{"zh-CN": "密码必须是 6 位数字", "zh-TW": "密碼必須是 6 位數字",
				"en-US": "The password must be exactly 6 digits"} {
				e.Lang = lang
				failsWith(t, set(admin, map[string]any{"carId": east, "password": pw}), 200, want)
			}
		}
		e.Lang = ""
		failsWith(t, set(admin, map[string]any{"password": "123456"}), 200, "车辆不能为空")
		failsWith(t, set(admin, map[string]any{"carId": 999999, "password": "123456"}), 200, "记录不存在")
		failsWith(t, e.Call("POST", "/base-info-app/carPassword/view", admin, map[string]any{"carId": east}), 200, "该车辆尚未设置密码")
		failsWith(t, set(admin, map[string]any{"carId": east, "resend": true}), 200, "该车辆尚未设置密码")
		if p := records(e, admin, map[string]any{}); p.Total != 0 {
			t.Fatalf("records before any reveal: %+v", p)
		}
		if p, _ := carPage(e, admin, map[string]any{"plate": eastPlate}); p.Total != 1 || p.List[0].PasswordSet || p.List[0].SyncText != "未设置" {
			t.Fatalf("before set: %+v", p.List)
		}

		// set: stored, pending because the terminal is offline (the gateway has no session)
		var res carpass.SetResult
		e.MustOK("POST", "/base-info-app/carPassword/set", admin, map[string]any{"carId": east, "password": " 042917 "}).Decode(&res)
		if res.SyncState != carpass.SyncPending || res.SyncReason != carpass.ReasonOffline || res.Generated || res.CommandID == 0 ||
			!strings.Contains(res.Message, "不在线") || !strings.Contains(res.Message, eastPlate) {
			t.Fatalf("set while offline: %+v", res)
		}
		p, body := carPage(e, admin, map[string]any{"plate": eastPlate})
		if v := p.List[0]; !v.PasswordSet || v.SetBy != "admin" || v.SetAt == 0 || v.SyncState != carpass.SyncPending || v.SyncText != "待下发（终端离线）" {
			t.Errorf("listed after set: %+v", v)
		}
		if strings.Contains(body, "042917") {
			t.Errorf("the list shows the password: %s", body)
		}
		// the command log has the offline setPassword, without its digits
		var cmds httpx.Page[telemetry.CommandView]
		e.MustOK("POST", "/base-info-app/terminalCommand/page", admin, map[string]any{"carId": east,
			"startTime": e.Clock.Now().Add(-time.Hour).In(httpx.Shanghai).Format(time.DateTime),
			"endTime":   e.Clock.Now().Add(time.Hour).In(httpx.Shanghai).Format(time.DateTime)}).Decode(&cmds)
		if cmds.Total != 1 || cmds.List[0].Kind != telemetry.KindSetPassword || cmds.List[0].Status != telemetry.CommandOffline ||
			cmds.List[0].ID != res.CommandID || strings.Contains(cmds.List[0].Params, "042917") {
			t.Errorf("command log: %+v", cmds.List)
		}
		// the operator's command call cannot send a password behind the store's back
		failsWith(t, e.Call("POST", "/base-info-app/terminalCommand/send", admin, map[string]any{"carId": east, "kind": "setPassword",
			"password": "111111"}), 200, "指令类型格式不正确")

		// view: the password and one record, with who, when, where from and why
		e.Clock.Advance(time.Minute)
		var rv carpass.Revealed
		e.MustOK("POST", "/base-info-app/carPassword/view", admin, map[string]any{"carId": east, "reason": "司机在无信号区"}).Decode(&rv)
		if rv.Password != "042917" || rv.Plate != eastPlate || rv.SyncState != carpass.SyncPending {
			t.Fatalf("view: %+v", rv)
		}
		rec := records(e, admin, map[string]any{})
		if rec.Total != 1 {
			t.Fatalf("records after one view: %+v", rec)
		}
		if r := rec.List[0]; r.CarID != east || r.CarNumber != eastPlate || r.UserName != "admin" || r.ClientIP != "127.0.0.1" ||
			r.Reason != "司机在无信号区" || r.ViewedAt != httpx.TimeOf(e.Clock.Now()) || r.GroupName == "" {
			t.Errorf("record: %+v", r)
		}
		failsWith(t, e.Call("POST", "/base-info-app/carPassword/view", admin, map[string]any{"carId": east, "reason": strings.Repeat("因", 201)}),
			200, "查看原因不能超过 200 个字符")

		// generate: six random digits, different from before (a million to one against), resend keeps them
		e.MustOK("POST", "/base-info-app/carPassword/set", admin, map[string]any{"carId": east}).Decode(&res)
		if !res.Generated || res.SyncState != carpass.SyncPending {
			t.Fatalf("generate: %+v", res)
		}
		e.MustOK("POST", "/base-info-app/carPassword/view", admin, map[string]any{"carId": east}).Decode(&rv)
		gen := rv.Password
		if len(gen) != 6 || strings.Trim(gen, "0123456789") != "" {
			t.Fatalf("generated %q", gen)
		}
		setAt := rv.SetAt
		e.Clock.Advance(time.Minute)
		e.MustOK("POST", "/base-info-app/carPassword/set", admin, map[string]any{"carId": east, "resend": true}).Decode(&res)
		e.MustOK("POST", "/base-info-app/carPassword/view", admin, map[string]any{"carId": east}).Decode(&rv)
		if rv.Password != gen || rv.SetAt != setAt || res.CommandID == 0 {
			t.Errorf("resend changed the password or its time: %+v %+v", rv, res)
		}
		if n := records(e, admin, map[string]any{}).Total; n != 3 {
			t.Errorf("%d records after three views", n)
		}

		// scope: a 华东 operator with every password code sees 华东 only
		role := e.MustOK("POST", "/authority-app/roleInfo/insert", admin, map[string]any{"name": "华东密码", "groupId": g["华东分公司"],
			"resourceCodes": []string{"03-04", "03-04-01", "03-04-02", "03-04-03", "02-04", "02-04-01"}}).ID()
		e.MustOK("POST", "/authority-app/userInfo/insert", admin, map[string]any{"name": "eastpw", "password": "secret1",
			"groupId": g["华东分公司"], "roleIds": []int64{role}})
		eastTok := e.Login("eastpw", "secret1")
		e.MustOK("POST", "/base-info-app/carPassword/set", admin, map[string]any{"carId": north, "password": "777777"})
		e.MustOK("POST", "/base-info-app/carPassword/view", admin, map[string]any{"carId": north})
		scope := "该记录不在您的数据范围内"
		failsWith(t, e.Call("POST", "/base-info-app/carPassword/view", eastTok, map[string]any{"carId": north}), 403, scope)
		failsWith(t, set(eastTok, map[string]any{"carId": north, "password": "123123"}), 403, scope)
		failsWith(t, e.Call("POST", "/base-info-app/carPassword/page", eastTok, map[string]any{"groupId": g["华北分公司"]}), 403, scope)
		failsWith(t, e.Call("POST", "/alarm-app/passwordViewingRecord/page", eastTok, map[string]any{"groupId": g["华北分公司"]}), 403, scope)
		if p, _ := carPage(e, eastTok, map[string]any{"plate": northPlate}); p.Total != 0 {
			t.Errorf("华东 lists a 华北 car: %+v", p.List)
		}
		e.MustOK("POST", "/base-info-app/carPassword/view", eastTok, map[string]any{"carId": east}).Decode(&rv)
		if rv.Password != gen {
			t.Errorf("华东 operator view: %+v", rv)
		}
		mine := records(e, eastTok, map[string]any{})
		for _, r := range mine.List {
			if r.CarID == north {
				t.Errorf("华东 sees a 华北 record: %+v", r)
			}
		}
		if mine.Total != 4 || records(e, admin, map[string]any{}).Total != 5 {
			t.Errorf("records: 华东 %d (want 4), all %d (want 5)", mine.Total, records(e, admin, nil).Total)
		}
		// filters: user, plate, time range, group
		if p := records(e, admin, map[string]any{"userName": "eastpw"}); p.Total != 1 || p.List[0].UserName != "eastpw" {
			t.Errorf("by user: %+v", p)
		}
		if p := records(e, admin, map[string]any{"carNumber": northPlate}); p.Total != 1 || p.List[0].CarID != north {
			t.Errorf("by plate: %+v", p)
		}
		if p := records(e, admin, map[string]any{"carNumber": strings.ToLower(strings.ReplaceAll(northPlate, "·", ""))}); p.Total != 1 || p.List[0].CarID != north {
			t.Errorf("by plate without its dot: %+v", p)
		}
		if p := records(e, admin, map[string]any{"groupId": g["华北分公司"]}); p.Total != 1 {
			t.Errorf("by group: %+v", p)
		}
		from := e.Clock.Now().Add(-30 * time.Second).In(httpx.Shanghai).Format(time.DateTime)
		if p := records(e, admin, map[string]any{"startTime": from}); p.Total != 3 {
			t.Errorf("since %s: %d records, want 3", from, p.Total)
		}
		failsWith(t, e.Call("POST", "/alarm-app/passwordViewingRecord/page", admin, map[string]any{"startTime": "2026-03-02 00:00:00",
			"endTime": "2026-03-01 00:00:00"}), 200, "结束时间不能早于开始时间")

		// exports: sheets, without passwords
		for _, path := range []string{"/base-info-app/carPassword/export", "/alarm-app/passwordViewingRecord/export"} {
			r := e.Call("POST", path, admin, map[string]any{})
			if r.Status != 200 || !strings.Contains(r.Header.Get("Content-Type"), "spreadsheet") || len(r.Body) < 100 {
				t.Errorf("%s: %d %s %d bytes", path, r.Status, r.Header.Get("Content-Type"), len(r.Body))
			}
		}
		// the operation log says who set which car's password, not the password
		var logs httpx.Page[struct {
			Detail string `json:"detail"`
		}]
		e.MustOK("POST", "/authority-app/operationLog/page", admin, map[string]any{"module": carpass.Module}).Decode(&logs)
		if logs.Total != 4 {
			t.Errorf("operation log holds %d password changes, want 4", logs.Total)
		}

		// an end given to the second (as the console sends it) covers that whole second: a view 400 ms
		// into it is listed under a range that ends "now"
		e.Clock.Advance(400 * time.Millisecond)
		e.MustOK("POST", "/base-info-app/carPassword/view", admin, map[string]any{"carId": north})
		to := e.Clock.Now().In(httpx.Shanghai).Format(time.DateTime)
		if p := records(e, admin, map[string]any{"startTime": from, "endTime": to}); p.Total != 4 {
			t.Errorf("%s to %s: %d records, want 4 (the view of the last second too)", from, to, p.Total)
		}
	})
}

// refusing is a gateway that answers every command with one outcome.
type refusing struct{ status string }

func (s refusing) Send(ctx context.Context, terminalID int64, msg jt808.Message, c *telemetry.Command) error {
	c.Status, c.ID = s.status, 1
	return nil
}

// TestSyncStates: the terminal's answer decides the sync state and the message.
func TestSyncStates(t *testing.T) {
	t.Parallel()
	e := apptest.New(t, "sqlite", config.Config{Demo: true})
	admin := e.Login("admin", "admin123")
	car, _ := carOf(e, admin, e.Groups(admin)["华东分公司"])
	for _, c := range []struct {
		status, state, reason, text string
	}{
		{telemetry.CommandOK, carpass.SyncOK, "", "密码已保存并下发"},
		{telemetry.CommandFailed, carpass.SyncFailed, carpass.ReasonRefused, "拒绝"},
		{telemetry.CommandTimeout, carpass.SyncFailed, carpass.ReasonTimeout, "未应答"},
		{telemetry.CommandOffline, carpass.SyncPending, carpass.ReasonOffline, "不在线"},
	} {
		s := carpass.New(e.DB, e.App.Fleet, e.App.Commands, refusing{c.status}, nil)
		r := httptest.NewRequest("POST", "/", nil)
		r = r.WithContext(httpx.WithPrincipal(r.Context(), &httpx.Principal{UserID: 1, UserName: "admin", GroupPath: "/"}))
		res, err := s.Set(r, carpass.SetInput{CarID: car, Password: "314159"})
		if err != nil || res.SyncState != c.state || res.SyncReason != c.reason || !strings.Contains(res.Message, c.text) {
			t.Errorf("%s: %+v %v", c.status, res, err)
		}
	}
}

// TestDeletedCarTakesItsPassword: a car deleted from the registry takes its password with it, so a car
// made later never inherits it; the viewing records stay (history, with the plate).
func TestDeletedCarTakesItsPassword(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		admin := e.Login("admin", "admin123")
		carID := e.MustOK("POST", "/base-info-app/carInfo/insert", admin, map[string]any{"plate": "粤A·PW001",
			"groupId": e.Groups(admin)["华南分公司"], "compartments": 2}).ID()
		e.MustOK("POST", "/base-info-app/carPassword/set", admin, map[string]any{"carId": carID, "password": "900900"})
		e.MustOK("POST", "/base-info-app/carPassword/view", admin, map[string]any{"carId": carID})
		e.MustOK("POST", "/base-info-app/carInfo/deleteByIds", admin, map[string]any{"ids": []int64{carID}})
		n, err := e.DB.NewSelect().TableExpr("car_passwords").Where("car_id = ?", carID).Count(t.Context())
		if err != nil || n != 0 {
			t.Errorf("%d password rows left for the deleted car (%v)", n, err)
		}
		if p := records(e, admin, map[string]any{"carNumber": "粤A·PW001"}); p.Total != 1 {
			t.Errorf("viewing records of the deleted car: %d, want 1", p.Total)
		}
	})
}
