package messaging

import (
	"bytes"
	"strconv"
	"strings"

	mqtt "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/packets"
)

// hook is the broker's authentication and ACL (spec §7, DESIGN §6): a browser is a user; it may
// subscribe only to msg/user/{ownId} and requestHelp/user/{ownId}, publish only its own presence, and
// leave only its own offline topic as will. Everything else is refused.
type hook struct {
	mqtt.HookBase
	b *Broker
}

func (h *hook) ID() string { return "tankwatch-auth" }

func (h *hook) Provides(bt byte) bool {
	return bytes.Contains([]byte{
		mqtt.OnConnectAuthenticate, mqtt.OnACLCheck, mqtt.OnSessionEstablished, mqtt.OnDisconnect,
		mqtt.OnSubscribed, mqtt.OnUnsubscribed, mqtt.OnPublished, mqtt.OnWillSent,
	}, []byte{bt})
}

// clientIDPrefix is what a user's client ids start with (spec §9: web_{userId}_{timestamp}); keeping
// users to their own ids stops one user from taking over another's session by reusing its id.
func clientIDPrefix(uid int64) string { return "web_" + strconv.FormatInt(uid, 10) + "_" }

func (h *hook) OnConnectAuthenticate(cl *mqtt.Client, pk packets.Packet) bool {
	uid, ok := h.b.authenticate(string(pk.Connect.Username), string(pk.Connect.Password))
	if !ok {
		return false
	}
	if !strings.HasPrefix(pk.Connect.ClientIdentifier, clientIDPrefix(uid)) {
		return false
	}
	if pk.Connect.WillFlag && pk.Connect.WillTopic != UserTopic(TopicOffline, uid) {
		return false
	}
	return true
}

// userOf is the authenticated user of a client (its CONNECT username, checked above).
func userOf(cl *mqtt.Client) (int64, bool) {
	uid, err := strconv.ParseInt(string(cl.Properties.Username), 10, 64)
	return uid, err == nil && uid > 0
}

func (h *hook) OnACLCheck(cl *mqtt.Client, topic string, write bool) bool {
	uid, ok := userOf(cl)
	if !ok {
		return false
	}
	if write {
		return topic == UserTopic(TopicOnline, uid) || topic == UserTopic(TopicOffline, uid)
	}
	return topic == UserTopic(TopicMsg, uid) || topic == UserTopic(TopicRequestHelp, uid)
}

func (h *hook) OnSessionEstablished(cl *mqtt.Client, pk packets.Packet) {
	if uid, ok := userOf(cl); ok {
		h.b.sessionUp(cl, uid, string(pk.Connect.Password))
	}
}

// OnSubscribed counts the browser online once it listens on its message topic: a message sent to a
// user shown online then reaches that console live (online since the connection alone, a message sent
// between the connection and the subscription was not pushed).
func (h *hook) OnSubscribed(cl *mqtt.Client, pk packets.Packet, codes []byte) {
	if uid, ok := userOf(cl); ok {
		for i, f := range pk.Filters {
			if f.Filter == UserTopic(TopicMsg, uid) && i < len(codes) && codes[i] < 0x80 {
				h.b.listening(cl, uid, true)
			}
		}
	}
}

func (h *hook) OnUnsubscribed(cl *mqtt.Client, pk packets.Packet) {
	if uid, ok := userOf(cl); ok {
		for _, f := range pk.Filters {
			if f.Filter == UserTopic(TopicMsg, uid) {
				h.b.listening(cl, uid, false)
			}
		}
	}
}

func (h *hook) OnDisconnect(cl *mqtt.Client, _ error, _ bool) {
	if uid, ok := userOf(cl); ok {
		h.b.sessionDown(cl, uid)
	}
}

// OnPublished forwards a browser's presence to the external broker, so other nodes know who is online.
// Messages the node itself injects (inline client) are never forwarded: that would loop.
func (h *hook) OnPublished(cl *mqtt.Client, pk packets.Packet) {
	if cl.Net.Inline || h.b.ext == nil {
		return
	}
	h.b.ext.forwardPresence(pk.TopicName, pk.Payload)
}

// OnWillSent forwards the will (offline/user/{id}) likewise.
func (h *hook) OnWillSent(cl *mqtt.Client, pk packets.Packet) {
	h.OnPublished(cl, pk)
}
