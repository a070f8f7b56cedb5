package messaging_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"
	"google.golang.org/protobuf/proto"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/messaging"
	"tankwatch/internal/platform/config"
	"tankwatch/proto/chatpb"
)

type session struct {
	token string
	id    int64
}

func login(t *testing.T, e *apptest.Env, name, pw string) session {
	r := e.Call("POST", "/authority-app/logIn", "", map[string]any{"account": name, "password": pw, "type": 0})
	var s struct {
		Token  string `json:"access_token"`
		UserID int64  `json:"userId"`
	}
	r.Decode(&s)
	if s.Token == "" || s.UserID == 0 {
		t.Fatalf("login %s: %s", name, r.Body)
	}
	return session{s.Token, s.UserID}
}

// console connects to the app's /mqtt like the web console and collects what arrives on msg/user/{id}.
type console struct {
	mu  sync.Mutex
	got []*chatpb.ChatMessage
}

func connect(t *testing.T, e *apptest.Env, s session) *console {
	t.Helper()
	url := "ws" + strings.TrimPrefix(e.Srv.URL, "http") + "/mqtt"
	opts := paho.NewClientOptions().AddBroker(url).SetClientID(fmt.Sprintf("web_%d_%d", s.id, time.Now().UnixNano())).
		SetUsername(fmt.Sprint(s.id)).SetPassword(s.token).SetCleanSession(true).SetAutoReconnect(false).
		SetWill(messaging.UserTopic(messaging.TopicOffline, s.id), fmt.Sprint(s.id), 0, false)
	c := paho.NewClient(opts)
	if tok := c.Connect(); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		t.Fatalf("connect: %v", tok.Error())
	}
	t.Cleanup(func() { c.Disconnect(50) })
	con := &console{}
	tok := c.Subscribe(messaging.UserTopic(messaging.TopicMsg, s.id), 1, func(_ paho.Client, m paho.Message) {
		var cm chatpb.ChatMessage
		if err := proto.Unmarshal(m.Payload(), &cm); err != nil {
			t.Errorf("payload is not a ChatMessage: %v", err)
			return
		}
		con.mu.Lock()
		con.got = append(con.got, &cm)
		con.mu.Unlock()
	})
	if !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		t.Fatal(tok.Error())
	}
	return con
}

func (c *console) messages() []*chatpb.ChatMessage {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]*chatpb.ChatMessage(nil), c.got...)
}

func TestSystemMessages(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		admin := login(t, e, "admin", "admin123")
		disp := login(t, e, "dispatcher", "dispatch123")
		cust := login(t, e, "customer", "customer123")
		dc, cc := connect(t, e, disp), connect(t, e, cust)

		// validation names the field in the caller's language
		e.Lang = "en-US"
		for body, want := range map[string]string{
			`{"content":"c","userIds":[1]}`:             "Title cannot be empty",
			`{"title":"t","userIds":[1]}`:               "Content cannot be empty",
			`{"title":"t","content":"c"}`:               "Recipients cannot be empty",
			`{"title":"t","content":"c","userIds":[0]}`: "Recipients is not valid",
		} {
			if r := e.Call("POST", "/authority-app/message/send", admin.token, body); r.Code != 0 || !strings.Contains(r.Message, want) {
				t.Errorf("%s: %s, want %q", body, r.Body, want)
			}
		}
		e.Lang = ""

		var res messaging.SendResult
		e.MustOK("POST", "/authority-app/message/send", admin.token, map[string]any{
			"title": "系统维护通知", "content": "今晚 22:00 升级", "userIds": []int64{disp.id}}).Decode(&res)
		if res.Recipients != 1 || res.Online != 1 {
			t.Fatalf("send: %+v", res)
		}
		deadline := time.Now().Add(5 * time.Second)
		for len(dc.messages()) == 0 && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		got := dc.messages()
		if len(got) != 1 || got[0].Action != "system" || got[0].Title != "系统维护通知" || got[0].Content != "今晚 22:00 升级" ||
			got[0].Receiver != fmt.Sprint(disp.id) || got[0].Sender == "" || got[0].Timestamp != e.Clock.Now().UnixMilli() || got[0].Id != res.ID {
			t.Fatalf("dispatcher got %v", got)
		}
		time.Sleep(100 * time.Millisecond)
		if n := len(cc.messages()); n != 0 {
			t.Fatalf("customer (not addressed) got %d messages", n)
		}

		// a group reaches its subtree: the customer is in 华东分公司, under the admin's company
		var users []messaging.UserOption
		e.MustOK("GET", "/authority-app/message/users?name=customer", admin.token, nil).Decode(&users)
		if len(users) != 1 || users[0].ID != cust.id || !users[0].Online {
			t.Fatalf("users: %+v", users)
		}
		var custGroup int64
		if err := e.DB.NewSelect().TableExpr("users").Column("group_id").Where("id = ?", cust.id).Scan(t.Context(), &custGroup); err != nil {
			t.Fatal(err)
		}
		e.MustOK("POST", "/authority-app/message/send", admin.token, map[string]any{
			"title": "分公司通知", "content": "c", "groupIds": []int64{custGroup}}).Decode(&res)
		deadline = time.Now().Add(5 * time.Second)
		for len(cc.messages()) == 0 && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		if got := cc.messages(); len(got) != 1 || got[0].Title != "分公司通知" {
			t.Fatalf("customer got %v", got)
		}

		// the page lists both with their targets; the dispatcher's list holds its own message only
		var page struct {
			List  []messaging.SentView `json:"list"`
			Total int                  `json:"total"`
		}
		e.MustOK("POST", "/authority-app/message/page", admin.token, map[string]any{"pageNum": 1, "pageSize": 10}).Decode(&page)
		if page.Total != 2 || page.List[0].Title != "分公司通知" || len(page.List[0].Targets.Groups) != 1 || len(page.List[1].Targets.Users) != 1 {
			t.Fatalf("page: %+v", page)
		}
		e.MustOK("POST", "/authority-app/message/page", admin.token, map[string]any{"title": "维护"}).Decode(&page)
		if page.Total != 1 {
			t.Fatalf("title filter: %+v", page)
		}
		var recv struct {
			List  []messaging.ReceivedView `json:"list"`
			Total int                      `json:"total"`
		}
		e.MustOK("POST", "/authority-app/message/received", disp.token, map[string]any{}).Decode(&recv)
		if recv.Total != 1 || recv.List[0].Title != "系统维护通知" || recv.List[0].ReadAt != 0 {
			t.Fatalf("received: %+v", recv)
		}
		// marking another user's message read does nothing
		e.MustOK("POST", "/authority-app/message/read", disp.token, map[string]any{"ids": []int64{res.ID, recv.List[0].ID}})
		e.MustOK("POST", "/authority-app/message/page", admin.token, map[string]any{}).Decode(&page)
		if page.List[0].Read != 0 || page.List[1].Read != 1 {
			t.Fatalf("read counts: %+v", page.List)
		}
		if r := e.Call("POST", "/authority-app/message/export", admin.token, map[string]any{}); r.Status != 200 || len(r.Body) < 100 ||
			!strings.Contains(r.Header.Get("Content-Type"), "spreadsheet") {
			t.Fatalf("export: %d %s", r.Status, r.Header.Get("Content-Type"))
		}
		// the customer has no 06-01
		if r := e.Call("POST", "/authority-app/message/page", cust.token, map[string]any{}); r.Status != 403 {
			t.Fatalf("customer page: %d", r.Status)
		}
	})
}

// The app's /mqtt checks CONNECT with the real token service: another user's token and a logged-out
// token are refused.
func TestAppBrokerRefusesBadTokens(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		disp := login(t, e, "dispatcher", "dispatch123")
		cust := login(t, e, "customer", "customer123")
		try := func(id int64, token string) error {
			url := "ws" + strings.TrimPrefix(e.Srv.URL, "http") + "/mqtt"
			c := paho.NewClient(paho.NewClientOptions().AddBroker(url).SetClientID(fmt.Sprintf("web_%d_1", id)).
				SetUsername(fmt.Sprint(id)).SetPassword(token).SetAutoReconnect(false))
			tok := c.Connect()
			tok.WaitTimeout(5 * time.Second)
			if tok.Error() == nil {
				c.Disconnect(10)
			}
			return tok.Error()
		}
		if err := try(cust.id, disp.token); err == nil {
			t.Fatal("another user's token accepted")
		}
		if err := try(disp.id, disp.token); err != nil {
			t.Fatalf("own token refused: %v", err)
		}
		e.MustOK("GET", "/authority-app/logOut", disp.token, nil)
		if err := try(disp.id, disp.token); err == nil {
			t.Fatal("logged-out token accepted")
		}
	})
}

// Two nodes sharing Mosquitto (--mqtt-broker): a system message sent on node A reaches the addressed
// user's console connected to node B, and nobody else there. Both nodes seed the same demo, so user ids
// match; Mosquitto may carry other runs' messages, hence the unique title.
func TestSystemMessageAcrossNodes(t *testing.T) {
	ext := os.Getenv("TANKWATCH_TEST_MQTT")
	if ext == "" {
		t.Skip("TANKWATCH_TEST_MQTT not set (e.g. tcp://127.0.0.1:1883)")
	}
	cfg := config.Config{Demo: true, MQTTBroker: ext}
	a, b := apptest.New(t, "sqlite", cfg), apptest.New(t, "sqlite", cfg)
	for _, e := range []*apptest.Env{a, b} {
		ctx, cancel := context.WithCancel(context.Background())
		if err := e.App.StartMessaging(ctx); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cancel(); e.App.StopMessaging() })
		deadline := time.Now().Add(10 * time.Second)
		for !e.App.Broker.ExternalConnected() {
			if time.Now().After(deadline) {
				t.Fatal("node not connected to Mosquitto")
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	time.Sleep(300 * time.Millisecond) // the bridges' subscriptions
	disp, cust := login(t, b, "dispatcher", "dispatch123"), login(t, b, "customer", "customer123")
	dc, cc := connect(t, b, disp), connect(t, b, cust)
	admin := login(t, a, "admin", "admin123")
	title := fmt.Sprintf("跨节点通知 %d", time.Now().UnixNano())
	a.MustOK("POST", "/authority-app/message/send", admin.token, map[string]any{"title": title, "content": "c", "userIds": []int64{disp.id}})
	has := func(c *console) bool {
		for _, m := range c.messages() {
			if m.Title == title {
				return true
			}
		}
		return false
	}
	deadline := time.Now().Add(5 * time.Second)
	for !has(dc) && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if !has(dc) {
		t.Fatal("the dispatcher on node B did not get the message sent on node A")
	}
	time.Sleep(200 * time.Millisecond)
	if has(cc) {
		t.Fatal("the customer got a message addressed to the dispatcher")
	}
}
