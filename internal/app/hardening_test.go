package app_test

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"testing/fstest"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/platform/config"
)

// TestSecurityHeaders: the console and the API carry the CSP (tiles of the configured source only),
// no-framing, nosniff and referrer headers.
func TestSecurityHeaders(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		tiles, want, not string
	}{
		{"gaode", "https://*.is.autonavi.com", "openstreetmap"},
		{"osm", "https://tile.openstreetmap.org", "autonavi"},
		{"none", "img-src 'self' data: blob:;", "https://"},
	} {
		t.Run(tc.tiles, func(t *testing.T) {
			e := apptest.New(t, "sqlite", config.Config{MapTiles: tc.tiles})
			e.App.SetConsole(fstest.MapFS{"index.html": {Data: []byte("<!doctype html><title>TankWatch</title>")}})
			for _, path := range []string{"/", "/authority-app/platformInfo"} {
				r := e.Call("GET", path, "", nil)
				csp := r.Header.Get("Content-Security-Policy")
				host := strings.TrimPrefix(e.Srv.URL, "http://")
				for _, must := range []string{"default-src 'self'", "script-src 'self';", "frame-ancestors 'none'", "object-src 'none'",
					"connect-src 'self' ws://" + host + " wss://" + host, "style-src 'self' 'unsafe-inline'", tc.want} {
					if !strings.Contains(csp, must) {
						t.Errorf("%s: CSP %q lacks %q", path, csp, must)
					}
				}
				if strings.Contains(csp, tc.not) {
					t.Errorf("%s: CSP %q allows %q", path, csp, tc.not)
				}
				if r.Header.Get("X-Frame-Options") != "DENY" || r.Header.Get("X-Content-Type-Options") != "nosniff" ||
					r.Header.Get("Referrer-Policy") != "strict-origin-when-cross-origin" {
					t.Errorf("%s: headers %v", path, r.Header)
				}
			}
		})
	}
}

// TestUnknownAPIPath: a path no route has answers a JSON 404 whatever the method; a known path with
// the wrong method answers 405 naming the allowed ones.
func TestUnknownAPIPath(t *testing.T) {
	t.Parallel()
	e := apptest.New(t, "sqlite", config.Config{Demo: true})
	e.Lang = "en-US"
	for _, c := range []struct{ method, path string }{
		{"POST", "/authority-app/noSuchThing"}, {"GET", "/authority-app/noSuchThing"}, {"DELETE", "/base-info-app/x"},
		{"PUT", "/"}, {"POST", "/authority-app/logIn/extra"},
	} {
		r := e.Call(c.method, c.path, "", nil)
		if r.Status != 404 || r.Code != 0 || r.Message != "No such API" {
			t.Errorf("%s %s: %d %s", c.method, c.path, r.Status, r.Body)
		}
	}
	r := e.Call("GET", "/authority-app/logIn", "", nil)
	if r.Status != 405 || r.Header.Get("Allow") != "POST" || r.Message != "This API does not accept this request method" {
		t.Errorf("GET logIn: %d %v %s", r.Status, r.Header, r.Body)
	}
	r = e.Call("POST", "/healthz", "", nil)
	if r.Status != 405 || r.Header.Get("Allow") != "GET" {
		t.Errorf("POST healthz: %d %v %s", r.Status, r.Header, r.Body)
	}
}

// TestBadTextIsA400: a NUL (raw or \u0000) or invalid UTF-8 in a JSON body is a 400 in the caller's
// language, on logIn and on a signed-in endpoint, on every store.
func TestBadTextIsA400(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		admin := e.Login("admin", "admin123")
		bodies := map[string]struct {
			body string
			want map[string]string
		}{
			"escaped NUL": {`{"account":"ad\u0000min","password":"x","type":0}`, map[string]string{
				"zh-CN": "请求内容不能包含空字符（NUL）", "zh-TW": "請求內容不能包含空字元（NUL）", "en-US": "The request body must not contain NUL characters"}},
			"raw NUL": {"{\"account\":\"ad\x00min\",\"password\":\"x\",\"type\":0}", map[string]string{
				"zh-CN": "请求内容不能包含空字符（NUL）", "zh-TW": "請求內容不能包含空字元（NUL）", "en-US": "The request body must not contain NUL characters"}},
			"invalid UTF-8": {"{\"account\":\"ad\xff\xfemin\",\"password\":\"x\",\"type\":0}", map[string]string{
				"zh-CN": "请求内容不是有效的 UTF-8 文本", "zh-TW": "請求內容不是有效的 UTF-8 文字", "en-US": "The request body is not valid UTF-8 text"}},
		}
		for name, b := range bodies {
			for lang, want := range b.want {
				e.Lang = lang
				for _, call := range []struct{ path, token string }{{"/authority-app/logIn", ""}, {"/authority-app/userInfo/page", admin}} {
					r := e.Call("POST", call.path, call.token, b.body)
					if r.Status != 400 || r.Code != 0 || r.Message != want {
						t.Errorf("%s %s %s: %d %s", name, lang, call.path, r.Status, r.Body)
					}
				}
			}
		}
		// an escaped backslash before u0000 is text, not a NUL
		e.Lang = "zh-CN"
		if r := e.Call("POST", "/authority-app/logIn", "", `{"account":"x\\u0000","password":"y","type":0}`); r.Status != 200 {
			t.Errorf("escaped backslash: %d %s", r.Status, r.Body)
		}
	})
}

// TestMetricsAccess: without --metrics, /metrics needs a token with 06-11; with it, /metrics is on
// that address only.
func TestMetricsAccess(t *testing.T) {
	t.Parallel()
	e := apptest.New(t, "sqlite", config.Config{Demo: true})
	if r := e.Call("GET", "/metrics", "", nil); r.Status != 401 {
		t.Fatalf("anonymous /metrics: %d", r.Status)
	}
	if r := e.Call("GET", "/metrics", e.Login("customer", "customer123"), nil); r.Status != 403 {
		t.Fatalf("customer /metrics: %d", r.Status)
	}
	if r := e.Call("GET", "/metrics", e.Login("admin", "admin123"), nil); r.Status != 200 || !strings.Contains(string(r.Body), "tankwatch_http_requests_total") {
		t.Fatalf("admin /metrics: %d", r.Status)
	}

	metrics := freeAddr(t)
	s := startServe(t, config.Config{HTTP: "127.0.0.1:0", Data: t.TempDir(), Theme: "tankcar", Metrics: metrics, JT808: ""})
	res, err := http.Get("http://" + s.addr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 404 {
		t.Fatalf("public /metrics with --metrics: %d", res.StatusCode)
	}
	res, err = http.Get("http://" + metrics + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.Contains(string(b), "tankwatch_http_open_connections") {
		t.Fatalf("--metrics: %d %.200s", res.StatusCode, b)
	}
}
