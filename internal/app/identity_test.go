package app_test

import (
	"context"
	"net"
	"testing"
	"time"

	"tankwatch/internal/alarm"
	"tankwatch/internal/app/apptest"
	"tankwatch/internal/fleet"
	"tankwatch/internal/jt808"
	"tankwatch/internal/platform/db/dbtest"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/sim"
)

// rawTerminal is a hand-driven JT/T 808 client: what an attacker on the device port has.
type rawTerminal struct {
	t      *testing.T
	conn   net.Conn
	sp     *jt808.Splitter
	phone  jt808.Phone
	serial uint16
}

func dialRaw(t *testing.T, addr, phone string) *rawTerminal {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return &rawTerminal{t: t, conn: conn, sp: jt808.NewSplitter(conn, 0), phone: jt808.MustPhone(phone)}
}

func (c *rawTerminal) send(m jt808.Message) {
	c.t.Helper()
	wire, err := jt808.AppendMessage(nil, jt808.Header{Version: jt808.V2013, Phone: c.phone, Serial: c.serial}, m)
	c.serial++
	if err != nil {
		c.t.Fatal(err)
	}
	if _, err := c.conn.Write(wire); err != nil {
		c.t.Fatal(err)
	}
}

func (c *rawTerminal) read() jt808.Frame {
	c.t.Helper()
	_ = c.conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	raw, err := c.sp.Next()
	if err != nil {
		c.t.Fatal(err)
	}
	f, _, err := jt808.DecodeFrame(nil, raw)
	if err != nil {
		c.t.Fatal(err)
	}
	return f
}

// TestTerminalTakeoverRefused is the attack of issue 13 against the real server: a stranger who knows
// a live truck's phone number, terminal ID and plate (all on the wire in clear), and even sniffed its
// auth code, cannot register or authenticate from another connection. The truck's session goes on, its
// reports are still acknowledged, its code is unchanged, and the operators get an identity-conflict
// alarm for the car, listed with the other alarms in each language.
func TestTerminalTakeoverRefused(t *testing.T) {
	if testing.Short() {
		t.Skip("drives a terminal over TCP")
	}
	t.Parallel()
	for _, dialect := range dbtest.Dialects() {
		t.Run(dialect, func(t *testing.T) {
			e := apptest.NewWithGateway(t, dialect)
			ctx := context.Background()
			admin := e.Login("admin", "admin123")
			term := e.DemoTerminal(admin)
			carID, plate := *term.CarID, fleet.DemoCars[0].Plate
			// a truck on the road (DayAtStart), reporting every 0.1 s of wall time
			truck, err := sim.Start(ctx, sim.Config{Gateway: e.App.Devices.GatewayAddr(), Vehicles: 1, Interval: 2 * time.Second,
				Speedup: 20, Seed: 7, DayAtStart: true, AckTimeout: 2 * time.Second, Backoff: 100 * time.Millisecond, HelpEvery: 1000 * time.Hour})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(truck.Stop)
			apptest.WaitFor(t, "the truck to log in", func() bool { return e.App.Devices.Gateway.Online(term.ID) })
			code := func() string {
				var c string
				if err := e.DB.NewRaw("SELECT auth_code FROM terminals WHERE id = ?", term.ID).Scan(ctx, &c); err != nil {
					t.Fatal(err)
				}
				return c
			}
			before := code()

			thief := dialRaw(t, e.App.Devices.GatewayAddr(), term.Phone)
			thief.send(&jt808.Register{Province: 13, City: 100, Manufacturer: "70111", Model: "TW-808T",
				TerminalID: fleet.DemoTerminalID(0), PlateColor: jt808.PlateYellow, Plate: plate})
			f := thief.read()
			var rr jt808.RegisterReply
			if f.Header.MsgID != jt808.MsgRegisterReply || rr.DecodeBody(f.Body, f.Header.Version) != nil ||
				rr.Result != jt808.RegisterTerminalUnknown || rr.AuthCode != "" {
				t.Fatalf("takeover registration: 0x%04x %+v", f.Header.MsgID, rr)
			}
			thief.send(&jt808.Auth{AuthCode: before})
			f = thief.read()
			var gr jt808.GeneralReply
			gr.Platform = true
			if f.Header.MsgID != jt808.MsgPlatformReply || gr.DecodeBody(f.Body, f.Header.Version) != nil || gr.Result != jt808.ResultFailure {
				t.Fatalf("takeover authentication: 0x%04x %+v", f.Header.MsgID, gr)
			}

			// the truck goes on: more of its reports are acknowledged, on its own session
			acked := truck.Stats().Acked
			apptest.WaitFor(t, "the truck's next acknowledged report", func() bool { return truck.Stats().Acked > acked })
			if !e.App.Devices.Gateway.Online(term.ID) || truck.Stats().Authenticated != 1 {
				t.Fatal("the truck's session did not survive")
			}
			if code() != before {
				t.Fatal("the auth code changed")
			}

			// the alarm: a record of the car, in the alarm list like any other
			list := func(lang string) []alarm.View {
				e.Lang = lang
				defer func() { e.Lang = "" }()
				var p httpx.Page[alarm.View]
				e.MustOK("POST", "/alarm-app/alarmMessage/findsome", admin, map[string]any{"carId": carID,
					"types": []string{alarm.CodeIdentityConflict}}).Decode(&p)
				return p.List
			}
			apptest.WaitFor(t, "the identity-conflict alarm", func() bool { return len(list("")) > 0 })
			for lang, want := range map[string][2]string{
				"zh-CN": {"终端身份冲突", "另一连接 127.0.0.1:"},
				"zh-TW": {"終端身分衝突", "另一連線 127.0.0.1:"},
				"en-US": {"Terminal identity conflict", "Another connection, 127.0.0.1:"},
			} {
				got := list(lang)
				if len(got) != 1 {
					t.Fatalf("%s: %d alarms", lang, len(got))
				}
				v := got[0]
				if v.CarID != carID || v.Plate != plate || v.Type != alarm.CodeIdentityConflict || v.TypeName != want[0] ||
					v.Level != alarm.LevelI || len(v.Detail) < len(want[1]) || v.Detail[:len(want[1])] != want[1] {
					t.Errorf("%s: %+v", lang, v)
				}
			}
		})
	}
}
