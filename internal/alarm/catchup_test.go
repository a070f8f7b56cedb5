package alarm_test

import (
	"testing"
	"time"

	"tankwatch/internal/alarm"
	"tankwatch/internal/app/apptest"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/tank"
	"tankwatch/internal/telemetry"
)

// TestEngineCatchesUpAfterOverflow: with a queue of one batch, every report after the first arrives
// as a batch that does not fit. Nothing is dropped: the cars are read back from the store (what the
// writer committed) and judged in order — one speeding alarm with its maximum, one seal alarm ended
// by the reseal, every report evaluated.
func TestEngineCatchesUpAfterOverflow(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		ctx := t.Context()
		east, north := carIn(t, e, "华东分公司"), carIn(t, e, "华北分公司")
		at := e.Clock.Now().Add(-time.Hour)
		reports := speedingReports(east.ID, at, 95)
		reports = append(reports, sealReport(north.ID, at, tank.SealSealed), sealReport(north.ID, at.Add(time.Minute), tank.SealBroken),
			sealReport(north.ID, at.Add(2*time.Minute), tank.SealBroken), sealReport(north.ID, at.Add(3*time.Minute), tank.SealSealed))
		for i := range reports {
			store(t, e, &reports[i])
		}
		eng := alarm.NewEngine(alarm.Deps{Service: e.App.Alarms.Service, Cars: e.App.Fleet}, alarm.EngineConfig{Queue: 1}, nil)
		eng.Now = e.Clock.Now
		if err := eng.Warm(ctx); err != nil {
			t.Fatal(err)
		}
		for i := range reports {
			eng.Enqueue(reports[i : i+1])
		}
		if _, ov, _, _ := eng.Stats(); ov != int64(len(reports)-1) {
			t.Fatalf("overflows %d, want %d", ov, len(reports)-1)
		}
		if err := eng.CatchUp(ctx); err != nil {
			t.Fatal(err)
		}
		if n := eng.Behind(); n != 0 {
			t.Fatalf("%d cars still behind", n)
		}
		ev, _, cu, raised := eng.Stats()
		if ev != int64(len(reports)) || cu != int64(len(reports)) || raised != 2 {
			t.Fatalf("evaluated %d, caught up %d of %d reports; raised %d, want 2", ev, cu, len(reports), raised)
		}
		// a report committed after the catch-up comes through the queue; one read back is not judged twice
		late := speedingReports(east.ID, at.Add(30*time.Minute), 40)[:1]
		eng.Evaluate(ctx, reports[len(reports)-1:])
		eng.Evaluate(ctx, late)
		if ev, _, _, _ := eng.Stats(); ev != int64(len(reports))+1 {
			t.Errorf("evaluated %d after the catch-up, want %d", ev, len(reports)+1)
		}
		admin := e.Login("admin", "admin123")
		var page httpx.Page[alarm.View]
		e.MustOK("POST", "/alarm-app/alarmMessage/findsome", admin, map[string]any{"startTime": at.Add(-time.Minute).UnixMilli(), "endTime": e.Clock.Now().UnixMilli()}).Decode(&page)
		if page.Total != 2 {
			t.Fatalf("alarms: %+v", page.List)
		}
		seal, speed := page.List[0], page.List[1]
		if seal.Type != alarm.CodeSealBroken || seal.StartTime != httpx.TimeOf(at.Add(time.Minute)) || seal.EndTime != httpx.TimeOf(at.Add(3*time.Minute)) {
			t.Errorf("seal alarm: %+v", seal)
		}
		if speed.Type != alarm.CodeSpeeding || speed.EndTime == 0 || speed.Detail != "限速 80 km/h，最高 95.0 km/h" {
			t.Errorf("speeding alarm: %+v", speed)
		}
	})
}

// store writes r as the history writer would (positions, and tank_states when it has tank data).
func store(t *testing.T, e *apptest.Env, r *telemetry.Report) {
	t.Helper()
	at := r.Time.UnixMilli()
	if _, err := e.DB.NewRaw("INSERT INTO positions (car_id, t, terminal_id, received_at, lat, lon, speed, alarm) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
		r.CarID, at, r.TerminalID, r.Received.UnixMilli(), r.Lat, r.Lon, r.Speed, r.Alarm).Exec(t.Context()); err != nil {
		t.Fatal(err)
	}
	if r.Tank == nil {
		return
	}
	if _, err := e.DB.NewRaw("INSERT INTO tank_states (car_id, t, terminal_id, lock_state, seal, levels) VALUES (?, ?, ?, ?, ?, ?)",
		r.CarID, at, r.TerminalID, tank.LockString(r.Tank), int(r.Tank.Seal), telemetry.LevelsText(r.Levels)).Exec(t.Context()); err != nil {
		t.Fatal(err)
	}
}
