package gateway

import (
	"bytes"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"tankwatch/internal/jt808"
)

func TestHandshakeTimeoutClosesGarbageTalkers(t *testing.T) {
	e := start(t, Config{HandshakeTimeout: 50 * time.Millisecond, IdleTimeout: time.Hour}, true, nil)
	c := e.dial(jt808.V2013, term1.Phone)
	c.write([]byte("\x7egarbage\x7e")) // bytes, but never a valid frame
	c.closed()
	// a valid frame in time switches to the idle timeout
	ok := e.dial(jt808.V2013, term1.Phone)
	ok.login()
	serial := ok.send(&jt808.Empty{ID: jt808.MsgHeartbeat})
	ok.ack(serial, jt808.MsgHeartbeat, jt808.ResultOK)
}

func TestMaxConns(t *testing.T) {
	e := start(t, Config{MaxConns: 1}, true, nil)
	first := e.dial(jt808.V2013, term1.Phone)
	first.login() // accepted and served
	second := e.dial(jt808.V2013, term2.Phone)
	second.closed()
	if got := value(t, e.srv.m.rejected); got != 1 {
		t.Errorf("rejected %v", got)
	}
	serial := first.send(&jt808.Empty{ID: jt808.MsgHeartbeat})
	first.ack(serial, jt808.MsgHeartbeat, jt808.ResultOK)
}

func TestMetrics(t *testing.T) {
	reg := prometheus.NewRegistry()
	e := start(t, Config{}, true, nil)
	if err := e.srv.m.register(reg); err != nil {
		t.Fatal(err)
	}
	c := e.dial(jt808.V2013, term1.Phone)
	c.login()
	for i := range 3 {
		serial := c.send(location(int32(i)))
		c.ack(serial, jt808.MsgLocation, jt808.ResultOK)
	}
	wire, _ := jt808.AppendMessage(nil, jt808.Header{Phone: c.phone}, location(1))
	wire[len(wire)-2] ^= 0x11
	c.write(wire)
	serial := c.send(&jt808.Empty{ID: jt808.MsgHeartbeat})
	c.ack(serial, jt808.MsgHeartbeat, jt808.ResultOK)
	m := e.srv.m
	// the flusher counts after its write returns, so the client may read the ack first
	waitFor(t, func() bool { return value(t, m.acks) == 3 && value(t, m.ackLatency) == 3 })
	for name, c := range map[string]struct {
		c    prometheus.Collector
		want float64
	}{
		"0x0200 frames": {m.frames.WithLabelValues("0x0200"), 3},
		"0x0100 frames": {m.frames.WithLabelValues("0x0100"), 1},
		"malformed":     {m.malformed, 1},
		"acks":          {m.acks, 3},
		"sessions":      {m.sessions, 1},
		"online":        {m.online, 1},
		"ack latency":   {m.ackLatency, 3},
	} {
		if got := value(t, c.c); got != c.want {
			t.Errorf("%s = %v, want %v", name, got, c.want)
		}
	}
	fams, err := reg.Gather()
	if err != nil || len(fams) < 9 {
		t.Errorf("registered %d families, %v", len(fams), err)
	}
	if !bytes.Contains([]byte(msgLabel(0x0f0f)), []byte("other")) {
		t.Error("unknown IDs must share one label")
	}
}

// value reads a counter's or gauge's value, or a histogram's sample count.
func value(t *testing.T, c prometheus.Collector) float64 {
	t.Helper()
	ch := make(chan prometheus.Metric, 1)
	c.Collect(ch)
	var m dto.Metric
	if err := (<-ch).Write(&m); err != nil {
		t.Fatal(err)
	}
	switch {
	case m.Counter != nil:
		return m.Counter.GetValue()
	case m.Gauge != nil:
		return m.Gauge.GetValue()
	case m.Histogram != nil:
		return float64(m.Histogram.GetSampleCount())
	}
	t.Fatalf("unexpected metric %v", &m)
	return 0
}

func TestDefaultMaxConns(t *testing.T) {
	for _, c := range []struct {
		nofile uint64
		want   int
	}{
		{0, MaxConnsCeiling},       // unknown: the design figure
		{1024, 512},                // a default shell limit: half kept back (the 512 minimum)
		{20000, 16000},             // this CI machine: 4,000 left for HTTP, /mqtt, the database
		{1 << 20, MaxConnsCeiling}, // a large limit: the per-node ceiling
		{100, 16},                  // absurdly low: still serves a few
	} {
		if got := DefaultMaxConns(c.nofile); got != c.want {
			t.Errorf("DefaultMaxConns(%d) = %d, want %d", c.nofile, got, c.want)
		}
	}
	if got := (Config{}).withDefaults().MaxConns; got < 16 || got > MaxConnsCeiling || uint64(got) >= OpenFileLimit() && OpenFileLimit() > 0 {
		t.Errorf("default MaxConns %d with an open-file limit of %d", got, OpenFileLimit())
	}
}

// OnAuthenticated hears of each terminal once it is authenticated and answered (not before: a
// refused terminal is never announced).
func TestOnAuthenticated(t *testing.T) {
	e := start(t, Config{}, true, nil)
	got := make(chan Terminal, 4)
	e.srv.OnAuthenticated(func(t Terminal) { got <- t })
	bad := e.dial(jt808.V2013, "013900000000") // not in the registry
	serial := bad.send(&jt808.Auth{AuthCode: "nope"})
	bad.ack(serial, jt808.MsgAuth, jt808.ResultFailure)
	bad.closed()
	c := e.dial(jt808.V2013, term1.Phone)
	c.login()
	select {
	case tm := <-got:
		if tm.ID != term1.ID || tm.CarID != term1.CarID {
			t.Errorf("announced %+v, want terminal %d", tm, term1.ID)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the authenticated terminal was not announced")
	}
	if len(got) != 0 {
		t.Errorf("announced more than the one terminal")
	}
}
