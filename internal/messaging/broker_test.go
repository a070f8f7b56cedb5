package messaging

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"
	mqtt "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/packets"

	"tankwatch/internal/platform/httpx"
)

// fakeGuard accepts the tokens it holds (token → user id).
type fakeGuard map[string]int64

func (g fakeGuard) Authenticate(r *http.Request) (*httpx.Principal, error) {
	if uid, ok := g[httpx.BearerToken(r)]; ok {
		return &httpx.Principal{UserID: uid}, nil
	}
	return nil, nil
}

// node is one TankWatch node: a broker behind an HTTP server.
type node struct {
	b   *Broker
	srv *httptest.Server
}

func startNode(t *testing.T, g httpx.Guard, external string) *node {
	t.Helper()
	b, err := NewBroker(g, Config{External: external}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	httpx.Mount(mux, g, b.Routes())
	srv := httptest.NewServer(mux)
	t.Cleanup(func() { _ = b.Close(); srv.Close() })
	if external != "" {
		deadline := time.Now().Add(5 * time.Second)
		for !b.ext.c.IsConnectionOpen() {
			if time.Now().After(deadline) {
				t.Fatal("external broker not connected")
			}
			time.Sleep(20 * time.Millisecond)
		}
		// The bridge subscribes right after connecting; give the SUBACK a moment.
		time.Sleep(200 * time.Millisecond)
	}
	return &node{b: b, srv: srv}
}

func (n *node) wsURL() string { return "ws" + strings.TrimPrefix(n.srv.URL, "http") + "/mqtt" }

// browser connects like the console (spec §9): username = user id, password = token, will = own
// offline topic.
func browser(t *testing.T, n *node, uid int64, token, clientID, will string) (paho.Client, error) {
	t.Helper()
	return browserWith(t, n.wsURL(), uid, token, clientID, will)
}

func browserAt(t *testing.T, url string, uid int64, token string) (paho.Client, error) {
	t.Helper()
	return browserWith(t, url, uid, token, "", "")
}

// browserWith connects like the console, which then listens on its user's message topic.
func browserWith(t *testing.T, url string, uid int64, token, clientID, will string) (paho.Client, error) {
	t.Helper()
	c, err := connect(t, url, uid, token, clientID, will)
	if err != nil {
		return nil, err
	}
	if tok := c.Subscribe(UserTopic(TopicMsg, uid), 1, nil); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		return nil, fmt.Errorf("subscribe: %v", tok.Error())
	}
	return c, nil
}

// connect connects a browser that subscribes to nothing yet.
func connect(t *testing.T, url string, uid int64, token, clientID, will string) (paho.Client, error) {
	t.Helper()
	if clientID == "" {
		clientID = fmt.Sprintf("web_%d_%d", uid, time.Now().UnixNano())
	}
	if will == "" {
		will = UserTopic(TopicOffline, uid)
	}
	opts := paho.NewClientOptions().AddBroker(url).SetClientID(clientID).
		SetUsername(fmt.Sprint(uid)).SetPassword(token).SetCleanSession(true).
		SetAutoReconnect(false).SetConnectTimeout(4*time.Second).SetWill(will, fmt.Sprint(uid), 0, false)
	c := paho.NewClient(opts)
	tok := c.Connect()
	if !tok.WaitTimeout(5 * time.Second) {
		return nil, fmt.Errorf("connect timed out")
	}
	if tok.Error() != nil {
		return nil, tok.Error()
	}
	t.Cleanup(func() { c.Disconnect(50) })
	return c, nil
}

// inbox collects the payloads a client receives.
type inbox struct {
	mu  sync.Mutex
	got map[string][]string // topic → payloads
}

func (ib *inbox) handler(_ paho.Client, m paho.Message) {
	ib.mu.Lock()
	defer ib.mu.Unlock()
	if ib.got == nil {
		ib.got = map[string][]string{}
	}
	ib.got[m.Topic()] = append(ib.got[m.Topic()], string(m.Payload()))
}

func (ib *inbox) has(topic, payload string) bool {
	ib.mu.Lock()
	defer ib.mu.Unlock()
	for _, p := range ib.got[topic] {
		if p == payload {
			return true
		}
	}
	return false
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func subscribe(t *testing.T, c paho.Client, topic string, ib *inbox) byte {
	t.Helper()
	tok := c.Subscribe(topic, 1, ib.handler)
	if !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		t.Fatalf("subscribe %s: %v", topic, tok.Error())
	}
	return tok.(*paho.SubscribeToken).Result()[topic]
}

// users returns two fresh user ids and a guard for them: topics are fixed by the spec and a shared
// Mosquitto may carry other runs' messages, so ids (and message keys) are unique per run.
func users() (a, b int64, g fakeGuard) {
	a = 1_000_000 + rand.Int64N(1_000_000_000)
	b = a + 1
	return a, b, fakeGuard{"tok-a": a, "tok-b": b}
}

func externalURL(t *testing.T) string {
	u := os.Getenv("TANKWATCH_TEST_MQTT")
	if u == "" {
		t.Skip("TANKWATCH_TEST_MQTT not set (e.g. tcp://127.0.0.1:1883)")
	}
	return u
}

// modes runs f with the embedded broker alone and, when TANKWATCH_TEST_MQTT is set, with two nodes
// sharing Mosquitto (publishing on A, browsers on B).
func modes(t *testing.T, f func(t *testing.T, pub, sub *node, g fakeGuard, a, b int64)) {
	t.Run("embedded", func(t *testing.T) {
		a, b, g := users()
		n := startNode(t, g, "")
		f(t, n, n, g, a, b)
	})
	t.Run("mosquitto", func(t *testing.T) {
		ext := externalURL(t)
		a, b, g := users()
		f(t, startNode(t, g, ext), startNode(t, g, ext), g, a, b)
	})
}

func TestDeliveryOnlyToAddressedUser(t *testing.T) {
	modes(t, func(t *testing.T, pub, sub *node, _ fakeGuard, a, b int64) {
		ca, err := browser(t, sub, a, "tok-a", "", "")
		if err != nil {
			t.Fatal(err)
		}
		cb, err := browser(t, sub, b, "tok-b", "", "")
		if err != nil {
			t.Fatal(err)
		}
		var ia, ib inbox
		for _, topic := range []string{TopicMsg, TopicRequestHelp} {
			if code := subscribe(t, ca, UserTopic(topic, a), &ia); code != 1 {
				t.Fatalf("suback %s = %#x", topic, code)
			}
			subscribe(t, cb, UserTopic(topic, b), &ib)
		}
		key := fmt.Sprintf("k-%d", time.Now().UnixNano())
		if err := SendToUsers(pub.b, TopicMsg, []int64{a}, Message{Key: key, Code: "x"}); err != nil {
			t.Fatal(err)
		}
		if err := pub.b.Publish(UserTopic(TopicRequestHelp, a), []byte(key)); err != nil {
			t.Fatal(err)
		}
		waitFor(t, "help request on a", func() bool { return ia.has(UserTopic(TopicRequestHelp, a), key) })
		waitFor(t, "message on a", func() bool {
			ia.mu.Lock()
			defer ia.mu.Unlock()
			return len(ia.got[UserTopic(TopicMsg, a)]) == 1 && strings.Contains(ia.got[UserTopic(TopicMsg, a)][0], key)
		})
		time.Sleep(200 * time.Millisecond)
		ib.mu.Lock()
		defer ib.mu.Unlock()
		if len(ib.got) != 0 {
			t.Fatalf("user b received %v", ib.got)
		}
	})
}

func TestConnectRefused(t *testing.T) {
	modes(t, func(t *testing.T, _, sub *node, _ fakeGuard, a, b int64) {
		cases := []struct {
			name, token, clientID, will string
			uid                         int64
		}{
			{"wrong token", "nope", "", "", a},
			{"another user's token", "tok-b", "", "", a},
			{"no token", "", "", "", a},
			{"another user's client id", "tok-a", fmt.Sprintf("web_%d_1", b), "", a},
			{"another user's will", "tok-a", "", UserTopic(TopicOffline, b), a},
		}
		for _, c := range cases {
			_, err := browser(t, sub, c.uid, c.token, c.clientID, c.will)
			if err == nil || !strings.Contains(err.Error(), "not Authorized") && !strings.Contains(err.Error(), "bad user name or password") {
				t.Errorf("%s: connect err = %v, want refused", c.name, err)
			}
		}
		if sub.b.IsOnline(a) {
			t.Fatal("a refused client counts as online")
		}
	})
}

func TestACLRefusals(t *testing.T) {
	modes(t, func(t *testing.T, pub, sub *node, _ fakeGuard, a, b int64) {
		ca, err := browser(t, sub, a, "tok-a", "", "")
		if err != nil {
			t.Fatal(err)
		}
		var ia inbox
		for _, topic := range []string{UserTopic(TopicMsg, b), UserTopic(TopicRequestHelp, b), "msg/user/+", "#", UserTopic(TopicOnline, a)} {
			if code := subscribe(t, ca, topic, &ia); code != 0x80 {
				t.Errorf("subscribe %s: suback %#x, want 0x80", topic, code)
			}
		}
		key := fmt.Sprintf("k-%d", time.Now().UnixNano())
		if err := pub.b.Publish(UserTopic(TopicMsg, b), []byte(key)); err != nil {
			t.Fatal(err)
		}

		// Presence: a watcher on the node (and on Mosquitto, when used) sees a's own presence but never
		// a's claim about b.
		var seen sync.Map
		watch := func(topic string, payload []byte) { seen.Store(topic+"|"+string(payload), true) }
		if err := sub.b.srv.Subscribe("+/user/+", 99, func(_ *mqtt.Client, _ packets.Subscription, pk packets.Packet) {
			watch(pk.TopicName, pk.Payload)
		}); err != nil {
			t.Fatal(err)
		}
		if sub.b.ext != nil {
			tok := pub.b.ext.c.Subscribe("+/user/+", 1, func(_ paho.Client, m paho.Message) { watch("ext:"+m.Topic(), m.Payload()) })
			tok.WaitTimeout(5 * time.Second)
		}
		ca.Publish(UserTopic(TopicOnline, b), 0, false, key).WaitTimeout(time.Second)
		ca.Publish(UserTopic(TopicOnline, a), 0, false, key).WaitTimeout(time.Second)
		waitFor(t, "own presence", func() bool { _, ok := seen.Load(UserTopic(TopicOnline, a) + "|" + key); return ok })
		if sub.b.ext != nil {
			waitFor(t, "own presence at the external broker", func() bool {
				_, ok := seen.Load("ext:" + UserTopic(TopicOnline, a) + "|" + key)
				return ok
			})
		}
		time.Sleep(200 * time.Millisecond)
		seen.Range(func(k, _ any) bool {
			if strings.Contains(k.(string), UserTopic(TopicOnline, b)+"|") {
				t.Errorf("b's presence published by a: %v", k)
			}
			return true
		})
		ia.mu.Lock()
		defer ia.mu.Unlock()
		if len(ia.got) != 0 {
			t.Fatalf("a received others' messages: %v", ia.got)
		}
	})
}

func TestPresence(t *testing.T) {
	modes(t, func(t *testing.T, pub, sub *node, _ fakeGuard, a, _ int64) {
		ca, err := browser(t, sub, a, "tok-a", "", "")
		if err != nil {
			t.Fatal(err)
		}
		waitFor(t, "a online on its node", func() bool { return sub.b.IsOnline(a) })
		if pub != sub {
			ca.Publish(UserTopic(TopicOnline, a), 1, false, "").WaitTimeout(time.Second)
			waitFor(t, "a online on the other node", func() bool { return pub.b.IsOnline(a) })
		}
		ca.Publish(UserTopic(TopicOffline, a), 1, false, "").WaitTimeout(time.Second)
		ca.Disconnect(50)
		waitFor(t, "a offline", func() bool { return !sub.b.IsOnline(a) && !pub.b.IsOnline(a) })
	})
}

// startAlone starts a broker without an external one, serving /mqtt, until the test ends.
func startAlone(t testing.TB, g httpx.Guard, cfg Config) *node {
	t.Helper()
	b, err := NewBroker(g, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	if err := b.Start(ctx); err != nil {
		cancel()
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	httpx.Mount(mux, g, b.Routes())
	srv := httptest.NewServer(mux)
	t.Cleanup(func() { _ = b.Close(); srv.Close(); cancel() })
	return &node{b: b, srv: srv}
}

// TestOnlineOnceListening: a browser counts as online once it listens on its message topic, not at
// its connection, so that a message sent to a user shown online reaches that console live (the
// console connects, then subscribes; a message sent in between was not pushed).
func TestOnlineOnceListening(t *testing.T) {
	a, _, g := users()
	n := startAlone(t, g, Config{})
	b := n.b
	c, err := connect(t, n.wsURL(), a, "tok-a", "", "")
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond)
	if b.IsOnline(a) {
		t.Fatal("online before it listens on its message topic")
	}
	ib := &inbox{}
	if tok := c.Subscribe(UserTopic(TopicMsg, a), 1, ib.handler); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		t.Fatal(tok.Error())
	}
	waitFor(t, "online once listening", func() bool { return b.IsOnline(a) })
	if err := b.Publish(UserTopic(TopicMsg, a), []byte("hello")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the message sent once online", func() bool { return ib.has(UserTopic(TopicMsg, a), "hello") })
	if tok := c.Unsubscribe(UserTopic(TopicMsg, a)); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		t.Fatal(tok.Error())
	}
	waitFor(t, "offline once it stops listening", func() bool { return !b.IsOnline(a) })
	if tok := c.Subscribe(UserTopic(TopicMsg, a), 1, ib.handler); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		t.Fatal(tok.Error())
	}
	waitFor(t, "online again", func() bool { return b.IsOnline(a) })
	c.Disconnect(50)
	waitFor(t, "offline once disconnected", func() bool { return !b.IsOnline(a) })
}

// lockedGuard is a guard whose tokens a test can revoke.
type lockedGuard struct {
	mu sync.Mutex
	g  fakeGuard
}

func (l *lockedGuard) Authenticate(r *http.Request) (*httpx.Principal, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.g.Authenticate(r)
}

func TestRevokedTokenIsDisconnected(t *testing.T) {
	a, _, g := users()
	lg := &lockedGuard{g: g}
	n := startAlone(t, lg, Config{Recheck: 50 * time.Millisecond})
	b := n.b
	if _, err := browser(t, n, a, "tok-a", "", ""); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "online", func() bool { return b.IsOnline(a) })
	time.Sleep(150 * time.Millisecond)
	if !b.IsOnline(a) {
		t.Fatal("a valid token was disconnected")
	}
	lg.mu.Lock()
	delete(lg.g, "tok-a")
	lg.mu.Unlock()
	waitFor(t, "disconnected after revocation", func() bool { return !b.IsOnline(a) })
}
