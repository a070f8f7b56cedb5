package perf

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"tankwatch/internal/fleet"
	"tankwatch/internal/jt808"
	"tankwatch/internal/platform/httpx"
)

// TestHelpLatency measures a help request from the terminal to the operators: a JT/T 808 terminal over
// real TCP sends 0x0200 reports carrying the 0xE3 help-request item; TANKWATCH_PERF_HELP_CLIENTS
// operators (users made through the API, each with 02-05 and a scope holding the car) are connected as
// paho MQTT-over-WebSocket clients to /mqtt, and one more operator is signed in to the real console in
// headless Chromium (web/scripts/perf-help.mjs), whose 求助消息 dialog is the end point. Run by
// scripts/perf-help.sh, which starts the server(s); skipped otherwise.
//
// Environment: TANKWATCH_PERF_HELP_BASE (the node the browsers connect to, http://host:port),
// TANKWATCH_PERF_HELP_GATEWAY (the JT/T 808 address of the node the terminal reports to),
// TANKWATCH_PERF_HELP_CLIENTS (default 1000), TANKWATCH_PERF_HELP_REQUESTS (default 30),
// TANKWATCH_PERF_HELP_EVERY (seconds between requests, default 2), TANKWATCH_PERF_HELP_BROWSER (path
// of perf-help.mjs; empty: no browser), TANKWATCH_PERF_HELP_TERMINAL (demo terminal index, default 1),
// TANKWATCH_PERF_HELP_LABEL (printed in the summary line).
func TestHelpLatency(t *testing.T) {
	base := os.Getenv("TANKWATCH_PERF_HELP_BASE")
	if base == "" {
		t.Skip("TANKWATCH_PERF_HELP_BASE not set (run scripts/perf-help.sh)")
	}
	gateway := os.Getenv("TANKWATCH_PERF_HELP_GATEWAY")
	nClients := envInt("TANKWATCH_PERF_HELP_CLIENTS", 1000)
	nRequests := envInt("TANKWATCH_PERF_HELP_REQUESTS", 30)
	every := time.Duration(envInt("TANKWATCH_PERF_HELP_EVERY", 2)) * time.Second
	termIdx := envInt("TANKWATCH_PERF_HELP_TERMINAL", 1)
	browserScript := os.Getenv("TANKWATCH_PERF_HELP_BROWSER")
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()

	api := &apiClient{base: base, hc: &http.Client{Timeout: 60 * time.Second,
		Transport: &http.Transport{MaxIdleConnsPerHost: 16}}}
	admin, err := api.login(ctx, "admin", "admin123")
	if err != nil {
		t.Fatal(err)
	}

	// --- operators: one role with 02-05, users in the admin's (root) group, so every car is in scope
	start := time.Now()
	var role struct {
		ID int64 `json:"id"`
	}
	if err := api.call(ctx, admin.Token, "/authority-app/roleInfo/insert", map[string]any{"name": "求助压测",
		"groupId": 0, "resourceCodes": []string{"02-05"}}, &role); err != nil {
		t.Fatal(err)
	}
	const password = "perfhelp123"
	// users[nClients], made last, is the browser's: recipients are pushed to in user-id order, so the
	// browser is the last of the fan-out (the worst case), not the first.
	users := make([]session, nClients+1)
	mkUser := func(i int) error {
		name := fmt.Sprintf("perfhelp%04d", i)
		if err := api.call(ctx, admin.Token, "/authority-app/userInfo/insert", map[string]any{"name": name, "password": password,
			"groupId": admin.GroupID, "roleIds": []int64{role.ID}}, nil); err != nil {
			return err
		}
		s, err := api.login(ctx, name, password)
		users[i] = s
		return err
	}
	if err := parallel(8, nClients, mkUser); err != nil {
		t.Fatal(err)
	}
	if err := mkUser(nClients); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d operators created and signed in in %v", len(users), time.Since(start).Round(time.Millisecond))

	// --- the 1,000 MQTT-over-WebSocket clients
	var rec recorder
	rec.init(nRequests)
	wsURL := "ws" + strings.TrimPrefix(base, "http") + "/mqtt"
	clients := make([]paho.Client, nClients)
	start = time.Now()
	err = parallel(32, nClients, func(i int) error {
		u := users[i]
		id := strconv.FormatInt(u.UserID, 10)
		c := paho.NewClient(paho.NewClientOptions().AddBroker(wsURL).SetClientID(fmt.Sprintf("web_%s_%d", id, time.Now().UnixNano())).
			SetUsername(id).SetPassword(u.Token).SetCleanSession(true).SetAutoReconnect(false).SetConnectTimeout(20*time.Second).
			SetWill("offline/user/"+id, id, 0, false))
		if tok := c.Connect(); !tok.WaitTimeout(30*time.Second) || tok.Error() != nil {
			return fmt.Errorf("client %s: connect: %v", id, tok.Error())
		}
		clients[i] = c
		if tok := c.Subscribe("requestHelp/user/"+id, 1, rec.onMessage); !tok.WaitTimeout(30*time.Second) || tok.Error() != nil {
			return fmt.Errorf("client %s: subscribe: %v", id, tok.Error())
		}
		return nil
	})
	defer func() {
		for _, c := range clients {
			if c != nil {
				c.Disconnect(0)
			}
		}
	}()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d MQTT clients connected and subscribed in %v", nClients, time.Since(start).Round(time.Millisecond))

	// --- the browser
	var br *browser
	if browserScript != "" {
		account := fmt.Sprintf("perfhelp%04d", nClients)
		br, err = startBrowser(ctx, browserScript, base, account, password)
		if err != nil {
			t.Fatal(err)
		}
		defer br.stop()
		ids := make([]int64, nClients)
		for i := range ids {
			ids[i] = users[i].UserID
		}
		t.Logf("browser signed in as %s (user %d, after the %d clients' users %d…%d)", account, users[nClients].UserID,
			nClients, slices.Min(ids), slices.Max(ids))
	}

	// --- the terminal
	term, err := dialTerminal(ctx, gateway, termIdx)
	if err != nil {
		t.Fatal(err)
	}
	defer term.close()

	// Warm-up: until the browser shows a dialog (its MQTT connection is up and subscribed), a request
	// every 3 s; none of these is measured.
	reqID := uint16(1)
	warm := time.Now()
	for br != nil {
		at := nextSecond(time.Now())
		sleepUntil(at)
		if err := term.help(at, 1, reqID); err != nil {
			t.Fatal(err)
		}
		reqID++
		if _, ok := br.next(3 * time.Second); ok {
			break
		}
		if time.Since(warm) > 90*time.Second {
			t.Fatalf("the browser showed no 求助消息 dialog within 90 s\n--- browser ---\n%s", br.output())
		}
	}
	time.Sleep(every)
	for br != nil { // drop late warm-up dialogs
		if _, ok := br.next(200 * time.Millisecond); !ok {
			break
		}
	}
	rec.reset()
	term.drain()

	// --- the measured requests, each sent on a whole second (its device time is its send time)
	sent := make([]time.Time, nRequests)
	acked := make([]time.Duration, nRequests)
	at := nextSecond(time.Now())
	for k := range nRequests {
		sleepUntil(at)
		rec.expect(k, httpx.Time(at.UnixMilli()).String())
		sent[k] = time.Now()
		if err := term.help(at, byte(1+k%2), 100+uint16(k)); err != nil {
			t.Fatal(err)
		}
		acked[k] = term.waitAck(5 * time.Second)
		at = at.Add(every)
	}
	// wait for the stragglers: every client and the browser got every request, or 20 s
	seen := map[int]time.Time{} // request → dialog in the DOM
	painted := map[int]time.Time{}
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if br != nil {
			if s, ok := br.next(100 * time.Millisecond); ok {
				if k, ok := rec.index(s.RequestTime); ok {
					seen[k], painted[k] = msTime(s.DOM), msTime(s.Paint)
				} else {
					t.Logf("dialog for an unknown request time %q", s.RequestTime)
				}
			}
		} else {
			time.Sleep(100 * time.Millisecond)
		}
		if rec.total() == nRequests*nClients && (br == nil || len(seen) == nRequests) {
			break
		}
	}

	// --- figures
	var dom, paint, cli, lastCli, push, ack []float64
	for k := range nRequests {
		if t0, ok := seen[k]; ok {
			dom = append(dom, ms(t0.Sub(sent[k])))
			paint = append(paint, ms(painted[k].Sub(sent[k])))
		}
		got, pushAt := rec.of(k)
		var last time.Time
		for _, g := range got {
			cli = append(cli, ms(g.Sub(sent[k])))
			if g.After(last) {
				last = g
			}
		}
		if len(got) == nClients {
			lastCli = append(lastCli, ms(last.Sub(sent[k])))
		}
		if !pushAt.IsZero() {
			push = append(push, ms(pushAt.Sub(sent[k])))
		}
		if acked[k] > 0 {
			ack = append(ack, ms(acked[k]))
		}
	}
	label := os.Getenv("TANKWATCH_PERF_HELP_LABEL")
	t.Logf("terminal ack (durable) ms: %s", dist(ack))
	t.Logf("terminal → server push start (record stored, recipients found; server clock, ms resolution) ms: %s", dist(push))
	t.Logf("terminal → MQTT client message ms (%d of %d): %s", len(cli), nRequests*nClients, dist(cli))
	t.Logf("terminal → last of the %d clients ms (%d requests complete): %s", nClients, len(lastCli), dist(lastCli))
	if br != nil {
		t.Logf("terminal → dialog in the DOM ms (%d of %d): %s", len(dom), nRequests, dist(dom))
		t.Logf("terminal → dialog painted (2nd animation frame) ms: %s", dist(paint))
	}
	fmt.Printf("SUMMARY %s clients=%d requests=%d dialog_dom_ms p50=%s p95=%s p99=%s max=%s (%d/%d) | mqtt_clients_ms p50=%s p99=%s max=%s (%d/%d) | push_start_ms p50=%s\n",
		label, nClients, nRequests, q(dom, .5), q(dom, .95), q(dom, .99), q(dom, 1), len(dom), nRequests,
		q(cli, .5), q(cli, .99), q(cli, 1), len(cli), nRequests*nClients, q(push, .5))
	if len(cli) != nRequests*nClients {
		t.Errorf("MQTT clients received %d of %d messages", len(cli), nRequests*nClients)
	}
	if br != nil && len(dom) != nRequests {
		t.Errorf("the browser showed %d of %d dialogs\n--- browser ---\n%s", len(dom), nRequests, br.output())
	}
}

// --- figures ---------------------------------------------------------------------------------------

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func msTime(ms float64) time.Time { return time.UnixMicro(int64(ms * 1000)) }

// q is the p-quantile (nearest rank) of xs, formatted in ms; "-" for none.
func q(xs []float64, p float64) string {
	if len(xs) == 0 {
		return "-"
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	i := int(float64(len(s))*p+0.999999) - 1
	return strconv.FormatFloat(s[min(max(i, 0), len(s)-1)], 'f', 1, 64)
}

func dist(xs []float64) string {
	return fmt.Sprintf("n=%d p50=%s p95=%s p99=%s max=%s", len(xs), q(xs, .5), q(xs, .95), q(xs, .99), q(xs, 1))
}

// recorder keeps, per measured request, when each MQTT client got it and the server's push time.
type recorder struct {
	mu     sync.Mutex
	byTime map[string]int // request time as the message carries it → request index
	got    [][]time.Time
	pushAt []time.Time
	n      atomic.Int64
}

func (r *recorder) init(n int) {
	r.byTime, r.got, r.pushAt = map[string]int{}, make([][]time.Time, n), make([]time.Time, n)
}

func (r *recorder) reset() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.init(len(r.got))
	r.n.Store(0)
}

func (r *recorder) expect(k int, requestTime string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.byTime[requestTime] = k
}

func (r *recorder) index(requestTime string) (int, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	k, ok := r.byTime[requestTime]
	return k, ok
}

func (r *recorder) total() int { return int(r.n.Load()) }

func (r *recorder) of(k int) ([]time.Time, time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.got[k]), r.pushAt[k]
}

func (r *recorder) onMessage(_ paho.Client, m paho.Message) {
	at := time.Now()
	var msg struct {
		Timestamp int64             `json:"timestamp"`
		Data      map[string]string `json:"data"`
	}
	if json.Unmarshal(m.Payload(), &msg) != nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	k, ok := r.byTime[msg.Data["requestTime"]]
	if !ok {
		return // a warm-up request
	}
	r.got[k] = append(r.got[k], at)
	if r.pushAt[k].IsZero() && msg.Timestamp > 0 {
		r.pushAt[k] = time.UnixMilli(msg.Timestamp)
	}
	r.n.Add(1)
}

// --- the console's API --------------------------------------------------------------------------------

type apiClient struct {
	base string
	hc   *http.Client
}

type session struct {
	UserID  int64  `json:"userId"`
	GroupID int64  `json:"groupId"`
	Token   string `json:"access_token"`
}

func (a *apiClient) call(ctx context.Context, token, path string, body, out any) error {
	b, _ := json.Marshal(body)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, a.base+path, bytes.NewReader(b))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := a.hc.Do(req)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	var env struct {
		Code int             `json:"code"`
		Msg  string          `json:"msg"`
		Data json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(raw, &env); err != nil || env.Code != 1 {
		return fmt.Errorf("%s: HTTP %d: %s", path, resp.StatusCode, raw)
	}
	if out != nil {
		return json.Unmarshal(env.Data, out)
	}
	return nil
}

func (a *apiClient) login(ctx context.Context, account, password string) (session, error) {
	var s session
	err := a.call(ctx, "", "/authority-app/logIn", map[string]any{"account": account, "password": password, "type": 0}, &s)
	if err == nil && (s.Token == "" || s.UserID == 0) {
		err = fmt.Errorf("login %s: no token in the answer", account)
	}
	return s, err
}

// parallel runs f(0 … n-1) on `workers` goroutines and returns the first error.
func parallel(workers, n int, f func(i int) error) error {
	var next atomic.Int64
	var first error
	var once sync.Once
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				if err := f(i); err != nil {
					once.Do(func() { first = err })
					next.Store(int64(n)) // stop handing out work
					return
				}
			}
		}()
	}
	wg.Wait()
	return first
}

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

func nextSecond(t time.Time) time.Time { return t.Truncate(time.Second).Add(time.Second) }

func sleepUntil(t time.Time) {
	if d := time.Until(t); d > 0 {
		time.Sleep(d)
	}
}

// --- the browser (web/scripts/perf-help.mjs) ---------------------------------------------------------

type seenDialog struct {
	DOM         float64 `json:"dom"`   // epoch ms
	Paint       float64 `json:"paint"` // epoch ms
	RequestTime string  `json:"requestTime"`
}

type browser struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	seen  chan seenDialog
	mu    sync.Mutex
	out   strings.Builder
}

func startBrowser(ctx context.Context, script, base, account, password string) (*browser, error) {
	b := &browser{seen: make(chan seenDialog, 1024)}
	b.cmd = exec.CommandContext(ctx, "node", script, "--base", base, "--account", account, "--password", password)
	var err error
	if b.stdin, err = b.cmd.StdinPipe(); err != nil {
		return nil, err
	}
	stdout, err := b.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	b.cmd.Stderr = writerFunc(b.log)
	if err := b.cmd.Start(); err != nil {
		return nil, err
	}
	ready := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			line := sc.Text()
			switch {
			case line == "READY":
				close(ready)
			case strings.HasPrefix(line, "SEEN "):
				var s seenDialog
				if json.Unmarshal([]byte(line[5:]), &s) == nil {
					b.seen <- s
				}
			default:
				_, _ = b.log([]byte(line + "\n"))
			}
		}
	}()
	select {
	case <-ready:
		return b, nil
	case <-time.After(3 * time.Minute):
		b.stop()
		return nil, fmt.Errorf("browser not signed in within 3 minutes:\n%s", b.output())
	}
}

func (b *browser) log(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.out.Write(p)
	return len(p), nil
}

func (b *browser) output() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.out.String()
}

func (b *browser) next(wait time.Duration) (seenDialog, bool) {
	select {
	case s := <-b.seen:
		return s, true
	case <-time.After(wait):
		return seenDialog{}, false
	}
}

func (b *browser) stop() {
	_, _ = io.WriteString(b.stdin, "DONE\n")
	_ = b.stdin.Close()
	done := make(chan struct{})
	go func() { _ = b.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		_ = b.cmd.Process.Kill()
		<-done
	}
}

type writerFunc func(p []byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// --- a minimal JT/T 808-2013 terminal ----------------------------------------------------------------

type terminal struct {
	conn   net.Conn
	phone  jt808.Phone
	ver    jt808.Version
	serial uint16
	buf    []byte
	frames chan jt808.Frame
	sentAt time.Time
}

func dialTerminal(ctx context.Context, addr string, idx int) (*terminal, error) {
	phone, err := jt808.ParsePhone(fleet.DemoTerminalPhone(idx))
	if err != nil {
		return nil, err
	}
	var d net.Dialer
	c, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	t := &terminal{conn: c, phone: phone, ver: jt808.V2013, frames: make(chan jt808.Frame, 64)}
	if fleet.DemoProtocol(idx) == 2019 {
		t.ver = jt808.V2019
	}
	go t.read()
	if err := t.send(&jt808.Register{Province: 13, City: 100, Manufacturer: "70111", Model: "TW-PERF", TerminalID: fleet.DemoTerminalID(idx),
		PlateColor: jt808.PlateYellow, Plate: fleet.DemoFleet(idx + 1)[idx].Plate}); err != nil {
		return nil, err
	}
	f, err := t.expect(jt808.MsgRegisterReply, 10*time.Second)
	if err != nil {
		return nil, err
	}
	var rr jt808.RegisterReply
	if err := rr.DecodeBody(f.Body, t.ver); err != nil || rr.Result != jt808.RegisterOK {
		return nil, fmt.Errorf("registration refused (result %d, %v)", rr.Result, err)
	}
	auth := &jt808.Auth{AuthCode: rr.AuthCode}
	if t.ver == jt808.V2019 {
		auth.IMEI, auth.SoftwareVersion = "860000000000001", "TW-PERF 1.0"
	}
	if err := t.send(auth); err != nil {
		return nil, err
	}
	f, err = t.expect(jt808.MsgPlatformReply, 10*time.Second)
	if err != nil {
		return nil, err
	}
	var gr jt808.GeneralReply
	if err := gr.DecodeBody(f.Body, t.ver); err != nil || gr.Result != jt808.ResultOK {
		return nil, fmt.Errorf("authentication refused (result %d, %v)", gr.Result, err)
	}
	return t, nil
}

func (t *terminal) read() {
	defer close(t.frames)
	sp := jt808.NewSplitter(t.conn, 4096)
	for {
		raw, err := sp.Next()
		if errors.Is(err, jt808.ErrTooLong) {
			continue
		}
		if err != nil {
			return
		}
		f, _, err := jt808.DecodeFrame(nil, raw)
		if err != nil {
			continue
		}
		f.Body = slices.Clone(f.Body)
		select {
		case t.frames <- f:
		default: // nobody waits for it (e.g. a late reply)
		}
	}
}

func (t *terminal) send(m jt808.Message) error {
	h := jt808.Header{Version: t.ver, ProtoVersion: 1, Phone: t.phone, Serial: t.serial}
	t.serial++
	var err error
	if t.buf, err = jt808.AppendMessage(t.buf[:0], h, m); err != nil {
		return err
	}
	_ = t.conn.SetWriteDeadline(time.Now().Add(10 * time.Second))
	t.sentAt = time.Now()
	_, err = t.conn.Write(t.buf)
	return err
}

// expect waits for a frame of the given message ID (others are dropped).
func (t *terminal) expect(id uint16, wait time.Duration) (jt808.Frame, error) {
	timeout := time.After(wait)
	for {
		select {
		case f, ok := <-t.frames:
			if !ok {
				return jt808.Frame{}, errors.New("the gateway closed the connection")
			}
			if f.Header.MsgID == id {
				return f, nil
			}
		case <-timeout:
			return jt808.Frame{}, fmt.Errorf("no 0x%04x from the gateway within %v", id, wait)
		}
	}
}

// help sends a 0x0200 at device time `at` (standing in 石家庄) with the 0xE3 help-request item.
func (t *terminal) help(at time.Time, typ byte, requestID uint16) error {
	loc := &jt808.Location{Status: jt808.StatusACC | jt808.StatusPositioned, Lat: 38042300, Lon: 114514800, Altitude: 80, Time: at.UTC()}
	loc.AddItem(0xE3, binary.BigEndian.AppendUint16([]byte{typ}, requestID))
	return t.send(loc)
}

// waitAck returns the time from the last send to the platform's 0x8001 for a 0x0200 (0 if none came).
func (t *terminal) waitAck(wait time.Duration) time.Duration {
	timeout := time.After(wait)
	for {
		select {
		case f, ok := <-t.frames:
			if !ok {
				return 0
			}
			var gr jt808.GeneralReply
			if f.Header.MsgID == jt808.MsgPlatformReply && gr.DecodeBody(f.Body, t.ver) == nil && gr.ReplyID == jt808.MsgLocation {
				return time.Since(t.sentAt)
			}
		case <-timeout:
			return 0
		}
	}
}

// drain drops the frames received so far (the warm-up's acknowledgements).
func (t *terminal) drain() {
	for {
		select {
		case <-t.frames:
		default:
			return
		}
	}
}

func (t *terminal) close() { _ = t.conn.Close() }
