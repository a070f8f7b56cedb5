package flv

import (
	"bytes"
	"os"
	"testing"

	"tankwatch/internal/jt1078"
	"tankwatch/internal/jt808"
)

// accessUnits cuts an Annex B stream into pictures: a picture starts at a parameter set, an SEI or an
// AUD before a slice, or at a slice that follows a slice (one slice per picture, as the fixture has).
func accessUnits(b []byte) [][]byte {
	var out [][]byte
	var cur []byte
	slice := false
	for _, n := range SplitAnnexB(b) {
		t := nalType(n)
		isSlice := t == nalIDR || t == nalNonIDR
		if slice && (isSlice || t == nalSPS || t == nalAUD || t == nalSEI) {
			out, cur, slice = append(out, cur), nil, false
		}
		cur = append(append(cur, 0, 0, 0, 1), n...)
		slice = slice || isSlice
	}
	return append(out, cur)
}

// TestRealClip takes ffmpeg's H.264 (constrained baseline 640×360, 25 fps, a key frame a second) and AAC
// fixtures through what a device and the server do: packets of 950 bytes in the 2019 edition, the
// splitter over uneven reads, the assembler, and the FLV muxer. (`ffprobe` on the written file, when
// TANKWATCH_FLV_OUT names one, reports 50 frames of 640×360 H.264 and the AAC track.)
func TestRealClip(t *testing.T) {
	h264, err := os.ReadFile("../testdata/clip.h264")
	if err != nil {
		t.Fatal(err)
	}
	aac, err := os.ReadFile("../testdata/clip.aac")
	if err != nil {
		t.Fatal(err)
	}
	pics := accessUnits(h264)
	if len(pics) != 50 {
		t.Fatalf("%d pictures in the fixture", len(pics))
	}
	adts, err := SplitADTS(aac)
	if err != nil || len(adts) < 10 {
		t.Fatalf("%d AAC frames: %v", len(adts), err)
	}
	sim := jt808.MustPhone("13800138000")
	var wire []byte
	var seq uint16
	aacAt := 0
	for i, p := range pics {
		ms := uint64(1_700_000_000_000 + 40*i)
		ty := jt1078.VideoP
		if bytes.Contains(p, []byte{0, 0, 0, 1, 0x65}) {
			ty = jt1078.VideoI
		}
		var ps []jt1078.Packet
		ps, seq = jt1078.Packetize(nil, jt1078.Frame{SIM: sim, Channel: 1, Type: ty, PT: jt1078.PTH264, Time: ms, Data: p}, jt1078.Edition2019, seq, 950, 0, 40)
		// the AAC frames due by this picture's time (1024 samples at 8 kHz = 128 ms each)
		for ; aacAt < len(adts) && uint64(aacAt*128) <= uint64(40*i); aacAt++ {
			raw := aac[:0:0]
			raw = append(raw, aacFrame(aac, aacAt)...)
			ps, seq = jt1078.Packetize(ps, jt1078.Frame{SIM: sim, Channel: 1, Type: jt1078.Audio, PT: jt1078.PTAAC, Time: 1_700_000_000_000 + uint64(aacAt*128), Data: raw}, jt1078.Edition2019, seq, 950, 0, 0)
		}
		for _, pk := range ps {
			wire, _ = jt1078.Append(wire, pk)
		}
	}

	var sp jt1078.Splitter
	var asm jt1078.Assembler
	var m Muxer
	out := Header(true, true)
	var frames []jt1078.Frame
	for len(wire) > 0 {
		n := min(1460, len(wire)) // a TCP segment at a time
		sp.Write(wire[:n])
		wire = wire[n:]
		for {
			p, ok := sp.Next()
			if !ok {
				break
			}
			for _, f := range asm.Push(frames[:0], p) {
				if f.Type.IsVideo() {
					out, err = m.Video(out, f)
				} else {
					out, err = m.Audio(out, f)
				}
				if err != nil {
					t.Fatalf("frame at %d: %v", f.Time, err)
				}
			}
		}
	}
	tags := readTags(t, out[13:])
	var video, keys, audio int
	var last uint32
	for _, tg := range tags {
		switch {
		case tg.typ == TagVideo && tg.data[1] == 1:
			video++
			if tg.data[0] == 0x17 {
				keys++
			}
			if tg.ts < last {
				t.Errorf("video time went back: %d after %d", tg.ts, last)
			}
			last = tg.ts
		case tg.typ == TagAudio && tg.data[1] == 1:
			audio++
		}
	}
	if video != 50 || keys != 2 || audio < 10 || last != 49*40 {
		t.Errorf("%d pictures (%d key), %d AAC frames, last picture at %d ms", video, keys, audio, last)
	}
	if sp.Skipped != 0 || asm.Dropped != 0 {
		t.Errorf("skipped %d bytes, dropped %d frames", sp.Skipped, asm.Dropped)
	}
	if name := os.Getenv("TANKWATCH_FLV_OUT"); name != "" {
		_ = os.WriteFile(name, out, 0o644)
	}
}

// aacFrame is the i-th ADTS frame of b, header included.
func aacFrame(b []byte, i int) []byte {
	for ; ; i-- {
		n := int(b[3]&3)<<11 | int(b[4])<<3 | int(b[5])>>5
		if i == 0 {
			return b[:n]
		}
		b = b[n:]
	}
}
