// Package apptest runs a complete TankWatch (demo organisation, fake clock) behind httptest for tests
// of any package, on SQLite and, when TANKWATCH_TEST_PG is set, PostgreSQL.
package apptest

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"tankwatch/internal/app"
	"tankwatch/internal/auth"
	"tankwatch/internal/fleet"
	"tankwatch/internal/org"
	"tankwatch/internal/platform/config"
	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/db/dbtest"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/sim"
)

// Clock is a settable clock.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// newClock is every instance's clock at its start (the seeded store is seeded at the same time).
func newClock() *Clock { return &Clock{t: time.Date(2026, 3, 1, 8, 0, 0, 0, time.UTC)} }

// Now returns the clock's time.
func (c *Clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }

// Advance moves the clock forward.
func (c *Clock) Advance(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

// Env is a running instance.
type Env struct {
	T     testing.TB
	App   *app.App
	DB    *db.DB
	Srv   *httptest.Server
	Clock *Clock
	Lang  string // Accept-Language of calls ("" = none)
}

// Each runs fn on a fresh demo instance per dialect.
func Each(t *testing.T, fn func(t *testing.T, e *Env)) {
	t.Helper()
	for _, d := range dbtest.Dialects() {
		t.Run(d, func(t *testing.T) { fn(t, New(t, d, config.Config{Demo: true})) })
	}
}

// New starts an instance on dialect with cfg (demo seeded when cfg.Demo).
func New(t testing.TB, dialect string, cfg config.Config) *Env {
	t.Helper()
	if dialect == db.SQLite && plainDemo(cfg) {
		return NewOn(t, openSeeded(t), cfg)
	}
	return NewOn(t, dbtest.Open(t, dialect), cfg)
}

// NewOn starts an instance on the store d (several nodes of one deployment share a database).
func NewOn(t testing.TB, d *db.DB, cfg config.Config) *Env {
	t.Helper()
	auth.UseFastHashingForTests()
	if cfg.Data == "" { // files the instance writes (uploaded tiles…) never land in the package's source folder
		cfg.Data = t.TempDir()
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	a := app.New(cfg, d, log)
	clock := newClock()
	a.SetNow(clock.Now)
	if err := a.Bootstrap(context.Background(), io.Discard); err != nil {
		t.Fatalf("bootstrap: %v", err)
	}
	srv := httptest.NewServer(a.Handler())
	t.Cleanup(srv.Close)
	return &Env{T: t, App: a, DB: d, Srv: srv, Clock: clock}
}

// Resp is a decoded response.
type Resp struct {
	Status  int
	Header  http.Header
	Body    []byte
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Success int             `json:"success"`
	Data    json.RawMessage `json:"data"`
	Error   string          `json:"error"`
}

// Decode unmarshals Data into v.
func (r *Resp) Decode(v any) {
	if err := json.Unmarshal(r.Data, v); err != nil {
		panic("apptest: decode data: " + err.Error() + ": " + string(r.Data))
	}
}

// Call sends method path with body (a string, []byte, or a value encoded as JSON) and token.
func (e *Env) Call(method, path, token string, body any) *Resp {
	e.T.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		j, err := json.Marshal(b)
		if err != nil {
			e.T.Fatal(err)
		}
		rd = bytes.NewReader(j)
	}
	ctype := ""
	if rd != nil {
		ctype = "application/json"
	}
	return e.Do(method, path, token, ctype, rd)
}

// Upload posts a multipart form to path: fields, then data as the part "file" named fileName (none when
// data is nil).
func (e *Env) Upload(path, token string, fields map[string]string, fileName string, data []byte) *Resp {
	e.T.Helper()
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	for k, v := range fields {
		_ = mw.WriteField(k, v)
	}
	if data != nil {
		fw, _ := mw.CreateFormFile("file", fileName)
		_, _ = fw.Write(data)
	}
	_ = mw.Close()
	return e.Do("POST", path, token, mw.FormDataContentType(), &b)
}

// Do sends body as ctype ("": none) with the token and the Env's language, and reads the answer.
func (e *Env) Do(method, path, token, ctype string, body io.Reader) *Resp {
	e.T.Helper()
	req, err := http.NewRequest(method, e.Srv.URL+path, body)
	if err != nil {
		e.T.Fatal(err)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if e.Lang != "" {
		req.Header.Set("Accept-Language", e.Lang)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		e.T.Fatal(err)
	}
	defer res.Body.Close()
	out := &Resp{Status: res.StatusCode, Header: res.Header}
	out.Body, _ = io.ReadAll(res.Body)
	if strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
		_ = json.Unmarshal(out.Body, out)
	}
	return out
}

// Login signs in and returns the token (fails the test otherwise).
func (e *Env) Login(name, password string) string {
	e.T.Helper()
	r := e.Call("POST", "/authority-app/logIn", "", map[string]any{"account": name, "password": password, "type": 0})
	if r.Code != 1 {
		e.T.Fatalf("login %s: %d %s", name, r.Status, r.Body)
	}
	var s struct {
		Token string `json:"access_token"`
	}
	r.Decode(&s)
	return s.Token
}

// MustOK calls and fails the test unless code is 1; it returns the response.
func (e *Env) MustOK(method, path, token string, body any) *Resp {
	e.T.Helper()
	r := e.Call(method, path, token, body)
	if r.Status != 200 || r.Code != 1 {
		e.T.Fatalf("%s %s: %d %s", method, path, r.Status, r.Body)
	}
	return r
}

// ID returns the "id" of the response data.
func (r *Resp) ID() int64 {
	var v struct {
		ID int64 `json:"id"`
	}
	r.Decode(&v)
	return v.ID
}

// Groups maps the names of the groups the token's user sees to their ids.
func (e *Env) Groups(token string) map[string]int64 {
	e.T.Helper()
	out := map[string]int64{}
	var tree []*org.GroupView
	e.MustOK("POST", "/authority-app/groupInfo/findTrees", token, map[string]any{}).Decode(&tree)
	var walk func([]*org.GroupView)
	walk = func(gs []*org.GroupView) {
		for _, g := range gs {
			out[g.Name] = g.ID
			walk(g.Children)
		}
	}
	walk(tree)
	return out
}

// WaitFor polls cond every 20 ms for up to a minute and fails the test if it never holds.
func WaitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	WaitWithin(t, time.Minute, what, cond)
}

// WaitWithin is WaitFor with its own limit (a simulated trip in real time).
func WaitWithin(t testing.TB, limit time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// NewWithGateway starts a demo instance on dialect whose devices run, with the JT/T 808 gateway on a
// free loopback port (no in-process demo fleet: tests drive their own terminals with Drive).
func NewWithGateway(t testing.TB, dialect string) *Env {
	t.Helper()
	e := New(t, dialect, config.Config{Demo: true, JT808: "127.0.0.1:0", Theme: "tankcar"})
	if err := e.App.StartDevices(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(e.App.StopDevices)
	return e
}

// DemoTerminal is the registry's view of demo car 0's terminal.
func (e *Env) DemoTerminal(token string) fleet.TerminalView {
	e.T.Helper()
	var terms httpx.Page[fleet.TerminalView]
	e.MustOK("POST", "/base-info-app/terminal/page", token, map[string]any{"phone": fleet.DemoCars[0].TerminalPhone}).Decode(&terms)
	if len(terms.List) == 0 || terms.List[0].CarID == nil {
		e.T.Fatal("demo car 0 has no bound terminal")
	}
	return terms.List[0]
}

// Drive connects a simulated terminal of demo car 0 to the gateway over TCP (fast clock, no help
// requests of its own) and waits until it is online; stop it with Stop, and Drive again to reconnect.
func (e *Env) Drive(t testing.TB, terminalID int64) *sim.Fleet {
	t.Helper()
	f, err := sim.Start(context.Background(), sim.Config{Gateway: e.App.Devices.GatewayAddr(), Vehicles: 1, Interval: 2 * time.Second,
		Speedup: 20, Seed: 7, AckTimeout: 2 * time.Second, Backoff: 100 * time.Millisecond, HelpEvery: 1000 * time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.Stop)
	WaitFor(t, "the terminal to log in", func() bool { return e.App.Devices.Gateway.Online(terminalID) })
	return f
}
