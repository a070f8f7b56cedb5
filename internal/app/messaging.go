package app

import (
	"context"

	"tankwatch/internal/messaging"
	"tankwatch/internal/platform/httpx"
)

// Messaging is the live messaging part of the app: the MQTT broker at /mqtt (embedded, bridged to
// --mqtt-broker when set) and the system messages of the `message` page. Broker is the
// messaging.Publisher other domains (alarms, help requests) push through.
type Messaging struct {
	Broker   *messaging.Broker
	Messages *messaging.Messages
}

func (a *App) buildMessaging() {
	b, err := messaging.NewBroker(a.Auth.Guard, messaging.Config{External: a.Cfg.MQTTBroker}, a.Log)
	if err != nil {
		panic("messaging: " + err.Error()) // only a hook registration can fail: a programming error
	}
	a.Messaging = Messaging{Broker: b, Messages: messaging.NewMessages(a.DB, b, b, a.Log)}
}

func (a *App) messagingRoutes() []httpx.Route {
	return append(a.Broker.Routes(), a.Messages.Routes()...)
}

// StartMessaging starts the broker's housekeeping and the bridge to an external broker.
func (a *App) StartMessaging(ctx context.Context) error { return a.Broker.Start(ctx) }

// StopMessaging disconnects the browsers (their wills announce them offline) and the bridge.
func (a *App) StopMessaging() { _ = a.Broker.Close() }
