package jt1078

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"tankwatch/internal/jt808"
)

// stream encodes frames as packets (sizes as a device cuts them) and returns the bytes and the frames.
func stream(t testing.TB, e Edition, frames []Frame) []byte {
	t.Helper()
	var out []byte
	var seq uint16 = 100
	for _, f := range frames {
		var ps []Packet
		ps, seq = Packetize(nil, f, e, seq, 0, 0, 40)
		for _, p := range ps {
			var err error
			if out, err = Append(out, p); err != nil {
				t.Fatal(err)
			}
		}
	}
	return out
}

func testFrames(sim string, n int) []Frame {
	r := rand.New(rand.NewPCG(1, 2))
	var fs []Frame
	for i := range n {
		size := 200 + r.IntN(4000)
		if i%5 == 0 {
			size = 9000
		}
		data := make([]byte, size)
		for j := range data {
			data[j] = byte(r.IntN(256))
		}
		copy(data, []byte{0, 0, 0, 1})
		ty := VideoP
		if i%5 == 0 {
			ty = VideoI
		}
		fs = append(fs, Frame{SIM: jt808.MustPhone(sim), Channel: 1, Type: ty, PT: PTH264, Time: uint64(1000 + 40*i), Data: data})
		// an audio frame between video frames, with the Hisilicon prefix
		a := append([]byte{0, 1, 80, 0}, bytes.Repeat([]byte{0xD5}, 160)...)
		fs = append(fs, Frame{SIM: jt808.MustPhone(sim), Channel: 1, Type: Audio, PT: PTG711A, Time: uint64(1000 + 40*i), Data: a})
	}
	return fs
}

// run feeds b to a splitter and an assembler in chunks of the given sizes and returns the frames.
func run(t testing.TB, b []byte, chunk func() int) ([]Frame, *Splitter, *Assembler) {
	t.Helper()
	var s Splitter
	var a Assembler
	var out []Frame
	for len(b) > 0 {
		n := min(chunk(), len(b))
		s.Write(b[:n])
		b = b[n:]
		for {
			p, ok := s.Next()
			if !ok {
				break
			}
			out = a.Push(out, p)
		}
		if s.Buffered() > 3*maxPacket+n {
			t.Fatalf("splitter holds %d bytes", s.Buffered())
		}
	}
	for {
		p, ok := s.Flush()
		if !ok {
			break
		}
		out = a.Push(out, p)
	}
	return out, &s, &a
}

func sameFrames(t *testing.T, got, want []Frame) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d frames, want %d", len(got), len(want))
	}
	for i := range want {
		w := want[i]
		if w.Type == Audio {
			w.Data = stripHisi(w.Data)
		}
		g := got[i]
		if g.Type != w.Type || g.Time != w.Time || g.PT != w.PT || g.SIM != w.SIM || g.Gap || !bytes.Equal(g.Data, w.Data) {
			t.Fatalf("frame %d: type %d time %d %d bytes gap %v, want type %d time %d %d bytes", i, g.Type, g.Time, len(g.Data), g.Gap, w.Type, w.Time, len(w.Data))
		}
	}
}

func TestStreamBothEditionsAnyChunking(t *testing.T) {
	for _, e := range []Edition{Edition2016, Edition2019} {
		frames := testFrames("13912345678", 30)
		b := stream(t, e, frames)
		r := rand.New(rand.NewPCG(3, 4))
		for name, chunk := range map[string]func() int{
			"whole":          func() int { return len(b) },
			"one byte":       func() int { return 1 },
			"random":         func() int { return 1 + r.IntN(3000) },
			"4 KiB (a read)": func() int { return 4096 },
		} {
			got, s, a := run(t, b, chunk)
			sameFrames(t, got, frames)
			if s.Edition() != e || s.Skipped != 0 || a.Dropped != 0 {
				t.Errorf("%s %s: edition %s, skipped %d, dropped %d", e, name, s.Edition(), s.Skipped, a.Dropped)
			}
		}
	}
}

func TestStreamResynchronises(t *testing.T) {
	frames := testFrames("13912345678", 10)
	b := stream(t, Edition2019, frames)
	// garbage before the stream, a partial magic, and a packet whose declared length lies
	dirty := append([]byte("GET / HTTP/1.1\r\n\x30\x31\x63"), b...)
	got, s, _ := run(t, dirty, func() int { return 700 })
	sameFrames(t, got, frames)
	if s.Skipped != 19 {
		t.Errorf("skipped %d bytes, want 19", s.Skipped)
	}

	// corrupt one packet's length in the middle of frame 4 (an I-frame of 9000 bytes): that frame is
	// lost, the next video frame says so, and everything else arrives
	var ps []Packet
	var seq uint16
	for _, f := range frames {
		ps, seq = Packetize(ps, f, Edition2016, seq, 0, 0, 40)
	}
	var raw []byte
	var cut int
	for i, p := range ps {
		start := len(raw)
		raw, _ = Append(raw, p)
		if p.Time == 1000+40*4 && p.Type == VideoP && p.Sub == SubMiddle && cut == 0 {
			cut = i
			raw[start+HeaderLen(Edition2016, p.Type)-1] ^= 0x40 // the body length, low byte
		}
	}
	if cut == 0 {
		t.Fatal("no packet to corrupt")
	}
	got, s, a := run(t, raw, func() int { return 1000 })
	if s.Resyncs == 0 || a.Dropped == 0 {
		t.Errorf("resyncs %d, dropped %d", s.Resyncs, a.Dropped)
	}
	var video []Frame
	for _, f := range got {
		if f.Type.IsVideo() {
			video = append(video, f)
		}
	}
	if len(video) != 9 || !video[4].Gap || video[4].Time != 1000+40*5 || video[3].Gap {
		t.Fatalf("%d video frames; the one after the lost frame: %+v", len(video), video[4].Time)
	}
}

func TestStreamChangesEdition(t *testing.T) {
	a := testFrames("13912345678", 3)
	b := testFrames("13912345678", 3)
	for i := range b {
		b[i].Time += 10_000
	}
	raw := append(stream(t, Edition2016, a), stream(t, Edition2019, b)...)
	got, s, _ := run(t, raw, func() int { return 512 })
	if len(got) != 12 || s.Edition() != Edition2019 {
		t.Fatalf("%d frames, edition %s", len(got), s.Edition())
	}
}

func TestAssemblerDoesNotTrustFlags(t *testing.T) {
	sim := jt808.MustPhone("1")
	pk := func(seq uint16, ty DataType, sub uint8, tm uint64, body ...byte) Packet {
		return Packet{PT: PTH264, Seq: seq, SIM: sim, Channel: 1, Type: ty, Sub: sub, Time: tm, Body: body}
	}
	for _, c := range []struct {
		name string
		in   []Packet
		want []string // "time:bytes[:gap]"
	}{
		{"first, middle, last", []Packet{pk(1, VideoI, SubFirst, 0, 0, 0, 0, 1, 7), pk(2, VideoI, SubMiddle, 0, 2), pk(3, VideoI, SubLast, 0, 3)}, []string{"0:7"}},
		{"no last: the next frame's first closes it", []Packet{pk(1, VideoI, SubFirst, 0, 0, 0, 1), pk(2, VideoI, SubMiddle, 0, 2), pk(3, VideoP, SubFirst, 40, 0, 0, 1), pk(4, VideoP, SubLast, 40, 5)}, []string{"0:4", "40:4"}},
		{"a timestamp change closes a frame", []Packet{pk(1, VideoP, SubFirst, 0, 0, 0, 1), pk(2, VideoP, SubMiddle, 40, 0, 0, 1, 9), pk(3, VideoP, SubLast, 40, 5)}, []string{"0:3", "40:5"}},
		{"the first is lost: dropped, the next says gap", []Packet{pk(2, VideoP, SubMiddle, 0, 2), pk(3, VideoP, SubLast, 0, 3), pk(4, VideoP, SubAtomic, 40, 0, 0, 1)}, []string{"40:3:gap"}},
		{"a middle is lost: dropped", []Packet{pk(1, VideoI, SubFirst, 0, 0, 0, 1), pk(3, VideoI, SubLast, 0, 3), pk(4, VideoP, SubAtomic, 40, 0, 0, 1)}, []string{"40:3:gap"}},
		{"a gap between frames: the next says gap", []Packet{pk(1, VideoP, SubAtomic, 0, 0, 0, 1), pk(5, VideoP, SubAtomic, 40, 0, 0, 1)}, []string{"0:3", "40:3:gap"}},
		{"wrapping sequence numbers", []Packet{pk(65535, VideoP, SubFirst, 0, 0, 0, 1), pk(0, VideoP, SubLast, 0, 1)}, []string{"0:4"}},
	} {
		var a Assembler
		var got []Frame
		for _, p := range c.in {
			got = a.Push(got, p)
		}
		var s []string
		for _, f := range got {
			x := fmtFrame(f)
			s = append(s, x)
		}
		if len(s) != len(c.want) {
			t.Errorf("%s: %v, want %v", c.name, s, c.want)
			continue
		}
		for i := range s {
			if s[i] != c.want[i] {
				t.Errorf("%s: %v, want %v", c.name, s, c.want)
				break
			}
		}
	}
}

func fmtFrame(f Frame) string {
	s := itoa(int(f.Time)) + ":" + itoa(len(f.Data))
	if f.Gap {
		s += ":gap"
	}
	return s
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

func TestAssemblerSharedCounterAndOversize(t *testing.T) {
	// one sequence counter for audio and video: interleaving is not a gap
	frames := testFrames("1", 5)
	var ps []Packet
	var seq uint16
	for _, f := range frames {
		ps, seq = Packetize(ps, f, Edition2016, seq, 0, 0, 0)
	}
	var a Assembler
	var got []Frame
	for _, p := range ps {
		got = a.Push(got, p)
	}
	sameFrames(t, got, frames)

	// a device that never ends a frame cannot grow memory
	b := Assembler{MaxFrame: 4000}
	var out []Frame
	for i := range 100 {
		out = b.Push(out, Packet{PT: PTH264, Seq: uint16(i), Type: VideoI, Sub: SubMiddle, Body: make([]byte, 900)})
		if st := b.parts[partKey{0, kindVideo}]; len(st.f.Data) > 4000 {
			t.Fatalf("frame grew to %d bytes", len(st.f.Data))
		}
	}
	if len(out) != 0 {
		t.Errorf("%d frames from a broken stream", len(out))
	}
}

func TestStripHisi(t *testing.T) {
	for _, c := range []struct {
		in   []byte
		want int
	}{
		{append([]byte{0, 1, 2, 0}, 1, 2, 3, 4), 4},
		{append([]byte{0, 1, 3, 0}, 1, 2, 3, 4), 8}, // length does not match: not a prefix
		{[]byte{0xD5, 0xD5}, 2},
		{nil, 0},
	} {
		if got := stripHisi(c.in); len(got) != c.want {
			t.Errorf("%X: %d bytes, want %d", c.in, len(got), c.want)
		}
	}
}
