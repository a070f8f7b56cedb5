package carpass_test

import (
	"testing"
	"time"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/carpass"
	"tankwatch/internal/fleet"
	"tankwatch/internal/jt808"
	"tankwatch/internal/platform/db/dbtest"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/telemetry"
)

// TestPasswordReachesTheTerminal sets a password for a simulated terminal connected to the gateway
// over TCP: it goes down as 0xE5, the terminal stores it and answers 0, and the platform marks the
// password synchronised; the frame carrying it stays out of the raw history. Offline, the password is
// stored as pending with a clear message, and a resend after the terminal is back synchronises it.
func TestPasswordReachesTheTerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("drives a terminal over TCP")
	}
	t.Parallel()
	for _, dialect := range dbtest.Dialects() {
		t.Run(dialect, func(t *testing.T) {
			e := apptest.NewWithGateway(t, dialect)
			admin := e.Login("admin", "admin123")
			term := e.DemoTerminal(admin)
			carID, plate := *term.CarID, fleet.DemoCars[0].Plate
			f := e.Drive(t, term.ID)

			var res carpass.SetResult
			e.MustOK("POST", "/base-info-app/carPassword/set", admin, map[string]any{"carId": carID, "password": "135790"}).Decode(&res)
			if res.SyncState != carpass.SyncOK || res.SyncedAt == 0 || res.CommandID == 0 || res.Message != "密码已保存并下发到车辆 "+plate+" 的终端" {
				t.Fatalf("set with the terminal online: %+v", res)
			}
			if got := f.LocalPassword(0); got != "135790" {
				t.Fatalf("the terminal holds %q", got)
			}
			var p httpx.Page[carpass.CarView]
			e.MustOK("POST", "/base-info-app/carPassword/page", admin, map[string]any{"plate": plate}).Decode(&p)
			if v := p.List[0]; v.SyncState != carpass.SyncOK || v.SyncText != "已同步" || v.CommandID != res.CommandID {
				t.Errorf("listed: %+v", v)
			}
			day := func(d time.Duration) string { return e.Clock.Now().Add(d).In(httpx.Shanghai).Format(time.DateTime) }
			var cmds httpx.Page[telemetry.CommandView]
			e.MustOK("POST", "/base-info-app/terminalCommand/page", admin, map[string]any{"carId": carID, "startTime": day(-time.Hour),
				"endTime": day(time.Hour)}).Decode(&cmds)
			ops := cmds.List[:0:0] // beside the gateway's own attribute query at login (D90)
			for _, c := range cmds.List {
				if c.Kind != "queryAttributes" {
					ops = append(ops, c)
				}
			}
			if len(ops) != 1 || ops[0].Kind != telemetry.KindSetPassword || ops[0].Status != telemetry.CommandOK ||
				ops[0].MsgID != "0x8900" || ops[0].Result == nil || *ops[0].Result != 0 {
				t.Errorf("command log: %+v", cmds.List)
			}
			// a lock command after it: once its frame is stored, the password's would be too (the writer
			// commits in order), and it is not
			e.MustOK("POST", "/base-info-app/terminalCommand/send", admin, map[string]any{"carId": carID, "kind": "lock"})
			var frames []struct {
				Data []byte `bun:"data"`
			}
			apptest.WaitFor(t, "the lock command's frame to be stored", func() bool {
				frames = frames[:0]
				err := e.DB.NewSelect().TableExpr("raw_frames").Column("data").Where("terminal_id = ? AND msg_id = ? AND down = 1",
					term.ID, jt808.MsgDownPassThrough).Scan(t.Context(), &frames)
				return err == nil && len(frames) > 0
			})
			if len(frames) != 1 {
				t.Errorf("%d downlink 0x8900 frames stored, want only the lock command's", len(frames))
			}

			// offline: stored as pending with the reason, a clear message in the caller's language
			f.Stop()
			apptest.WaitFor(t, "the terminal to go offline", func() bool { return !e.App.Devices.Gateway.Online(term.ID) })
			for lang, want := range map[string]string{
				"zh-CN": "密码已保存，但车辆 " + plate + " 的终端不在线；终端上线后将自动下发",
				"zh-TW": "密碼已儲存，但車輛 " + plate + " 的終端不在線；終端上線後將自動下發",
				"en-US": "The password was saved; the terminal of " + plate + " is offline and will get it when it comes online",
			} {
				e.Lang = lang
				e.MustOK("POST", "/base-info-app/carPassword/set", admin, map[string]any{"carId": carID, "password": "246802"}).Decode(&res)
				if res.SyncState != carpass.SyncPending || res.SyncReason != carpass.ReasonOffline || res.Message != want {
					t.Errorf("%s offline: %+v", lang, res)
				}
			}
			e.Lang = ""
			// back online: resend carries the stored password down
			f = e.Drive(t, term.ID)
			e.MustOK("POST", "/base-info-app/carPassword/set", admin, map[string]any{"carId": carID, "resend": true}).Decode(&res)
			if res.SyncState != carpass.SyncOK || f.LocalPassword(0) != "246802" {
				t.Errorf("resend: %+v, terminal holds %q", res, f.LocalPassword(0))
			}

			// offline again: the password set meanwhile goes down by itself once the terminal is back
			f.Stop()
			apptest.WaitFor(t, "the terminal to go offline again", func() bool { return !e.App.Devices.Gateway.Online(term.ID) })
			e.MustOK("POST", "/base-info-app/carPassword/set", admin, map[string]any{"carId": carID, "password": "112233"}).Decode(&res)
			if res.SyncState != carpass.SyncPending {
				t.Fatalf("set while offline: %+v", res)
			}
			f = e.Drive(t, term.ID)
			apptest.WaitFor(t, "the terminal to get the password without a resend", func() bool {
				e.MustOK("POST", "/base-info-app/carPassword/page", admin, map[string]any{"plate": plate}).Decode(&p)
				return f.LocalPassword(0) == "112233" && p.List[0].SyncState == carpass.SyncOK
			})
			var logs httpx.Page[struct {
				Action   string `json:"action"`
				UserName string `json:"userName"`
			}]
			// the entry is written once the sync state is saved (ResendWaiting): waited for, not raced
			autoLogged := func() bool {
				e.MustOK("POST", "/authority-app/operationLog/page", admin, map[string]any{"module": carpass.Module}).Decode(&logs)
				return len(logs.List) > 0 && logs.List[0].Action == "carPasswordAutoResend" && logs.List[0].UserName == "admin"
			}
			apptest.WaitFor(t, "the operation log's newest entry to be admin's automatic resend", autoLogged)
		})
	}
}
