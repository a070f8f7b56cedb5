package app_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"tankwatch/internal/alarm"
	"tankwatch/internal/app/apptest"
	"tankwatch/internal/lock"
	"tankwatch/internal/lock/events"
	"tankwatch/internal/platform/db/dbtest"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/sim"
)

// TestLockTamperAlarmFromTerminal drives a simulated terminal over TCP whose truck has its seal broken
// on the way (the sim's seal_broken incident, reported as a tampering in item 0xE6): the ingest files
// the event and the alarm engine lists a lockTampered alarm of the car with the lock's serial — one
// alarm per event, however often the report is resent.
func TestLockTamperAlarmFromTerminal(t *testing.T) {
	t.Parallel()
	for _, dialect := range dbtest.Dialects() {
		t.Run(dialect, func(t *testing.T) {
			e := apptest.NewWithGateway(t, dialect)
			admin := e.Login("admin", "admin123")
			term := e.DemoTerminal(admin)
			car := *term.CarID
			f, err := sim.Start(context.Background(), sim.Config{Gateway: e.App.Devices.GatewayAddr(), Vehicles: 1, Interval: 10 * time.Second,
				Speedup: 2000, Seed: 7, DayAtStart: true, FirstTripIncident: "seal_broken", AckTimeout: 2 * time.Second,
				Backoff: 100 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(f.Stop)
			var page events.Page
			deadline := time.Now().Add(2 * time.Minute)
			for {
				e.MustOK("POST", "/lock-app/blueLockRecord/page", admin, map[string]any{"carId": car, "event": int(lock.EventTampered)}).Decode(&page)
				if len(page.List) > 0 {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("no tampering filed in 2 min: sim %+v", f.Stats())
				}
				time.Sleep(200 * time.Millisecond)
			}
			ev := page.List[0]
			var alarms httpx.Page[alarm.View]
			e.MustOK("POST", "/alarm-app/alarmMessage/findsome", admin, map[string]any{"carId": car, "types": []string{alarm.CodeLockTampered}}).Decode(&alarms)
			var found []alarm.View
			for _, a := range alarms.List {
				if a.Type == alarm.CodeLockTampered {
					found = append(found, a)
				}
			}
			if len(found) != page.Total || len(found) == 0 || !strings.Contains(found[0].Detail, ev.Serial) || found[0].Plate != term.Plate ||
				found[0].TypeName != "锁具破坏报警" || !found[0].Lat.Valid {
				t.Fatalf("tamper events %d (%+v), alarms %+v", page.Total, ev, alarms.List)
			}
		})
	}
}
