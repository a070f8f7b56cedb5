package gateway

import (
	"net"
	"testing"
	"time"

	"tankwatch/internal/jt808"
)

// reports is n location reports from c (latitudes 0…n-1) in one write's bytes, and their serials.
func (c *client) reports(n int) ([]byte, []uint16) {
	c.t.Helper()
	var wire []byte
	var serials []uint16
	for i := range n {
		h := c.header()
		var err error
		if wire, err = jt808.AppendMessage(wire, h, location(int32(i))); err != nil {
			c.t.Fatal(err)
		}
		serials = append(serials, h.Serial)
	}
	return wire, serials
}

// TestFramesAcrossReads: the read that ends a session's wait may hold several frames, or part of one
// whose rest the splitter reads itself; however the terminal's bytes are cut, every report is stored
// whole and acknowledged in order.
func TestFramesAcrossReads(t *testing.T) {
	e := start(t, Config{}, true, nil)
	c := e.dial(jt808.V2013, term1.Phone)
	c.login()
	pause := func() { time.Sleep(5 * time.Millisecond) } // lets the gateway read what came so far
	for _, tc := range []struct {
		name  string
		n     int
		write func(wire []byte)
	}{
		{"two frames in one write", 2, func(wire []byte) { c.write(wire) }},
		{"one frame a byte at a time", 1, func(wire []byte) {
			for i := range wire {
				c.write(wire[i : i+1])
				pause()
			}
		}},
		{"one and a half frames, then the rest", 2, func(wire []byte) {
			half := len(wire)/2 + len(wire)/4
			c.write(wire[:half])
			pause()
			c.write(wire[half:])
		}},
		{"a frame's last byte with the next frame's first", 2, func(wire []byte) {
			half := len(wire)/2 - 1
			c.write(wire[:half])
			pause()
			c.write(wire[half : half+2])
			pause()
			c.write(wire[half+2:])
		}},
		{"three frames in small pieces", 3, func(wire []byte) {
			for i := 0; i < len(wire); i += 7 {
				c.write(wire[i:min(i+7, len(wire))])
				pause()
			}
		}},
	} {
		wire, serials := c.reports(tc.n)
		tc.write(wire)
		for i, serial := range serials {
			c.ack(serial, jt808.MsgLocation, jt808.ResultOK)
			r := e.sink.next(t, withReports).reports[0]
			if r.Lat != int32(i) || r.Lon != 114057865 || r.Mileage != 3456 {
				t.Fatalf("%s: report %d stored as %+v", tc.name, i, r)
			}
		}
	}
}

// TestEndWithTheLastBytes: a terminal that sends its last report and hangs up at once (its FIN in the
// same breath as the bytes) is stored and its session ends at once, not at the idle timeout: a
// session that rests after a read that emptied the socket must still see the hang-up that came with
// it.
func TestEndWithTheLastBytes(t *testing.T) {
	e := start(t, Config{IdleTimeout: time.Hour}, true, nil)
	open := func() int {
		e.srv.mu.Lock()
		defer e.srv.mu.Unlock()
		return len(e.srv.conns)
	}
	for i := range 40 {
		c := e.dial(jt808.V2013, term1.Phone)
		c.login()
		wire, _ := c.reports(1 + i%3)
		c.write(wire)
		if err := c.conn.(*net.TCPConn).CloseWrite(); err != nil {
			t.Fatal(err)
		}
		for range 1 + i%3 {
			e.sink.next(t, withReports)
		}
		deadline := time.Now().Add(10 * time.Second)
		for open() > 0 {
			if time.Now().After(deadline) {
				t.Fatalf("terminal %d hung up after its reports; its session is still open after 10 s", i)
			}
			time.Sleep(time.Millisecond)
		}
	}
}

// TestIdleTimeoutFollowsTraffic: the read deadline moves with every frame (a terminal that keeps
// reporting stays connected long past its first deadline), and a terminal that goes silent, or stops
// in the middle of a frame, is closed once IdleTimeout has passed without a frame.
func TestIdleTimeoutFollowsTraffic(t *testing.T) {
	const idle = 150 * time.Millisecond
	e := start(t, Config{IdleTimeout: idle, HandshakeTimeout: idle}, true, nil)
	c := e.dial(jt808.V2013, term1.Phone)
	c.login()
	for i := range 12 { // 12 × 50 ms: four idle timeouts' worth
		c.ack(c.send(location(int32(i))), jt808.MsgLocation, jt808.ResultOK)
		time.Sleep(idle / 3)
	}
	wire, _ := c.reports(1)
	c.write(wire[:len(wire)/2]) // half a frame, then silence
	began := time.Now()
	c.closed()
	if waited := time.Since(began); waited < idle/2 {
		t.Errorf("closed %v after half a frame, before its idle timeout of %v", waited, idle)
	}
}
