package messaging

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"testing"
	"time"

	"tankwatch/internal/platform/httpx"
)

// The app's http.Server has read and write timeouts (1 and 2 minutes); a browser's MQTT connection must
// outlive them (net/http clears the deadlines when the WebSocket hijacks the connection).
func TestConnectionOutlivesServerTimeouts(t *testing.T) {
	a, _, g := users()
	b, err := NewBroker(g, Config{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	httpx.Mount(mux, g, b.Routes())
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: mux, ReadTimeout: 300 * time.Millisecond, WriteTimeout: 300 * time.Millisecond}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = b.Close(); _ = srv.Close() })
	url := fmt.Sprintf("ws://%s/mqtt", ln.Addr())
	c, err := browserAt(t, url, a, "tok-a")
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Second)
	var ib inbox
	tok := c.Subscribe(UserTopic(TopicMsg, a), 1, ib.handler)
	if !tok.WaitTimeout(3*time.Second) || tok.Error() != nil {
		t.Fatalf("subscribe after the server timeouts: %v", tok.Error())
	}
	if err := b.Publish(UserTopic(TopicMsg, a), []byte("late")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "a message after the server timeouts", func() bool { return ib.has(UserTopic(TopicMsg, a), "late") })
}
