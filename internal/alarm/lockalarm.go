package alarm

import (
	"context"
	"encoding/json"
	"strconv"

	"github.com/uptrace/bun"

	"tankwatch/internal/platform/i18n"
)

// Codes of the alarms the lock-events ingest raises from item 0xE6 (D72), not from a report rule:
// a lock's event is filed once (its unique key), so the ingest raises each alarm once, in the
// transaction that files the event.
const (
	CodeLockTampered   = "lockTampered"   // a lock reported tampering (event 3)
	CodeLockOpenedAway = "lockOpenedAway" // a lock opened outside every fence while the car was loaded
)

// LockAlarm is a lock event that raises an alarm.
type LockAlarm struct {
	Code        string // CodeLockTampered or CodeLockOpenedAway
	CarID       int64
	GroupID     int64
	GroupPath   string
	Serial      string
	Compartment int
	Device      int // lock.Device
	Method      int // lock.Method
	At          int64
	Lat, Lon    int32 // 0, 0: not located
	Station     string
}

// RaiseLock stores the alarm of a lock event in idb (the transaction that files the event, so the
// alarm and the event stand or fall together) as an instant alarm at the lock's time. It returns
// the push to run once that transaction has committed (nil when nothing is to be pushed), and no
// record when the type is disabled or the car's control mode does not watch it. Safe to call from
// any goroutine: it reads the registry snapshot and the control modes, never the engine's car state.
func (e *Engine) RaiseLock(ctx context.Context, idb bun.IDB, a LockAlarm) (*Record, func(), error) {
	svc := e.d.Service
	t, ok := svc.typeOf(a.Code)
	if !ok || !t.Enabled {
		return nil, nil, nil
	}
	car, known := e.car(a.CarID)
	if !known { // a car added since the last reload: its plate from the store, its group from the event
		car.ID, car.GroupID, car.GroupPath = a.CarID, a.GroupID, a.GroupPath
		if err := idb.NewSelect().Table("cars").Column("plate").Where("id = ?", a.CarID).Scan(ctx, &car.Plate); err != nil {
			return nil, nil, err
		}
	}
	if set, _, _ := svc.Resolve(car.ID, car.GroupPath); set != nil && !set.Watches(a.Code) {
		return nil, nil, nil
	}
	detail, _ := json.Marshal([]string{a.Serial, strconv.Itoa(a.Compartment), strconv.Itoa(a.Device), strconv.Itoa(a.Method), a.Station})
	at := a.At
	rec := &Record{CarID: car.ID, GroupID: car.GroupID, GroupPath: car.GroupPath, Plate: car.Plate, TypeCode: a.Code,
		Level: t.Level, StartAt: at, EndAt: &at, Lat: a.Lat, Lon: a.Lon, Detail: string(detail)}
	var terms []int64
	if err := idb.NewSelect().Table("terminals").Column("id").Where("car_id = ?", car.ID).Limit(1).Scan(ctx, &terms); err != nil {
		return nil, nil, err
	}
	if len(terms) > 0 {
		rec.TerminalID = terms[0]
	}
	if err := svc.insert(ctx, idb, rec); err != nil {
		return nil, nil, err
	}
	e.raised.Add(1)
	if !t.Push {
		return rec, nil, nil
	}
	return rec, func() { e.push(context.WithoutCancel(ctx), &car, rec) }, nil
}

// lockDetailText is the detail of a lock alarm (serial, compartment, device, method, station) in l;
// false for other codes or another shape.
func lockDetailText(l i18n.Lang, code string, args []string) (string, bool) {
	if (code != CodeLockTampered && code != CodeLockOpenedAway) || len(args) != 5 {
		return "", false
	}
	place := args[4]
	if place == "" {
		place = i18n.T(l, "lockEvents.fence.out")
	}
	return i18n.T(l, "alarm.detail.lock", args[0], args[1], i18n.T(l, "lockEvents.device."+args[2]),
		i18n.T(l, "lockEvents.method."+args[3]), place), true
}
