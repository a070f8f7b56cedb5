package app_test

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"tankwatch/internal/fleet"
	"tankwatch/internal/jt808"
	"tankwatch/internal/platform/bus"
	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/db/dbtest"
	"tankwatch/internal/sim"
)

// killFleet is how many simulated terminals report while node A is killed (issue 19's proof).
const killFleet = 200

// TestKillNode is issue 19's proof with real processes: three `tankwatch serve` on one PostgreSQL
// database and one NATS, 200 simulated terminals on A, then `kill -9` of A. Every terminal gets back
// in on B or C, B's /ws/live shows every car with a report newer than anything acknowledged before
// the kill, every report the terminals saw acknowledged is in the store, and an alarm raised on A
// for a report whose acknowledgement was lost (so the terminal sends it again to B) is one row.
// scripts/cluster-soak.sh runs the same with more terminals (TestClusterSoak).
func TestKillNode(t *testing.T) {
	if testing.Short() {
		t.Skip("three server processes and 200 terminals: not in -short")
	}
	t.Parallel()
	r := killRun(t, killPlan{fleet: killFleet, speedup: 10})
	t.Logf("kill -9 A with %d terminals: all back on B/C %.1f s after, B's live view had every car newer %.1f s after; "+
		"%d reports acknowledged (%d before the kill), sent %d, resent %d, blind %d, missing from the store %d",
		killFleet, r.reconnected.Seconds(), r.resumed.Seconds(), r.acked, r.ackedBefore, r.stats.Sent, r.stats.Resent,
		r.stats.Blind, r.missing)
}

// killPlan is one run of the kill proof.
type killPlan struct {
	fleet   int // simulated terminals (demo vehicles 0…fleet-1; vehicle fleet+1 is the hand-driven alarm car)
	speedup int // simulated time per real second; each terminal reports every 10 s of simulated time
	// killAfter is how long the fleet reports on A with all three nodes up before A is killed; 0: as
	// soon as every terminal has two reports acknowledged.
	killAfter time.Duration
	// duration is how long the fleet runs in all, from its start; 0: it stops once every terminal is
	// back and B's live view shows every car after the kill.
	duration time.Duration
	// ackTimeout is the terminals' wait for a reply before they resend or reconnect; 0: 2 s.
	ackTimeout time.Duration
}

// killResult is what a kill run measured.
type killResult struct {
	reconnected, resumed time.Duration // from the kill: every terminal back on B or C; B's /ws/live shows every car after it
	acked, ackedBefore   int           // reports acknowledged in all, and before the kill
	missing              int           // acknowledged reports missing from the store
	stats                sim.Stats
	doubled              int       // alarm episodes (car, type, start) stored more than once, all cars
	use                  []nodeUse // CPU and memory of A (up to the kill), B and C (from the kill to the end)
	store                footprint // what the history takes in PostgreSQL at the end
}

func killRun(t *testing.T, p killPlan) killResult {
	ps := newProcSetup(t, "twk", p.fleet)
	natsURL, alarmIdx, dsn, bin, prefix, store := ps.natsURL, ps.alarmIdx, ps.dsn, ps.bin, ps.prefix, ps.store
	ctx := context.Background()

	common := []string{"--db", dsn, "--bus", natsURL, "--bus-prefix", prefix, "--jt1078", "",
		// every simulated terminal dials from 127.0.0.1: the per-address limiter would block them all
		"--jt808-fail-limit", "1000000"}
	a := startNode(t, bin, "a", append(common, "--demo", "--demo-sim=false", "--demo-history-cars", "0",
		"--demo-vehicles", fmt.Sprint(alarmIdx+1)))
	waitFor(t, "node A to serve", a.ready)
	// B and C only listen once the fleet is on A: a terminal whose first address does not answer
	// moves on, so all of them end up on A whatever their place in the list.
	b, c := &node{name: "b", http: freeAddr(t), jt808: freeAddr(t)}, &node{name: "c", http: freeAddr(t), jt808: freeAddr(t)}

	acks := newAcked()
	started := time.Now()
	fl, err := sim.Start(ctx, sim.Config{Gateway: a.jt808 + "," + b.jt808 + "," + c.jt808, Vehicles: p.fleet,
		Interval: 10 * time.Second, Speedup: float64(p.speedup), DayAtStart: true, Seed: 19, Misbehave: 0,
		AckTimeout: cmp.Or(p.ackTimeout, 2*time.Second), Backoff: 100 * time.Millisecond, OnAck: acks.add})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(fl.Stop)
	waitFleet(t, fl, "the fleet to authenticate on A", func() bool { return fl.Stats().Authenticated == int64(p.fleet) })

	startNode(t, bin, "b", common, b)
	startNode(t, bin, "c", common, c)
	waitFor(t, "nodes B and C to serve", func() bool { return b.ready() && c.ready() })
	live := watchLive(t, b, p.fleet)
	// the car with the alarm: one report with the emergency bit, acknowledged by A once B
	// and C run (a node loads the alarms going on when it starts; this one starts after)
	alarmTerm := alarmTerminal(t, store, alarmIdx)
	code := alarmTerm.register(t, a.jt808)
	if !alarmTerm.auth(t, a.jt808, code) {
		t.Fatal("the alarm terminal was refused on A")
	}
	alarmAt := time.Now().Truncate(time.Second).UTC()
	alarmTerm.report(t, alarmAt, 1) // bit 0: emergency (t0)
	waitFor(t, "A to raise the emergency alarm", func() bool { return alarmRows(t, store, alarmTerm.carID) == 1 })

	waitFleet(t, fl, "reports from every terminal acknowledged on A", func() bool {
		return fl.Stats().Acked >= int64(2*p.fleet) && acks.count() >= 2*p.fleet
	})
	waitFleet(t, fl, "B's live view to show the fleet", func() bool { return live.cars() >= p.fleet })
	tokA, tokB, tokC := a.login(t), b.login(t), c.login(t)
	useA := a.sample(t, tokA)
	for until := time.Now().Add(p.killAfter); time.Now().Before(until); {
		time.Sleep(100 * time.Millisecond) // the fleet reports on A for killAfter: a load, not a condition
	}

	before := acks.snapshot()
	useA = useA.until(a.sample(t, tokA))
	useB, useC := b.sample(t, tokB), c.sample(t, tokC)
	killed := time.Now()
	if err := a.cmd.Process.Kill(); err != nil { // SIGKILL
		t.Fatal(err)
	}
	_ = a.cmd.Wait()

	waitFleet(t, fl, "every terminal to be back on B or C", func() bool {
		return b.metric(t, tokB, "tankwatch_jt808_sessions")+c.metric(t, tokC, "tankwatch_jt808_sessions") >= float64(p.fleet) &&
			fl.Stats().Authenticated == int64(p.fleet)
	})
	var r killResult
	r.reconnected = time.Since(killed)
	newest := before.newest()
	waitFleet(t, fl, "B's live view to show every car reporting after the kill", func() bool {
		return live.newer(newest) >= p.fleet
	})
	r.resumed = time.Since(killed)

	// the alarm report's acknowledgement was lost with A: the terminal sends it again, to B
	waitFor(t, "the alarm terminal to be accepted on B", func() bool { return alarmTerm.auth(t, b.jt808, code) })
	alarmTerm.report(t, alarmAt, 1)
	alarmTerm.report(t, alarmAt.Add(time.Second), 0)
	waitFor(t, "B to judge the alarm terminal's reports", func() bool {
		var open int
		if err := store.NewRaw("SELECT count(*) FROM alarms WHERE car_id = ? AND type_code = 't0' AND end_at IS NULL",
			alarmTerm.carID).Scan(ctx, &open); err != nil {
			t.Fatal(err)
		}
		return open == 0 || alarmRows(t, store, alarmTerm.carID) > 1
	})
	for time.Since(started) < p.duration {
		time.Sleep(100 * time.Millisecond) // the rest of the soak: a load, not a condition
	}

	r.use = []nodeUse{useA, useB.until(b.sample(t, tokB)), useC.until(c.sample(t, tokC))}
	fl.Stop()
	r.stats = fl.Stats()
	r.acked, r.ackedBefore = acks.count(), before.count()
	var example string
	r.missing, example = acks.missing(t, store)
	if r.missing > 0 {
		t.Errorf("%d acknowledged reports are not in the store, e.g. %s", r.missing, example)
	}
	if n := alarmRows(t, store, alarmTerm.carID); n != 1 {
		t.Errorf("the emergency alarm of the car is %d rows across the nodes, want 1", n)
	}
	var end *int64
	if err := store.NewRaw("SELECT end_at FROM alarms WHERE car_id = ? AND type_code = 't0'", alarmTerm.carID).Scan(ctx, &end); err != nil ||
		end == nil || *end != alarmAt.Add(time.Second).UnixMilli() {
		t.Errorf("the alarm raised on A was not ended by the report B received: end %v, %v", end, err)
	}
	if err := store.NewRaw("SELECT count(*) FROM (SELECT 1 FROM alarms GROUP BY car_id, type_code, start_at HAVING count(*) > 1) AS d").
		Scan(ctx, &r.doubled); err != nil {
		t.Fatal(err)
	}
	if r.doubled > 0 {
		t.Errorf("%d alarm episodes are stored more than once", r.doubled)
	}
	r.store = measureStore(t, store)
	return r
}

// procSetup is what a test of `serve` processes on one PostgreSQL database and one NATS needs: a
// fresh database and the test's own store on it, the binary, a bus prefix whose stream and buckets are
// deleted at the end (bus, the test's own connection), and the hand-driven alarm car's demo vehicle:
// the first protocol-2013 one after the simulated fleet's.
type procSetup struct {
	natsURL, dsn, bin, prefix string
	bus                       *bus.NATS
	store                     *db.DB
	alarmIdx                  int
}

// newProcSetup skips the test without TANKWATCH_TEST_NATS. Call it before starting the nodes: the
// bus's clean-up then runs after they are stopped.
func newProcSetup(t *testing.T, prefix string, fleetSize int) *procSetup {
	t.Helper()
	ps := &procSetup{natsURL: os.Getenv("TANKWATCH_TEST_NATS"), alarmIdx: fleetSize}
	if ps.natsURL == "" {
		t.Skip("TANKWATCH_TEST_NATS not set")
	}
	for fleet.DemoProtocol(ps.alarmIdx) != 2013 {
		ps.alarmIdx++
	}
	ps.dsn, ps.bin, ps.prefix = dbtest.PGDatabase(t), killBinary(t), bus.RandomPrefix(prefix)
	ctx := context.Background()
	var err error
	if ps.bus, err = bus.DialNATS(ctx, bus.NATSConfig{URL: ps.natsURL, Node: "test", Prefix: ps.prefix}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := ps.bus.Destroy(ctx); err != nil {
			t.Errorf("delete the test's stream and buckets: %v", err)
		}
		ps.bus.Close()
	})
	if ps.store, err = db.Open(ctx, ps.dsn, ""); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ps.store.Close() })
	return ps
}

// killBinary is $TANKWATCH_BIN, or the binary built once for the test (no -race: three of them run).
func killBinary(t *testing.T) string {
	t.Helper()
	if bin := os.Getenv("TANKWATCH_BIN"); bin != "" {
		return bin
	}
	bin := filepath.Join(t.TempDir(), "tankwatch")
	out, err := exec.Command("go", "build", "-o", bin, "tankwatch/cmd/tankwatch").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// node is one `tankwatch serve` process.
type node struct {
	name, http, jt808 string
	cmd               *exec.Cmd
	log               string
	suffix            string
}

func (n *node) id() string { return n.name + n.suffix }

// startNode starts a node (the given one, or a new one with free ports) and stops it at the end of the
// test; its log is printed when the test fails.
func startNode(t *testing.T, bin, name string, args []string, given ...*node) *node {
	t.Helper()
	n := &node{name: name}
	if len(given) > 0 {
		n = given[0]
	} else {
		n.http, n.jt808 = freeAddr(t), freeAddr(t)
	}
	n.suffix = "-" + bus.RandomPrefix("") // node ids of parallel runs never meet
	dir := t.TempDir()
	n.log = filepath.Join(dir, "serve.log")
	out, err := os.Create(n.log)
	if err != nil {
		t.Fatal(err)
	}
	n.cmd = exec.Command(bin, append([]string{"serve", "--node-id", n.id(), "--data", dir, "--http", n.http, "--jt808", n.jt808}, args...)...)
	n.cmd.Stdout, n.cmd.Stderr = out, out
	if err := n.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if n.cmd.ProcessState == nil {
			_ = n.cmd.Process.Signal(os.Interrupt)
			done := make(chan struct{})
			go func() { _ = n.cmd.Wait(); close(done) }()
			select {
			case <-done:
			case <-time.After(20 * time.Second):
				_ = n.cmd.Process.Kill()
				<-done
			}
		}
		_ = out.Close()
		if t.Failed() {
			b, _ := os.ReadFile(n.log)
			if len(b) > 6000 {
				b = b[len(b)-6000:]
			}
			t.Logf("node %s log (tail):\n%s", n.name, b)
		}
	})
	return n
}

func (n *node) ready() bool {
	r, err := http.Get("http://" + n.http + "/readyz")
	if err != nil {
		return false
	}
	r.Body.Close()
	return r.StatusCode == http.StatusOK
}

func (n *node) login(t *testing.T) string {
	t.Helper()
	r := post(t, "http://"+n.http+"/authority-app/logIn", `{"account":"admin","password":"admin123","type":0}`)
	tok, _ := r["data"].(map[string]any)["access_token"].(string)
	if tok == "" {
		t.Fatalf("login on %s: %v", n.name, r)
	}
	return tok
}

// metric reads one sample of the node's /metrics (0 when it does not answer).
func (n *node) metric(t *testing.T, token, name string) float64 {
	t.Helper()
	req, _ := http.NewRequest("GET", "http://"+n.http+"/metrics", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	r, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0
	}
	defer r.Body.Close()
	var buf bytes.Buffer
	_, _ = buf.ReadFrom(r.Body)
	for line := range strings.SplitSeq(buf.String(), "\n") {
		if v, ok := strings.CutPrefix(line, name+" "); ok {
			var f float64
			_, _ = fmt.Sscan(v, &f)
			return f
		}
	}
	return 0
}

// liveView follows a node's /ws/live for every car: the newest device time shown per plate.
type liveView struct {
	fleet  int // the simulated fleet's size: demo vehicles 0…fleet-1
	mu     sync.Mutex
	newest map[string]time.Time
}

func watchLive(t *testing.T, n *node, fleet int) *liveView {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	ws, _, err := websocket.Dial(ctx, "ws://"+n.http+"/ws/live?token="+n.login(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	ws.SetReadLimit(64 << 20)
	t.Cleanup(func() { ws.CloseNow() })
	if err := ws.Write(ctx, websocket.MessageText, []byte(`{"type":"select","all":true}`)); err != nil {
		t.Fatal(err)
	}
	v := &liveView{fleet: fleet, newest: map[string]time.Time{}}
	go func() {
		for {
			_, m, err := ws.Read(ctx)
			if err != nil {
				return
			}
			var msg struct {
				Cars []struct {
					Plate string `json:"plate"`
					Time  string `json:"time"`
				} `json:"cars"`
			}
			if json.Unmarshal(m, &msg) != nil {
				continue
			}
			v.mu.Lock()
			for _, c := range msg.Cars {
				at, err := time.ParseInLocation(time.DateTime, c.Time, jt808.CST)
				if err == nil && at.After(v.newest[c.Plate]) {
					v.newest[c.Plate] = at
				}
			}
			v.mu.Unlock()
		}
	}()
	return v
}

// cars is how many of the simulated fleet's cars the view has shown with a report.
func (v *liveView) cars() int { return v.newer(map[string]time.Time{}) }

// newer is how many of the simulated fleet's cars the view shows with a report newer than the time
// given for their terminal phone (without leading zeros).
func (v *liveView) newer(than map[string]time.Time) int {
	cars := fleet.DemoFleet(v.fleet)
	v.mu.Lock()
	defer v.mu.Unlock()
	n := 0
	for _, c := range cars {
		at, ok := v.newest[c.Plate]
		if ok && at.After(than[strings.TrimLeft(c.TerminalPhone, "0")]) {
			n++
		}
	}
	return n
}

// newest is the newest acknowledged device time per terminal phone.
func (a *acked) newest() map[string]time.Time {
	a.mu.Lock()
	defer a.mu.Unlock()
	out := map[string]time.Time{}
	for phone, ts := range a.seen {
		for ms := range ts {
			if at := time.UnixMilli(ms); at.After(out[phone]) {
				out[phone] = at
			}
		}
	}
	return out
}

// handTerminal is a JT/T 808 terminal driven message by message (protocol 2013).
type handTerminal struct {
	idx    int
	carID  int64
	conn   net.Conn
	sp     *jt808.Splitter
	serial uint16
}

func alarmTerminal(t *testing.T, store *db.DB, idx int) *handTerminal {
	t.Helper()
	h := &handTerminal{idx: idx}
	if fleet.DemoProtocol(idx) != 2013 {
		t.Fatalf("demo vehicle %d is not protocol 2013", idx)
	}
	if err := store.NewRaw("SELECT car_id FROM terminals WHERE phone = ?", fleet.DemoTerminalPhone(idx)).
		Scan(context.Background(), &h.carID); err != nil {
		t.Fatalf("the alarm car's terminal: %v", err)
	}
	return h
}

func (h *handTerminal) dial(t *testing.T, addr string) bool {
	t.Helper()
	if h.conn != nil {
		_ = h.conn.Close()
	}
	c, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		return false
	}
	t.Cleanup(func() { _ = c.Close() })
	h.conn, h.sp = c, jt808.NewSplitter(c, 0)
	return true
}

func (h *handTerminal) send(t *testing.T, m jt808.Message) uint16 {
	t.Helper()
	s := h.serial
	h.serial++
	wire, err := jt808.AppendMessage(nil, jt808.Header{Version: jt808.V2013, Phone: jt808.MustPhone(fleet.DemoTerminalPhone(h.idx)), Serial: s}, m)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.conn.Write(wire); err != nil {
		t.Fatal(err)
	}
	return s
}

// answer reads frames until one with msg arrives (platform commands in between are ignored).
func (h *handTerminal) answer(t *testing.T, msg uint16) (jt808.Frame, error) {
	t.Helper()
	_ = h.conn.SetReadDeadline(time.Now().Add(15 * time.Second))
	for {
		raw, err := h.sp.Next()
		if err != nil {
			return jt808.Frame{}, err
		}
		f, _, err := jt808.DecodeFrame(nil, raw)
		if err != nil {
			t.Fatal(err)
		}
		if f.Header.MsgID == msg {
			return f, nil
		}
	}
}

func (h *handTerminal) register(t *testing.T, addr string) string {
	t.Helper()
	if !h.dial(t, addr) {
		t.Fatalf("dial %s", addr)
	}
	car := fleet.DemoFleet(h.idx + 1)[h.idx]
	h.send(t, &jt808.Register{Province: 13, City: 100, Manufacturer: "70111", Model: "TW-808T",
		TerminalID: fleet.DemoTerminalID(h.idx), PlateColor: jt808.PlateYellow, Plate: car.Plate})
	f, err := h.answer(t, jt808.MsgRegisterReply)
	if err != nil {
		t.Fatal(err)
	}
	var rr jt808.RegisterReply
	if err := rr.DecodeBody(f.Body, f.Header.Version); err != nil || rr.Result != 0 || rr.AuthCode == "" {
		t.Fatalf("register: %+v %v", rr, err)
	}
	return rr.AuthCode
}

// auth opens a connection to addr and authenticates; false when refused (or the node does not answer).
func (h *handTerminal) auth(t *testing.T, addr, code string) bool {
	t.Helper()
	if !h.dial(t, addr) {
		return false
	}
	s := h.send(t, &jt808.Auth{AuthCode: code})
	f, err := h.answer(t, jt808.MsgPlatformReply)
	if err != nil {
		return false
	}
	var gr jt808.GeneralReply
	return gr.DecodeBody(f.Body, f.Header.Version) == nil && gr.Serial == s && gr.Result == jt808.ResultOK
}

// report sends a position at device time at with the alarm bits and waits for its acknowledgement.
func (h *handTerminal) report(t *testing.T, at time.Time, alarm uint32) {
	t.Helper()
	s := h.send(t, &jt808.Location{Alarm: alarm, Status: 0x3, Lat: 39_904_200, Lon: 116_407_400, Speed: 0, Time: at})
	f, err := h.answer(t, jt808.MsgPlatformReply)
	if err != nil {
		t.Fatalf("acknowledgement of the report at %v: %v", at, err)
	}
	var gr jt808.GeneralReply
	if err := gr.DecodeBody(f.Body, f.Header.Version); err != nil || gr.Serial != s || gr.Result != jt808.ResultOK {
		t.Fatalf("acknowledgement of the report at %v: %+v %v", at, gr, err)
	}
}

func alarmRows(t *testing.T, store *db.DB, carID int64) int {
	t.Helper()
	var n int
	if err := store.NewRaw("SELECT count(*) FROM alarms WHERE car_id = ? AND type_code = 't0'", carID).
		Scan(context.Background(), &n); err != nil {
		t.Fatal(err)
	}
	return n
}
