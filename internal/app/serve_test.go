package app_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"tankwatch/internal/app"
	"tankwatch/internal/platform/config"
)

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

func post(t *testing.T, url, body string) map[string]any {
	t.Helper()
	res, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil {
		t.Fatal(err)
	}
	return out
}

// serving is app.Serve running in the background.
type serving struct {
	addr   string
	out    *syncBuffer
	cancel context.CancelFunc // stops it
	done   chan error         // Serve's result
}

// startServe runs app.Serve with cfg until it listens (the test fails when it does not).
func startServe(t *testing.T, cfg config.Config) *serving {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	s := &serving{out: &syncBuffer{}, cancel: cancel, done: make(chan error, 1)}
	addrc := make(chan string, 1)
	go func() { s.done <- app.Serve(ctx, cfg, s.out, func(a string) { addrc <- a }) }()
	select {
	case s.addr = <-addrc:
	case err := <-s.done:
		t.Fatalf("serve stopped: %v\n%s", err, s.out.String())
	case <-time.After(3 * time.Minute): // a hang, not a slow start: a fresh data folder is migrated from
		// scratch, and these tests run beside internal/app's other parallel tests under -race (60 s was missed at load 15)
		t.Fatal("serve did not start")
	}
	return s
}

// TestServeFirstStart starts `serve` on a random port with an empty data folder: it prints the
// generated admin password once, the password signs in, and cancelling the context shuts it down.
func TestServeFirstStart(t *testing.T) {
	t.Parallel()
	s := startServe(t, config.Config{HTTP: "127.0.0.1:0", Data: t.TempDir(), Theme: "tankcar", LogFormat: "text"})
	out, cancel, done, addr := s.out, s.cancel, s.done, s.addr
	m := regexp.MustCompile(`created user admin with password (\S+)`).FindStringSubmatch(out.String())
	if m == nil {
		t.Fatalf("no password printed:\n%s", out.String())
	}
	base := "http://" + addr
	if r := post(t, base+"/authority-app/logIn", `{"account":"admin","password":"wrong-one","type":0}`); r["code"].(float64) != 0 {
		t.Fatalf("wrong password accepted: %v", r)
	}
	r := post(t, base+"/authority-app/logIn", `{"account":"admin","password":"`+m[1]+`","type":0}`)
	if r["code"].(float64) != 1 {
		t.Fatalf("login: %v", r)
	}
	data := r["data"].(map[string]any)
	if data["access_token"] == "" || data["userName"] != "admin" {
		t.Fatalf("session: %v", data)
	}
	// /metrics needs a token with 06-11 on the public port (TestMetricsAccess)
	for _, p := range []string{"/healthz", "/readyz", "/", "/themes/escort/logo.svg"} {
		res, err := http.Get(base + p)
		if err != nil || res.StatusCode != 200 {
			t.Fatalf("GET %s: %v %v", p, res, err)
		}
		res.Body.Close()
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("shutdown: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not stop")
	}
	if strings.Count(out.String(), m[1]) != 2 { // once on stderr, once in the log line
		t.Errorf("password printed %d times", strings.Count(out.String(), m[1]))
	}
}

// TestServeSecondStartPrintsNothing: a second start on the same data folder creates no admin.
func TestBootstrapIdempotent(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for i := 0; i < 2; i++ {
		var out syncBuffer
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		cfg := config.Config{HTTP: "127.0.0.1:0", Data: dir, Demo: true}
		started := make(chan struct{})
		go func() { done <- app.Serve(ctx, cfg, &out, func(string) { close(started) }) }()
		select {
		case <-started:
		case err := <-done:
			t.Fatalf("serve: %v", err)
		}
		cancel()
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), "demo login: admin / admin123 (also dispatcher / dispatch123, customer / customer123)") {
			t.Fatalf("start %d: no demo login line:\n%s", i, out.String())
		}
		if strings.Contains(out.String(), "created user admin") {
			t.Fatalf("start %d: demo store got a random admin", i)
		}
	}
}
