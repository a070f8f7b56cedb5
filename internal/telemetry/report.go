// Package telemetry keeps what vehicles report: the durable history (positions, tank states, raw
// frames, downlink commands) written with group commit, the raw-data calls, and the live state per car
// (latest position, online, moving, load, locks, alarms) with the monitoring counts and calls.
package telemetry

import (
	"time"

	"tankwatch/internal/tank"
)

// Report is one position report of a terminal (0x0200, one item of 0x0704, or the position inside a
// 0x0500 reply), decoded and copied out of the frame buffer. The gateway builds it; the writer stores
// it; live state and the alarm engine read it after it is committed.
type Report struct {
	TerminalID int64
	CarID      int64 // 0 when the terminal is not bound to a car
	Phone      string
	Received   time.Time // when the gateway read the frame
	Time       time.Time // device time (UTC); zero when the device sent none
	Blind      bool      // re-uploaded from the blind-area store (0x0704 type 1)

	Alarm, Status uint32
	Lat, Lon      int32 // micro-degrees WGS-84
	Altitude      uint16
	Speed         uint16 // 1/10 km/h
	Direction     uint16 // 0–359, 0 = north

	Mileage    uint32 // 1/10 km; valid when HasMileage
	HasMileage bool
	Fuel       uint16 // 1/10 L; valid when HasFuel
	HasFuel    bool
	Signal     byte
	Satellites byte

	Tank   *tank.State  // nil when the report carried no tank item
	Levels *tank.Levels // nil when no level item
	// Readings are Levels made volumes (strapping table or probe volume, V20, mass), filled by the
	// history writer before the commit (its Converter) and stored in level_readings; subscribers see
	// them. Nil when no level item or no converter.
	Readings []tank.Reading
	Help     *tank.Help // non-nil when the driver asked for unlock / lock
	// Locks are the lock events (item 0xE6) the report carried; the lock-events ingest stores them.
	Locks []tank.LockEvent

	// TankOnly marks a report made from a 0x0900 pass-through: it carries tank data and no position;
	// only its tank state is stored and live state keeps the last position.
	TankOnly bool
}

// Frame is one raw frame as it crossed the wire (escaped bytes without the 0x7e delimiters), kept for
// the raw-data pages and decoded again when shown.
type Frame struct {
	TerminalID int64
	CarID      int64
	Phone      string
	At         time.Time
	MsgID      uint16
	Serial     uint16
	Down       bool // platform → terminal
	Data       []byte
}

// Command is one downlink command sent to a terminal and its outcome.
type Command struct {
	ID         int64
	TerminalID int64
	CarID      int64
	Phone      string
	Kind       string // "params", "lock", "unlock", "text", "control", …
	MsgID      uint16
	Serial     uint16
	Params     string // what was asked, human-readable (JSON or text)
	UserID     int64
	Status     string // CommandPending, CommandOK, CommandFailed, CommandTimeout, CommandOffline
	Result     *int   // the terminal's result code when it answered
	Reply      string // the terminal's answer, human-readable
	Created    time.Time
	Done       time.Time
	// Secret: the message carries a secret (a lock password). The gateway then keeps its frames out of
	// the raw history, which more users may read than the secret's own page; the command log records
	// the command, and Params must not hold the secret.
	Secret bool
}

// Command states.
const (
	CommandPending = "pending"
	CommandOK      = "ok"
	CommandFailed  = "failed"
	CommandTimeout = "timeout"
	CommandOffline = "offline"
)
