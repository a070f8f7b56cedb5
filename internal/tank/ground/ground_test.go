package ground_test

import (
	"context"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/sim"
	"tankwatch/internal/tank"
	"tankwatch/internal/tank/ground"
)

func demoTankCount() (n int, water []string) {
	for i, p := range sim.DemoPlaces {
		for _, g := range sim.DemoGroundTanks(i) {
			n++
			if g.WaterMM > 30 {
				water = append(water, p.Name)
			}
		}
	}
	return n, water
}

func events(t *testing.T, e *apptest.Env, tok string, q map[string]any) httpx.Page[ground.EventView] {
	t.Helper()
	var p httpx.Page[ground.EventView]
	e.MustOK("POST", "/monitor-app/tankEventRecord/page", tok, q).Decode(&p)
	return p
}

// The collector against the simulator's gauges on both stores: readings that count through the
// platform's table, gauge states, a delivery from a demo unload (once, however often it is polled),
// water and gauge-alarm episodes, offline episodes with start and end, scope of the endpoints.
func TestCollectorEndToEnd(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		admin := e.Login("admin", "admin123")
		g := e.Groups(admin)
		total, water := demoTankCount()
		var sts []ground.StatusView
		e.MustOK("POST", "/monitor-app/groundTank/status", admin, map[string]any{}).Decode(&sts)
		if len(sts) != total {
			t.Fatalf("%d demo tanks, want %d", len(sts), total)
		}
		if sts[0].GaugeState != tank.GaugeNone || sts[0].At != 0 {
			t.Fatalf("before any gauge: %+v", sts[0])
		}
		gs, err := sim.StartGauges(ctx, sim.GaugeConfig{Speedup: 1})
		if err != nil {
			t.Fatal(err)
		}
		defer gs.Stop()
		svc := e.App.Gauges.Ground
		svc.Cfg.Backoff, svc.Cfg.ReadTimeout, svc.Cfg.DialTimeout = 10*time.Millisecond, time.Second, time.Second
		if err := svc.SeedDemo(ctx, gs.Addr); err != nil {
			t.Fatal(err)
		}
		if err := svc.SeedDemo(ctx, gs.Addr); err != nil { // idempotent
			t.Fatal(err)
		}
		svc.Start(ctx) // a first cycle at once
		apptest.WaitFor(t, "first readings", func() bool {
			e.MustOK("POST", "/monitor-app/groundTank/status", admin, map[string]any{}).Decode(&sts)
			for _, s := range sts {
				if s.At == 0 {
					return false
				}
			}
			return len(sts) == total
		})
		for _, s := range sts {
			if s.GaugeState != tank.GaugeOnline || s.VolumeL <= 0 || s.FillPct <= 0 || s.FillPct > 100 || s.V20L <= 0 || s.Gauge == "" {
				t.Fatalf("%+v", s)
			}
		}
		var rd ground.Reading
		if err := e.App.DB.NewSelect().Model(&rd).Where("tank_id = ?", sts[0].TankID).Limit(1).Scan(ctx); err != nil {
			t.Fatal(err)
		}
		if rd.Source != int(tank.SourceStrap) || rd.GaugeVolumeL <= 0 || rd.HeightMM <= 0 {
			t.Fatalf("reading %+v", rd)
		}
		// the table's volume and the gauge's agree within the table's interpolation
		if d := rd.VolumeL - rd.GaugeVolumeL; d > rd.GaugeVolumeL*0.01 || d < -rd.GaugeVolumeL*0.01 {
			t.Fatalf("table %v, gauge %v", rd.VolumeL, rd.GaugeVolumeL)
		}

		// a demo truck unloads 12,000 L at the first station
		st0 := sts[0]
		gs.Unload(st0.StationName, 12000, time.Now().Add(-20*time.Minute), time.Now())
		svc.Cycle(ctx)
		svc.Cycle(ctx)
		del := events(t, e, admin, map[string]any{"kind": "delivery", "stationId": st0.StationID})
		if del.Total != 1 || del.List[0].AfterL-del.List[0].BeforeL < 11999 || del.List[0].EndAt == nil || del.List[0].Detail.Received < 11000 {
			t.Fatalf("delivery events %+v", del)
		}
		if len(water) > 0 {
			wt := events(t, e, admin, map[string]any{"kind": "water", "pageSize": 100})
			ga := events(t, e, admin, map[string]any{"kind": "gaugeAlarm", "pageSize": 100})
			if wt.Total != len(water) || ga.Total < len(water) || ga.List[0].Detail.Alarm != "highWaterWarning" || wt.List[0].EndAt != nil {
				t.Fatalf("water %d (want %d), gauge alarms %+v", wt.Total, len(water), ga.List)
			}
		}
		// the same episode is not raised twice
		svc.Cycle(ctx)
		if n := events(t, e, admin, map[string]any{"kind": "water"}).Total; n != len(water) {
			t.Fatalf("water events after another cycle: %d", n)
		}

		// after a restart the open episodes continue: a new collector does not open them again
		svc2 := ground.New(e.App.DB, svc.Cfg, nil)
		if err := svc2.LoadOpen(ctx); err != nil {
			t.Fatal(err)
		}
		svc2.Cycle(ctx)
		if n := events(t, e, admin, map[string]any{"kind": "water"}).Total; n != len(water) {
			t.Fatalf("water events after a restart: %d", n)
		}

		// gauges stop: offline episodes open on every tank, one each, and close when they answer again
		gs.Stop()
		svc.Cycle(ctx)
		svc.Cycle(ctx)
		var gv []ground.GaugeView
		e.MustOK("POST", "/monitor-app/groundTank/gauges", admin, map[string]any{}).Decode(&gv)
		if len(gv) == 0 || gv[0].State != tank.GaugeOffline || gv[0].LastError == "" || gv[0].Since == 0 {
			t.Fatalf("gauges %+v", gv)
		}
		off := events(t, e, admin, map[string]any{"kind": "gaugeOffline", "pageSize": 1})
		if off.Total != total || off.List[0].EndAt != nil || off.List[0].Detail.State != "offline" {
			t.Fatalf("offline events %d, want %d: %+v", off.Total, total, off.List)
		}

		// a gauge that answers garbage: its own state, not offline
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		go func() {
			for {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				_, _ = c.Write([]byte("\x01i20100 HELLO&&0000\x03"))
				_ = c.Close()
			}
		}()
		_, port, _ := net.SplitHostPort(ln.Addr().String())
		if _, err := e.App.DB.NewUpdate().Table("ground_tanks").Set("gauge_port = ?", port).Where("id = ?", st0.TankID).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		svc.Cycle(ctx)
		e.MustOK("POST", "/monitor-app/groundTank/gauges", admin, map[string]any{}).Decode(&gv)
		if gv[0].State != tank.GaugeGarbage || gv[0].Addr != ln.Addr().String() || !strings.Contains(gv[0].LastError, "checksum") {
			t.Fatalf("garbage gauge %+v", gv[0])
		}

		// scope: a 华东 user sees 华东's tanks and events only
		role := e.MustOK("POST", "/authority-app/roleInfo/insert", admin, map[string]any{"name": "华东油罐", "groupId": g["华东分公司"],
			"resourceCodes": []string{"04", "04-13"}}).ID()
		e.MustOK("POST", "/authority-app/userInfo/insert", admin, map[string]any{"name": "easttank", "password": "secret1",
			"groupId": g["华东分公司"], "roleIds": []int64{role}})
		east := e.Login("easttank", "secret1")
		var mine []ground.StatusView
		e.MustOK("POST", "/monitor-app/groundTank/status", east, map[string]any{}).Decode(&mine)
		if len(mine) == 0 || len(mine) >= total {
			t.Fatalf("华东 sees %d of %d", len(mine), total)
		}
		for _, s := range mine {
			if s.GroupID != g["华东分公司"] {
				t.Fatalf("华东 sees %+v", s)
			}
		}
		r := e.Call("POST", "/monitor-app/groundTank/status", east, map[string]any{"groupId": g["华北分公司"]})
		if r.Status != 403 {
			t.Fatalf("another group: %d %s", r.Status, r.Body)
		}
		if p := events(t, e, east, map[string]any{"pageSize": 500}); p.Total >= events(t, e, admin, map[string]any{}).Total {
			t.Fatalf("华东 sees %d events", p.Total)
		}
		// validation
		for _, bad := range []map[string]any{{"kind": "nope"}, {"sortField": "x"}, {"startTime": "2026-11-02 00:00:00", "endTime": "2026-11-01 00:00:00"}} {
			if r := e.Call("POST", "/monitor-app/tankEventRecord/page", admin, bad); r.Code == 0 && r.Status == 200 && r.Message == "ok" {
				t.Fatalf("%v accepted: %s", bad, r.Body)
			}
		}
		// export
		x := e.Call("POST", "/monitor-app/tankEventRecord/export", admin, map[string]any{"kind": "gaugeOffline"})
		if x.Status != 200 || len(x.Body) < 1000 {
			t.Fatalf("export %d %d bytes", x.Status, len(x.Body))
		}
		_ = fmt.Sprint()
	})
}
