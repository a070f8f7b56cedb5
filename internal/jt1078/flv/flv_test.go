package flv

import (
	"bytes"
	"encoding/binary"
	"errors"
	"testing"

	"tankwatch/internal/jt1078"
)

type tag struct {
	typ  byte
	ts   uint32
	data []byte
}

// readTags parses an FLV body (after the header) back into tags, checking every PreviousTagSize.
func readTags(t *testing.T, b []byte) []tag {
	t.Helper()
	var out []tag
	for len(b) > 0 {
		if len(b) < 15 {
			t.Fatalf("%d stray bytes", len(b))
		}
		n := int(b[1])<<16 | int(b[2])<<8 | int(b[3])
		ts := uint32(b[4])<<16 | uint32(b[5])<<8 | uint32(b[6]) | uint32(b[7])<<24
		if len(b) < 11+n+4 {
			t.Fatalf("tag of %d bytes cut", n)
		}
		if prev := binary.BigEndian.Uint32(b[11+n:]); prev != uint32(11+n) {
			t.Fatalf("PreviousTagSize %d, want %d", prev, 11+n)
		}
		out = append(out, tag{b[0], ts, b[11 : 11+n]})
		b = b[15+n:]
	}
	return out
}

var (
	sps = []byte{0x67, 0x42, 0xc0, 0x1e, 0xda, 0x02, 0x80}
	pps = []byte{0x68, 0xce, 0x3c, 0x80}
	idr = []byte{0x65, 0x88, 0x84, 0x00, 0x33}
	pic = []byte{0x41, 0x9a, 0x02, 0x03}
)

func annexB(nals ...[]byte) []byte {
	var b []byte
	for i, n := range nals {
		if i%2 == 0 {
			b = append(b, 0, 0, 0, 1)
		} else {
			b = append(b, 0, 0, 1)
		}
		b = append(b, n...)
	}
	return b
}

func TestSplitAnnexB(t *testing.T) {
	got := SplitAnnexB(append([]byte{9, 9}, annexB(sps, pps, idr)...))
	if len(got) != 3 || !bytes.Equal(got[0], sps) || !bytes.Equal(got[1], pps) || !bytes.Equal(got[2], idr) {
		t.Fatalf("%X", got)
	}
	if got := SplitAnnexB([]byte{1, 2, 3}); len(got) != 0 {
		t.Errorf("no start code: %X", got)
	}
}

func TestVideo(t *testing.T) {
	var m Muxer
	frame := func(ms uint64, nals ...[]byte) jt1078.Frame {
		return jt1078.Frame{PT: jt1078.PTH264, Type: jt1078.VideoP, Time: ms, Data: annexB(nals...)}
	}
	// a P-frame before any key frame: nothing, the viewer waits
	out, err := m.Video(nil, frame(960, pic))
	if !errors.Is(err, ErrNoConfig) || len(out) != 0 {
		t.Fatalf("P before I: %v, %d bytes", err, len(out))
	}
	out, err = m.Video(out, frame(1000, []byte{0x09, 0xf0}, sps, pps, idr))
	if err != nil {
		t.Fatal(err)
	}
	out, _ = m.Video(out, frame(1040, pic))
	out, _ = m.Video(out, frame(1020, pic))    // the device's clock goes back
	out, _ = m.Video(out, frame(900_000, pic)) // and jumps
	tags := readTags(t, out)
	if len(tags) != 5 {
		t.Fatalf("%d tags", len(tags))
	}
	cfg, _ := AVCConfig(sps, pps)
	if h := tags[0]; h.typ != TagVideo || h.ts != 0 || !bytes.Equal(h.data, append([]byte{0x17, 0, 0, 0, 0}, cfg...)) {
		t.Errorf("sequence header %+v", h)
	}
	if !bytes.Equal(cfg[:6], []byte{1, 0x42, 0xc0, 0x1e, 0xff, 0xe1}) {
		t.Errorf("AVC config %X", cfg)
	}
	want := append([]byte{0x17, 1, 0, 0, 0, 0, 0, 0, byte(len(idr))}, idr...) // AUD, SPS and PPS left out
	if k := tags[1]; k.ts != 0 || !bytes.Equal(k.data, want) {
		t.Errorf("key frame %X", k.data)
	}
	for i, ts := range []uint32{40, 41, 42} {
		if tg := tags[2+i]; tg.ts != ts || tg.data[0] != 0x27 {
			t.Errorf("frame %d: ts %d, first byte %X; want %d", i, tg.ts, tg.data[0], ts)
		}
	}
	// new parameter sets: a new sequence header before the next key frame
	sps2 := append(bytes.Clone(sps), 0x10)
	out, _ = m.Video(nil, frame(900_040, sps2, pps, idr))
	if tags := readTags(t, out); len(tags) != 2 || tags[0].data[1] != 0 || tags[1].data[0] != 0x17 {
		t.Errorf("after an SPS change: %d tags", len(tags))
	}
	if _, err := m.Video(nil, jt1078.Frame{PT: jt1078.PTH265, Data: annexB(idr)}); !errors.Is(err, ErrCodec) {
		t.Errorf("H.265: %v", err)
	}
}

func TestAudio(t *testing.T) {
	// two ADTS frames: AAC LC, 8 kHz (index 11), mono
	adts := func(payload []byte) []byte {
		n := 7 + len(payload)
		h := []byte{0xff, 0xf1, 1<<6 | 11<<2, 1<<6 | byte(n>>11), byte(n >> 3), byte(n<<5) | 0x1f, 0xfc}
		return append(h, payload...)
	}
	data := append(adts([]byte{1, 2, 3}), adts([]byte{4, 5})...)
	got, err := SplitADTS(data)
	if err != nil || len(got) != 2 || !bytes.Equal(got[1].Raw, []byte{4, 5}) || !bytes.Equal(got[0].Config, []byte{0x15, 0x88}) {
		t.Fatalf("%+v %v", got, err)
	}
	if _, err := SplitADTS([]byte{0xff, 0xf1, 0, 0, 0xff, 0xff, 0}); !errors.Is(err, ErrADTS) {
		t.Errorf("a lying length: %v", err)
	}
	var m Muxer
	aac := jt1078.Frame{PT: jt1078.PTAAC, Type: jt1078.Audio, Time: 1000, Data: data}
	if out, err := m.Audio(nil, aac); err != nil || len(out) != 0 {
		t.Fatalf("audio before the first picture: %d bytes, %v", len(out), err)
	}
	out, _ := m.Video(nil, jt1078.Frame{PT: jt1078.PTH264, Time: 1000, Data: annexB(sps, pps, idr)})
	out, err = m.Audio(out, aac)
	if err != nil {
		t.Fatal(err)
	}
	tags := readTags(t, out)
	if len(tags) != 5 || tags[2].typ != TagAudio || !bytes.Equal(tags[2].data, []byte{0xaf, 0, 0x15, 0x88}) || !bytes.Equal(tags[4].data, []byte{0xaf, 1, 4, 5}) {
		t.Fatalf("%+v", tags)
	}
	if _, err := m.Audio(nil, jt1078.Frame{PT: jt1078.PTG711A, Data: []byte{0xd5}}); !errors.Is(err, ErrCodec) {
		t.Errorf("G.711 in FLV: %v", err)
	}
}

func TestHeader(t *testing.T) {
	if h := Header(true, false); !bytes.Equal(h, []byte{'F', 'L', 'V', 1, 1, 0, 0, 0, 9, 0, 0, 0, 0}) {
		t.Errorf("%X", h)
	}
}
