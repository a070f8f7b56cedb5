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
	t.Parallel()
	cl := newCluster(t, "twt")
	a, b, c := cl.node("a", config.Config{}), cl.node("b", config.Config{}), cl.node("c", config.Config{})
	adminB, adminC := b.Login("admin", "admin123"), c.Login("admin", "admin123")
	car, termID := demoCar(t, b, adminB)

	// B's console watches the car before it ever reported
	live := watchCar(t, b, adminB, car.ID)
	fleetA := drive(t, a.App.Devices.GatewayAddr(), 3, newAcked())
	waitFor(t, "the terminal to log in on A", func() bool { return a.App.Devices.Gateway.Online(termID) })
	live.waitOnline(t)
	waitFor(t, "B to count the three cars on A as online", func() bool {
		var n map[string]int64
		b.MustOK("GET", "/monitor-app/realTimeMoitoring/carCount", adminB, nil).Decode(&n)
		return n["8"]-n["7"] >= 3
	})

	// a command on C goes through A's session; the terminal's answer comes back to C
	sendText(t, c, adminC, car.ID)
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
	kv, err := cl.first.KV(cl.ctx, "owners", 0)
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "A's entries to be released", func() bool {
		v, _, err := kv.Get(cl.ctx, fmt.Sprintf("t%d", termID))
		return errors.Is(err, bus.ErrNotFound) || (err == nil && !strings.HasPrefix(string(v), "a "))
	})
	waitFor(t, "the terminal to be accepted on B", func() bool { return b.App.Devices.Gateway.Online(termID) })
	var v telemetry.CommandView
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

// cluster is several in-process nodes on one fresh PostgreSQL database and one NATS server, under a
// bus prefix of their own; skipped unless both are configured.
type cluster struct {
	t        *testing.T
	ctx      context.Context
	url, dsn string
	prefix   string
	first    *bus.NATS
	buses    map[string]*bus.NATS // each node's connection, by name
}

func newCluster(t *testing.T, prefix string) *cluster {
	t.Helper()
	url := os.Getenv("TANKWATCH_TEST_NATS")
	if url == "" {
		t.Skip("TANKWATCH_TEST_NATS not set")
	}
	return &cluster{t: t, ctx: context.Background(), url: url, dsn: dbtest.PGDatabase(t), prefix: bus.RandomPrefix(prefix)}
}

// node starts a demo node named name on the cluster's database and bus (cfg adds to the defaults); the
// first node's cleanup deletes the test's stream and buckets.
func (cl *cluster) node(name string, cfg config.Config) *apptest.Env {
	t := cl.t
	d, err := db.Open(cl.ctx, cl.dsn, "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = d.Close() })
	cfg.Demo, cfg.JT808, cfg.Theme = true, "127.0.0.1:0", "tankcar"
	e := apptest.NewOn(t, d, cfg)
	nb, err := bus.DialNATS(cl.ctx, bus.NATSConfig{URL: cl.url, Node: name, Prefix: cl.prefix, Log: e.App.Log})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = nb.Close() })
	if cl.buses == nil {
		cl.buses = map[string]*bus.NATS{}
	}
	cl.buses[name] = nb
	if cl.first == nil {
		cl.first = nb
		t.Cleanup(func() { // runs before the close above
			if err := nb.Destroy(cl.ctx); err != nil {
				t.Errorf("delete the test's stream and buckets: %v", err)
			}
		})
	}
	e.App.UseBus(nb)
	if err := e.App.StartDevices(cl.ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(e.App.StopDevices)
	return e
}

// demoCar is the demo fleet's first car and its terminal's id, as node e lists them.
func demoCar(t *testing.T, e *apptest.Env, token string) (fleet.CarView, int64) {
	t.Helper()
	var cars httpx.Page[fleet.CarView]
	e.MustOK("POST", "/base-info-app/carInfo/page", token, map[string]any{"plate": fleet.DemoCars[0].Plate}).Decode(&cars)
	var terms httpx.Page[fleet.TerminalView]
	e.MustOK("POST", "/base-info-app/terminal/page", token, map[string]any{"phone": fleet.DemoCars[0].TerminalPhone}).Decode(&terms)
	return cars.List[0], terms.List[0].ID
}

// carWatch is a console's /ws/live on one node, watching one car.
type carWatch struct {
	ws    *websocket.Conn
	ctx   context.Context
	carID int64
}

// watchCar opens node e's /ws/live, selects the car and checks that its first snapshot does not show
// the car online (it has not reported yet).
func watchCar(t *testing.T, e *apptest.Env, token string, carID int64) *carWatch {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	ws, _, err := websocket.Dial(ctx, strings.Replace(e.Srv.URL, "http", "ws", 1)+"/ws/live?token="+token, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ws.CloseNow() })
	if err := ws.Write(ctx, websocket.MessageText, fmt.Appendf(nil, `{"type":"select","carIds":[%d]}`, carID)); err != nil {
		t.Fatal(err)
	}
	w := &carWatch{ws: ws, ctx: ctx, carID: carID}
	if _, m, err := ws.Read(ctx); err != nil || w.online(m) {
		t.Fatalf("first snapshot: %s %v (the car has not reported yet)", m, err)
	}
	return w
}

func (w *carWatch) online(m []byte) bool {
	return strings.Contains(string(m), fmt.Sprintf(`"carId":%d,`, w.carID)) && !strings.Contains(string(m), `"code":7`)
}

// waitOnline reads the stream until the car shows online.
func (w *carWatch) waitOnline(t *testing.T) {
	t.Helper()
	for {
		_, m, err := w.ws.Read(w.ctx)
		if err != nil {
			t.Fatalf("/ws/live never showed the car online: %v", err)
		}
		if w.online(m) {
			return
		}
	}
}

// sendText sends a text command to the car from node e and wants the terminal's "成功".
func sendText(t *testing.T, e *apptest.Env, token string, carID int64) {
	t.Helper()
	var v telemetry.CommandView
	e.MustOK("POST", "/base-info-app/terminalCommand/send", token, map[string]any{"carId": carID, "kind": "text", "text": "前方施工，请减速慢行"}).Decode(&v)
	if v.Status != telemetry.CommandOK || v.Reply != "成功" || v.ID == 0 {
		t.Fatalf("text command: %+v", v)
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
