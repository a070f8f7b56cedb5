package app_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"tankwatch/internal/platform/config"
)

// TestServeClosesLiveWebSockets: stopping the server closes the open live WebSockets with 1001
// (the HTTP server's shutdown does not wait for hijacked connections).
func TestServeClosesLiveWebSockets(t *testing.T) {
	t.Parallel()
	s := startServe(t, config.Config{HTTP: "127.0.0.1:0", Data: t.TempDir(), Demo: true, DemoVehicles: 12, HistoryQueue: 1000,
		OfflineMinutes: 10, MovingSpeed: 5})
	addr := s.addr
	r := post(t, "http://"+addr+"/authority-app/logIn", `{"account":"customer","password":"customer123","type":0}`)
	token := r["data"].(map[string]any)["access_token"].(string)

	dctx, dcancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer dcancel()
	c, _, err := websocket.Dial(dctx, "ws://"+addr+"/ws/live?token="+token, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	if err := c.Write(dctx, websocket.MessageText, []byte(`{"type":"select","all":true}`)); err != nil {
		t.Fatal(err)
	}
	if _, b, err := c.Read(dctx); err != nil || !strings.HasPrefix(string(b), `{"type":"snapshot","cars":[{"carId":`) {
		t.Fatalf("snapshot: %s %v", b, err)
	}
	s.cancel()
	for {
		if _, _, err := c.Read(dctx); err != nil {
			if websocket.CloseStatus(err) != websocket.StatusGoingAway {
				t.Fatalf("closed with %v, want 1001", err)
			}
			break
		}
	}
	if err := <-s.done; err != nil {
		t.Fatalf("shutdown: %v", err)
	}
}
