package relay

import (
	"errors"
	"sync"
	"testing"
	"time"

	"tankwatch/internal/jt1078"
)

func video(key bool, t uint64) jt1078.Frame {
	ty := jt1078.VideoP
	if key {
		ty = jt1078.VideoI
	}
	return jt1078.Frame{Type: ty, PT: jt1078.PTH264, Time: t, Data: make([]byte, 100)}
}

func audio(t uint64) jt1078.Frame {
	return jt1078.Frame{Type: jt1078.Audio, PT: jt1078.PTG711A, Time: t, Data: make([]byte, 160)}
}

func drain(v *Viewer) []jt1078.Frame {
	var out []jt1078.Frame
	for {
		select {
		case f, ok := <-v.Frames():
			if !ok {
				return out
			}
			out = append(out, f)
		default:
			return out
		}
	}
}

func times(fs []jt1078.Frame) []uint64 {
	var out []uint64
	for _, f := range fs {
		out = append(out, f.Time)
	}
	return out
}

func eq(a, b []uint64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestNewViewerStartsAtTheLastKeyFrame(t *testing.T) {
	h := New(Config{})
	var started []string
	h.Start = func(k string) { started = append(started, k) }
	first, err := h.Watch("s1")
	if err != nil || len(started) != 1 {
		t.Fatal(err, started)
	}
	s := h.Stream("s1")
	// P-frames before any key frame reach nobody; then a GOP with audio
	for _, f := range []jt1078.Frame{video(false, 0), video(true, 40), audio(40), video(false, 80), audio(80)} {
		s.Publish(f)
	}
	if got := times(drain(first)); !eq(got, []uint64{40, 40, 80, 80}) {
		t.Errorf("first viewer: %v", got)
	}
	late, _ := h.Watch("s1")
	if got := times(drain(late)); !eq(got, []uint64{40, 40, 80, 80}) {
		t.Errorf("late viewer starts with the cached GOP: %v", got)
	}
	if len(started) != 1 {
		t.Errorf("the device was asked %d times", len(started))
	}
	// a gap in the video empties the cache: the next viewer waits for a key frame
	s.Publish(jt1078.Frame{Type: jt1078.VideoP, Time: 200, Gap: true})
	third, _ := h.Watch("s1")
	if got := drain(third); len(got) != 0 {
		t.Errorf("after a gap the cache still held %v", times(got))
	}
	s.Publish(video(false, 240))
	s.Publish(video(true, 280))
	if got := times(drain(first)); !eq(got, []uint64{280}) {
		t.Errorf("a viewer that saw the gap resumes at the key frame: %v", got)
	}
}

func TestSlowViewerSkipsToTheNextKeyFrame(t *testing.T) {
	h := New(Config{Queue: 4})
	fast, _ := h.Watch("s")
	slow, _ := h.Watch("s")
	s := h.Stream("s")
	var fastGot []jt1078.Frame
	s.Publish(video(true, 0))
	for i := 1; i <= 10; i++ {
		s.Publish(video(false, uint64(40*i)))
		fastGot = append(fastGot, drain(fast)...)
	}
	if len(fastGot) != 11 {
		t.Errorf("the fast viewer got %d frames", len(fastGot))
	}
	if n := len(slow.Frames()); n > 4 {
		t.Fatalf("the slow viewer's queue holds %d", n)
	}
	if slow.Skipped.Load() == 0 {
		t.Error("nothing skipped")
	}
	s.Publish(audio(440))
	s.Publish(video(false, 440))
	s.Publish(video(true, 480))
	got := drain(slow)
	// after the overflow: no P-frame until the key frame
	for _, f := range got {
		if f.Type == jt1078.VideoP && f.Time >= 400 {
			t.Errorf("P-frame %d delivered after the overflow", f.Time)
		}
	}
	if last := got[len(got)-1]; !last.Key() || last.Time != 480 {
		t.Errorf("last frame %+v", last)
	}
}

func TestCapsAndLinger(t *testing.T) {
	h := New(Config{MaxStreams: 2, MaxViewers: 3, Linger: 30 * time.Second})
	var stopped []string
	h.Stop = func(k string) { stopped = append(stopped, k) }
	a, _ := h.Watch("a")
	b, _ := h.Watch("b")
	if _, err := h.Watch("c"); !errors.Is(err, ErrTooMany) {
		t.Errorf("a third stream: %v", err)
	}
	a2, _ := h.Watch("a")
	if _, err := h.Watch("a"); !errors.Is(err, ErrTooMany) {
		t.Errorf("a fourth viewer: %v", err)
	}
	if s, v := h.Counts(); s != 2 || v != 3 {
		t.Errorf("counts %d %d", s, v)
	}
	t0 := time.Unix(1000, 0)
	a.Leave(t0)
	a.Leave(t0) // twice is harmless
	if _, ok := <-a.Frames(); ok {
		t.Error("a left viewer's queue is open")
	}
	a2.Leave(t0.Add(time.Second))
	b.Leave(t0)
	if got := h.Sweep(t0.Add(29 * time.Second)); len(got) != 0 {
		t.Errorf("stopped before the linger: %v", got)
	}
	// a viewer coming back within the linger keeps the stream
	b2, _ := h.Watch("b")
	if got := h.Sweep(t0.Add(31 * time.Second)); len(got) != 1 || got[0] != "a" || len(stopped) != 1 {
		t.Errorf("sweep: %v, stopped %v", got, stopped)
	}
	h.End("b")
	if _, ok := <-b2.Frames(); ok {
		t.Error("an ended stream's viewer is open")
	}
	b2.Leave(t0)
	if s, v := h.Counts(); s != 0 || v != 0 {
		t.Errorf("counts after the end: %d %d", s, v)
	}
}

func TestConcurrentPublishAndViewers(t *testing.T) {
	h := New(Config{Queue: 8})
	first, _ := h.Watch("s")
	s := h.Stream("s")
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := range 2000 {
			s.Publish(video(i%25 == 0, uint64(40*i)))
		}
	}()
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 20 {
				v, err := h.Watch("s")
				if err != nil {
					t.Error(err)
					return
				}
				for range 5 {
					select {
					case <-v.Frames():
					default:
					}
				}
				v.Leave(time.Now())
			}
		}()
	}
	wg.Wait()
	first.Leave(time.Now())
	if _, v := h.Counts(); v != 0 {
		t.Errorf("%d viewers left", v)
	}
}

// TestStopIdle: a stream without viewers is stopped at once when asked (Stop called), a watched one is
// kept, an unknown key is nothing.
func TestStopIdle(t *testing.T) {
	h := New(Config{})
	var stopped []string
	h.Stop = func(k string) { stopped = append(stopped, k) }
	a, _ := h.Watch("a")
	b, _ := h.Watch("b")
	a.Leave(time.Unix(1000, 0))
	if h.Stream("b").Viewers() != 1 || h.Stream("a").Viewers() != 0 {
		t.Errorf("viewers a %d b %d", h.Stream("a").Viewers(), h.Stream("b").Viewers())
	}
	if !h.StopIdle("a") || h.StopIdle("b") || h.StopIdle("x") || len(stopped) != 1 || stopped[0] != "a" {
		t.Errorf("stopped %v", stopped)
	}
	if h.Stream("a") != nil || h.Stream("b") == nil {
		t.Error("the idle stream is still there or the watched one is gone")
	}
	if _, err := h.Join("a"); !errors.Is(err, ErrNoStream) {
		t.Errorf("joining a stopped stream: %v", err)
	}
	b2, err := h.Join("b")
	if err != nil {
		t.Fatal(err)
	}
	b.Leave(time.Unix(1000, 0))
	b2.Leave(time.Unix(1000, 0))
	if s, v := h.Counts(); s != 1 || v != 0 {
		t.Errorf("counts %d %d", s, v)
	}
}

// TestRestart: after a seek's Restart, what was cached and what comes from before the new place is not
// shown — neither to a viewer watching nor to one joining — until a key frame of the new place; a device
// whose clock never reaches it gets through after three key frames.
func TestRestart(t *testing.T) {
	h := New(Config{})
	v, _ := h.Watch("s")
	s := h.Stream("s")
	s.Publish(video(true, 1000))
	s.Publish(video(false, 1040))
	drain(v)
	h.Restart("s", 60_000)
	s.Publish(video(false, 1080)) // still on its way from before the seek
	s.Publish(video(true, 2000))
	s.Publish(video(true, 60_000)) // the new place
	s.Publish(video(false, 60_040))
	late, _ := h.Join("s")
	if got := times(drain(v)); len(got) != 2 || got[0] != 60_000 || got[1] != 60_040 {
		t.Errorf("the watching viewer got %v", got)
	}
	if got := times(drain(late)); len(got) != 2 || got[0] != 60_000 {
		t.Errorf("a viewer joining after the seek got %v", got)
	}
	h.Restart("s", 1<<40) // never reached: relative device clocks
	for i := range uint64(4) {
		s.Publish(video(true, 100+i))
	}
	if got := times(drain(v)); len(got) != 1 || got[0] != 103 {
		t.Errorf("after three key frames short of the gate: %v", got)
	}
}
