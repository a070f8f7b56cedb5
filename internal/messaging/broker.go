package messaging

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"
	mqtt "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/packets"

	"tankwatch/internal/platform/httpx"
)

// wsReadLimit bounds one WebSocket frame from a browser: MQTT packets of the console are small (a
// presence announcement, a subscription); a larger frame ends the connection.
const wsReadLimit = 256 << 10

// Config configures the broker.
type Config struct {
	// External is the URL of an external MQTT broker (tcp://host:1883) shared by every node; empty:
	// the embedded broker only. See docs/DECISIONS.md "messaging: browsers always connect to /mqtt".
	External string
	// ClientID is this node's client id at the external broker (default tankwatch-<unix ns>).
	ClientID string
	// Recheck is how often the tokens of connected browsers are checked again (default 60 s): a
	// browser whose token expired or was revoked, or whose user was disabled, is disconnected.
	Recheck time.Duration
}

// Broker is the embedded MQTT broker of DESIGN §6: browsers reach it at /mqtt (MQTT over WebSocket)
// with their user id and session token; an ACL confines each user to their own topics. It implements
// Publisher. With Config.External it also bridges to an external broker (bridge.go).
type Broker struct {
	srv   *mqtt.Server
	guard httpx.Guard
	log   *slog.Logger
	cfg   Config
	ext   *bridge
	once  sync.Once

	mu        sync.Mutex
	tokens    map[*mqtt.Client]string // session token of each connected browser, checked again every Recheck
	local     map[int64]int           // user id → its browsers on this node listening on its message topic
	listeners map[*mqtt.Client]bool   // the browsers counted in local
	remote    map[int64]bool          // user ids announced online by other nodes (external broker only)
}

// NewBroker returns a broker whose CONNECT packets are checked by guard (username = user id,
// password = session token). Start must be called before it accepts clients.
func NewBroker(guard httpx.Guard, cfg Config, log *slog.Logger) (*Broker, error) {
	if log == nil {
		log = slog.Default()
	}
	caps := mqtt.NewDefaultServerCapabilities()
	// Browsers never need retained messages; a retained message would outlive the user's session.
	caps.RetainAvailable = 0
	srv := mqtt.New(&mqtt.Options{
		InlineClient: true,
		Capabilities: caps,
		// mochi logs every connection at info; the server's own log is enough.
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		// $SYS topics are refused by the ACL anyway; publish them rarely.
		SysTopicResendInterval: 3600,
	})
	b := &Broker{srv: srv, guard: guard, log: log, cfg: cfg, tokens: map[*mqtt.Client]string{}, local: map[int64]int{}, listeners: map[*mqtt.Client]bool{}, remote: map[int64]bool{}}
	if err := srv.AddHook(&hook{b: b}, nil); err != nil {
		return nil, err
	}
	return b, nil
}

// Start starts the broker's housekeeping and, when configured, the bridge to the external broker.
// A broker that cannot be reached at start is retried in the background: the console must not
// depend on it to come up.
func (b *Broker) Start(ctx context.Context) error {
	if err := b.srv.Serve(); err != nil {
		return err
	}
	if b.cfg.External != "" {
		b.ext = newBridge(b, b.cfg)
		b.ext.connect()
	}
	every := b.cfg.Recheck
	if every <= 0 {
		every = time.Minute
	}
	go b.recheck(ctx, every)
	return nil
}

// recheck disconnects browsers whose token is no longer valid (logout elsewhere, expiry, user
// disabled): CONNECT was checked once, a connection may last for days.
func (b *Broker) recheck(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		b.mu.Lock()
		conns := make(map[*mqtt.Client]string, len(b.tokens))
		for cl, tok := range b.tokens {
			conns[cl] = tok
		}
		b.mu.Unlock()
		for cl, tok := range conns {
			if _, ok := b.authenticate(string(cl.Properties.Username), tok); !ok {
				_ = b.srv.DisconnectClient(cl, packets.ErrNotAuthorized)
			}
		}
	}
}

// Close disconnects every client and the bridge; later calls do nothing.
func (b *Broker) Close() error {
	var err error
	b.once.Do(func() {
		if b.ext != nil {
			b.ext.close()
		}
		err = b.srv.Close()
	})
	return err
}

// Publish implements Publisher (QoS 1, not retained). With an external broker the message goes there
// and every node (this one included) delivers it to its own browsers; without, it goes straight to
// this node's subscribers.
func (b *Broker) Publish(topic string, payload []byte) error {
	if b.ext != nil {
		return b.ext.publish(topic, payload)
	}
	return b.srv.Publish(topic, payload, false, 1)
}

// ExternalConnected reports whether the bridge to the external broker is up (true without one).
func (b *Broker) ExternalConnected() bool { return b.ext == nil || b.ext.c.IsConnectionOpen() }

// deliverLocal hands a message from the external broker to this node's browsers.
func (b *Broker) deliverLocal(topic string, payload []byte) {
	if err := b.srv.Publish(topic, payload, false, 1); err != nil {
		b.log.Warn("mqtt: local delivery", "topic", topic, "err", err)
	}
}

// Online returns the ids of the users with a console listening for their messages (on this node), or
// announced online by another node through the external broker, ascending.
func (b *Broker) Online() []int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make([]int64, 0, len(b.local)+len(b.remote))
	for id := range b.local {
		out = append(out, id)
	}
	for id := range b.remote {
		if b.local[id] == 0 {
			out = append(out, id)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// IsOnline reports whether user id has a console listening for its messages (OnSubscribed).
func (b *Broker) IsOnline(id int64) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.local[id] > 0 || b.remote[id]
}

func (b *Broker) sessionUp(cl *mqtt.Client, id int64, token string) {
	b.mu.Lock()
	b.tokens[cl] = token
	b.mu.Unlock()
}

func (b *Broker) sessionDown(cl *mqtt.Client, id int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.tokens, cl)
	b.setListening(cl, id, false)
}

// listening records whether a connected browser listens on its user's message topic: the user is
// online on this node while one of its browsers does.
func (b *Broker) listening(cl *mqtt.Client, id int64, on bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.setListening(cl, id, on)
}

// setListening is listening with b.mu held.
func (b *Broker) setListening(cl *mqtt.Client, id int64, on bool) {
	if b.listeners[cl] == on {
		return
	}
	if on {
		b.listeners[cl] = true
		b.local[id]++
		return
	}
	delete(b.listeners, cl)
	if b.local[id]--; b.local[id] <= 0 {
		delete(b.local, id)
	}
}

func (b *Broker) remotePresence(id int64, online bool) {
	b.mu.Lock()
	if online {
		b.remote[id] = true
	} else {
		delete(b.remote, id)
	}
	b.mu.Unlock()
}

// Routes returns /mqtt: public at the HTTP level, because browsers cannot set headers on a WebSocket
// and MQTT carries its own credentials, checked in CONNECT.
func (b *Broker) Routes() []httpx.Route {
	return []httpx.Route{{Method: "GET", Path: "/mqtt", Access: httpx.PublicAccess, Handler: b.ServeWS}}
}

// ServeWS upgrades to a WebSocket with the "mqtt" subprotocol and runs one MQTT client over it.
func (b *Broker) ServeWS(w http.ResponseWriter, r *http.Request) {
	c, err := websocket.Accept(w, r, &websocket.AcceptOptions{Subprotocols: []string{"mqtt"}, InsecureSkipVerify: true})
	if err != nil {
		return // Accept has answered
	}
	if c.Subprotocol() != "mqtt" {
		_ = c.Close(websocket.StatusPolicyViolation, "subprotocol mqtt required")
		return
	}
	c.SetReadLimit(wsReadLimit)
	conn := websocket.NetConn(context.WithoutCancel(r.Context()), c, websocket.MessageBinary)
	defer conn.Close()
	if err := b.srv.EstablishConnection("ws", conn); err != nil && !isClosedErr(err) {
		b.log.Debug("mqtt client ended", "remote", r.RemoteAddr, "err", err)
	}
}

func isClosedErr(err error) bool {
	return errors.Is(err, io.EOF) || strings.Contains(err.Error(), "closed")
}

// authenticate checks a CONNECT's credentials: the token must be valid (not expired or revoked, user
// enabled) and belong to the user named in username.
func (b *Broker) authenticate(username, password string) (int64, bool) {
	uid, err := strconv.ParseInt(username, 10, 64)
	if err != nil || uid <= 0 || password == "" {
		return 0, false
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "GET", "/mqtt", nil)
	if err != nil {
		return 0, false
	}
	req.Header.Set("Authorization", "Bearer "+password)
	p, err := b.guard.Authenticate(req)
	if err != nil {
		b.log.Warn("mqtt: token check failed", "err", err)
		return 0, false
	}
	if p == nil || p.UserID != uid {
		return 0, false
	}
	return uid, true
}
