package telemetry_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/telemetry"
)

// wsEnv is liveEnv with a live WebSocket over its Live state on a server of its own (fast ticks,
// an injectable token re-check).
type wsEnv struct {
	*liveEnv
	ws  *telemetry.LiveWS
	url string // ws://…/ws/live
}

func wsSetup(t *testing.T, e *apptest.Env, cfg telemetry.LiveWSConfig) *wsEnv {
	t.Helper()
	le := liveSetup(t, e)
	if cfg.Tick == 0 {
		cfg.Tick = 10 * time.Millisecond
	}
	ws := telemetry.NewLiveWS(le.live, e.App.Auth.Guard, cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	mux := http.NewServeMux()
	httpx.Mount(mux, e.App.Auth.Guard, ws.Routes())
	srv := httptest.NewServer(mux)
	t.Cleanup(func() { wsShutdown(t, ws); srv.Close() })
	return &wsEnv{liveEnv: le, ws: ws, url: "ws" + strings.TrimPrefix(srv.URL, "http") + "/ws/live"}
}

func wsShutdown(t *testing.T, ws *telemetry.LiveWS) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := ws.Shutdown(ctx); err != nil {
		t.Errorf("live websocket shutdown: %v", err)
	}
}

// wsDial connects with the token as ?token= plus query (e.g. "&lang=en-US").
func wsDial(t *testing.T, url, token, query string) *websocket.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, res, err := websocket.Dial(ctx, url+"?token="+token+query, nil)
	if err != nil {
		t.Fatalf("dial: %v (%v)", err, res)
	}
	c.SetReadLimit(1 << 22)
	t.Cleanup(func() { _ = c.CloseNow() })
	return c
}

// wsRefused dials and expects the upgrade to be refused with status.
func wsRefused(t *testing.T, url string, header http.Header, status int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, res, err := websocket.Dial(ctx, url, &websocket.DialOptions{HTTPHeader: header})
	if err == nil {
		_ = c.CloseNow()
		t.Fatalf("%s: connected, want HTTP %d", url, status)
	}
	if res == nil || res.StatusCode != status {
		t.Fatalf("%s: %v %v, want HTTP %d", url, res, err, status)
	}
}

type wsMsg struct {
	Type    string           `json:"type"`
	Message string           `json:"message"`
	Cars    []map[string]any `json:"cars"`
	Counts  map[string]int   `json:"counts"`
	Time    string           `json:"time"`
}

func (m wsMsg) plates() []string {
	var out []string
	for _, c := range m.Cars {
		out = append(out, c["plate"].(string))
	}
	return out
}

func wsSend(t *testing.T, c *websocket.Conn, msg string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := c.Write(ctx, websocket.MessageText, []byte(msg)); err != nil {
		t.Fatal(err)
	}
}

func wsNext(t *testing.T, c *websocket.Conn) wsMsg {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	typ, b, err := c.Read(ctx)
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	var m wsMsg
	if err := json.Unmarshal(b, &m); typ != websocket.MessageText || err != nil {
		t.Fatalf("message %d %s: %v", typ, b, err)
	}
	return m
}

// wsExpect reads the next message and checks its type.
func wsExpect(t *testing.T, c *websocket.Conn, typ string) wsMsg {
	t.Helper()
	m := wsNext(t, c)
	if m.Type != typ {
		t.Fatalf("got %+v, want a %s", m, typ)
	}
	return m
}

// wsClosed reads until the server closes and returns the close status and reason.
func wsClosed(t *testing.T, c *websocket.Conn) (websocket.StatusCode, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for {
		if _, _, err := c.Read(ctx); err != nil {
			var ce websocket.CloseError
			if !errors.As(err, &ce) {
				t.Fatalf("connection ended without a close frame: %v", err)
			}
			return ce.Code, ce.Reason
		}
	}
}

// TestLiveWSThroughApp: the app mounts /ws/live with the router's checks: 401 before the upgrade
// without or with a bad token (header or ?token=), 403 without 04 / 01, and a signed-in customer
// sees only 华东's cars.
func TestLiveWSThroughApp(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		if err := e.App.Live.Load(context.Background()); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { wsShutdown(t, e.App.LiveWS) })
		url := "ws" + strings.TrimPrefix(e.Srv.URL, "http") + "/ws/live"
		admin := e.Login("admin", "admin123")
		revoked := e.Login("customer", "customer123")
		e.MustOK("GET", "/authority-app/logOut", revoked, nil)
		wsRefused(t, url, nil, 401)
		wsRefused(t, url+"?token=not-a-token", nil, 401)
		wsRefused(t, url+"?token="+revoked, nil, 401)
		wsRefused(t, url, http.Header{"Authorization": {"Bearer not-a-token"}}, 401)

		var groups []struct {
			ID   int64  `json:"id"`
			Name string `json:"name"`
		}
		e.MustOK("POST", "/authority-app/groupInfo/findTrees", admin, map[string]any{}).Decode(&groups)
		role := e.MustOK("POST", "/authority-app/roleInfo/insert", admin, map[string]any{"name": "仅售后", "resourceCodes": []string{"07"}}).ID()
		e.MustOK("POST", "/authority-app/userInfo/insert", admin, map[string]any{"name": "aftersales", "password": "secret1",
			"groupId": groups[0].ID, "roleIds": []int64{role}})
		wsRefused(t, url+"?token="+e.Login("aftersales", "secret1"), nil, 403)

		c := wsDial(t, url, e.Login("customer", "customer123"), "")
		wsSend(t, c, `{"type":"select","all":true}`)
		snap := wsExpect(t, c, "snapshot")
		if got := strings.Join(snap.plates(), " "); got != "沪A·6N337 浙B·3Q905 苏E·71C26 沪B·9F218" {
			t.Fatalf("customer's cars: %s", got)
		}
		if fmt.Sprint(snap.Counts) != "map[3:0 4:0 5:0 7:4 8:4]" || snap.Time != "2026-03-01 16:00:00" {
			t.Fatalf("snapshot: %+v", snap)
		}
	})
}

func TestLiveWSSelectionScopeAndDeltas(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		we := wsSetup(t, e, telemetry.LiveWSConfig{})
		monitorFleet(we.liveEnv)
		hu, su, ji, huB := we.cars["沪A·6N337"], we.cars["苏E·71C26"], we.cars["冀A·3K281"], we.cars["沪B·9F218"]
		c := wsDial(t, we.url, e.Login("customer", "customer123"), "")

		// Another group's car is dropped even when asked for by id, unknown ids are ignored.
		wsSend(t, c, fmt.Sprintf(`{"type":"select","carIds":[%d,%d,999999,%d,%d]}`, su.ID, ji.ID, hu.ID, su.ID))
		snap := wsExpect(t, c, "snapshot")
		if got := strings.Join(snap.plates(), " "); got != "苏E·71C26 沪A·6N337" {
			t.Fatalf("carIds snapshot: %s", got)
		}
		m := snap.Cars[1]
		if m["lng"] != 121.473701 || m["lat"] != 31.230416 || m["speed"] != 65.5 || m["direction"] != 90.0 || m["code"] != 4.0 ||
			m["abnormal"] != true || m["time"] != "2026-03-01 15:59:59" || m["carId"] != float64(hu.ID) || len(m) != 9 {
			t.Fatalf("marker: %v", m)
		}
		if snap.Cars[0]["lng"] != "" || !reflect.DeepEqual(snap.Counts, liveCounts(4, 2, 1, 1, 1)) {
			t.Fatalf("no-fix marker or counts: %+v", snap)
		}

		// A committed report reaches the browser as a delta with that car only. (Each report is a
		// second later than the last: the same device time and terminal again would be a re-send.)
		e.Clock.Advance(time.Second)
		r := we.report("苏E·71C26", 0, 700)
		we.live.Apply([]telemetry.Report{r, we.report("冀A·3K281", 0, 0)})
		d := wsExpect(t, c, "delta")
		if got := strings.Join(d.plates(), " "); got != "苏E·71C26" || d.Cars[0]["speed"] != 70.0 || d.Cars[0]["code"] != 4.0 ||
			!reflect.DeepEqual(d.Counts, liveCounts(4, 3, 0, 1, 1)) {
			t.Fatalf("delta: %+v", d)
		}
		// A report for a car not selected changes only the counts of the group.
		e.Clock.Advance(time.Second)
		we.live.Apply([]telemetry.Report{we.report("沪B·9F218", 0, 0)})
		d = wsExpect(t, c, "delta")
		if len(d.Cars) != 0 || !reflect.DeepEqual(d.Counts, liveCounts(4, 2, 1, 1, 1)) {
			t.Fatalf("counts-only delta: %+v", d)
		}

		// An out-of-scope group is refused in the caller's language, the selection stays.
		wsSend(t, c, fmt.Sprintf(`{"type":"select","groupId":%d}`, ji.GroupID))
		if m := wsExpect(t, c, "error"); m.Message != "该记录不在您的数据范围内" {
			t.Fatalf("out-of-scope group: %+v", m)
		}
		e.Clock.Advance(time.Second)
		we.live.Apply([]telemetry.Report{we.report("沪A·6N337", 0, 100)})
		if d := wsExpect(t, c, "delta"); strings.Join(d.plates(), " ") != "沪A·6N337" {
			t.Fatalf("selection after the refused select: %+v", d)
		}

		// Garbage gets errors, never a crash; the connection keeps working.
		for msg, want := range map[string]string{
			`not json`:                           "请求内容不是有效的 JSON",
			`{"type":"subscribe"}`:               "不支持的消息类型：subscribe",
			`{"carIds":[1]}`:                     "缺少参数 type",
			`{"type":"select","carIds":"1,2"}`:   "字段 carIds 的类型错误，应为 array",
			`[1,2]`:                              "字段 (body) 的类型错误",
			`{"type":"select","groupId":999999}`: "记录不存在",
		} {
			wsSend(t, c, msg)
			if m := wsExpect(t, c, "error"); !strings.HasPrefix(m.Message, want) {
				t.Errorf("%s: %q, want %q", msg, m.Message, want)
			}
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := c.Write(ctx, websocket.MessageBinary, []byte{1, 2}); err != nil {
			t.Fatal(err)
		}
		if m := wsExpect(t, c, "error"); m.Message != "只接受 JSON 文本消息" {
			t.Fatalf("binary frame: %+v", m)
		}
		ids := make([]string, telemetry.LiveWSMaxCars+1)
		for i := range ids {
			ids[i] = fmt.Sprint(i + 1)
		}
		wsSend(t, c, `{"type":"select","carIds":[`+strings.Join(ids, ",")+`]}`)
		if m := wsExpect(t, c, "error"); m.Message != "一次最多查询 20000 辆车" {
			t.Fatalf("too many cars: %+v", m)
		}

		// A group selection: the sub-group 上海车队, then the whole scope by default.
		wsSend(t, c, fmt.Sprintf(`{"type":"select","groupId":%d,"all":true}`, huB.GroupID))
		if s := wsExpect(t, c, "snapshot"); strings.Join(s.plates(), " ") != "沪B·9F218" || s.Counts["8"] != 1 {
			t.Fatalf("上海车队: %+v", s)
		}
		wsSend(t, c, `{"type":"select","carIds":[]}`)
		s := wsExpect(t, c, "snapshot")
		if strings.Join(s.plates(), " ") != "沪A·6N337 浙B·3Q905 苏E·71C26 沪B·9F218" {
			t.Fatalf("whole scope: %+v", s)
		}

		// Time alone takes the cars offline: they come again with code 7, without a report.
		e.Clock.Advance(21 * time.Minute)
		d = wsExpect(t, c, "delta")
		if got := strings.Join(d.plates(), " "); got != "沪A·6N337 苏E·71C26 沪B·9F218" || d.Cars[0]["code"] != 7.0 ||
			!reflect.DeepEqual(d.Counts, liveCounts(4, 0, 0, 4, 1)) || d.Time != "2026-03-01 16:21:03" {
			t.Fatalf("offline by time: %+v", d)
		}

		// The language comes from ?lang= (the browser cannot set headers).
		en := wsDial(t, we.url, e.Login("customer", "customer123"), "&lang=en-US")
		wsSend(t, en, fmt.Sprintf(`{"type":"select","groupId":%d}`, ji.GroupID))
		if m := wsExpect(t, en, "error"); m.Message != "This record is outside your data scope" {
			t.Fatalf("English: %+v", m)
		}
	})
}

// TestLiveWSRecheckAndShutdown: a revoked token closes the connection with 4401, a lost permission
// with 4403, and a shutdown with 1001.
func TestLiveWSRecheckAndShutdown(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		we := wsSetup(t, e, telemetry.LiveWSConfig{Recheck: 20 * time.Millisecond})
		tok := e.Login("customer", "customer123")
		c := wsDial(t, we.url, tok, "")
		wsSend(t, c, `{"type":"select"}`)
		wsExpect(t, c, "snapshot")
		other := wsDial(t, we.url, e.Login("customer", "customer123"), "")
		e.MustOK("GET", "/authority-app/logOut", tok, nil)
		if code, reason := wsClosed(t, c); code != telemetry.LiveWSInvalidToken || reason != "invalid_token" {
			t.Fatalf("revoked token: %d %q", code, reason)
		}

		admin := e.Login("admin", "admin123")
		role := e.MustOK("POST", "/authority-app/roleInfo/insert", admin, map[string]any{"name": "监控", "resourceCodes": []string{"04"}}).ID()
		user := e.MustOK("POST", "/authority-app/userInfo/insert", admin, map[string]any{"name": "watcher", "password": "secret1",
			"groupId": we.cars["冀A·3K281"].GroupID, "roleIds": []int64{role}}).ID()
		w := wsDial(t, we.url, e.Login("watcher", "secret1"), "")
		e.MustOK("POST", "/authority-app/userInfo/update", admin, map[string]any{"id": user, "name": "watcher",
			"groupId": we.cars["冀A·3K281"].GroupID, "roleIds": []int64{}})
		if code, reason := wsClosed(t, w); code != telemetry.LiveWSForbidden || reason != "forbidden" {
			t.Fatalf("permission gone: %d %q", code, reason)
		}

		for deadline := time.Now().Add(10 * time.Second); we.ws.Conns() != 1; time.Sleep(5 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("%d connections open, want 1", we.ws.Conns())
			}
		}
		done := make(chan struct{})
		go func() { wsShutdown(t, we.ws); close(done) }()
		if code, reason := wsClosed(t, other); code != websocket.StatusGoingAway || reason != "server shutting down" {
			t.Fatalf("shutdown: %d %q", code, reason)
		}
		<-done
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		late, _, err := websocket.Dial(ctx, we.url+"?token="+admin, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := late.Read(ctx); websocket.CloseStatus(err) != websocket.StatusGoingAway {
			t.Fatalf("connection after shutdown: %v", err)
		}
	})
}

// TestLiveWSSendsOnCommit: a committed change goes out without waiting for the tick (here an hour),
// and a second change inside MinGap of the first still goes out, once the gap is over.
func TestLiveWSSendsOnCommit(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		we := wsSetup(t, e, telemetry.LiveWSConfig{Tick: time.Hour, MinGap: 200 * time.Millisecond})
		monitorFleet(we.liveEnv)
		hu, su := we.cars["沪A·6N337"], we.cars["苏E·71C26"]
		c := wsDial(t, we.url, e.Login("customer", "customer123"), "")
		wsSend(t, c, fmt.Sprintf(`{"type":"select","carIds":[%d,%d]}`, su.ID, hu.ID))
		wsExpect(t, c, "snapshot")

		e.Clock.Advance(time.Second)
		we.live.Apply([]telemetry.Report{we.report("苏E·71C26", 0, 700)})
		if d := wsExpect(t, c, "delta"); strings.Join(d.plates(), " ") != "苏E·71C26" {
			t.Fatalf("first delta: %+v", d)
		}
		e.Clock.Advance(time.Second)
		we.live.Apply([]telemetry.Report{we.report("沪A·6N337", 0, 100)})
		if d := wsExpect(t, c, "delta"); strings.Join(d.plates(), " ") != "沪A·6N337" {
			t.Fatalf("delta inside the gap: %+v", d)
		}
	})
}
