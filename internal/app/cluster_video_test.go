package app_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/platform/config"
	"tankwatch/internal/tank/calib"
	"tankwatch/internal/video"
)

// TestVideoOtherNode: a console on node B watches, lists and replays the cameras of a truck whose
// terminal is connected to node A, and reads its calibration. The signalling goes through A's session
// (D87's forwarded commands); the terminal sends its media to B's 1078 port, given in the request, and
// B relays it. Before, B answered that the truck was offline.
func TestVideoOtherNode(t *testing.T) {
	if testing.Short() {
		t.Skip("drives a terminal and its video across two nodes")
	}
	t.Parallel()
	cl := newCluster(t, "twv")
	cfg := config.Config{JT1078: "127.0.0.1:0", VideoLinger: 5 * time.Second}
	a, b := cl.node("a", cfg), cl.node("b", cfg)
	adminA, adminB := a.Login("admin", "admin123"), b.Login("admin", "admin123")
	term := a.DemoTerminal(adminA)
	car := *term.CarID
	a.Drive(t, term.ID)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	waitFor(t, "B to know the terminal is live on A", func() bool { return b.App.Devices.Gateway.Reachable(ctx, term.ID) })
	if b.App.Devices.Gateway.Online(term.ID) {
		t.Fatal("the terminal has a session on B")
	}

	// live: the pictures come to B's socket from B's relay
	var s video.StreamView
	b.MustOK("GET", fmt.Sprintf("/base-info-app/carInfo/doVisual?carId=%d&channelNo=1", car), adminB, nil).Decode(&s)
	live := relayedBy(t, ctx, b, a, s.FLVURL, adminB)
	defer live.c.CloseNow()

	// the recordings are listed through A (the sub-packaged 0x1205 comes back over the bus) and one
	// plays on B
	now := time.Now()
	var recs []video.Recording
	b.MustOK("POST", "/base-info-app/carInfo/historyVideoByTime", adminB, map[string]any{"carId": car, "channelNo": 2,
		"startTime": shanghai(now.Add(-3 * time.Hour)), "endTime": shanghai(now.Add(3 * time.Hour))}).Decode(&recs)
	if len(recs) == 0 || recs[0].ChannelNo != 2 {
		t.Fatalf("recordings of channel 2 listed on B: %+v", recs)
	}
	var pv video.ReplayView
	b.MustOK("GET", fmt.Sprintf("/base-info-app/carInfo/historyVideo?carId=%d&channelNo=2&startTime=%d&endTime=%d", car,
		recs[0].StartTime, recs[0].EndTime), adminB, nil).Decode(&pv)
	replay := dialFLV(t, ctx, b, pv.FLVURL, adminB)
	defer replay.c.CloseNow()
	replay.readVideo(t, ctx, 3)

	// calibration on B sees the terminal as reachable and reads it through A
	var vals calib.Values
	b.MustOK("POST", "/monitor-app/parameter/values", adminB, map[string]any{"carId": car}).Decode(&vals)
	if !vals.Online {
		t.Fatalf("calibration on B: the truck on A counts as offline: %+v", vals)
	}
	var v calib.CommandView
	b.MustOK("POST", "/monitor-app/parameter/read", adminB, map[string]any{"carId": car}).Decode(&v)
	waitFor(t, "the read through A to finish", func() bool {
		b.MustOK("GET", fmt.Sprintf("/monitor-app/parameter/command?id=%d", v.ID), adminB, nil).Decode(&v)
		return v.Final
	})
	if v.State != calib.StateAcknowledged {
		t.Errorf("calibration read from B: %+v", v)
	}
}

// relayedBy watches the live stream at url on node on, which asked for it, until its first pictures:
// they start at a key frame and come through on's relay, none through other's, the node holding the
// terminal (D94, D118). The caller closes the viewer.
func relayedBy(t *testing.T, ctx context.Context, on, other *apptest.Env, url, token string) *flvViewer {
	t.Helper()
	v := dialFLV(t, ctx, on, url, token)
	v.readVideo(t, ctx, 3)
	if !v.startsAtKeyFrame() {
		t.Errorf("video tags on the asking node start %x", v.tags)
	}
	if n, _ := on.App.Devices.Video.Hub.Counts(); n != 1 {
		t.Errorf("the asking node's relay holds %d streams, want 1", n)
	}
	if n, _ := other.App.Devices.Video.Hub.Counts(); n != 0 {
		t.Errorf("the holding node's relay holds %d streams, want 0: the media should go to the node that asked", n)
	}
	return v
}
