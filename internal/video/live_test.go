package video

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"tankwatch/internal/fleet"
	"tankwatch/internal/jt1078"
	"tankwatch/internal/jt1078/relay"
	"tankwatch/internal/jt808"
	"tankwatch/internal/jt808/gateway"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/telemetry"
)

// fakeCars: car 1 (terminal 7) is in scope with channels 1 and 2 enabled and 3 disabled; car 2 is
// another group's.
type fakeCars struct{}

func (fakeCars) CommandTerminal(_ context.Context, _ *httpx.Principal, carID int64) (fleet.CommandTarget, error) {
	if carID != 1 {
		return fleet.CommandTarget{}, httpx.ErrScope
	}
	return fleet.CommandTarget{TerminalID: 7, Phone: "13800138000", Plate: "沪A·12345"}, nil
}

func (fakeCars) ScopedCar(_ context.Context, _ *httpx.Principal, carID int64) (fleet.CarRef, error) {
	if carID != 1 {
		return fleet.CarRef{}, httpx.ErrScope
	}
	return fleet.CarRef{ID: 1, Plate: "沪A·12345"}, nil
}

func (fakeCars) Channels(context.Context, *httpx.Principal, int64) ([]fleet.Channel, error) {
	return []fleet.Channel{{ChannelNo: 1, Enabled: true}, {ChannelNo: 2, Enabled: true}, {ChannelNo: 3}}, nil
}

func (fakeCars) HistoryPlates(_ context.Context, _ *httpx.Principal, ids []int64) (map[int64]string, error) {
	out := map[int64]string{}
	for _, id := range ids {
		if id == 1 {
			out[id] = "沪A·12345"
		}
	}
	return out, nil
}

// fakeGateway records what is sent, answers with err, and holds a 0x9102 until hold is closed (nil:
// at once).
type fakeGateway struct {
	mu     sync.Mutex
	online bool
	err    error
	sent   []jt808.Message
	hold   chan struct{}
	held   chan struct{} // signalled when a 0x9102 is being held
}

func (g *fakeGateway) Reachable(context.Context, int64) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.online
}

func (g *fakeGateway) Send(_ context.Context, _ int64, m jt808.Message, c *telemetry.Command) error {
	g.mu.Lock()
	g.sent = append(g.sent, m)
	hold, err := g.hold, g.err
	g.mu.Unlock()
	if _, ok := m.(*jt808.LiveControl); ok && hold != nil {
		g.held <- struct{}{}
		<-hold
	}
	if errors.Is(err, gateway.ErrRejected) {
		c.Reply = "不支持"
	}
	return err
}

func (g *fakeGateway) Ask(ctx context.Context, id int64, m jt808.Message, c *telemetry.Command) (jt808.Message, error) {
	return nil, g.Send(ctx, id, m, c)
}

func (g *fakeGateway) ids() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	var out []string
	for _, m := range g.sent {
		out = append(out, fmt.Sprintf("0x%04X", m.MsgID()))
	}
	return out
}

func newTestLive(t *testing.T, g *fakeGateway) *Live {
	t.Helper()
	l := NewLive(LiveConfig{}, fakeCars{}, g, nil, slog.New(slog.NewTextHandler(io.Discard, nil)))
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(func() { cancel(); l.wg.Wait() })
	if err := l.Enable(ctx, "video.example:8809"); err != nil {
		t.Fatal(err)
	}
	return l
}

func reason(err error) string {
	var he *httpx.Error
	if errors.As(err, &he) {
		if r := reasonOf(he); r != "" {
			return r
		}
		return he.Key
	}
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestOpen: what doVisual does before and after the terminal's answer, case by case.
func TestOpen(t *testing.T) {
	p := &httpx.Principal{UserID: 3}
	for _, tc := range []struct {
		name      string
		online    bool
		err       error
		car       int64
		channel   int
		want      string
		wantSent  int
		wantAlive bool
	}{
		{"another group's car", true, nil, 2, 1, "scope", 0, false},
		{"terminal offline", false, nil, 1, 1, "offline", 0, false},
		{"went offline while asked", true, gateway.ErrOffline, 1, 1, "offline", 1, false},
		{"no answer", true, gateway.ErrTimeout, 1, 1, "timeout", 1, false},
		{"refused", true, gateway.ErrRejected, 1, 1, "rejected", 1, false},
		{"channel disabled", true, nil, 1, 3, "channel", 0, false},
		{"channel out of range", true, nil, 1, 33, "field.range", 0, false},
		{"started", true, nil, 1, 2, "", 1, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := &fakeGateway{online: tc.online, err: tc.err}
			l := newTestLive(t, g)
			v, err := l.Open(t.Context(), p, tc.car, tc.channel)
			if got := reason(err); got != tc.want {
				t.Fatalf("got %q (%v), want %q", got, err, tc.want)
			}
			if n := len(g.ids()); n != tc.wantSent {
				t.Errorf("%d messages sent, want %d", n, tc.wantSent)
			}
			streams, _ := l.Hub.Counts()
			if (streams == 1) != tc.wantAlive || (len(l.byToken) == 1) != tc.wantAlive {
				t.Errorf("%d relay streams, %d sessions after the call", streams, len(l.byToken))
			}
			if !tc.wantAlive {
				return
			}
			m := g.sent[0].(*jt808.LiveStart)
			if *m != (jt808.LiveStart{ServerIP: "video.example", TCPPort: 8809, Channel: 2, DataType: 0, Stream: 0}) {
				t.Errorf("0x9101 %+v", m)
			}
			// the device's connection is let in by its SIM and channel; another channel's is not
			sim := jt808.MustPhone("013800138000")
			if st, s, err := l.route(jt1078.Packet{SIM: sim, Channel: 2}); err != nil || st == nil || s.token != v.Token {
				t.Errorf("route: %v", err)
			}
			if _, _, err := l.route(jt1078.Packet{SIM: sim, Channel: 1}); !errors.Is(err, ErrNotAsked) {
				t.Errorf("route of a channel not asked for: %v", err)
			}
			// asked again: the same stream, no second 0x9101
			v2, err := l.Open(t.Context(), p, 1, 2)
			if err != nil || v2.Token != v.Token || len(g.ids()) != 1 {
				t.Errorf("second open: %v %+v, sent %v", err, v2, g.ids())
			}
		})
	}
	t.Run("not enabled", func(t *testing.T) {
		l := NewLive(LiveConfig{}, fakeCars{}, &fakeGateway{online: true}, nil, slog.New(slog.NewTextHandler(io.Discard, nil)))
		if _, err := l.Open(t.Context(), p, 1, 1); reason(err) != "disabled" {
			t.Errorf("got %v", err)
		}
		if _, err := l.Open(t.Context(), p, 2, 1); reason(err) != "scope" {
			t.Errorf("another group's car on a node without video: %v", err)
		}
	})
}

// TestCloseBeforeTheNextStart: a channel stopped and asked for again is closed (0x9102 answered)
// before it is started again, so the device cannot take the close for the new stream.
func TestCloseBeforeTheNextStart(t *testing.T) {
	g := &fakeGateway{online: true, hold: make(chan struct{}), held: make(chan struct{}, 1)}
	l := newTestLive(t, g)
	p := &httpx.Principal{}
	v, err := l.Open(t.Context(), p, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !l.Hub.StopIdle(v.Token) {
		t.Fatal("an unwatched stream was not stopped")
	}
	<-g.held // 0x9102 is on its way and not answered yet
	done := make(chan StreamView)
	go func() {
		v2, err := l.Open(context.Background(), p, 1, 1)
		if err != nil {
			t.Error(err)
		}
		done <- v2
	}()
	select {
	case <-done:
		t.Fatal("the channel was asked for again before its close was answered")
	case <-time.After(50 * time.Millisecond): // it waits (a bounded look, not a timing assertion)
	}
	close(g.hold)
	v2 := <-done
	if v2.Token == v.Token {
		t.Error("the new stream reused the old token")
	}
	if got := fmt.Sprint(g.ids()); got != "[0x9101 0x9102 0x9101]" {
		t.Errorf("sent %s", got)
	}
}

// TestStopAndList: stopLiveVideo closes an unwatched stream at once and keeps a watched one;
// reportLiveVideos lists only cars in scope.
func TestStopAndList(t *testing.T) {
	g := &fakeGateway{online: true}
	l := newTestLive(t, g)
	p := &httpx.Principal{}
	a, _ := l.Open(t.Context(), p, 1, 1)
	b, _ := l.Open(t.Context(), p, 1, 2)
	viewer, err := l.Hub.Join(b.Token)
	if err != nil {
		t.Fatal(err)
	}
	list, err := l.Streams(t.Context(), p, 0)
	if err != nil || len(list) != 2 || list[0].Token != a.Token || list[1].Viewers != 1 {
		t.Fatalf("streams %+v %v", list, err)
	}
	rs, err := l.Stop(t.Context(), p, 1, 0)
	if err != nil || len(rs) != 2 || !rs[0].Stopped || rs[1].Stopped || rs[1].Viewers != 1 {
		t.Fatalf("stop %+v %v", rs, err)
	}
	if _, err := l.Stop(t.Context(), p, 2, 0); !errors.Is(err, httpx.ErrScope) {
		t.Errorf("stopping another group's car: %v", err)
	}
	viewer.Leave(time.Now())
	list, _ = l.Streams(t.Context(), p, 0)
	if len(list) != 1 || list[0].Token != b.Token {
		t.Errorf("streams after the stop %+v", list)
	}
	if _, _, err := l.join(t.Context(), p, a.Token, false); !errors.Is(err, error(noStream)) {
		t.Errorf("joining a stopped stream: %v", err)
	}
	if _, _, err := l.join(t.Context(), p, "forged", false); !errors.Is(err, error(noStream)) {
		t.Errorf("joining a forged token: %v", err)
	}
}

func TestQueryList(t *testing.T) {
	for _, tc := range []struct {
		q    string
		want string
	}{
		{"channels=1,2,4", "[1 2 4] <nil>"},
		{"channels=1&channels=2,1", "[1 2] <nil>"},
		{"channels=", "[] field.required"},
		{"channels=0", "[] field.range"},
		{"channels=33", "[] field.range"},
		{"channels=a", "[] field.range"},
		{"", "[] field.required"},
	} {
		r := httptest.NewRequest("GET", "/x?"+tc.q, nil)
		got, err := queryList(r, "channels")
		k := "<nil>"
		if err != nil {
			k = err.(*httpx.Error).Key
		}
		if s := fmt.Sprint(append([]int{}, got...)) + " " + k; s != tc.want {
			t.Errorf("%q: %s, want %s", tc.q, s, tc.want)
		}
	}
	if a, b := newToken(), newToken(); len(a) != 24 || a == b {
		t.Errorf("tokens %q %q", a, b)
	}
}

// TestMediaConnections runs the media listener on a real socket: a connection for a channel nobody asked
// for is refused; the asked channel's packets reach the viewer; when the device's connection closes and
// no other comes within NoMedia, the viewer is told the stream ended and the device gets 0x9102.
func TestMediaConnections(t *testing.T) {
	g := &fakeGateway{online: true}
	l := NewLive(LiveConfig{Relay: relay.Config{Linger: time.Minute}, Sweep: 20 * time.Millisecond, NoMedia: 200 * time.Millisecond},
		fakeCars{}, g, nil, slog.New(slog.NewTextHandler(io.Discard, nil)))
	ctx, cancel := context.WithCancel(context.Background())
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Enable(ctx, ln.Addr().String()); err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- l.Serve(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		if err := <-served; err != nil {
			t.Error(err)
		}
	})
	p := &httpx.Principal{}
	s, err := l.Open(t.Context(), p, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	viewer, err := l.Hub.Join(s.Token)
	if err != nil {
		t.Fatal(err)
	}
	defer viewer.Leave(time.Now())
	sim := jt808.MustPhone("13800138000")
	key := jt1078.Frame{SIM: sim, Channel: 1, Type: jt1078.VideoI, PT: jt1078.PTH264, Time: 1000,
		Data: []byte{0, 0, 0, 1, 0x67, 0x42, 0, 0x1e, 0, 0, 0, 1, 0x68, 0xce, 0, 0, 0, 1, 0x65, 0x88, 0x84}}
	wire := func(f jt1078.Frame) []byte {
		ps, _ := jt1078.Packetize(nil, f, jt1078.Edition2016, 0, 950, 0, 40)
		var b []byte
		for _, p := range ps {
			b, _ = jt1078.Append(b, p)
		}
		// a second packet right behind, so the splitter is sure of the edition at once
		next := f
		next.Type, next.Time = jt1078.VideoP, f.Time+40
		ps, _ = jt1078.Packetize(nil, next, jt1078.Edition2016, 1, 950, 0, 40)
		b, _ = jt1078.Append(b, ps[0])
		return b
	}

	stranger, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	other := key
	other.Channel = 2
	stranger.Write(wire(other))
	stranger.SetReadDeadline(time.Now().Add(10 * time.Second))
	if _, err := stranger.Read(make([]byte, 1)); !errors.Is(err, io.EOF) {
		t.Errorf("a channel nobody asked for: %v, want the connection closed", err)
	}
	stranger.Close()

	device, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	device.Write(wire(key))
	select {
	case f := <-viewer.Frames():
		if !f.Key() || f.Channel != 1 {
			t.Errorf("first frame %+v", f)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no frame reached the viewer")
	}
	if list, _ := l.Streams(t.Context(), p, 0); len(list) != 1 || !list[0].Receiving {
		t.Errorf("streams %+v", list)
	}
	device.Close()
	deadline := time.After(10 * time.Second)
	for open := true; open; {
		select {
		case _, open = <-viewer.Frames():
		case <-deadline:
			t.Fatal("the viewer was not told the stream ended")
		}
	}
	for len(g.ids()) < 2 {
		select {
		case <-deadline:
			t.Fatalf("sent %v", g.ids())
		case <-time.After(10 * time.Millisecond):
		}
	}
	if got := fmt.Sprint(g.ids()); got != "[0x9101 0x9102]" {
		t.Errorf("sent %s", got)
	}
	if l.Stats.Refused.Load() != 1 || l.Stats.Conns.Load() != 2 {
		t.Errorf("refused %d of %d connections", l.Stats.Refused.Load(), l.Stats.Conns.Load())
	}
}
