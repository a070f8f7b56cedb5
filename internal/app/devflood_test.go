package app_test

import (
	"fmt"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"tankwatch/internal/jt808"
)

// TestDeviceFloodMeasure turns a stranger loose on a running `tankwatch serve`'s JT/T 808 port and
// reports what the gateway did (docs/SECURITY.md). It runs only when TANKWATCH_DEVFLOOD_TARGET names
// the gateway's address, e.g.
//
//	bin/tankwatch serve --demo --demo-vehicles 20 --data /tmp/df --http 127.0.0.1:18891 \
//	  --jt808 127.0.0.1:18892 --metrics 127.0.0.1:18893 --jt808-auth-timeout 30s
//	TANKWATCH_DEVFLOOD_TARGET=127.0.0.1:18892 TANKWATCH_DEVFLOOD_METRICS=127.0.0.1:18893 \
//	  go test -run TestDeviceFloodMeasure -v -timeout 5m ./internal/app/
//
// From 127.0.0.3 it sends TANKWATCH_DEVFLOOD_GUESSES (default 1,000) registrations with guessed phone
// numbers and terminal IDs, one connection each, and counts the answers; from 127.0.0.2 it opens
// TANKWATCH_DEVFLOOD_IDLE (default 5,000) connections that never speak and times how long the gateway
// takes to close them all.
func TestDeviceFloodMeasure(t *testing.T) {
	target := os.Getenv("TANKWATCH_DEVFLOOD_TARGET")
	if target == "" {
		t.Skip("set TANKWATCH_DEVFLOOD_TARGET to the JT/T 808 address of a running tankwatch serve")
	}
	metrics := os.Getenv("TANKWATCH_DEVFLOOD_METRICS")
	guesses := envInt("TANKWATCH_DEVFLOOD_GUESSES", 1000)
	idle := envInt("TANKWATCH_DEVFLOOD_IDLE", 5000)

	// Guessed registrations: every answer must be the same 0x8100 result 4.
	results := map[string]int{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	sem := make(chan struct{}, 32)
	start := time.Now()
	for i := range guesses {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			r := guessRegistration(target, i)
			mu.Lock()
			results[r]++
			mu.Unlock()
		}()
	}
	wg.Wait()
	t.Logf("%d guessed registrations from 127.0.0.3 in %v: answers %v; refusals %v; blocked addresses %v",
		guesses, time.Since(start).Round(time.Millisecond), results, metricLines(metrics, "tankwatch_jt808_refusals_total"),
		metricValue(metrics, "tankwatch_jt808_blocked_addresses_total"))

	// Idle connections: all closed by the gateway after its authentication deadline.
	var closed atomic.Int64
	var dialFailed atomic.Int64
	conns := make([]net.Conn, 0, idle)
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP("127.0.0.2")}, Timeout: 5 * time.Second}
	for range idle {
		c, err := d.Dial("tcp", target)
		if err != nil {
			dialFailed.Add(1)
			continue
		}
		conns = append(conns, c)
	}
	opened := time.Now()
	for _, c := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer c.Close()
			_ = c.SetReadDeadline(time.Now().Add(3 * time.Minute))
			if _, err := c.Read(make([]byte, 1)); err != nil && !isTimeout(err) {
				closed.Add(1)
			}
		}()
	}
	wg.Wait()
	t.Logf("%d idle connections from 127.0.0.2 (%d dials failed): %d closed by the gateway within %v; auth timeouts %v",
		len(conns), dialFailed.Load(), closed.Load(), time.Since(opened).Round(100*time.Millisecond),
		metricValue(metrics, "tankwatch_jt808_auth_timeouts_total"))
}

// guessRegistration sends one 0x0100 with a made-up phone number and terminal ID from 127.0.0.3 and
// names the answer ("result 4", "closed", …).
func guessRegistration(target string, i int) string {
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP("127.0.0.3")}, Timeout: 5 * time.Second}
	c, err := d.Dial("tcp", target)
	if err != nil {
		return "dial failed"
	}
	defer c.Close()
	h := jt808.Header{Version: jt808.V2013, Phone: jt808.MustPhone(fmt.Sprintf("1390%07d", i)), Serial: 1}
	wire, err := jt808.AppendMessage(nil, h, &jt808.Register{Manufacturer: "GUESS", Model: "X", TerminalID: fmt.Sprintf("G%06d", i), PlateColor: jt808.PlateYellow, Plate: "冀A00000"})
	if err != nil {
		return "encode: " + err.Error()
	}
	if _, err := c.Write(wire); err != nil {
		return "write failed"
	}
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	raw, err := jt808.NewSplitter(c, 0).Next()
	if err != nil {
		return "closed"
	}
	f, _, err := jt808.DecodeFrame(nil, raw)
	if err != nil || f.Header.MsgID != jt808.MsgRegisterReply {
		return "other reply"
	}
	var r jt808.RegisterReply
	if err := r.DecodeBody(f.Body, f.Header.Version); err != nil {
		return "bad reply"
	}
	return fmt.Sprintf("result %d", r.Result)
}

func isTimeout(err error) bool {
	ne, ok := err.(net.Error)
	return ok && ne.Timeout()
}
