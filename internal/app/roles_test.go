package app_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"tankwatch/internal/platform/config"
	"tankwatch/internal/video"
)

// TestRolesSplit runs a gateway-only node and an api-only node on one PostgreSQL database and one
// NATS server (D93): the api node opens no 808 port even when given one; a terminal on the gateway
// node is live on the api node's /ws/live; a command sent on the api node reaches it through the
// gateway node; the gateway node answers only its probes and /metrics over HTTP; live video of the
// truck plays on the api node (D118).
func TestRolesSplit(t *testing.T) {
	t.Parallel()
	cl := newCluster(t, "twr")
	g := cl.node("g", config.Config{Roles: "gateway", JT1078: "127.0.0.1:0", JT1078UDP: "off"})
	p := cl.node("p", config.Config{Roles: "api", JT1078: "127.0.0.1:0", JT1078UDP: "off"})
	if addr := p.App.Devices.GatewayAddr(); addr != "" {
		t.Fatalf("the api node opened a JT/T 808 port: %s", addr)
	}
	if g.App.Devices.GatewayAddr() == "" {
		t.Fatal("the gateway node opened no JT/T 808 port")
	}
	admin := p.Login("admin", "admin123")

	// the gateway node: probes and /metrics (with a token the api node issued), nothing else
	for _, c := range []struct {
		method, path, token string
		status              int
	}{
		{"GET", "/healthz", "", http.StatusOK},
		{"GET", "/readyz", "", http.StatusOK},
		{"GET", "/metrics", admin, http.StatusOK},
		{"POST", "/authority-app/logIn", "", http.StatusNotFound},
		{"POST", "/base-info-app/carInfo/page", admin, http.StatusNotFound},
		{"GET", "/", "", http.StatusNotFound},
	} {
		if r := g.Call(c.method, c.path, c.token, map[string]any{}); r.Status != c.status {
			t.Errorf("gateway node %s %s: HTTP %d, want %d: %s", c.method, c.path, r.Status, c.status, r.Body)
		}
	}

	car, termID := demoCar(t, p, admin)
	live := watchCar(t, p, admin, car.ID)
	fleetG := drive(t, g.App.Devices.GatewayAddr(), 1, newAcked())
	defer fleetG.Stop()
	waitFor(t, "the terminal to log in on the gateway node", func() bool { return g.App.Devices.Gateway.Online(termID) })
	live.waitOnline(t)

	// a command sent on the api node goes down through the gateway node's session
	sendText(t, p, admin, car.ID)

	// live video on the api node: it asks the gateway node's session for the stream with its own media
	// address (D94, D118), and the pictures come to its relay from a key frame; the gateway node, never
	// asked, relays nothing
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var s video.StreamView
	p.MustOK("GET", fmt.Sprintf("/base-info-app/carInfo/doVisual?carId=%d&channelNo=1", car.ID), admin, nil).Decode(&s)
	relayedBy(t, ctx, p, g, s.FLVURL, admin).c.CloseNow()
}
