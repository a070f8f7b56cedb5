package messaging

import (
	"encoding/binary"
	"fmt"
	"os"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"
)

// TestLoadMQTT connects TANKWATCH_MQTT_LOAD browser-like clients (MQTT over WebSocket to /mqtt, each
// with its own user and token, subscribed to its requestHelp topic) and measures publish-to-receive
// latency of server-side requestHelp pushes. Run by scripts/perf-mqtt.sh; skipped otherwise.
func TestLoadMQTT(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("TANKWATCH_MQTT_LOAD"))
	if n <= 0 {
		t.Skip("TANKWATCH_MQTT_LOAD not set (number of clients, e.g. 1000)")
	}
	rounds := 10
	if s, _ := strconv.Atoi(os.Getenv("TANKWATCH_MQTT_LOAD_ROUNDS")); s > 0 {
		rounds = s
	}
	g := fakeGuard{}
	for i := 1; i <= n; i++ {
		g["tok-"+strconv.Itoa(i)] = int64(i)
	}
	nd := startAlone(t, g, Config{})
	b := nd.b
	url := nd.wsURL()

	var mu sync.Mutex
	var lat []time.Duration
	var got atomic.Int64
	handler := func(_ paho.Client, m paho.Message) {
		sent := int64(binary.BigEndian.Uint64(m.Payload()))
		d := time.Duration(time.Now().UnixNano() - sent)
		mu.Lock()
		lat = append(lat, d)
		mu.Unlock()
		got.Add(1)
	}

	start := time.Now()
	clients := make([]paho.Client, n)
	sem := make(chan struct{}, 32)
	var wg sync.WaitGroup
	var failed atomic.Int64
	for i := 1; i <= n; i++ {
		wg.Add(1)
		sem <- struct{}{}
		go func(id int) {
			defer wg.Done()
			defer func() { <-sem }()
			c := paho.NewClient(paho.NewClientOptions().AddBroker(url).SetClientID(fmt.Sprintf("web_%d_%d", id, time.Now().UnixNano())).
				SetUsername(strconv.Itoa(id)).SetPassword("tok-"+strconv.Itoa(id)).SetCleanSession(true).SetAutoReconnect(false).
				SetConnectTimeout(10*time.Second).SetWill(UserTopic(TopicOffline, int64(id)), strconv.Itoa(id), 0, false))
			if tok := c.Connect(); !tok.WaitTimeout(20*time.Second) || tok.Error() != nil {
				failed.Add(1)
				return
			}
			if tok := c.Subscribe(UserTopic(TopicRequestHelp, int64(id)), 1, handler); !tok.WaitTimeout(20*time.Second) || tok.Error() != nil {
				failed.Add(1)
				return
			}
			clients[id-1] = c
		}(i)
	}
	wg.Wait()
	connected := time.Since(start)
	if f := failed.Load(); f > 0 {
		t.Fatalf("%d of %d clients failed to connect", f, n)
	}
	defer func() {
		for _, c := range clients {
			c.Disconnect(0)
		}
	}()

	// rounds × n pushes, one round per second: every user gets one help request per second.
	payload := make([]byte, 8)
	for r := 0; r < rounds; r++ {
		roundStart := time.Now()
		for id := 1; id <= n; id++ {
			binary.BigEndian.PutUint64(payload, uint64(time.Now().UnixNano()))
			if err := b.Publish(UserTopic(TopicRequestHelp, int64(id)), slices.Clone(payload)); err != nil {
				t.Fatal(err)
			}
		}
		if d := time.Second - time.Since(roundStart); d > 0 {
			time.Sleep(d)
		}
	}
	want := int64(rounds * n)
	deadline := time.Now().Add(30 * time.Second)
	for got.Load() < want && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	slices.Sort(lat)
	q := func(p float64) time.Duration { return lat[min(len(lat)-1, int(float64(len(lat))*p))] }
	t.Logf("clients %d connected in %v; %d pushes at %d/s, %d received: p50 %v, p99 %v, max %v",
		n, connected.Round(time.Millisecond), want, n, len(lat), q(0.50).Round(10*time.Microsecond), q(0.99).Round(10*time.Microsecond), lat[len(lat)-1].Round(10*time.Microsecond))
	if int64(len(lat)) != want {
		t.Fatalf("received %d of %d", len(lat), want)
	}
}
