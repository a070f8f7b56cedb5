// Package events is the lock events of issue 16 (blueLockRecord): what the electronic locks report
// through their terminals (item 0xE6, docs/PROTOCOL.md), filed with the place, the station fence,
// the car's waybill and the platform command that explains them; and the remote lock commands with
// their outcome and the events they caused. Design: docs/DECISIONS.md D52.
package events

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"tankwatch/internal/lock"
	"tankwatch/internal/platform/db"
	"tankwatch/internal/tank"
	"tankwatch/internal/telemetry"
	"tankwatch/internal/waybill"
)

// Car is what the ingest needs of a car when its event arrives: its group and where it was last.
type Car struct {
	GroupID   int64
	GroupPath string
	Lat, Lon  int32
	Located   bool // Lat/Lon hold a known position
}

// Cars gives a car's group and last known position (the live state); ok false when it does not know
// the car, the ingest then reads the group from the store and files the event without a place.
type Cars interface {
	CarNow(carID int64) (Car, bool)
}

// Stations finds the station whose fence holds a position (station.Service.StationAt).
type Stations interface {
	StationAt(groupPath string, lat, lon int32) (id int64, name string, ok bool)
}

// A remote opening or closing is explained by a lock command sent to the car at most CommandBefore
// before the lock's time, or CommandAfter after it (the lock's clock may run a little behind).
const (
	CommandBefore = 10 * time.Minute
	CommandAfter  = 2 * time.Minute
)

// Alarm is a filed lock event that raises an alarm (D72).
type Alarm struct {
	Tampered    bool // else opened away: outside every fence while the car was loaded
	CarID       int64
	GroupID     int64
	GroupPath   string
	Serial      string
	Compartment int
	Device      lock.Device
	Method      lock.Method
	T           int64
	Lat, Lon    int32
	Station     string // the fence that holds the place, "" outside every fence
}

// Alarms raises the alarm of a lock event in the transaction that files it (the alarm engine); the
// returned func, if any, runs once that transaction has committed (the live push).
type Alarms interface {
	RaiseLockAlarm(ctx context.Context, tx bun.IDB, a Alarm) (after func(), err error)
}

// Ingest files lock events; Cars, Stations and Alarms may be nil (no place, no fence, no alarm).
type Ingest struct {
	DB       *db.DB
	Cars     Cars
	Stations Stations
	Alarms   Alarms
	Now      func() time.Time
}

// Store files the lock events of reports (those of cars only) in one transaction: a row per new
// event, the lock's battery / online / last event, and the lock-stats rollup's dirty mark of the
// event's day. An event already filed (same serial, time and event) is skipped. It returns how many
// rows it wrote.
func (in *Ingest) Store(ctx context.Context, reports []telemetry.Report) (int, error) {
	now := time.Now
	if in.Now != nil {
		now = in.Now
	}
	stored := 0
	var pushes []func()
	err := in.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		stored, pushes = 0, nil
		cars := map[int64]Car{}
		for i := range reports {
			r := &reports[i]
			if r.CarID == 0 || len(r.Locks) == 0 {
				continue
			}
			car, ok := cars[r.CarID]
			if !ok {
				var err error
				if car, err = in.car(ctx, tx, r.CarID); err != nil {
					return err
				}
				cars[r.CarID] = car
			}
			if !r.TankOnly && (r.Lat != 0 || r.Lon != 0) {
				car.Lat, car.Lon, car.Located = r.Lat, r.Lon, true
			}
			recv := r.Received.UnixMilli()
			if r.Received.IsZero() {
				recv = 0
			}
			for _, ev := range r.Locks {
				ok, push, err := in.file(ctx, tx, r.CarID, car, ev, recv, now().UnixMilli())
				if err != nil {
					return err
				}
				if ok {
					stored++
				}
				if push != nil {
					pushes = append(pushes, push)
				}
			}
		}
		return nil
	})
	if err == nil {
		for _, p := range pushes {
			p()
		}
	}
	return stored, err
}

// car is the car's group and last position, from Cars or else the store (without a position).
func (in *Ingest) car(ctx context.Context, idb bun.IDB, carID int64) (Car, error) {
	if in.Cars != nil {
		if c, ok := in.Cars.CarNow(carID); ok && c.GroupID != 0 {
			return c, nil
		}
	}
	var c Car
	err := idb.NewSelect().TableExpr("cars AS c").ColumnExpr("c.group_id, g.path").
		Join("JOIN org_groups AS g ON g.id = c.group_id").Where("c.id = ?", carID).Scan(ctx, &c.GroupID, &c.GroupPath)
	return c, err
}

// file writes one event (recv: when the platform read its report, 0 unknown) and the alarm it raises;
// false when it was filed before (then it raises nothing: a terminal's repeat is not a new alarm).
// push is the alarm's live push, to run after the commit.
func (in *Ingest) file(ctx context.Context, tx bun.IDB, carID int64, car Car, ev tank.LockEvent, recv, now int64) (ok bool, push func(), err error) {
	t := ev.Time.UnixMilli()
	row := &lock.EventRow{Serial: ev.Serial, GroupID: car.GroupID, CarID: carID, Compartment: int(ev.Compartment),
		Device: lock.Device(ev.Device), Event: lock.Event(ev.Event), Method: lock.Method(ev.Method), BatteryPct: -1, T: t, RecordedAt: now}
	if ev.Battery != tank.BatteryUnknown {
		row.BatteryPct = int(ev.Battery)
	}
	station := ""
	if car.Located {
		row.Lat, row.Lon = int64(car.Lat), int64(car.Lon)
		if in.Stations != nil {
			if id, name, ok := in.Stations.StationAt(car.GroupPath, car.Lat, car.Lon); ok {
				row.StationID, station = id, name
			}
		}
	}
	if row.LockID, err = lockID(ctx, tx, ev.Serial); err != nil {
		return false, nil, err
	}
	wb, err := activeWaybill(ctx, tx, carID, t)
	if err != nil {
		return false, nil, err
	}
	row.WaybillID = wb.ID
	if row.Method == lock.MethodRemote && (row.Event == lock.EventOpened || row.Event == lock.EventClosed) {
		if row.CommandID, err = explainingCommand(ctx, tx, carID, row.Event, row.Compartment, t, recv); err != nil {
			return false, nil, err
		}
	}
	res, err := tx.NewInsert().Model(row).On("CONFLICT (serial, t, event) DO NOTHING").Returning("NULL").Exec(ctx)
	if err != nil {
		return false, nil, err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return false, nil, err
	}
	if row.LockID != 0 {
		if err := touchLock(ctx, tx, row); err != nil {
			return false, nil, err
		}
	}
	if err := in.markDirty(ctx, tx, row, now); err != nil {
		return false, nil, err
	}
	if in.Alarms != nil {
		if a, ok := alarmOf(row, car, wb, station); ok {
			a.GroupPath = car.GroupPath
			if push, err = in.Alarms.RaiseLockAlarm(ctx, tx, a); err != nil {
				return false, nil, err
			}
		}
	}
	return true, push, nil
}

// alarmOf is the alarm a filed event raises (D72): a tampering, anywhere; an opening outside every
// fence (the place known) while the car's waybill was loaded — loaded at or before the lock's time
// and not yet received — unless a platform command explains it (the dispatcher opened it).
func alarmOf(row *lock.EventRow, car Car, wb runningWaybill, station string) (Alarm, bool) {
	a := Alarm{CarID: row.CarID, GroupID: row.GroupID, Serial: row.Serial, Compartment: row.Compartment, Device: row.Device,
		Method: row.Method, T: row.T, Lat: int32(row.Lat), Lon: int32(row.Lon), Station: station}
	switch row.Event {
	case lock.EventTampered:
		a.Tampered = true
		return a, true
	case lock.EventOpened:
		away := car.Located && row.StationID == 0 && row.CommandID == 0
		return a, away && wb.loadedAt(row.T)
	}
	return a, false
}

func lockID(ctx context.Context, idb bun.IDB, serial string) (int64, error) {
	var ids []int64
	err := idb.NewSelect().Table("locks").Column("id").Where("serial = ?", serial).Limit(1).Scan(ctx, &ids)
	if len(ids) == 0 {
		return 0, err
	}
	return ids[0], err
}

// runningWaybill is what the ingest needs of the car's waybill at the lock's time.
type runningWaybill struct {
	ID         int64 `bun:"id"`
	LoadedAt   int64 `bun:"loaded_at"`
	ReceivedAt int64 `bun:"received_at"`
}

// loadedAt reports whether the tank held the waybill's load at t: loaded at or before t and not
// received (every destination unloaded) before it.
func (w runningWaybill) loadedAt(t int64) bool {
	return w.ID != 0 && w.LoadedAt > 0 && w.LoadedAt <= t && (w.ReceivedAt == 0 || w.ReceivedAt > t)
}

// activeWaybill is the waybill the car was running at t: dispatched at or before t and not closed
// before t (cancelled ones never ran), the latest such; zero when none.
func activeWaybill(ctx context.Context, idb bun.IDB, carID, t int64) (runningWaybill, error) {
	var rows []runningWaybill
	err := idb.NewSelect().Table("waybills").Column("id", "loaded_at", "received_at").Where("car_id = ?", carID).
		Where("state NOT IN (?, ?)", int(waybill.Planned), int(waybill.Cancelled)).
		Where("dispatched_at > 0 AND dispatched_at <= ?", t).Where("closed_at = 0 OR closed_at >= ?", t).
		OrderExpr("dispatched_at DESC, id DESC").Limit(1).Scan(ctx, &rows)
	if len(rows) == 0 {
		return runningWaybill{}, err
	}
	return rows[0], err
}

// explainingCommand is the newest lock command (an unlock for an opening, a lock for a closing) sent to
// the car around t that reached the terminal or may still (pending, ok) and names the compartment.
// "Around" is measured on the lock's clock and, when known, on the platform's (recv): a remote
// operation is reported at once, while a terminal's clock may be off.
func explainingCommand(ctx context.Context, idb bun.IDB, carID int64, ev lock.Event, compartment int, t, recv int64) (int64, error) {
	from, to := t, t
	if recv > 0 {
		from, to = min(t, recv), max(t, recv)
	}
	kind := telemetry.KindUnlock
	if ev == lock.EventClosed {
		kind = telemetry.KindLock
	}
	var rows []struct {
		ID     int64  `bun:"id"`
		Params string `bun:"params"`
	}
	err := idb.NewSelect().Table("commands").Column("id", "params").Where("car_id = ? AND kind = ?", carID, kind).
		Where("status IN (?, ?)", telemetry.CommandPending, telemetry.CommandOK).
		Where("created_at >= ? AND created_at <= ?", from-CommandBefore.Milliseconds(), to+CommandAfter.Milliseconds()).
		OrderExpr("created_at DESC, id DESC").Limit(20).Scan(ctx, &rows)
	for _, r := range rows {
		if CommandCovers(r.Params, compartment) {
			return r.ID, err
		}
	}
	return 0, err
}

var compartmentList = regexp.MustCompile(`compartments \[([0-9 ]+)\]`)

// CommandCovers reports whether a lock command's logged description (telemetry's "compartments [1 2]"
// or "… all compartments") names the compartment.
func CommandCovers(params string, compartment int) bool {
	if strings.Contains(params, "all compartments") {
		return true
	}
	m := compartmentList.FindStringSubmatch(params)
	if m == nil {
		return false
	}
	for _, f := range strings.Fields(m[1]) {
		if n, err := strconv.Atoi(f); err == nil && n == compartment {
			return true
		}
	}
	return false
}

// touchLock sets the lock's battery, online and last event from an event not older than its last one
// (locks report late: an old event must not undo a newer state).
func touchLock(ctx context.Context, idb bun.IDB, row *lock.EventRow) error {
	q := idb.NewUpdate().Table("locks").Set("online = ?", row.Event != lock.EventOffline).Set("last_event_at = ?", row.T).
		Set("updated_at = ?", row.RecordedAt).Where("id = ? AND last_event_at <= ?", row.LockID, row.T)
	if row.BatteryPct >= 0 {
		q = q.Set("battery_pct = ?", row.BatteryPct)
	}
	_, err := q.Exec(ctx)
	return err
}
