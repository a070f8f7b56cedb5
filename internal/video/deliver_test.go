package video

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"tankwatch/internal/jt1078"
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
	if err := StreamFLV(context.Background(), rec, vv, false, false); err != nil {
		t.Fatal(err)
	}
	// header, key frame (sequence header + picture), P-frame
	if len(msgs) != 3 || !bytes.HasPrefix(msgs[0], []byte("FLV")) || msgs[1][0] != 9 || msgs[2][11] != 0x27 {
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
	if err := StreamFLV(context.Background(), rec, h2, false, false); !errors.Is(err, ErrH265) {
		t.Errorf("H.265: %v", err)
	}
}
