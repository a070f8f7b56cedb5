package app_test

import (
	"context"
	"encoding/binary"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/platform/config"
	"tankwatch/internal/video"
)

// TestLiveVideoAAC: demo terminal 7 sends AAC audio (the simulator's AAC variant). The FLV a browser
// receives names an audio track in its header and carries the AAC AudioSpecificConfig and raw AAC
// frames among the pictures, on one timeline from 0 (mpegts.js plays both, jt1078-facts.md).
func TestLiveVideoAAC(t *testing.T) {
	if testing.Short() {
		t.Skip("drives a terminal and its video over TCP")
	}
	t.Parallel()
	e := apptest.New(t, "sqlite", config.Config{Demo: true, JT808: "127.0.0.1:0", JT1078: "127.0.0.1:0", Theme: "tankcar",
		VideoLinger: 5 * time.Second})
	if err := e.App.StartDevices(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(e.App.StopDevices)
	admin := e.Login("admin", "admin123")
	carID := driveDemo(t, e, admin, 7)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	var s video.StreamView
	e.MustOK("GET", fmt.Sprintf("/base-info-app/carInfo/doVisual?carId=%d&channelNo=1", carID), admin, nil).Decode(&s)
	c, res, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(e.Srv.URL, "http")+s.FLVURL+"?token="+admin, nil)
	if err != nil {
		t.Fatalf("dial: %v (%v)", err, res)
	}
	defer c.CloseNow()
	c.SetReadLimit(4 << 20)
	_, h, err := c.Read(ctx)
	if err != nil || len(h) != 13 || string(h[:3]) != "FLV" || h[4] != 5 {
		t.Fatalf("FLV header %x (want audio and video flags): %v", h, err)
	}
	var (
		pictures, aacFrames int
		config              []byte
		lastVideo, lastAAC  uint32
	)
	for pictures < 30 || aacFrames < 8 {
		_, b, err := c.Read(ctx)
		if err != nil {
			t.Fatalf("after %d pictures and %d AAC frames: %v", pictures, aacFrames, err)
		}
		for len(b) >= 15 {
			size := int(b[1])<<16 | int(b[2])<<8 | int(b[3])
			if len(b) < 11+size+4 || binary.BigEndian.Uint32(b[11+size:]) != uint32(11+size) || size < 2 {
				t.Fatalf("malformed FLV tag in a message of %d bytes", len(b))
			}
			ts := uint32(b[4])<<16 | uint32(b[5])<<8 | uint32(b[6]) | uint32(b[7])<<24
			body := b[11 : 11+size]
			switch {
			case b[0] == 9 && body[1] == 1:
				pictures++
				lastVideo = ts
			case b[0] == 8 && body[0] == 0xaf && body[1] == 0:
				if pictures == 0 {
					t.Error("the AAC configuration came before the first picture")
				}
				config = append([]byte(nil), body[2:]...)
			case b[0] == 8 && body[0] == 0xaf && body[1] == 1:
				if config == nil {
					t.Fatal("an AAC frame before its AudioSpecificConfig")
				}
				aacFrames++
				lastAAC = ts
			case b[0] == 8:
				t.Fatalf("an audio tag that is not AAC: %x", body[:2])
			}
			b = b[11+size+4:]
		}
	}
	// AAC LC (2), 8 kHz (index 11), mono: 0x15 0x88
	if string(config) != "\x15\x88" {
		t.Errorf("AudioSpecificConfig %x", config)
	}
	// one timeline: the audio is never more than a second from the pictures
	if d := int64(lastVideo) - int64(lastAAC); d > 1000 || d < -1000 {
		t.Errorf("last picture at %d ms, last AAC frame at %d ms", lastVideo, lastAAC)
	}
}
