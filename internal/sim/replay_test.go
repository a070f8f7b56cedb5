package sim

import (
	"context"
	"net"
	"testing"
	"time"

	"tankwatch/internal/jt1078"
	"tankwatch/internal/jt808"
)

// TestRecordings: ten-minute files of every channel, the same list when asked twice, some files missing
// (the vehicle parked), nothing outside the range or the kept history, the file being written ending now.
func TestRecordings(t *testing.T) {
	tm := &terminal{phone: "013800000001"}
	now := time.Date(2026, 11, 26, 15, 4, 5, 0, jt808.CST)
	all := tm.recordings(jt808.QueryResources{}, now)
	again := tm.recordings(jt808.QueryResources{}, now)
	if len(all) != len(again) || len(all) < 4*72/2 || len(all) >= 4*73 {
		t.Fatalf("%d then %d recordings over 12 h of 4 channels", len(all), len(again))
	}
	perCh := map[byte]int{}
	for i, r := range all {
		perCh[r.Channel]++
		if r != again[i] || r.End.After(now) || r.Start.Before(now.Add(-recordHistory-recordFile)) || r.End.Sub(r.Start) > recordFile || r.Size == 0 {
			t.Fatalf("recording %d: %+v", i, r)
		}
	}
	if len(perCh) != 4 || perCh[1] == 72 {
		t.Errorf("per channel %v: every channel, some files missing", perCh)
	}
	from := time.Date(2026, 11, 26, 13, 0, 0, 0, jt808.CST)
	one := tm.recordings(jt808.QueryResources{Channel: 2, Start: from, End: from.Add(time.Hour)}, now)
	if len(one) == 0 || len(one) > 6 {
		t.Fatalf("%d recordings of channel 2 in an hour", len(one))
	}
	for _, r := range one {
		if r.Channel != 2 || r.Start.Before(from) || r.End.After(from.Add(time.Hour)) {
			t.Errorf("outside the query: %+v", r)
		}
	}
	for _, r := range all {
		if r.Start.Equal(now.Truncate(recordFile)) && !r.End.Equal(now) {
			t.Errorf("the file being written: %+v", r)
		}
	}
}

// TestPlaybackStream: the recording streams from the key frame at or before the start with its own
// time as timestamps; pause stops the pictures, resume brings them back, a seek jumps the timestamps
// to the key frame at or before the target, 4× sends four times the media time per second, and the
// stream ends at the end of the range.
func TestPlaybackStream(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	ctl := make(chan playCmd)
	start := time.Date(2026, 11, 26, 8, 0, 0, 300e6, jt808.CST)
	end := start.Add(time.Hour)
	sim, _ := jt808.ParsePhone("013800000001")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	errc := make(chan error, 1)
	go func() {
		errc <- streamRecording(ctx, nil, ctl, ln.Addr().String(), sim, 3, jt1078.Edition2016, start, end, 1, false, false)
	}()
	c, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	frames := make(chan jt1078.Frame, 4096)
	go func() {
		defer close(frames)
		var sp jt1078.Splitter
		var asm jt1078.Assembler
		buf := make([]byte, 8192)
		var out []jt1078.Frame
		for {
			n, err := c.Read(buf)
			if err != nil {
				return
			}
			sp.Write(buf[:n])
			for p, ok := sp.Next(); ok; p, ok = sp.Next() {
				out = asm.Push(out[:0], p)
				for _, f := range out {
					frames <- f
				}
			}
		}
	}()
	next := func() jt1078.Frame {
		t.Helper()
		select {
		case f, ok := <-frames:
			if !ok {
				t.Fatal("stream closed")
			}
			return f
		case <-time.After(10 * time.Second):
			t.Fatal("no picture")
		}
		return jt1078.Frame{}
	}
	first := next()
	if !first.Key() || first.Channel != 3 || first.Time != uint64(start.Truncate(time.Second).UnixMilli()) {
		t.Fatalf("first frame %v key %v at %d, want %d", first.Type, first.Key(), first.Time, start.Truncate(time.Second).UnixMilli())
	}
	send := func(m jt808.PlaybackControl) {
		c := playCmd{PlaybackControl: m, done: make(chan struct{})}
		ctl <- c
		<-c.done
	}
	send(jt808.PlaybackControl{Channel: 3, Command: playPause})
	drained := len(frames) // what was sent before the pause was applied
	for range drained {
		next()
	}
	select {
	case f := <-frames:
		t.Fatalf("a picture at %d while paused", f.Time)
	case <-time.After(300 * time.Millisecond): // 7 pictures' time at 25 fps
	}
	send(jt808.PlaybackControl{Channel: 3, Command: playResume})
	if f := next(); f.Time <= first.Time {
		t.Errorf("after resume %d", f.Time)
	}
	target := start.Add(30*time.Minute + 700*time.Millisecond)
	send(jt808.PlaybackControl{Channel: 3, Command: playSeek, Position: target})
	var f jt1078.Frame
	for f = next(); f.Time < uint64(start.Add(time.Minute).UnixMilli()); f = next() {
	}
	if !f.Key() || f.Time != uint64(target.Truncate(time.Second).UnixMilli()) {
		t.Errorf("after the seek: key %v at %d, want %d", f.Key(), f.Time, target.Truncate(time.Second).UnixMilli())
	}
	// the time 2 s of recording take to arrive at 1× and at 4× (compared, not asserted against the clock)
	span := func() time.Duration {
		t0, w0 := next().Time, time.Now()
		for next().Time-t0 < 2000 {
		}
		return time.Since(w0)
	}
	at1 := span()
	send(jt808.PlaybackControl{Channel: 3, Command: playSpeed, Speed: 3})
	if at4 := span(); at4 > at1*3/4 {
		t.Errorf("2 s of recording took %v at 4x, %v at 1x", at4, at1)
	}
	send(jt808.PlaybackControl{Channel: 3, Command: playSeek, Position: end.Add(-time.Second)})
	for f := range frames {
		if f.Time > uint64(end.UnixMilli()) {
			t.Fatalf("a picture at %d after the end", f.Time)
		}
	}
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
}

// TestPlaybackAudio: a recording asked with its audio brings the sound with the pictures at 1× — G.711
// of each picture's length, or AAC frames of a terminal that sends AAC, on the recording's time — and
// none at 4×.
func TestPlaybackAudio(t *testing.T) {
	start := time.Date(2026, 11, 26, 8, 0, 0, 0, jt808.CST)
	sim, _ := jt808.ParsePhone("013800000001")
	for _, c := range []struct {
		name  string
		speed int
		aac   bool
		pt    uint8
	}{{"G.711", 1, false, jt1078.PTG711A}, {"AAC", 1, true, jt1078.PTAAC}, {"4×", 4, false, 0}} {
		t.Run(c.name, func(t *testing.T) {
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			defer ln.Close()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			// 2 s of recording: at 4× it arrives in half a second, at 1× in two
			go func() {
				_ = streamRecording(ctx, nil, make(chan playCmd), ln.Addr().String(), sim, 1, jt1078.Edition2016, start, start.Add(2*time.Second), c.speed, true, c.aac)
			}()
			conn, err := ln.Accept()
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			_ = conn.SetReadDeadline(time.Now().Add(20 * time.Second))
			var sp jt1078.Splitter
			var asm jt1078.Assembler
			var out []jt1078.Frame
			buf := make([]byte, 8192)
			pics, audio := 0, 0
			var lastAudio uint64
			for {
				n, err := conn.Read(buf)
				if err != nil {
					break // the end of the range closes the connection
				}
				sp.Write(buf[:n])
				for p, ok := sp.Next(); ok; p, ok = sp.Next() {
					for _, f := range asm.Push(out[:0], p) {
						switch {
						case f.Type.IsVideo():
							pics++
						case f.PT != c.pt:
							t.Fatalf("audio of type %d", f.PT)
						default:
							audio++
							if f.Time < uint64(start.UnixMilli()) || f.Time <= lastAudio && lastAudio != 0 {
								t.Errorf("audio at %d after %d", f.Time, lastAudio)
							}
							lastAudio = f.Time
						}
					}
				}
			}
			want := map[uint8]int{jt1078.PTG711A: 50, jt1078.PTAAC: 16, 0: 0}[c.pt]
			if pics != 50 || audio != want {
				t.Errorf("%d pictures, %d audio frames; want 50 and %d", pics, audio, want)
			}
		})
	}
}
