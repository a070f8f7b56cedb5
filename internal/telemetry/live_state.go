package telemetry

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"
	"time"

	"tankwatch/internal/fleet"
	"tankwatch/internal/tank"
)

// Count codes of the monitoring calls (spec: vehicle counts keyed by code).
const (
	LiveTotal    = 8
	LiveMoving   = 4 // online, speed ≥ MovingKmh
	LiveResting  = 5 // online, speed < MovingKmh
	LiveOffline  = 7 // never reported, or the last report was received longer ago than the offline time
	LiveAbnormal = 3 // alarm flags, broken seal or a device fault; overlaps 4, 5 and 7
)

// Load states of 0x0200 status bits 8–9.
const (
	LiveLoadEmpty = "empty" // 00
	LiveLoadHalf  = "half"  // 01
	LiveLoadFull  = "full"  // 11 (10 is reserved and reads as "")
)

// CarState is one car's live state: registry data plus the newest committed report and tank data,
// with the derived online / moving / abnormal judgement at the time it was taken.
type CarState struct {
	fleet.LiveCar

	Reported   bool      // a position report exists; the fields below up to Mileage are valid only then
	Time       time.Time // device time of the newest position (received time when the device sent none)
	Received   time.Time
	TerminalID int64 // the terminal that sent the newest position
	Lat, Lon   int32 // micro-degrees WGS-84
	Speed      uint16
	Direction  uint16
	Alarm      uint32
	Status     uint32
	Mileage    uint32 // 1/10 km; valid when HasMileage
	HasMileage bool

	TankTime  time.Time // time of the newest tank state (zero: none)
	LockState string    // tank.LockString of the newest tank state, "" when none
	Seal      tank.Seal
	Fault     bool // a device of the newest tank state reports a fault
	LevelTime time.Time
	Levels    []tank.Level
	// Readings are Levels made volumes (tank.Reading, from the report's Readings; after a restart
	// converted again through the tank catalogue). Same order as Levels.
	Readings []tank.Reading

	Online   bool
	Moving   bool
	Abnormal bool
	Code     int // LiveMoving, LiveResting or LiveOffline
}

// Load is the load state from status bits 8–9.
func (s *CarState) Load() string {
	if !s.Reported {
		return ""
	}
	switch (s.Status >> 8) & 3 {
	case 0:
		return LiveLoadEmpty
	case 1:
		return LiveLoadHalf
	case 3:
		return LiveLoadFull
	}
	return ""
}

// AlarmBits lists the set alarm flag bits, lowest first.
func (s *CarState) AlarmBits() []int {
	out := []int{}
	for a := s.Alarm; a != 0; a &= a - 1 {
		out = append(out, bits.TrailingZeros32(a))
	}
	return out
}

// Located reports whether the newest position can be put on a map: devices without a fix send 0, 0
// (the console shows 未定位).
func (s *CarState) Located() bool {
	return s.Reported && (s.Lat != 0 || s.Lon != 0) &&
		s.Lat >= -90_000_000 && s.Lat <= 90_000_000 && s.Lon >= -180_000_000 && s.Lon <= 180_000_000
}

// Tank decodes the lock-state string for the car's compartments (the registry's count; when unset,
// as many as the string has devices in).
func (s *CarState) Tank() (tank.State, bool) {
	if s.LockState == "" {
		return tank.State{}, false
	}
	n := s.Compartments
	if n < 1 || n > tank.MaxCompartments {
		all, ok := tank.ParseLockString(s.LockState, tank.MaxCompartments)
		if !ok {
			return tank.State{}, false
		}
		n = 1
		for c := range tank.MaxCompartments {
			if all.Devices[c] != [tank.Kinds]byte{} {
				n = c + 1
			}
		}
	}
	st, ok := tank.ParseLockString(s.LockState, n)
	if ok {
		st.Seal = s.Seal
	}
	return st, ok
}

// liveLockFault reports whether any device of a lock-state string has its fault flag set (the
// fourth character of every slot).
func liveLockFault(text string) bool {
	for i := 3; i < len(text); i += 4 {
		if text[i] == '1' {
			return true
		}
	}
	return false
}

// liveParseLevels is the inverse of LevelsText (the history writer's encoding of tank_states.levels).
func liveParseLevels(text string) (tank.Levels, error) {
	var l tank.Levels
	if text == "" {
		return l, nil
	}
	parts := strings.Split(text, ";")
	if len(parts) > tank.MaxCompartments {
		return l, fmt.Errorf("levels %q: %d probes, at most %d", text, len(parts), tank.MaxCompartments)
	}
	for i, p := range parts {
		f := strings.Split(p, ":")
		if len(f) != 4 {
			return tank.Levels{}, fmt.Errorf("levels %q: probe %d has %d fields, want 4", text, i+1, len(f))
		}
		c, err1 := strconv.ParseUint(f[0], 10, 8)
		mm, err2 := strconv.ParseUint(f[1], 10, 16)
		vol, err3 := strconv.ParseUint(f[2], 10, 32)
		temp, err4 := strconv.ParseInt(f[3], 10, 16)
		if err1 != nil || err2 != nil || err3 != nil || err4 != nil {
			return tank.Levels{}, fmt.Errorf("levels %q: probe %d is not compartment:mm:litres:decidegrees", text, i+1)
		}
		l.Probes[i] = tank.Level{Compartment: uint8(c), LevelMM: uint16(mm), VolumeL: uint32(vol), TempDeci: int16(temp)}
	}
	l.N = len(parts)
	return l, nil
}
