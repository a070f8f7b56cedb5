package app

import (
	"context"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/uptrace/bun"

	"tankwatch/internal/alarm"
	"tankwatch/internal/lock/events"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/telemetry"
)

// lockEvents: lock events from the terminals and remote lock commands (blueLockRecord) — issue 16.
// The ingest follows the history writer's committed reports (DESIGN §2: one subscription point,
// never the gateway) through a queue that never blocks the writer (D52).
type lockEvents struct {
	Ingest  *events.Ingest
	Queue   *events.Queue
	Service *events.Service
}

// liveCars gives the ingest a car's group and last known position from the live state.
type liveCars struct{ live *telemetry.Live }

func (c liveCars) CarNow(carID int64) (events.Car, bool) {
	s, ok := c.live.Car(carID)
	if !ok {
		return events.Car{}, false
	}
	return events.Car{GroupID: s.GroupID, GroupPath: s.GroupPath, Lat: s.Lat, Lon: s.Lon, Located: s.Reported && (s.Lat != 0 || s.Lon != 0)}, true
}

// lockAlarms raises the alarms of lock events through the alarm engine (D72).
type lockAlarms struct{ eng *alarm.Engine }

func (l lockAlarms) RaiseLockAlarm(ctx context.Context, tx bun.IDB, a events.Alarm) (func(), error) {
	code := alarm.CodeLockOpenedAway
	if a.Tampered {
		code = alarm.CodeLockTampered
	}
	_, push, err := l.eng.RaiseLock(ctx, tx, alarm.LockAlarm{Code: code, CarID: a.CarID, GroupID: a.GroupID, GroupPath: a.GroupPath,
		Serial: a.Serial, Compartment: a.Compartment, Device: int(a.Device), Method: int(a.Method), At: a.T, Lat: a.Lat, Lon: a.Lon,
		Station: a.Station})
	return push, err
}

// buildLockEvents creates the part's services (called by New after the waybill parts).
func (a *App) buildLockEvents() {
	le := &a.lockEvents
	le.Ingest = &events.Ingest{DB: a.DB, Cars: liveCars{a.Devices.Live}, Stations: a.Stations,
		Alarms: lockAlarms{a.Alarms.Engine}, Now: func() time.Time { return a.now() }}
	le.Queue = events.NewQueue(le.Ingest, a.Log.With("component", "lockevents"))
	a.Devices.Writer.Subscribe(a.engineFeed(le.Queue.Enqueue))
	le.Service = events.NewService(a.DB)
	le.Service.Address = a.Devices.Geo.Reverse
	le.Service.Send = func(r *http.Request, in telemetry.CommandInput) (*telemetry.CommandView, error) {
		return a.Devices.Commands.Send(r, a.Devices.Gateway, in)
	}
	q := le.Queue
	stat := func(i int) func() float64 {
		return func() float64 {
			s, d, f := q.Stats()
			return float64([]int64{s, d, f}[i])
		}
	}
	a.registry.MustRegister(
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "tankwatch_lock_events_stored_total",
			Help: "Lock events (item 0xE6) filed by the lock-events ingest."}, stat(0)),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "tankwatch_lock_events_dropped_reports_total",
			Help: "Reports whose lock events could not be filed (queue full or the store failing after retries)."}, stat(1)),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "tankwatch_lock_events_store_failures_total",
			Help: "Attempts to file a batch of lock events that failed (retried)."}, stat(2)),
	)
}

// LockEvents is the lock-events ingest queue (tests wait on it).
func (a *App) LockEvents() *events.Queue { return a.lockEvents.Queue }

func (a *App) lockEventsRoutes() []httpx.Route { return a.lockEvents.Service.Routes() }
