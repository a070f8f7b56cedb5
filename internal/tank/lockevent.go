package tank

import (
	"fmt"
	"time"

	"tankwatch/internal/jt808"
)

// ItemLockEvent is item 0xE6 (uplink): one event an electronic lock reported through the terminal's
// lock gateway (opened, closed, tampered, low battery, offline, online) with how and when.
const ItemLockEvent byte = 0xE6

// Lock-event field limits (docs/PROTOCOL.md §2 0xE6); the codes are lock.Event* and lock.Method*.
const (
	LockEventMin, LockEventMax   = 1, 6 // lock.EventOpened … lock.EventOnline
	LockMethodMax                = 3    // lock.MethodNone (0) … lock.MethodLocalKey
	LockSerialMin, LockSerialMax = 4, 32
	BatteryUnknown               = 0xFF
	lockEventFixed               = 13 // version … serial length
)

// LockEvent is item 0xE6: version BYTE (1), event BYTE, method BYTE, compartment BYTE (1–8), device
// BYTE (0–3), battery BYTE (0–100 %, 0xFF unknown), the event's time BCD[6] (GMT+8: locks report
// late, so the lock's own time, not the report's), serial length BYTE (4–32), serial ASCII.
type LockEvent struct {
	Event       uint8
	Method      uint8
	Compartment uint8
	Device      uint8
	Battery     uint8 // BatteryUnknown when the lock did not say
	Time        time.Time
	Serial      string
}

// ValidLockSerial reports whether s can be a lock serial on the wire: 4–32 printable ASCII
// characters without spaces (what the lock registry accepts is a subset).
func ValidLockSerial(s string) bool {
	if len(s) < LockSerialMin || len(s) > LockSerialMax {
		return false
	}
	for i := range len(s) {
		if s[i] <= ' ' || s[i] > '~' {
			return false
		}
	}
	return true
}

func (e *LockEvent) check() error {
	switch {
	case e.Event < LockEventMin || e.Event > LockEventMax:
		return fmt.Errorf("%w: lock event %d", ErrItem, e.Event)
	case e.Method > LockMethodMax:
		return fmt.Errorf("%w: lock method %d", ErrItem, e.Method)
	case e.Compartment < 1 || e.Compartment > MaxCompartments:
		return fmt.Errorf("%w: lock of compartment %d", ErrItem, e.Compartment)
	case e.Device >= Kinds:
		return fmt.Errorf("%w: lock device %d", ErrItem, e.Device)
	case e.Battery > 100 && e.Battery != BatteryUnknown:
		return fmt.Errorf("%w: lock battery %d %%", ErrItem, e.Battery)
	case e.Time.IsZero():
		return fmt.Errorf("%w: lock event without a time", ErrItem)
	case !ValidLockSerial(e.Serial):
		return fmt.Errorf("%w: lock serial of %d characters or not printable ASCII", ErrItem, len(e.Serial))
	}
	return nil
}

// AppendItem appends e as item 0xE6; an event the decoder would refuse is refused here too.
func (e *LockEvent) AppendItem(dst []byte) ([]byte, error) {
	if err := e.check(); err != nil {
		return dst, err
	}
	out := header(dst, ItemLockEvent, lockEventFixed+len(e.Serial))
	out = append(out, 1, e.Event, e.Method, e.Compartment, e.Device, e.Battery)
	out, err := jt808.AppendTime(out, e.Time)
	if err != nil {
		return dst, fmt.Errorf("%w: lock event time: %v", ErrItem, err)
	}
	return append(append(out, byte(len(e.Serial))), e.Serial...), nil
}

// Decode reads the value of item 0xE6.
func (e *LockEvent) Decode(v []byte) error {
	if len(v) < lockEventFixed {
		return fmt.Errorf("%w: lock event of %d bytes", ErrItem, len(v))
	}
	if v[0] != 1 {
		return fmt.Errorf("%w: lock event version %d", ErrItem, v[0])
	}
	if n := int(v[12]); len(v) != lockEventFixed+n {
		return fmt.Errorf("%w: lock event with a serial of %d in %d bytes", ErrItem, n, len(v))
	}
	t, err := jt808.DecodeTime(v[6:12])
	if err != nil {
		return fmt.Errorf("%w: lock event time: %v", ErrItem, err)
	}
	d := LockEvent{Event: v[1], Method: v[2], Compartment: v[3], Device: v[4], Battery: v[5], Time: t, Serial: string(v[13:])}
	if err := d.check(); err != nil {
		return err
	}
	*e = d
	return nil
}
