// Package lock is the electronic locks of issue 16 (DOMAIN.md §3): the registry and its bindings
// (blueLock, blueLockBindRecord), the events the locks report through their terminals
// (blueLockRecord) and the car blacklist (carBlacklistRecord). This file holds the codes every part
// shares; the tables are migration 00022.
package lock

import "github.com/uptrace/bun"

// Kind is a lock's kind.
type Kind uint8

const (
	KindBLE Kind = 1 // BLE one-shot: opened from a phone over Bluetooth
	Kind4G  Kind = 2 // 4G remote: opened by a platform command
)

// State is a registered lock's state.
type State uint8

const (
	StateInStock State = 1
	StateBound   State = 2
	StateFaulty  State = 3
	StateRetired State = 4
)

// Device is which device of a compartment a lock secures (the order of the lock-state string).
type Device uint8

const (
	DeviceSmallCover     Device = 0
	DeviceCover          Device = 1
	DeviceDischargeValve Device = 2
	DeviceBottomValve    Device = 3
)

// Bind actions of lock_binds.
const (
	BindBound   = 1
	BindUnbound = 2
)

// Event is what a lock reported.
type Event uint8

const (
	EventOpened     Event = 1
	EventClosed     Event = 2
	EventTampered   Event = 3
	EventLowBattery Event = 4
	EventOffline    Event = 5
	EventOnline     Event = 6
)

// Method is how a lock was operated.
type Method uint8

const (
	MethodNone     Method = 0 // not an operation (battery, offline) or not said
	MethodRemote   Method = 1 // a platform command over 4G
	MethodBLE      Method = 2 // Bluetooth from a phone
	MethodLocalKey Method = 3 // the local key or keypad (the car password)
)

// EventRow is one row of lock_events.
type EventRow struct {
	bun.BaseModel `bun:"table:lock_events"`
	ID            int64  `bun:"id,pk,autoincrement"`
	LockID        int64  `bun:"lock_id"`
	Serial        string `bun:"serial"`
	GroupID       int64  `bun:"group_id"`
	CarID         int64  `bun:"car_id"`
	Compartment   int    `bun:"compartment"`
	Device        Device `bun:"device"`
	Event         Event  `bun:"event"`
	Method        Method `bun:"method"`
	BatteryPct    int    `bun:"battery_pct"`
	T             int64  `bun:"t"`
	Lat           int64  `bun:"lat"`
	Lon           int64  `bun:"lon"`
	StationID     int64  `bun:"station_id"` // 0: outside every fence
	WaybillID     int64  `bun:"waybill_id"`
	CommandID     int64  `bun:"command_id"`
	RecordedAt    int64  `bun:"recorded_at"`
}
