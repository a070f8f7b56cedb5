package messaging

import (
	"errors"
	"strconv"
	"strings"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"
)

// ErrBrokerDown is returned by Publish while the external broker cannot be reached: the message is
// dropped (live pushes are not queued; the records they announce are stored).
var ErrBrokerDown = errors.New("messaging: external broker not connected")

// bridge connects a node to the external broker (docs/DECISIONS.md): server-side publishes go there,
// and every node takes msg/user/+ and requestHelp/user/+ from there to its own browsers, so N nodes
// share one message bus while each keeps enforcing the ACL on its own /mqtt. Presence travels the same
// way so that every node knows who is online anywhere.
type bridge struct {
	b *Broker
	c paho.Client
}

// Topics the nodes share through the external broker.
var bridgeFilters = map[string]byte{
	TopicMsg + "+": 1, TopicRequestHelp + "+": 1, TopicOnline + "+": 1, TopicOffline + "+": 1,
}

func newBridge(b *Broker, cfg Config) *bridge {
	br := &bridge{b: b}
	id := cfg.ClientID
	if id == "" {
		id = "tankwatch-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	}
	opts := paho.NewClientOptions().AddBroker(cfg.External).SetClientID(id).SetCleanSession(true).
		SetAutoReconnect(true).SetConnectRetry(true).SetConnectRetryInterval(2 * time.Second).
		SetMaxReconnectInterval(10 * time.Second).SetConnectTimeout(5 * time.Second).
		SetKeepAlive(30 * time.Second).SetOrderMatters(false).
		SetOnConnectHandler(br.onConnect).
		SetConnectionLostHandler(func(_ paho.Client, err error) {
			b.log.Warn("mqtt: external broker connection lost", "broker", cfg.External, "err", err)
		})
	br.c = paho.NewClient(opts)
	return br
}

// connect starts connecting; with ConnectRetry paho keeps trying in the background.
func (br *bridge) connect() {
	tok := br.c.Connect()
	if tok.WaitTimeout(5*time.Second) && tok.Error() != nil {
		br.b.log.Warn("mqtt: external broker", "broker", br.b.cfg.External, "err", tok.Error())
	}
}

// onConnect (re)subscribes: the session is clean, so subscriptions are renewed on every connect.
func (br *bridge) onConnect(c paho.Client) {
	br.b.log.Info("mqtt: connected to the external broker", "broker", br.b.cfg.External)
	tok := c.SubscribeMultiple(bridgeFilters, func(_ paho.Client, m paho.Message) { br.receive(m.Topic(), m.Payload()) })
	go func() {
		if tok.WaitTimeout(10*time.Second) && tok.Error() != nil {
			br.b.log.Warn("mqtt: external broker subscribe", "err", tok.Error())
		}
	}()
}

func (br *bridge) receive(topic string, payload []byte) {
	switch {
	case strings.HasPrefix(topic, TopicMsg), strings.HasPrefix(topic, TopicRequestHelp):
		br.b.deliverLocal(topic, payload)
	case strings.HasPrefix(topic, TopicOnline):
		if id, err := strconv.ParseInt(strings.TrimPrefix(topic, TopicOnline), 10, 64); err == nil {
			br.b.remotePresence(id, true)
		}
	case strings.HasPrefix(topic, TopicOffline):
		if id, err := strconv.ParseInt(strings.TrimPrefix(topic, TopicOffline), 10, 64); err == nil {
			br.b.remotePresence(id, false)
		}
	}
}

// publish sends without waiting for the acknowledgement: a slow broker must not stall the caller.
func (br *bridge) publish(topic string, payload []byte) error {
	if !br.c.IsConnectionOpen() {
		return ErrBrokerDown
	}
	tok := br.c.Publish(topic, 1, false, payload)
	go func() {
		if tok.WaitTimeout(10*time.Second) && tok.Error() != nil {
			br.b.log.Warn("mqtt: external publish", "topic", topic, "err", tok.Error())
		}
	}()
	return nil
}

func (br *bridge) forwardPresence(topic string, payload []byte) {
	if strings.HasPrefix(topic, TopicOnline) || strings.HasPrefix(topic, TopicOffline) {
		_ = br.publish(topic, payload)
	}
}

func (br *bridge) close() { br.c.Disconnect(250) }
