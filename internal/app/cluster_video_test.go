package app_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/coder/websocket"

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
	a, b, _, adminB, car := videoNodes(t, "twv")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

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

// videoNodes starts nodes a and b with video on one bus (its subjects' prefix from prefix), signs in on
// both, and drives the demo terminal on a until b sees it reachable, never held by b.
func videoNodes(t *testing.T, prefix string) (a, b *apptest.Env, adminA, adminB string, car int64) {
	t.Helper()
	if testing.Short() {
		t.Skip("drives a terminal and its video across two nodes")
	}
	t.Parallel()
	cl := newCluster(t, prefix)
	cfg := config.Config{JT1078: "127.0.0.1:0", VideoLinger: 5 * time.Second}
	a, b = cl.node("a", cfg), cl.node("b", cfg)
	adminA, adminB = a.Login("admin", "admin123"), b.Login("admin", "admin123")
	term := a.DemoTerminal(adminA)
	a.Drive(t, term.ID)
	waitFor(t, "B to know the terminal is live on A", func() bool { return b.App.Devices.Gateway.Reachable(t.Context(), term.ID) })
	if b.App.Devices.Gateway.Online(term.ID) {
		t.Fatal("the terminal has a session on B")
	}
	return a, b, adminA, adminB, *term.CarID
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

// TestVideoSharedCamera: consoles on two nodes watch the same camera of a truck. The first node's
// request reaches the terminal (0x9101 with its media address); the second relays the first's stream,
// forwarded over the bus, and asks the terminal nothing (D119). The second keeps its pictures after
// the first's viewer has gone and the first's linger has passed; once it has no viewer either, the
// first closes the channel.
func TestVideoSharedCamera(t *testing.T) {
	a, b, adminA, adminB, car := videoNodes(t, "tws")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	va, vb := a.App.Devices.Video, b.App.Devices.Video
	var sa, sb video.StreamView
	a.MustOK("GET", fmt.Sprintf("/base-info-app/carInfo/doVisual?carId=%d&channelNo=1", car), adminA, nil).Decode(&sa)
	onA := dialFLV(t, ctx, a, sa.FLVURL, adminA)
	defer onA.c.CloseNow()
	onA.readVideo(t, ctx, 3)
	b.MustOK("GET", fmt.Sprintf("/base-info-app/carInfo/doVisual?carId=%d&channelNo=1", car), adminB, nil).Decode(&sb)
	onB := dialFLV(t, ctx, b, sb.FLVURL, adminB)
	defer onB.c.CloseNow()
	onB.readVideo(t, ctx, 3)
	if !onB.startsAtKeyFrame() {
		t.Errorf("video tags on B start %x", onB.tags)
	}
	if starts, mirrors := va.Starts.Load()+vb.Starts.Load(), vb.Mirrors.Load(); starts != 1 || mirrors != 1 || !sb.Receiving {
		t.Fatalf("0x9101 sent %d times (want 1), B mirrors %d (want 1), B's stream %+v", starts, mirrors, sb)
	}

	// A's viewer leaves and A's linger passes: B's want keeps the stream, B's pictures go on
	_ = onA.c.Close(websocket.StatusNormalClosure, "")
	src := va.Hub.Stream(sa.Token)
	waitFor(t, "A's viewer to leave", func() bool { return src.Viewers() == 1 }) // B's forwarding
	if stopped := va.Hub.Sweep(time.Now().Add(time.Minute)); len(stopped) != 0 {
		t.Fatalf("A stopped %v while B watched", stopped)
	}
	onB.readVideo(t, ctx, len(onB.tags)+5)

	// B's viewer leaves: B's linger ends its mirror, then A's closes the channel on the terminal
	_ = onB.c.Close(websocket.StatusNormalClosure, "")
	mirror := vb.Hub.Stream(sb.Token)
	waitFor(t, "B's viewer to leave", func() bool { return mirror.Viewers() == 0 })
	vb.Hub.Sweep(time.Now().Add(time.Minute))
	waitFor(t, "A's forwarding to end", func() bool { return src.Viewers() == 0 })
	va.Hub.Sweep(time.Now().Add(2 * time.Minute))
	waitFor(t, "A's 0x9102", func() bool { return va.Stops.Load() == 1 })
	if vb.Stops.Load() != 0 {
		t.Errorf("B sent %d 0x9102 for a stream it did not ask the terminal for", vb.Stops.Load())
	}
}
