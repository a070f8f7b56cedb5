package video

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"tankwatch/internal/jt1078"
	"tankwatch/internal/jt1078/flv"
	"tankwatch/internal/jt1078/relay"
)

func TestStreamFLVAndG711(t *testing.T) {
	hub := relay.New(relay.Config{})
	vv, _ := hub.Watch("s")
	va, _ := hub.Watch("s")
	s := hub.Stream("s")
	sps := []byte{0, 0, 0, 1, 0x67, 0x42, 0xc0, 0x1e, 0xda}
	pps := []byte{0, 0, 0, 1, 0x68, 0xce, 0x3c, 0x80}
	idr := []byte{0, 0, 0, 1, 0x65, 0x88, 0x84}
	s.Publish(jt1078.Frame{Type: jt1078.VideoI, PT: jt1078.PTH264, Time: 1000, Data: bytes.Join([][]byte{sps, pps, idr}, nil)})
	s.Publish(jt1078.Frame{Type: jt1078.Audio, PT: jt1078.PTG711A, Time: 1000, Data: []byte{0xd5, 0xd5}})
	s.Publish(jt1078.Frame{Type: jt1078.VideoP, PT: jt1078.PTH264, Time: 1040, Data: []byte{0, 0, 1, 0x41, 1}})
	hub.End("s") // the queues close after what is in them

	var msgs [][]byte
	rec := func(_ context.Context, b []byte) error { msgs = append(msgs, bytes.Clone(b)); return nil }
	if err := StreamFLV(context.Background(), rec, vv, false); err != nil {
		t.Fatal(err)
	}
	// header, key frame (sequence header + picture), P-frame
	if len(msgs) != 3 || !bytes.Equal(msgs[0], flv.Header(true, false)) || msgs[1][0] != 9 || msgs[2][11] != 0x27 {
		t.Fatalf("%d messages", len(msgs))
	}
	msgs = nil
	if err := StreamG711(context.Background(), rec, va); err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 1 || !bytes.Equal(msgs[0], []byte{6, 0xd5, 0xd5}) {
		t.Fatalf("audio messages %X", msgs)
	}

	h2, _ := hub.Watch("h265")
	hub.Stream("h265").Publish(jt1078.Frame{Type: jt1078.VideoI, PT: jt1078.PTH265, Data: []byte{0, 0, 0, 1, 0x40}})
	if err := StreamFLV(context.Background(), rec, h2, false); !errors.Is(err, ErrH265) {
		t.Errorf("H.265: %v", err)
	}
}

var (
	testKey = bytes.Join([][]byte{{0, 0, 0, 1, 0x67, 0x42, 0xc0, 0x1e, 0xda}, {0, 0, 0, 1, 0x68, 0xce, 0x3c, 0x80}, {0, 0, 0, 1, 0x65, 0x88, 0x84}}, nil)
	testPic = []byte{0, 0, 1, 0x41, 1}
)

// adts is one ADTS frame: AAC LC, 8 kHz, mono.
func adts(payload ...byte) []byte {
	n := 7 + len(payload)
	return append([]byte{0xff, 0xf1, 1<<6 | 11<<2, 1<<6 | byte(n>>11), byte(n >> 3), byte(n<<5) | 0x1f, 0xfc}, payload...)
}

// flvTags reads the (type, timestamp, first body bytes) of the tags in messages after the header.
func flvTags(t *testing.T, msgs [][]byte) (types []byte, times []uint32, bodies [][]byte) {
	t.Helper()
	b := bytes.Join(msgs[1:], nil)
	for len(b) > 0 {
		if len(b) < 15 {
			t.Fatalf("%d stray bytes", len(b))
		}
		n := int(b[1])<<16 | int(b[2])<<8 | int(b[3])
		types = append(types, b[0])
		times = append(times, uint32(b[4])<<16|uint32(b[5])<<8|uint32(b[6])|uint32(b[7])<<24)
		bodies = append(bodies, b[11:11+n])
		b = b[15+n:]
	}
	return types, times, bodies
}

// TestStreamFLVKeepsAAC: a device sending AAC gets an FLV whose header names an audio track and which
// carries the AudioSpecificConfig and the raw AAC frames on the video's timeline.
func TestStreamFLVKeepsAAC(t *testing.T) {
	hub := relay.New(relay.Config{})
	v, _ := hub.Watch("s")
	s := hub.Stream("s")
	// the first picture comes before any audio, as devices do: the header waits for the audio
	s.Publish(jt1078.Frame{Type: jt1078.VideoI, PT: jt1078.PTH264, Time: 5000, Data: testKey})
	s.Publish(jt1078.Frame{Type: jt1078.Audio, PT: jt1078.PTAAC, Time: 5000, Data: append(adts(1, 2), adts(3)...)})
	s.Publish(jt1078.Frame{Type: jt1078.VideoP, PT: jt1078.PTH264, Time: 5040, Data: testPic})
	s.Publish(jt1078.Frame{Type: jt1078.Audio, PT: jt1078.PTAAC, Time: 5128, Data: adts(4)})
	hub.End("s")
	var msgs [][]byte
	rec := func(_ context.Context, b []byte) error { msgs = append(msgs, bytes.Clone(b)); return nil }
	if err := StreamFLV(context.Background(), rec, v, false); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(msgs[0], flv.Header(true, true)) {
		t.Fatalf("header %X", msgs[0])
	}
	types, times, bodies := flvTags(t, msgs)
	// video sequence header, key frame, AAC config, two AAC frames, P-frame, AAC frame
	want := []byte{flv.TagVideo, flv.TagVideo, flv.TagAudio, flv.TagAudio, flv.TagAudio, flv.TagVideo, flv.TagAudio}
	if !bytes.Equal(types, want) {
		t.Fatalf("tag types %v", types)
	}
	if !bytes.Equal(bodies[2], []byte{0xaf, 0, 0x15, 0x88}) || !bytes.Equal(bodies[3], []byte{0xaf, 1, 1, 2}) || !bytes.Equal(bodies[6], []byte{0xaf, 1, 4}) {
		t.Errorf("AAC tags %X", bodies)
	}
	if times[1] != 0 || times[3] != 0 || times[5] != 40 || times[6] != 128 {
		t.Errorf("timestamps %v: audio and video on one timeline from 0", times)
	}
}

// TestStreamFLVVideoOnly: a stream whose audio is unknown gets a video-only header after audioWait, and
// one known to be video-only (a second of video, no audio) at once.
func TestStreamFLVVideoOnly(t *testing.T) {
	hub := relay.New(relay.Config{})
	v, _ := hub.Watch("s")
	s := hub.Stream("s")
	s.Publish(jt1078.Frame{Type: jt1078.VideoI, PT: jt1078.PTH264, Time: 1000, Data: testKey})
	got := make(chan []byte, 16)
	rec := func(_ context.Context, b []byte) error { got <- bytes.Clone(b); return nil }
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- StreamFLV(ctx, rec, v, false) }()
	if h := <-got; !bytes.Equal(h, flv.Header(true, false)) { // after audioWait, nothing else having come
		t.Fatalf("header %X", h)
	}
	if k := <-got; k[0] != flv.TagVideo {
		t.Fatalf("first tag %X", k[:1])
	}
	cancel()
	<-done

	// a late viewer of a stream that has sent a second of video and no audio: no wait
	for i := range videoOnlyFrames {
		s.Publish(jt1078.Frame{Type: jt1078.VideoP, PT: jt1078.PTH264, Time: uint64(1040 + 40*i), Data: testPic})
	}
	if pt, known := s.Audio(); !known || pt != 0 {
		t.Fatalf("audio %d known %v after a second of video", pt, known)
	}
	s.Publish(jt1078.Frame{Type: jt1078.VideoI, PT: jt1078.PTH264, Time: 3000, Data: testKey})
	v2, _ := hub.Join("s")
	hub.End("s")
	var msgs [][]byte
	if err := StreamFLV(context.Background(), func(_ context.Context, b []byte) error { msgs = append(msgs, bytes.Clone(b)); return nil }, v2, false); err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 2 || !bytes.Equal(msgs[0], flv.Header(true, false)) {
		t.Fatalf("%d messages", len(msgs))
	}
}

const videoOnlyFrames = 25
