// Package messaging is the live publish/subscribe channel to browsers (DESIGN §6): the embedded MQTT
// broker at /mqtt (or an external broker), the per-user topics of spec §7, presence, the JSON live
// message and the binary chat message, and the system messages of the `message` page.
//
// Other domains (alarms, help requests) depend only on Publisher and the helpers of this file, so they
// can be tested with a fake publisher and wired to the broker by internal/app.
package messaging

import (
	"encoding/json"
	"strconv"
)

// Topics of spec §7 (per user id).
const (
	TopicOnline      = "online/user/"
	TopicOffline     = "offline/user/"
	TopicMsg         = "msg/user/"
	TopicRequestHelp = "requestHelp/user/"
)

// UserTopic is prefix + the user's id, e.g. UserTopic(TopicMsg, 7) = "msg/user/7".
func UserTopic(prefix string, userID int64) string { return prefix + strconv.FormatInt(userID, 10) }

// Message is the JSON live message of spec §3: key, code, message, timestamp (Unix ms), data. Texts,
// our addition, holds the message in every console language (tag → text) when the server wrote it;
// Message is then its zh-CN text, for clients that know only spec §3.
type Message struct {
	Key       string            `json:"key"`
	Code      string            `json:"code"`
	Message   string            `json:"message"`
	Texts     map[string]string `json:"texts,omitempty"`
	Timestamp int64             `json:"timestamp"`
	Data      map[string]string `json:"data"`
}

// Publisher delivers a payload on a topic to the browsers subscribed to it (QoS 1, not retained).
// The embedded broker and the external-broker client implement it; it must be safe for concurrent
// use and must not block for long (a slow or absent broker drops, it never stalls ingest).
type Publisher interface {
	Publish(topic string, payload []byte) error
}

// SendToUsers publishes m as JSON on prefix+id for every user id; the first error is returned after
// all were tried.
func SendToUsers(p Publisher, prefix string, userIDs []int64, m Message) error {
	if m.Data == nil {
		m.Data = map[string]string{}
	}
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	var first error
	for _, id := range userIDs {
		if err := p.Publish(UserTopic(prefix, id), b); err != nil && first == nil {
			first = err
		}
	}
	return first
}
