package calib_test

import (
	"strconv"
	"strings"
	"testing"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/fleet"
	"tankwatch/internal/platform/db/dbtest"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/tank/calib"
)

// TestCalibrationOverTheGateway reads and sets a simulated terminal's parameters over TCP through the
// gateway: a read is acknowledged with the terminal's values, a set is validated by the server, applied
// by the terminal and recorded old → new (history, operation log, last known values), a value the
// terminal refuses fails with result 2, an offline terminal is refused with a clear message, another
// group's car and a user without 04-08-01 are refused.
func TestCalibrationOverTheGateway(t *testing.T) {
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
			offset := calib.ProbeID(1, calib.FieldOffset)

			wait := func(id int64) calib.CommandView {
				var v calib.CommandView
				apptest.WaitFor(t, "the command to finish", func() bool {
					e.MustOK("GET", "/monitor-app/parameter/command?id="+itoa(id), admin, nil).Decode(&v)
					return v.Final
				})
				return v
			}

			// before any read: the form of 3 compartments, nothing known
			var vals calib.Values
			e.MustOK("POST", "/monitor-app/parameter/values", admin, map[string]any{"carId": carID}).Decode(&vals)
			if !vals.Online || vals.Compartments != 3 || vals.ReadAt != 0 || len(vals.Rows) != 7+3*5 || vals.Rows[0].Value != nil {
				t.Fatalf("values before a read: %+v", vals)
			}

			var v calib.CommandView
			e.MustOK("POST", "/monitor-app/parameter/read", admin, map[string]any{"carId": carID}).Decode(&v)
			if v.ID == 0 || v.Kind != calib.KindRead {
				t.Fatalf("read: %+v", v)
			}
			v = wait(v.ID)
			if v.State != calib.StateAcknowledged || v.StateText != "终端已应答" || v.CommandID == 0 {
				t.Fatalf("read finished: %+v", v)
			}
			got := map[uint32]string{}
			for _, c := range v.Changes {
				got[c.ID] = c.New.String()
			}
			if got[0x0055] != "80" || got[calib.ProbeID(3, calib.FieldHeight)] != "1800" || got[offset] != "0" || got[0x0001] != "60" {
				t.Errorf("read values: %v", got)
			}

			// server-side validation names the parameter in the caller's language
			for lang, want := range map[string]string{
				"zh-CN": "1 号仓 零点偏移应在 -500 到 500 毫米之间",
				"zh-TW": "1 號艙 零點偏移應在 -500 到 500 毫米之間",
				"en-US": "Compartment 1 Zero offset must be between -500 and 500 mm",
			} {
				e.Lang = lang
				r := e.Call("POST", "/monitor-app/parameter/set", admin, map[string]any{"carId": carID, "params": []map[string]any{{"id": offset, "value": 900}}})
				if r.Code == 1 || r.Message != want {
					t.Errorf("%s out of range: %d %q", lang, r.Code, r.Message)
				}
			}
			e.Lang = ""
			for _, bad := range []map[string]any{
				{"id": offset, "value": 1.5},
				{"id": offset, "value": "12"},
				{"id": 0x0013, "value": 12345},
				{"id": 0x0013, "value": "bad host;"},
				{"id": 0xF0A1, "value": 1},                              // compartment 10 does not exist
				{"id": calib.ProbeID(5, calib.FieldOffset), "value": 1}, // the car has 3
			} {
				r := e.Call("POST", "/monitor-app/parameter/set", admin, map[string]any{"carId": carID, "params": []map[string]any{bad}})
				if r.Code == 1 {
					t.Errorf("set %v accepted", bad)
				}
			}

			e.MustOK("POST", "/monitor-app/parameter/set", admin, map[string]any{"carId": carID, "params": []map[string]any{
				{"id": offset, "value": -12}, {"id": 0x0001, "value": 45}}}).Decode(&v)
			v = wait(v.ID)
			if v.State != calib.StateAcknowledged || len(v.Changes) != 2 || v.Changes[0].Old == nil || v.Changes[0].Old.String() != "0" ||
				v.Changes[0].New.String() != "-12" {
				t.Fatalf("set: %+v", v)
			}
			if pv, _ := f.Param(0, offset); pv.Num != -12 {
				t.Errorf("the terminal holds %v", pv)
			}
			e.MustOK("POST", "/monitor-app/parameter/values", admin, map[string]any{"carId": carID}).Decode(&vals)
			for _, r := range vals.Rows {
				if r.ID == offset && (r.Value == nil || r.Value.Num != -12 || r.Source != calib.KindSet) {
					t.Errorf("last known offset: %+v", r)
				}
			}
			// a read again sees the terminal's new value
			e.MustOK("POST", "/monitor-app/parameter/read", admin, map[string]any{"carId": carID, "ids": []uint32{offset}}).Decode(&v)
			v = wait(v.ID)
			if len(v.Changes) != 1 || v.Changes[0].New.Num != -12 {
				t.Errorf("read after set: %+v", v.Changes)
			}

			// the operation log has the change old -> new
			var logs httpx.Page[struct {
				Module     string `json:"module"`
				DetailText string `json:"detailText"`
			}]
			e.MustOK("POST", "/authority-app/operationLog/page", admin, map[string]any{"module": "calib"}).Decode(&logs)
			if logs.Total == 0 || !strings.Contains(logs.List[0].DetailText, "0xF011: 0 -> -12") {
				t.Errorf("operation log: %+v", logs.List)
			}

			// history: newest first, the set with old → new in words
			var hist httpx.Page[calib.CommandView]
			e.MustOK("POST", "/monitor-app/parameter/history", admin, map[string]any{"carId": carID, "kind": "set"}).Decode(&hist)
			if hist.Total != 1 || hist.List[0].UserName != "admin" || hist.List[0].Plate != plate {
				t.Errorf("history: %+v", hist)
			}
			if r := e.Call("POST", "/monitor-app/parameter/export", admin, map[string]any{"carId": carID}); r.Status != 200 ||
				!strings.Contains(r.Header.Get("Content-Type"), "spreadsheet") {
				t.Errorf("export: %d %s", r.Status, r.Header.Get("Content-Type"))
			}

			// a dispatcher holds 04-08-01; the customer (华东) neither the page nor car 0's group
			customer := e.Login("customer", "customer123")
			if r := e.Call("POST", "/monitor-app/parameter/read", customer, map[string]any{"carId": carID}); r.Status != 403 {
				t.Errorf("customer read: %d %s", r.Status, r.Body)
			}
			// give the customer's role the page: car 0 is still another group's
			if _, err := e.DB.NewRaw("INSERT INTO role_codes (role_id, code) SELECT id, ? FROM roles WHERE name = ?", calib.ViewCode, "客户").
				Exec(t.Context()); err != nil {
				t.Fatal(err)
			}
			customer = e.Login("customer", "customer123")
			if r := e.Call("POST", "/monitor-app/parameter/read", customer, map[string]any{"carId": carID}); r.Status != 403 {
				t.Errorf("customer read of another group's car: %d %s", r.Status, r.Body)
			}
			if r := e.Call("GET", "/monitor-app/parameter/command?id="+itoa(v.ID), customer, nil); r.Status != 403 {
				t.Errorf("customer command of another group's car: %d %s", r.Status, r.Body)
			}
			if r := e.Call("POST", "/monitor-app/parameter/set", customer, map[string]any{"carId": carID,
				"params": []map[string]any{{"id": offset, "value": 1}}}); r.Status != 403 {
				t.Errorf("customer set without 04-08-01: %d %s", r.Status, r.Body)
			}
			e.MustOK("POST", "/monitor-app/parameter/history", customer, map[string]any{}).Decode(&hist)
			if hist.Total != 0 {
				t.Errorf("customer sees %d commands of other groups", hist.Total)
			}

			// offline: refused with a clear message, recorded as offline, nothing queued
			f.Stop()
			apptest.WaitFor(t, "the terminal to go offline", func() bool { return !e.App.Devices.Gateway.Online(term.ID) })
			r := e.Call("POST", "/monitor-app/parameter/set", admin, map[string]any{"carId": carID, "params": []map[string]any{{"id": offset, "value": 3}}})
			if r.Code == 1 || r.Message != "车辆 "+plate+" 的终端不在线，指令未下发" {
				t.Errorf("offline set: %d %q", r.Code, r.Message)
			}
			e.MustOK("POST", "/monitor-app/parameter/history", admin, map[string]any{"carId": carID, "state": "offline"}).Decode(&hist)
			if hist.Total != 1 || hist.List[0].Kind != calib.KindSet {
				t.Errorf("offline history: %+v", hist)
			}
			e.App.Calib.Wait()
		})
	}
}

// TestTerminalRefusesABadValue: the simulated terminal answers a value out of range with result 2 and
// keeps what it had (a command the server would not send; sent here through the command page).
func TestTerminalRefusesABadValue(t *testing.T) {
	if testing.Short() {
		t.Skip("drives a terminal over TCP")
	}
	e := apptest.NewWithGateway(t, "sqlite")
	admin := e.Login("admin", "admin123")
	term := e.DemoTerminal(admin)
	f := e.Drive(t, term.ID)
	offset := calib.ProbeID(2, calib.FieldOffset)
	r := e.Call("POST", "/base-info-app/terminalCommand/send", admin, map[string]any{"carId": *term.CarID, "kind": "setParams",
		"params": []map[string]any{{"id": offset, "value": 4000}}})
	if r.Code == 1 || !strings.Contains(r.Message, "2") && !strings.Contains(r.Message, "消息有误") {
		t.Errorf("refused set: %d %q", r.Code, r.Message)
	}
	if pv, _ := f.Param(0, offset); pv.Num != 0 {
		t.Errorf("the terminal took %v", pv)
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
