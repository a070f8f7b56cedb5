package app_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/platform/config"
)

// dialFrom opens a TCP connection to addr from the loopback address src (Linux routes all of
// 127.0.0.0/8 to lo, so any 127.x address can be a source).
func dialFrom(src, addr string) (net.Conn, error) {
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(src)}, Timeout: 10 * time.Second}
	return d.Dial("tcp", addr)
}

// hostile opens a connection from src that never finishes its request: even ones send complete
// headers and one byte of a 100 kB body (slow body), odd ones half a header (slow header / idle).
func hostile(src, addr string, i int) (net.Conn, error) {
	c, err := dialFrom(src, addr)
	if err != nil {
		return nil, err
	}
	msg := "POST /authority-app/logIn HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"
	if i%2 == 1 {
		msg = "GET / HTTP/1.1\r\nHost: x\r\n"
	}
	_, _ = c.Write([]byte(msg)) // a connection the server already closed may refuse the write
	return c, nil
}

// TestHTTPFloodFromOneAddress floods the console port from 127.0.0.2 with twice its per-address cap
// of slow-body and slow-header connections: the cap's worth are held, the rest closed at accept, and
// meanwhile a login from 127.0.0.1 succeeds and a terminal reports over JT/T 808 to the gateway.
func TestHTTPFloodFromOneAddress(t *testing.T) {
	const perIP = 32
	e := apptest.New(t, "sqlite", config.Config{Demo: true, JT808: "127.0.0.1:0", Theme: "tankcar",
		HTTPMaxConns: 500, HTTPMaxPerIP: perIP})
	if err := e.App.StartDevices(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(e.App.StopDevices)
	ln, err := e.App.ListenHTTP("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := e.App.HTTPServer(e.Srv.Config.Handler) // the instance's handler, built once
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	addr := ln.Addr().String()

	for i := range 2 * perIP {
		c, err := hostile("127.0.0.2", addr, i)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = c.Close() })
	}
	apptest.WaitFor(t, "the flood to be held and refused", func() bool {
		s := ln.Stats()
		return s.ByAddr["127.0.0.2"] == perIP && s.RefusedAddr == perIP
	})

	// A dispatcher signs in from another address while the flood is held.
	res, err := http.Post("http://"+addr+"/authority-app/logIn", "application/json",
		strings.NewReader(`{"account":"admin","password":"admin123","type":0}`))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.Contains(string(body), `"code":1`) {
		t.Fatalf("login during the flood: %d %s", res.StatusCode, body)
	}
	if s := ln.Stats(); s.ByAddr["127.0.0.1"] > 1 || s.RefusedTotal != 0 {
		t.Fatalf("stats after login: %+v", s)
	}

	// A live WebSocket (hijacked from the HTTP server) counts while open and gives its place back
	// when closed.
	tok := e.Login("admin", "admin123")
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP("127.0.0.3")}}
	wsClient := &http.Client{Transport: &http.Transport{DialContext: d.DialContext}}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, "ws://"+addr+"/ws/live?token="+tok, &websocket.DialOptions{HTTPClient: wsClient})
	if err != nil {
		t.Fatal(err)
	}
	if err := ws.Write(ctx, websocket.MessageText, []byte(`{"type":"select","all":true}`)); err != nil {
		t.Fatal(err)
	}
	if _, b, err := ws.Read(ctx); err != nil || !strings.Contains(string(b), `"snapshot"`) {
		t.Fatalf("live snapshot during the flood: %.100s %v", b, err)
	}
	if n := ln.Stats().ByAddr["127.0.0.3"]; n != 1 {
		t.Fatalf("open WebSocket counted %d times", n)
	}
	_ = ws.Close(websocket.StatusNormalClosure, "")
	apptest.WaitFor(t, "the closed WebSocket to give its place back", func() bool { return ln.Stats().ByAddr["127.0.0.3"] == 0 })

	// A terminal connects to the gateway and its reports are committed.
	term := e.DemoTerminal(tok)
	before := e.App.Devices.Writer.Stats().CommittedReports
	e.Drive(t, term.ID)
	apptest.WaitFor(t, "a report to be committed", func() bool {
		return e.App.Devices.Writer.Stats().CommittedReports > before
	})

	// Still one more from the flooding address is refused.
	c, err := hostile("127.0.0.2", addr, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	apptest.WaitFor(t, "the next flood connection to be refused", func() bool { return ln.Stats().RefusedAddr > perIP })
}

// TestHTTPFloodMeasure floods a running `tankwatch serve` and reports what it held and refused. It
// runs only when TANKWATCH_FLOOD_TARGET names the server's HTTP address, e.g.
//
//	TANKWATCH_FLOOD_TARGET=127.0.0.1:18080 TANKWATCH_FLOOD_CONNS=20000 \
//	  go test -run TestHTTPFloodMeasure -v ./internal/app/
//
// The flood comes from 127.0.0.2 … 127.0.0.201 round-robin (slow bodies and slow headers); a login
// as TANKWATCH_FLOOD_LOGIN (account:password, default admin:admin123) is made from 127.0.0.1 once the
// flood is in place.
func TestHTTPFloodMeasure(t *testing.T) {
	target := os.Getenv("TANKWATCH_FLOOD_TARGET")
	if target == "" {
		t.Skip("set TANKWATCH_FLOOD_TARGET to the HTTP address of a running tankwatch serve")
	}
	n := envInt("TANKWATCH_FLOOD_CONNS", 20000)
	login := os.Getenv("TANKWATCH_FLOOD_LOGIN")
	if login == "" {
		login = "admin:admin123"
	}
	account, password, _ := strings.Cut(login, ":")
	sources := envInt("TANKWATCH_FLOOD_SOURCES", 200)
	if sources > 250 {
		sources = 200
	}
	metrics := os.Getenv("TANKWATCH_FLOOD_METRICS") // the server's --metrics address, for the device side
	before := metricValue(metrics, "tankwatch_history_committed_reports_total")
	var (
		mu    sync.Mutex
		conns []net.Conn
		fails atomic.Int64
		wg    sync.WaitGroup
	)
	sem := make(chan struct{}, 64)
	for i := range n {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			c, err := hostile(fmt.Sprintf("127.0.0.%d", 2+i%sources), target, i)
			if err != nil {
				fails.Add(1)
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}()
	}
	wg.Wait()
	defer func() {
		for _, c := range conns {
			_ = c.Close()
		}
	}()
	// Held connections have nothing to read; refused ones read EOF or a reset at once.
	var held, refused atomic.Int64
	for _, c := range conns {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			_ = c.SetReadDeadline(time.Now().Add(time.Second))
			_, err := c.Read(make([]byte, 1))
			if ne, ok := err.(net.Error); ok && ne.Timeout() {
				held.Add(1)
			} else {
				refused.Add(1)
			}
		}()
	}
	wg.Wait()
	start := time.Now()
	res, err := http.Post("http://"+target+"/authority-app/logIn", "application/json",
		strings.NewReader(fmt.Sprintf(`{"account":%q,"password":%q,"type":0}`, account, password)))
	loginOK := false
	if err == nil {
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		loginOK = strings.Contains(string(b), `"code":1`)
	}
	t.Logf("flood of %d from %d addresses: %d held, %d closed by the server, %d dials failed on the client; login from 127.0.0.1 ok=%v in %v (err %v)",
		n, sources, held.Load(), refused.Load(), fails.Load(), loginOK, time.Since(start).Round(time.Millisecond), err)
	if metrics != "" {
		// the gateway keeps committing the simulator's reports while the flood is held
		deadline := time.Now().Add(time.Minute)
		after := metricValue(metrics, "tankwatch_history_committed_reports_total")
		for after <= before && time.Now().Before(deadline) {
			time.Sleep(500 * time.Millisecond)
			after = metricValue(metrics, "tankwatch_history_committed_reports_total")
		}
		t.Logf("device side during the flood: committed reports %v -> %v, jt808 sessions %v; HTTP open %v, refused total-cap %v, address-cap %v",
			before, after, metricValue(metrics, "tankwatch_jt808_sessions"), metricValue(metrics, "tankwatch_http_open_connections"),
			metricValue(metrics, `tankwatch_http_rejected_connections_total{cap="total"}`),
			metricValue(metrics, `tankwatch_http_rejected_connections_total{cap="address"}`))
	}
}

// metricValue reads one sample from a Prometheus text endpoint at addr (-1 when unavailable).
func metricValue(addr, name string) float64 {
	for _, line := range scrape(addr) {
		if v, ok := strings.CutPrefix(line, name+" "); ok {
			f, _ := strconv.ParseFloat(v, 64)
			return f
		}
	}
	return -1
}

// metricLines are the series of a metric (every label set) as the server printed them.
func metricLines(addr, name string) []string {
	var out []string
	for _, l := range scrape(addr) {
		if strings.HasPrefix(l, name+"{") || strings.HasPrefix(l, name+" ") {
			out = append(out, l)
		}
	}
	return out
}

// scrape is the text of a --metrics address, a line each (nil when not given or not answering).
func scrape(addr string) []string {
	if addr == "" {
		return nil
	}
	res, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		return nil
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return strings.Split(string(b), "\n")
}

func envInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}
