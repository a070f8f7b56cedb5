package app_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/platform/config"
	"tankwatch/internal/video"
)

// TestLiveVideoUDP: with --jt1078-transport udp, 0x9101 tells the simulated terminal the UDP port (on
// the TCP listener's port number), it streams datagrams over real UDP, and the browser's FLV socket
// starts at a key frame as over TCP; /metrics counts the datagrams.
func TestLiveVideoUDP(t *testing.T) {
	if testing.Short() {
		t.Skip("drives a terminal and its video over UDP")
	}
	t.Parallel()
	e := apptest.New(t, "sqlite", config.Config{Demo: true, JT808: "127.0.0.1:0", JT1078: "127.0.0.1:0", JT1078Via: "udp", Theme: "tankcar",
		VideoLinger: 5 * time.Second})
	if err := e.App.StartDevices(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(e.App.StopDevices)
	admin := e.Login("admin", "admin123")
	term := e.DemoTerminal(admin)
	e.Drive(t, term.ID)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var s video.StreamView
	e.MustOK("GET", fmt.Sprintf("/base-info-app/carInfo/doVisual?carId=%d&channelNo=2", *term.CarID), admin, nil).Decode(&s)
	v := dialFLV(t, ctx, e, s.FLVURL, admin)
	defer v.c.CloseNow()
	v.readVideo(t, ctx, 30)
	if !v.startsAtKeyFrame() {
		t.Errorf("video tags start %x", v.tags)
	}
	st := &e.App.Devices.Video.Stats
	if st.Datagrams.Load() < 30 || st.Strangers.Load() != 0 || st.Conns.Load() != 1 {
		t.Errorf("%d datagrams, %d strangers, %d flows", st.Datagrams.Load(), st.Strangers.Load(), st.Conns.Load())
	}
	if m := e.Call("GET", "/metrics", admin, nil); !strings.Contains(string(m.Body), "tankwatch_video_udp_datagrams_total") {
		t.Error("/metrics lacks the UDP datagrams")
	}
	apptest.WaitFor(t, "the stream listed as receiving", func() bool {
		var list []video.StreamView
		e.MustOK("POST", "/base-info-app/carInfo/reportLiveVideos", admin, map[string]any{}).Decode(&list)
		return len(list) == 1 && list[0].Receiving
	})
}
