package app_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/fleet"
	"tankwatch/internal/platform/bus"
	"tankwatch/internal/platform/config"
	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/db/dbtest"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/telemetry"
)

// TestThreeNodes runs three nodes on one PostgreSQL database and one NATS server (D87): a terminal
// connected to A is live on B's /ws/live and counted there; a command sent on C reaches it through A
// and its answer comes back; the same terminal connecting to B while its session on A is live is
// refused, as a second connection is on one node; A stopped, its sessions are released and the
// terminal is accepted on B.
func TestThreeNodes(t *testing.T) {
	url := os.Getenv("TANKWATCH_TEST_NATS")
	if url == "" {
		t.Skip("TANKWATCH_TEST_NATS not set")
	}
	dsn := dbtest.PGDatabase(t)
	ctx := context.Background()
	prefix := bus.RandomPrefix("twt")
	nodes := map[string]*apptest.Env{}
	var first *bus.NATS
	for _, name := range []string{"a", "b", "c"} {
		d, err := db.Open(ctx, dsn, "")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = d.Close() })
		e := apptest.NewOn(t, d, config.Config{Demo: true, JT808: "127.0.0.1:0", Theme: "tankcar"})
		nb, err := bus.DialNATS(ctx, bus.NATSConfig{URL: url, Node: name, Prefix: prefix, Log: e.App.Log})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = nb.Close() })
		if first == nil {
			first = nb
			t.Cleanup(func() { // runs before the close above
				if err := nb.Destroy(ctx); err != nil {
					t.Errorf("delete the test's stream and buckets: %v", err)
				}
			})
		}
		e.App.UseBus(nb)
		if err := e.App.StartDevices(ctx); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(e.App.StopDevices)
		nodes[name] = e
	}
	a, b, c := nodes["a"], nodes["b"], nodes["c"]
	adminB, adminC := b.Login("admin", "admin123"), c.Login("admin", "admin123")

	var cars httpx.Page[fleet.CarView]
	b.MustOK("POST", "/base-info-app/carInfo/page", adminB, map[string]any{"plate": fleet.DemoCars[0].Plate}).Decode(&cars)
	car := cars.List[0]
	var terms httpx.Page[fleet.TerminalView]
	b.MustOK("POST", "/base-info-app/terminal/page", adminB, map[string]any{"phone": fleet.DemoCars[0].TerminalPhone}).Decode(&terms)
	termID := terms.List[0].ID

	// B's console watches the car before it ever reported
	wctx, wcancel := context.WithTimeout(ctx, 30*time.Second)
	defer wcancel()
	ws, _, err := websocket.Dial(wctx, strings.Replace(b.Srv.URL, "http", "ws", 1)+"/ws/live?token="+adminB, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.CloseNow()
	if err := ws.Write(wctx, websocket.MessageText, fmt.Appendf(nil, `{"type":"select","carIds":[%d]}`, car.ID)); err != nil {
		t.Fatal(err)
	}
	online := func(m []byte) bool {
		return strings.Contains(string(m), fmt.Sprintf(`"carId":%d,`, car.ID)) && !strings.Contains(string(m), `"code":7`)
	}
	if _, m, err := ws.Read(wctx); err != nil || online(m) {
		t.Fatalf("first snapshot on B: %s %v (the car has not reported yet)", m, err)
	}

	fleetA := drive(t, a.App.Devices.GatewayAddr(), 3, newAcked())
	waitFor(t, "the terminal to log in on A", func() bool { return a.App.Devices.Gateway.Online(termID) })
	for {
		_, m, err := ws.Read(wctx)
		if err != nil {
			t.Fatalf("B's /ws/live never showed the car online: %v", err)
		}
		if online(m) {
			break
		}
	}
	waitFor(t, "B to count the three cars on A as online", func() bool {
		var n map[string]int64
		b.MustOK("GET", "/monitor-app/realTimeMoitoring/carCount", adminB, nil).Decode(&n)
		return n["8"]-n["7"] >= 3
	})

	// a command on C goes through A's session; the terminal's answer comes back to C
	var v telemetry.CommandView
	c.MustOK("POST", "/base-info-app/terminalCommand/send", adminC, map[string]any{"carId": car.ID, "kind": "text", "text": "前方施工，请减速慢行"}).Decode(&v)
	if v.Status != telemetry.CommandOK || v.Reply != "成功" || v.ID == 0 {
		t.Fatalf("command from C: %+v", v)
	}
	if c.App.Devices.Gateway.Online(termID) || b.App.Devices.Gateway.Online(termID) {
		t.Fatal("the terminal has a session on B or C besides A")
	}

	// the same terminals connecting to B while live on A are refused there
	fleetB := drive(t, b.App.Devices.GatewayAddr(), 3, newAcked())
	waitFor(t, "B to refuse the terminals live on A", func() bool {
		return metric(t, b, `tankwatch_jt808_refusals_total{reason="live_session"}`) >= 3
	})
	if b.App.Devices.Gateway.Online(termID) || !a.App.Devices.Gateway.Online(termID) {
		t.Fatal("the terminal moved to B while its session on A was live")
	}

	// A stops: its entries are released and the terminals get in on B
	fleetA.Stop()
	a.App.StopDevices()
	kv, err := first.KV(ctx, "owners", 0)
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "A's entries to be released", func() bool {
		v, _, err := kv.Get(ctx, fmt.Sprintf("t%d", termID))
		return errors.Is(err, bus.ErrNotFound) || (err == nil && !strings.HasPrefix(string(v), "a "))
	})
	waitFor(t, "the terminal to be accepted on B", func() bool { return b.App.Devices.Gateway.Online(termID) })
	c.MustOK("POST", "/base-info-app/terminalCommand/send", adminC, map[string]any{"carId": car.ID, "kind": "lock"}).Decode(&v)
	if v.Status != telemetry.CommandOK {
		t.Fatalf("command from C to the terminal now on B: %+v", v)
	}
	fleetB.Stop()

	// each command is in the shared command log once, recorded by the node that sent it down
	var page httpx.Page[telemetry.CommandView]
	b.MustOK("POST", "/base-info-app/terminalCommand/page", adminB, map[string]any{"carId": car.ID,
		"startTime": shanghai(b.Clock.Now().Add(-time.Hour)), "endTime": shanghai(b.Clock.Now().Add(time.Hour))}).Decode(&page)
	// the gateway's own attribute query after a login (0x8107, D90) is in the log too, sent by whichever
	// node the terminal logged in to; only the two commands sent from the console are counted here
	sent := 0
	for _, c := range page.List {
		if c.Kind != "queryAttributes" {
			sent++
		}
	}
	if sent != 2 {
		t.Errorf("command log lists %d console commands, want 2: %+v", sent, page.List)
	}
}

// metric reads one sample of the node's /metrics.
func metric(t *testing.T, e *apptest.Env, name string) float64 {
	t.Helper()
	r := e.Call("GET", "/metrics", e.Login("admin", "admin123"), nil)
	for line := range strings.SplitSeq(string(r.Body), "\n") {
		if v, ok := strings.CutPrefix(line, name+" "); ok {
			var f float64
			_, _ = fmt.Sscan(v, &f)
			return f
		}
	}
	return 0
}
