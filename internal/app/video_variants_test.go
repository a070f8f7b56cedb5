package app_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/fleet"
	"tankwatch/internal/platform/config"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/sim"
	"tankwatch/internal/video"
)

// driveDemo connects the simulated terminal of demo car idx and returns its car's ID once it is online.
func driveDemo(t *testing.T, e *apptest.Env, admin string, idx int) int64 {
	t.Helper()
	var terms httpx.Page[fleet.TerminalView]
	e.MustOK("POST", "/base-info-app/terminal/page", admin, map[string]any{"phone": fleet.DemoCars[idx].TerminalPhone}).Decode(&terms)
	if len(terms.List) == 0 || terms.List[0].CarID == nil {
		t.Fatalf("demo car %d has no bound terminal", idx)
	}
	term := terms.List[0]
	f, err := sim.Start(context.Background(), sim.Config{Gateway: e.App.Devices.GatewayAddr(), Vehicles: 1, First: idx, Interval: 2 * time.Second,
		Speedup: 20, Seed: 7, AckTimeout: 2 * time.Second, Backoff: 100 * time.Millisecond, HelpEvery: 1000 * time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.Stop)
	apptest.WaitFor(t, "the terminal to log in", func() bool { return e.App.Devices.Gateway.Online(term.ID) })
	return *term.CarID
}

// TestLiveVideoMisbehaving: the simulator's terminal 5 loses packets (sequence gaps) and terminal 6
// sends sub-package flags that lie; both still play from a key frame on, and the loss of the first is
// measured, sent to it in 0x9105 (which it acknowledges) and shown in the stream's view.
func TestLiveVideoMisbehaving(t *testing.T) {
	if testing.Short() {
		t.Skip("drives terminals and their video over TCP")
	}
	t.Parallel()
	e := apptest.New(t, "sqlite", config.Config{Demo: true, JT808: "127.0.0.1:0", JT1078: "127.0.0.1:0", Theme: "tankcar",
		VideoLinger: 5 * time.Second, VideoLossReport: 300 * time.Millisecond})
	if err := e.App.StartDevices(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(e.App.StopDevices)
	admin := e.Login("admin", "admin123")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for _, idx := range []int{5, 6} {
		car := driveDemo(t, e, admin, idx)
		var s video.StreamView
		e.MustOK("GET", fmt.Sprintf("/base-info-app/carInfo/doVisual?carId=%d&channelNo=1", car), admin, nil).Decode(&s)
		v := dialFLV(t, ctx, e, s.FLVURL, admin)
		v.readVideo(t, ctx, 40)
		if !v.startsAtKeyFrame() {
			t.Errorf("terminal %d: video tags start %x", idx, v.tags[:2])
		}
		v.c.CloseNow()
		if idx != 5 {
			continue
		}
		var view video.StreamView
		apptest.WaitFor(t, "the loss measured", func() bool {
			var list []video.StreamView
			e.MustOK("POST", "/base-info-app/carInfo/reportLiveVideos", admin, map[string]any{"carId": car}).Decode(&list)
			if len(list) == 1 {
				view = list[0]
			}
			return view.Loss > 0
		})
		// every fourth audio packet, a picture being one to three packets and its audio one: about 10 %
		if view.Loss < 2 || view.Loss > 15 {
			t.Errorf("loss %d%%", view.Loss)
		}
		apptest.WaitFor(t, "a 0x9105 acknowledged", func() bool {
			var cmds struct {
				List []struct {
					Kind, MsgID, Status string
				} `json:"list"`
			}
			e.MustOK("POST", "/base-info-app/terminalCommand/page", admin, map[string]any{"carId": car,
				"startTime": shanghai(e.Clock.Now().Add(-time.Hour)), "endTime": shanghai(e.Clock.Now().Add(time.Hour))}).Decode(&cmds)
			for _, c := range cmds.List {
				if c.Kind == "liveVideoLoss" && c.MsgID == "0x9105" && c.Status == "ok" {
					return true
				}
			}
			return false
		})
		if e.App.Devices.Video.Stats.Lost.Load() == 0 || e.App.Devices.Video.LossReports.Load() == 0 {
			t.Error("no loss counted on /metrics")
		}
	}
}
