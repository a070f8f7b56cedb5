package app_test

import (
	"context"
	"fmt"
	"net/http"
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

// TestRolesSplit runs a gateway-only node and an api-only node on one PostgreSQL database and one
// NATS server (D93): the api node opens no device port even when given one; a terminal on the
// gateway node is live on the api node's /ws/live; a command sent on the api node reaches it through
// the gateway node; the gateway node answers only its probes and /metrics over HTTP; the api node
// says plainly that it does not serve video.
func TestRolesSplit(t *testing.T) {
	url := os.Getenv("TANKWATCH_TEST_NATS")
	if url == "" {
		t.Skip("TANKWATCH_TEST_NATS not set")
	}
	dsn := dbtest.PGDatabase(t)
	ctx := context.Background()
	prefix := bus.RandomPrefix("twr")
	start := func(name, roles string) *apptest.Env {
		d, err := db.Open(ctx, dsn, "")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = d.Close() })
		e := apptest.NewOn(t, d, config.Config{Demo: true, Roles: roles, JT808: "127.0.0.1:0", JT1078: "127.0.0.1:0",
			JT1078UDP: "off", Theme: "tankcar"})
		nb, err := bus.DialNATS(ctx, bus.NATSConfig{URL: url, Node: name, Prefix: prefix, Log: e.App.Log})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = nb.Close() })
		if name == "g" {
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
		return e
	}
	g := start("g", "gateway")
	p := start("p", "api")
	if addr := p.App.Devices.GatewayAddr(); addr != "" {
		t.Fatalf("the api node opened a JT/T 808 port: %s", addr)
	}
	if g.App.Devices.GatewayAddr() == "" {
		t.Fatal("the gateway node opened no JT/T 808 port")
	}
	admin := p.Login("admin", "admin123")

	// the gateway node: probes and /metrics (with a token the api node issued), nothing else
	for _, c := range []struct {
		method, path, token string
		status              int
	}{
		{"GET", "/healthz", "", http.StatusOK},
		{"GET", "/readyz", "", http.StatusOK},
		{"GET", "/metrics", admin, http.StatusOK},
		{"POST", "/authority-app/logIn", "", http.StatusNotFound},
		{"POST", "/base-info-app/carInfo/page", admin, http.StatusNotFound},
		{"GET", "/", "", http.StatusNotFound},
	} {
		if r := g.Call(c.method, c.path, c.token, map[string]any{}); r.Status != c.status {
			t.Errorf("gateway node %s %s: HTTP %d, want %d: %s", c.method, c.path, r.Status, c.status, r.Body)
		}
	}

	var cars httpx.Page[fleet.CarView]
	p.MustOK("POST", "/base-info-app/carInfo/page", admin, map[string]any{"plate": fleet.DemoCars[0].Plate}).Decode(&cars)
	car := cars.List[0]
	var terms httpx.Page[fleet.TerminalView]
	p.MustOK("POST", "/base-info-app/terminal/page", admin, map[string]any{"phone": fleet.DemoCars[0].TerminalPhone}).Decode(&terms)
	termID := terms.List[0].ID

	wctx, wcancel := context.WithTimeout(ctx, 30*time.Second)
	defer wcancel()
	ws, _, err := websocket.Dial(wctx, strings.Replace(p.Srv.URL, "http", "ws", 1)+"/ws/live?token="+admin, nil)
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
		t.Fatalf("first snapshot on the api node: %s %v (the car has not reported yet)", m, err)
	}

	fleetG := drive(t, g.App.Devices.GatewayAddr(), 1, newAcked())
	defer fleetG.Stop()
	waitFor(t, "the terminal to log in on the gateway node", func() bool { return g.App.Devices.Gateway.Online(termID) })
	for {
		_, m, err := ws.Read(wctx)
		if err != nil {
			t.Fatalf("the api node's /ws/live never showed the car online: %v", err)
		}
		if online(m) {
			break
		}
	}

	// a command sent on the api node goes down through the gateway node's session
	var v telemetry.CommandView
	p.MustOK("POST", "/base-info-app/terminalCommand/send", admin, map[string]any{"carId": car.ID, "kind": "text", "text": "前方施工，请减速慢行"}).Decode(&v)
	if v.Status != telemetry.CommandOK || v.Reply != "成功" || v.ID == 0 {
		t.Fatalf("command from the api node: %+v", v)
	}

	// live video is relayed by the node that asked for the stream (D88) and asks whether the
	// session is its own: an api-only node refuses it plainly rather than asking for a stream
	r := p.Call("GET", fmt.Sprintf("/base-info-app/carInfo/doVisual?carId=%d&channelNo=1", car.ID), admin, nil)
	if r.Code != 0 || !strings.Contains(r.Message, "未启用视频") {
		t.Errorf("live video on the api node: %d %q, want the video-not-enabled refusal", r.Code, r.Message)
	}
}
