package alarm_test

import (
	"context"
	"testing"
	"time"

	"tankwatch/internal/alarm"
	"tankwatch/internal/app/apptest"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/tank"
	"tankwatch/internal/telemetry"
)

// TestEngineKeepsWhatTheStoreRefused: the store refuses the alarm of a broken seal (its table is
// gone for a moment); the decision is kept, a worker's batch is refused so that it is delivered again,
// and once the store takes writes the alarm is stored before the next decision, which ends it.
func TestEngineKeepsWhatTheStoreRefused(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		ctx := t.Context()
		car := carIn(t, e, "华东分公司")
		at := e.Clock.Now().Add(-time.Hour)
		eng := alarm.NewEngine(alarm.Deps{Service: e.App.Alarms.Service, Cars: e.App.Fleet}, alarm.EngineConfig{}, nil)
		eng.Now = e.Clock.Now
		if err := eng.Start(ctx); err != nil {
			t.Fatal(err)
		}
		defer eng.Stop()
		rename := func(from, to string) {
			t.Helper()
			if _, err := e.DB.ExecContext(context.Background(), "ALTER TABLE "+from+" RENAME TO "+to); err != nil {
				t.Fatal(err)
			}
		}

		rename("alarms", "alarms_away")
		err := eng.Judge(ctx, []telemetry.Report{sealReport(car.ID, at, tank.SealSealed), sealReport(car.ID, at.Add(time.Minute), tank.SealBroken)})
		rename("alarms_away", "alarms")
		if err == nil {
			t.Fatal("the worker's batch was acknowledged while its alarm was not stored")
		}
		// delivered again: its reports were judged already; the kept decision is stored first
		if err := eng.Judge(ctx, []telemetry.Report{sealReport(car.ID, at.Add(time.Minute), tank.SealBroken)}); err != nil {
			t.Fatalf("the batch delivered again: %v", err)
		}
		if err := eng.Judge(ctx, []telemetry.Report{sealReport(car.ID, at.Add(2*time.Minute), tank.SealSealed)}); err != nil {
			t.Fatal(err)
		}
		admin := e.Login("admin", "admin123")
		var list []alarm.View
		e.MustOK("POST", "/alarm-app/alarmMessage/findListByCarId", admin, map[string]any{"carId": car.ID}).Decode(&list)
		if len(list) != 1 || list[0].Type != alarm.CodeSealBroken || list[0].StartTime != httpx.TimeOf(at.Add(time.Minute)) ||
			list[0].EndTime != httpx.TimeOf(at.Add(2*time.Minute)) {
			t.Fatalf("alarms after the store came back: %+v", list)
		}
		if eng.Lost() != 0 {
			t.Errorf("%d decisions lost", eng.Lost())
		}
	})
}
