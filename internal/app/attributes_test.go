package app_test

import (
	"strings"
	"testing"
	"time"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/fleet"
	"tankwatch/internal/platform/db/dbtest"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/sim"
)

// TestTerminalAttributes (D90): a terminal that authenticates with no fresh attributes is asked 0x8107
// and its 0x0107 lands on its record (the simulator's model, ICCID and versions); a terminal answered
// within the day is not asked again on login, one not asked within the hour is; terminalVXE's action
// asks now, and says in the user's language when the terminal is offline.
func TestTerminalAttributes(t *testing.T) {
	t.Parallel()
	for _, d := range dbtest.Dialects() {
		t.Run(d, func(t *testing.T) {
			e := apptest.NewWithGateway(t, d)
			admin := e.Login("admin", "admin123")
			term := e.DemoTerminal(admin)
			truck := e.Drive(t, term.ID)
			view := func() fleet.TerminalView {
				var p httpx.Page[fleet.TerminalView]
				e.MustOK("POST", "/base-info-app/terminal/page", admin, map[string]any{"phone": term.Phone}).Decode(&p)
				return p.List[0]
			}
			apptest.WaitFor(t, "the attributes asked at login", func() bool { return view().Attrs != nil })
			a := view().Attrs
			want := fleet.TerminalAttrs{Type: 0x42, Maker: "70111", Model: "TW-808T", Device: fleet.DemoTerminalID(0), ICCID: fleet.DemoICCID(0),
				Hardware: sim.SimHardware, Firmware: sim.SimFirmware, GNSS: 3, Comm: 0x20, At: e.Clock.Now().UnixMilli(), AskedAt: e.Clock.Now().UnixMilli()}
			if *a != want {
				t.Fatalf("attributes\n%+v\nwant\n%+v", *a, want)
			}
			asked := func() int {
				n, err := e.DB.NewSelect().TableExpr("commands").Where("terminal_id = ? AND kind = ?", term.ID, "queryAttributes").Count(t.Context())
				if err != nil {
					t.Fatal(err)
				}
				return int(n)
			}
			if n := asked(); n != 1 {
				t.Fatalf("%d queries in the command log", n)
			}

			// the rule a login follows: fresh → not asked; a day later → asked once, then not within the hour
			now := e.Clock.Now()
			for _, c := range []struct {
				at   time.Time
				want bool
			}{{now, false}, {now.Add(23 * time.Hour), false}, {now.Add(25 * time.Hour), true}, {now.Add(25*time.Hour + 30*time.Minute), false},
				{now.Add(26*time.Hour + time.Minute), true}} {
				if due, err := e.App.Fleet.ClaimAttributesAsk(t.Context(), term.ID, c.at); err != nil || due != c.want {
					t.Errorf("due at +%s: %v %v, want %v", c.at.Sub(now), due, err, c.want)
				}
			}

			// asked now from the terminal page
			var v fleet.TerminalView
			e.MustOK("POST", "/base-info-app/terminal/queryAttributes", admin, map[string]any{"id": term.ID}).Decode(&v)
			if v.Attrs == nil || v.Attrs.ICCID != fleet.DemoICCID(0) || v.Attrs.Firmware != sim.SimFirmware {
				t.Fatalf("after the query: %+v", v.Attrs)
			}
			if n := asked(); n != 2 {
				t.Fatalf("%d queries in the command log after asking", n)
			}

			truck.Stop()
			apptest.WaitFor(t, "the terminal offline", func() bool { return !e.App.Devices.Gateway.Online(term.ID) })
			for lang, msg := range map[string]string{"": "终端不在线，无法查询终端属性", "en-US": "The terminal is offline; its attributes cannot be queried"} {
				e.Lang = lang
				if r := e.Call("POST", "/base-info-app/terminal/queryAttributes", admin, map[string]any{"id": term.ID}); r.Code != 0 || r.Message != msg {
					t.Errorf("offline %q: %s", lang, r.Body)
				}
			}
			e.Lang = ""
			if r := e.Call("POST", "/base-info-app/terminal/queryAttributes", admin, map[string]any{"id": 0}); r.Code != 0 || !strings.Contains(r.Message, "不能为空") {
				t.Errorf("no id: %s", r.Body)
			}
		})
	}
}
