package video

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"testing"
	"time"

	"tankwatch/internal/jt1078"
	"tankwatch/internal/jt1078/relay"
	"tankwatch/internal/jt808"
	"tankwatch/internal/platform/bus"
	"tankwatch/internal/platform/httpx"
)

// sharedNode is one node's live video on a shared in-process bus; stop ends it (its bus answers no more).
type sharedNode struct {
	*Live
	g    *fakeGateway
	stop context.CancelFunc
}

// sharedNodes starts live video on nodes a and b of one bus. Renewals are left to the test (an hour
// apart), and lingers to its Sweep calls.
func sharedNodes(t *testing.T, ga, gb *fakeGateway) (a, b sharedNode, kv bus.KV) {
	t.Helper()
	hub := bus.NewHub()
	start := func(name string, g *fakeGateway) sharedNode {
		l := NewLive(LiveConfig{Relay: relay.Config{Linger: time.Minute}, ShareEvery: time.Hour}, fakeCars{}, g, nil,
			slog.New(slog.NewTextHandler(io.Discard, nil)))
		ctx, cancel := context.WithCancel(context.Background())
		t.Cleanup(func() { cancel(); l.wg.Wait() })
		if err := l.Enable(ctx, name+".example:8809"); err != nil {
			t.Fatal(err)
		}
		if err := l.Share(ctx, hub.Attach(name), "tw"); err != nil {
			t.Fatal(err)
		}
		return sharedNode{l, g, cancel}
	}
	a, b = start("a", ga), start("b", gb)
	kv, _ = hub.Attach("x").KV(context.Background(), "video", 0)
	return a, b, kv
}

var sim13800138000 = jt808.MustPhone("13800138000")

func frame(typ jt1078.DataType, at uint64) jt1078.Frame {
	return jt1078.Frame{SIM: sim13800138000, Channel: 1, Type: typ, PT: jt1078.PTH264, Time: at, Data: []byte{0, 0, 0, 1, byte(at)}}
}

// next waits for v's next frame (ok false: its queue closed).
func next(t *testing.T, v *relay.Viewer) (jt1078.Frame, bool) {
	t.Helper()
	select {
	case f, ok := <-v.Frames():
		return f, ok
	case <-time.After(10 * time.Second):
		t.Fatal("no frame came")
		return jt1078.Frame{}, false
	}
}

// until waits for cond, failing after a generous deadline.
func until(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("timed out waiting for " + what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func claimOf(t *testing.T, kv bus.KV) string {
	t.Helper()
	v, _, err := kv.Get(context.Background(), claimKey(devKey{sim13800138000, 1}))
	if errors.Is(err, bus.ErrNotFound) {
		return ""
	}
	if err != nil {
		t.Fatal(err)
	}
	return decodeClaim(v).node
}

// TestSharedStream: a second node watching a camera another node streams gets its pictures over the
// bus, from the last key frame, and the terminal gets one 0x9101. When the second node's viewers have
// gone, the first closes the channel once its own linger has passed.
func TestSharedStream(t *testing.T) {
	a, b, kv := sharedNodes(t, &fakeGateway{online: true}, &fakeGateway{online: true})
	p := &httpx.Principal{}
	va, err := a.Open(t.Context(), p, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	if claimOf(t, kv) != "a" {
		t.Fatalf("claim %q after a's open", claimOf(t, kv))
	}
	src := a.Hub.Stream(va.Token)
	src.Publish(frame(jt1078.VideoI, 1000))
	src.Publish(frame(jt1078.VideoP, 1040))

	vb, err := b.Open(t.Context(), p, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(a.g.ids(), b.g.ids()); got != "[0x9101] []" {
		t.Fatalf("sent by a and b: %s, want one 0x9101 from a", got)
	}
	if !vb.Receiving || b.Mirrors.Load() != 1 || vb.Token == va.Token {
		t.Errorf("b's stream %+v, mirrors %d", vb, b.Mirrors.Load())
	}
	viewer, err := b.Hub.Join(vb.Token)
	if err != nil {
		t.Fatal(err)
	}
	src.Publish(frame(jt1078.VideoP, 1080))
	for _, want := range []uint64{1000, 1040, 1080} {
		f, ok := next(t, viewer)
		if !ok || f.Time != want || f.SIM != sim13800138000 || f.Channel != 1 || f.Key() != (want == 1000) {
			t.Fatalf("frame %+v (open %v), want the one of %d", f, ok, want)
		}
	}
	// a's own viewers are gone, but b's want keeps the stream: the linger does not stop it
	later := time.Now().Add(2 * time.Minute)
	if stopped := a.Hub.Sweep(later); len(stopped) != 0 {
		t.Fatalf("a stopped %v while b watched", stopped)
	}
	// b's viewer leaves: b's linger ends its mirror, a's forwarding ends, then a's linger closes
	viewer.Leave(time.Now())
	if stopped := b.Hub.Sweep(later); len(stopped) != 1 {
		t.Fatalf("b's sweep stopped %v", stopped)
	}
	until(t, "a's forwarding to end", func() bool { return src.Viewers() == 0 })
	a.Hub.Sweep(later.Add(2 * time.Minute))
	until(t, "a's close", func() bool { return len(a.g.ids()) == 2 && claimOf(t, kv) == "" })
	if got := fmt.Sprint(a.g.ids(), b.g.ids()); got != "[0x9101 0x9102] []" {
		t.Errorf("sent by a and b: %s", got)
	}
}

// TestSharedSourceEnds: the source's stream ending (its device silent) ends the mirror's, whose viewers
// are told; the next open on the mirror's node asks the device itself.
func TestSharedSourceEnds(t *testing.T) {
	a, b, kv := sharedNodes(t, &fakeGateway{online: true}, &fakeGateway{online: true})
	p := &httpx.Principal{}
	va, _ := a.Open(t.Context(), p, 1, 1)
	vb, err := b.Open(t.Context(), p, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	viewer, err := b.Hub.Join(vb.Token)
	if err != nil {
		t.Fatal(err)
	}
	a.Hub.End(va.Token) // what endSilent does
	a.stopped(va.Token)
	if _, ok := next(t, viewer); ok {
		t.Fatal("b's viewer got a frame after the source ended")
	}
	until(t, "b's session to end and a's claim to go", func() bool {
		list, _ := b.Streams(t.Context(), p, 0)
		return len(list) == 0 && claimOf(t, kv) == ""
	})
	if _, err := b.Open(t.Context(), p, 1, 1); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprintf("%v %v %s", a.g.ids(), b.g.ids(), claimOf(t, kv)); got != "[0x9101 0x9102] [0x9101] b" {
		t.Errorf("sent by a and b, and the claim: %s", got)
	}
}

// TestSharedSourceGone: a claim whose node no longer answers on the bus (stopped, killed) is taken over.
func TestSharedSourceGone(t *testing.T) {
	a, b, kv := sharedNodes(t, &fakeGateway{online: true}, &fakeGateway{online: true})
	p := &httpx.Principal{}
	if _, err := a.Open(t.Context(), p, 1, 1); err != nil {
		t.Fatal(err)
	}
	a.stop()
	a.wg.Wait()
	if _, err := b.Open(t.Context(), p, 1, 1); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprintf("%v %s %d", b.g.ids(), claimOf(t, kv), b.Mirrors.Load()); got != "[0x9101] b 0" {
		t.Errorf("sent by b, the claim and b's mirrors: %s", got)
	}
}

// TestSharedCloseFirst: a node asking for a channel whose source is closing it waits for the close to
// be answered, then asks the device itself: its 0x9101 cannot overtake the other node's 0x9102.
func TestSharedCloseFirst(t *testing.T) {
	ga := &fakeGateway{online: true, hold: make(chan struct{}), held: make(chan struct{}, 1)}
	a, b, kv := sharedNodes(t, ga, &fakeGateway{online: true})
	p := &httpx.Principal{}
	va, _ := a.Open(t.Context(), p, 1, 1)
	if !a.Hub.StopIdle(va.Token) {
		t.Fatal("an unwatched stream was not stopped")
	}
	<-ga.held
	released := false
	defer func() {
		if !released { // a failed check must not leave the close held for the cleanup to wait on
			close(ga.hold)
		}
	}()
	done := make(chan error, 1)
	go func() {
		_, err := b.Open(context.Background(), p, 1, 1)
		done <- err
	}()
	select {
	case err := <-done:
		t.Fatalf("b opened (%v) while a's close was on its way", err)
	case <-time.After(300 * time.Millisecond): // it waits (a bounded look, not a timing assertion)
	}
	close(ga.hold)
	released = true
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprintf("%v %v %s", a.g.ids(), b.g.ids(), claimOf(t, kv)); got != "[0x9101 0x9102] [0x9101] b" {
		t.Errorf("sent by a and b, and the claim: %s", got)
	}
}

// TestSharedRenew: a mirror's renewed want keeps the source forwarding; a want three periods old is
// dropped, which ends the mirror's stream. A mirror whose source no longer has the stream ends it.
func TestSharedRenew(t *testing.T) {
	a, b, _ := sharedNodes(t, &fakeGateway{online: true}, &fakeGateway{online: true})
	p := &httpx.Principal{}
	va, _ := a.Open(t.Context(), p, 1, 1)
	vb, _ := b.Open(t.Context(), p, 1, 1)
	src := a.Hub.Stream(va.Token)
	base := time.Now()
	a.now = func() time.Time { return base.Add(2 * time.Hour) } // past the first want's three periods
	b.renew(t.Context())                                        // b still wants it: renewed from a's now
	a.renew(t.Context())
	if src.Viewers() != 1 {
		t.Fatal("a renewed want was dropped")
	}
	a.now = func() time.Time { return base.Add(6 * time.Hour) }
	a.renew(t.Context())
	until(t, "b's mirror to end", func() bool { list, _ := b.Streams(t.Context(), p, 0); return len(list) == 0 })
	if b.Hub.Stream(vb.Token) != nil {
		t.Error("b's relay still holds the stream")
	}

	// a source that no longer has the stream: the mirror's renewal ends it
	vb, _ = b.Open(t.Context(), p, 1, 1)
	if b.mirrorOf(b.byToken[vb.Token]) == nil {
		t.Fatal("b's second open is no mirror")
	}
	a.mu.Lock()
	delete(a.byToken, va.Token) // a forgets it without telling (the end notice lost)
	a.mu.Unlock()
	b.renew(t.Context())
	if list, _ := b.Streams(t.Context(), p, 0); len(list) != 0 {
		t.Errorf("b's streams after a renewal refused: %+v", list)
	}
}

func TestFedFrames(t *testing.T) {
	f := jt1078.Frame{Type: jt1078.VideoP, PT: 98, Time: 1<<40 + 7, Data: []byte("abc"), Gap: true}
	g, seq, end, ok := decodeFed(encodeFed(f, 9, false))
	if !ok || end || seq != 9 || g.Type != f.Type || g.PT != 98 || g.Time != f.Time || string(g.Data) != "abc" || !g.Gap {
		t.Errorf("round trip: %+v %d %v %v", g, seq, end, ok)
	}
	if _, _, end, ok := decodeFed(encodeFed(jt1078.Frame{}, 10, true)); !ok || !end {
		t.Error("the end notice")
	}
	for _, bad := range [][]byte{nil, make([]byte, fedHeader-1), append([]byte{2}, make([]byte, fedHeader)...)} {
		if _, _, _, ok := decodeFed(bad); ok {
			t.Errorf("%x decoded", bad)
		}
	}
}
