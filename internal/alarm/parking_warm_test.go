package alarm_test

import (
	"testing"
	"time"

	"tankwatch/internal/alarm"
	"tankwatch/internal/app/apptest"
	"tankwatch/internal/telemetry"
)

// TestEngineWarmEndsParking: a car stops for longer than its parking limit away from any station, so
// a parking period opens; the engine restarts (or its partition moves) before the car moves off. The
// new engine takes the open period over, and the first report of the car moving ends it.
func TestEngineWarmEndsParking(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		ctx := t.Context()
		car := carIn(t, e, "华南分公司")
		at := e.Clock.Now().Add(-5 * time.Hour)
		report := func(t0 time.Time, speed uint16) telemetry.Report {
			// far from every demo station (the middle of the Gobi)
			return telemetry.Report{CarID: car.ID, TerminalID: 1, Time: t0, Received: t0, Lat: 42_000_000, Lon: 100_000_000, Speed: speed}
		}
		eng := warmEngine(t, e)
		eng.Evaluate(ctx, []telemetry.Report{report(at, 0), report(at.Add(alarm.DefaultParkingMinutes*time.Minute+time.Minute), 0)})
		type period struct {
			StartAt int64  `bun:"start_at"`
			EndAt   *int64 `bun:"end_at"`
		}
		var rows []period
		read := func() {
			rows = rows[:0]
			if err := e.DB.NewRaw("SELECT start_at, end_at FROM parking_periods WHERE car_id = ?", car.ID).Scan(ctx, &rows); err != nil {
				t.Fatal(err)
			}
		}
		if read(); len(rows) != 1 || rows[0].EndAt != nil || rows[0].StartAt != at.UnixMilli() {
			t.Fatalf("parking periods before the restart: %+v", rows)
		}
		eng = warmEngine(t, e)
		moved := at.Add(3 * time.Hour)
		eng.Evaluate(ctx, []telemetry.Report{report(moved, 400)})
		if read(); len(rows) != 1 || rows[0].EndAt == nil || *rows[0].EndAt != moved.UnixMilli() {
			t.Fatalf("the period after the restart and the car moving off: %+v", rows)
		}
	})
}
