package app_test

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/fleet"
	"tankwatch/internal/platform/config"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/sim"
	"tankwatch/internal/video"
)

// TestVideoCapacity measures one node relaying N simulated streams (cars × 4 channels of the sample
// clip, 25 fps H.264 + G.711, about 0.13 Mbit/s each) to M FLV viewers each, for docs/PERFORMANCE.md:
// TANKWATCH_VIDEO_PERF="cars viewers seconds" (e.g. "25 2 20"). The figures are this process's: the
// server, the simulated terminals and the viewers' sockets together, so the server's own share is
// lower. TANKWATCH_VIDEO_PERF_VIA=udp has the terminals stream over UDP. Not run otherwise.
func TestVideoCapacity(t *testing.T) {
	spec := os.Getenv("TANKWATCH_VIDEO_PERF")
	if spec == "" {
		t.Skip("set TANKWATCH_VIDEO_PERF=\"cars viewers seconds\"")
	}
	var cars, viewers, secs int
	if _, err := fmt.Sscan(spec, &cars, &viewers, &secs); err != nil || cars < 1 || cars > len(fleet.DemoFleet(cars)) {
		t.Fatalf("TANKWATCH_VIDEO_PERF=%q: %v", spec, err)
	}
	e := apptest.New(t, "sqlite", config.Config{Demo: true, DemoVehicles: cars, JT808: "127.0.0.1:0", JT1078: "127.0.0.1:0", Theme: "tankcar",
		VideoLinger: time.Minute, VideoStreams: 1000, VideoViewers: 10000, JT1078Via: os.Getenv("TANKWATCH_VIDEO_PERF_VIA")})
	if err := e.App.StartDevices(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(e.App.StopDevices)
	admin := e.Login("admin", "admin123")
	f, err := sim.Start(context.Background(), sim.Config{Gateway: e.App.Devices.GatewayAddr(), Vehicles: cars, Interval: 30 * time.Second,
		Seed: 7, HelpEvery: 1000 * time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.Stop)
	apptest.WaitFor(t, "the fleet online", func() bool { return f.Stats().Authenticated == int64(cars) })
	var page httpx.Page[fleet.CarView]
	e.MustOK("POST", "/base-info-app/carInfo/page", admin, map[string]any{"pageSize": 500}).Decode(&page)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var bytesIn, msgs atomic.Int64
	var wg sync.WaitGroup
	streams := 0
	for _, c := range page.List {
		for ch := 1; ch <= 4; ch++ {
			var s video.StreamView
			if r := e.Call("GET", fmt.Sprintf("/base-info-app/carInfo/doVisual?carId=%d&channelNo=%d", c.ID, ch), admin, nil); r.Code != 1 {
				continue // a car of the seeded registry the simulator does not drive
			} else {
				r.Decode(&s)
			}
			streams++
			for range viewers {
				ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(e.Srv.URL, "http")+s.FLVURL+"?token="+admin, nil)
				if err != nil {
					t.Fatalf("viewer of stream %d: %v", streams, err)
				}
				ws.SetReadLimit(4 << 20)
				wg.Add(1)
				go func() {
					defer wg.Done()
					defer ws.CloseNow()
					for {
						_, b, err := ws.Read(ctx)
						if err != nil {
							return
						}
						bytesIn.Add(int64(len(b)))
						msgs.Add(1)
					}
				}()
			}
		}
	}
	time.Sleep(3 * time.Second) // every stream past its first key frame before measuring
	var ru0, ru1 syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru0)
	b0, m0, t0 := bytesIn.Load(), msgs.Load(), time.Now()
	frames0 := e.App.Devices.Video.Stats.Frames.Load()
	time.Sleep(time.Duration(secs) * time.Second)
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru1)
	el := time.Since(t0).Seconds()
	cpu := func(r syscall.Rusage) float64 {
		return float64(r.Utime.Sec+r.Stime.Sec) + float64(r.Utime.Usec+r.Stime.Usec)/1e6
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	load, _ := os.ReadFile("/proc/loadavg")
	st, vw := e.App.Devices.Video.Hub.Counts()
	t.Logf("streams %d (hub %d), viewers %d (hub %d): CPU %.0f %% of one core, heap in use %.0f MiB, sys %.0f MiB, goroutines %d",
		streams, st, streams*viewers, vw, 100*(cpu(ru1)-cpu(ru0))/el, float64(ms.HeapInuse)/(1<<20), float64(ms.Sys)/(1<<20), runtime.NumGoroutine())
	t.Logf("UDP datagrams %d, strangers %d, lost packets %d", e.App.Devices.Video.Stats.Datagrams.Load(), e.App.Devices.Video.Stats.Strangers.Load(),
		e.App.Devices.Video.Stats.Lost.Load())
	t.Logf("delivered %.1f Mbit/s in %.0f messages/s; frames relayed %.0f/s; dropped frames %d, skipped by slow viewers: see logs; loadavg %s",
		float64(bytesIn.Load()-b0)*8/el/1e6, float64(msgs.Load()-m0)/el, float64(e.App.Devices.Video.Stats.Frames.Load()-frames0)/el,
		e.App.Devices.Video.Stats.Dropped.Load(), strings.TrimSpace(string(load)))
	cancel()
	wg.Wait()
}
