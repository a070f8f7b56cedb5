package app_test

import (
	"strings"
	"testing"

	"tankwatch/internal/alarm"
	"tankwatch/internal/app/apptest"
	"tankwatch/internal/fleet"
	"tankwatch/internal/jt808"
	"tankwatch/internal/platform/config"
)

// TestConflictAcrossNodes: a truck live on node A, and another connection on node B registering with
// its identity. B refuses it (D87); the truck talks on, on A, so the identity-conflict alarm is raised
// — once, by A, which holds the live session — naming the other connection and the node it came to.
func TestConflictAcrossNodes(t *testing.T) {
	if testing.Short() {
		t.Skip("drives terminals over TCP on two nodes")
	}
	t.Parallel()
	cl := newCluster(t, "twi")
	a, b := cl.node("a", config.Config{}), cl.node("b", config.Config{})
	adminB := b.Login("admin", "admin123")
	car, termID := demoCar(t, b, adminB)
	truck := drive(t, a.App.Devices.GatewayAddr(), 1, newAcked())
	waitFor(t, "the truck to log in on A", func() bool { return a.App.Devices.Gateway.Online(termID) })

	thief := dialRaw(t, b.App.Devices.GatewayAddr(), fleet.DemoCars[0].TerminalPhone)
	thief.send(&jt808.Register{Province: 13, City: 100, Manufacturer: "70111", Model: "TW-808T",
		TerminalID: fleet.DemoTerminalID(0), PlateColor: jt808.PlateYellow, Plate: car.Plate})
	f := thief.read()
	var rr jt808.RegisterReply
	if f.Header.MsgID != jt808.MsgRegisterReply || rr.DecodeBody(f.Body, f.Header.Version) != nil || rr.AuthCode != "" {
		t.Fatalf("registration on B of a terminal live on A: 0x%04x %+v", f.Header.MsgID, rr)
	}
	acked := truck.Stats().Acked
	waitFor(t, "the truck's next acknowledged report on A", func() bool { return truck.Stats().Acked > acked })

	var details []string
	waitFor(t, "the identity-conflict alarm", func() bool {
		details = nil
		if err := a.DB.NewRaw("SELECT detail FROM alarms WHERE car_id = ? AND type_code = ?", car.ID, alarm.CodeIdentityConflict).
			Scan(cl.ctx, &details); err != nil {
			t.Fatal(err)
		}
		return len(details) > 0
	})
	if len(details) != 1 || !strings.Contains(details[0], "127.0.0.1:") || !strings.Contains(details[0], "(node b)") {
		t.Fatalf("identity-conflict alarms: %q, want one naming the connection on node b", details)
	}
	if n := metric(t, a, "tankwatch_jt808_identity_conflicts_total"); n != 1 {
		t.Errorf("A raised %v identity-conflict alarms, want 1", n)
	}
	if n := metric(t, b, "tankwatch_jt808_identity_conflicts_total"); n != 0 {
		t.Errorf("B raised %v identity-conflict alarms, want 0: the live session is A's", n)
	}
}

// TestFailLimitAcrossNodes: wrong auth codes from one address, two on node A and two on node B, with a
// limit of 4 per minute: neither node's own count reaches it, together they block the address on both.
func TestFailLimitAcrossNodes(t *testing.T) {
	if testing.Short() {
		t.Skip("drives terminals over TCP on two nodes")
	}
	t.Parallel()
	cl := newCluster(t, "twf")
	cfg := config.Config{JT808Identity: config.JT808Identity{JT808FailLimit: 4}}
	a, b := cl.node("a", cfg), cl.node("b", cfg)
	wrongAuth := func(e *apptest.Env) {
		c := dialRaw(t, e.App.Devices.GatewayAddr(), fleet.DemoCars[0].TerminalPhone)
		c.send(&jt808.Auth{AuthCode: "not-the-code"})
		if f := c.read(); f.Header.MsgID != jt808.MsgPlatformReply {
			t.Fatalf("answer to a wrong auth code: 0x%04x", f.Header.MsgID)
		}
	}
	for _, e := range []*apptest.Env{a, b, a, b} {
		wrongAuth(e)
	}
	blocks, err := cl.first.KV(cl.ctx, "blocks", 0)
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the address to be blocked across the nodes", func() bool {
		_, _, err := blocks.Get(cl.ctx, "a127.0.0.1")
		return err == nil
	})
	for name, e := range map[string]*apptest.Env{"a": a, "b": b} {
		wrongAuth(e)
		if n := metric(t, e, `tankwatch_jt808_refusals_total{reason="rate_limited"}`); n != 1 {
			t.Errorf("node %s refused %v attempts as rate limited, want 1", name, n)
		}
	}
}
