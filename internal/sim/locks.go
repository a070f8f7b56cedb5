package sim

import (
	"fmt"
	"math/rand/v2"
	"time"

	"tankwatch/internal/tank"
)

// Lock events (item 0xE6) of the demo trucks: one electronic lock per compartment (on the manhole
// cover) that reports when it opens and closes, how, its battery, and now and then a low battery;
// a seal broken on the way is reported as tampering. The codes are lock.Event* / lock.Method*
// (internal/lock, not imported: the simulator stays a terminal that only speaks the protocol).
const (
	lockOpened, lockClosed, lockTampered, lockLowBattery = 1, 2, 3, 4

	lockMethodRemote, lockMethodBLE, lockMethodKey = 1, 2, 3

	lockDevice     = 1  // manhole cover
	lowBatteryPct  = 20 // a lock below this reports low battery once a day, until its battery is changed
	lockMaxPending = 16 // events kept for the next report; older ones are lost like a lock's full buffer
)

// LockSerial is the serial of the demo lock on compartment c (1-based) of the i-th demo vehicle: the
// registry's demo locks (basedata/blueLock) use the same rule so that the events find their lock.
func LockSerial(i, c int) string { return fmt.Sprintf("TWL%05d-%d", i+1, c) }

type vehicleLocks struct {
	idx     int
	rng     *rand.Rand // its own stream: the rest of the simulation draws what it drew before locks
	isOpen  [Compartments]bool
	how     [Compartments]uint8
	battery [Compartments]uint8
	pending []tank.LockEvent
}

func (l *vehicleLocks) init(seed int64, idx int) {
	l.idx = idx
	l.rng = rand.New(rand.NewPCG(uint64(seed)^0x10c4_e7e5, uint64(idx)*0x9e3779b97f4a7c15+11))
	for c := range Compartments {
		l.battery[c] = uint8(40 + l.rng.IntN(61))
	}
}

func (l *vehicleLocks) event(at time.Time, c int, ev, method uint8) {
	if len(l.pending) >= lockMaxPending {
		l.pending = l.pending[1:]
	}
	l.pending = append(l.pending, tank.LockEvent{Event: ev, Method: method, Compartment: uint8(c + 1), Device: lockDevice,
		Battery: l.battery[c], Time: at.Truncate(time.Second), Serial: LockSerial(l.idx, c+1)})
}

// open reports compartment c's lock opened by method (nothing when it is open already).
func (l *vehicleLocks) open(at time.Time, c int, method uint8) {
	if l.isOpen[c] {
		return
	}
	l.isOpen[c], l.how[c] = true, method
	l.event(at, c, lockOpened, method)
}

// close reports the lock closed by method (nothing when it is closed).
func (l *vehicleLocks) close(at time.Time, c int, method uint8) {
	if !l.isOpen[c] {
		return
	}
	l.isOpen[c] = false
	l.event(at, c, lockClosed, method)
}

// byHand is how the driver closes a lock: the way it was opened, except that a lock the platform
// opened is closed from the phone (only the platform's command is "remote").
func (l *vehicleLocks) byHand(c int) uint8 {
	if l.how[c] == lockMethodRemote {
		return lockMethodBLE
	}
	return l.how[c]
}

// tamper reports the lock forced.
func (l *vehicleLocks) tamper(at time.Time, c int) { l.event(at, c, lockTampered, 0) }

// stationMethod is how the driver opens the locks at a station: the phone, sometimes the local key.
func (l *vehicleLocks) stationMethod() uint8 {
	if l.rng.Float64() < 0.2 {
		return lockMethodKey
	}
	return lockMethodBLE
}

// newDay drains the batteries a little at each loading; a low one reports it, and the next day it
// has been changed.
func (l *vehicleLocks) newDay(at time.Time) {
	for c := range Compartments {
		switch {
		case l.battery[c] < lowBatteryPct:
			l.battery[c] = 100
		case l.battery[c] < 2*lowBatteryPct:
			l.battery[c] -= uint8(min(int(l.battery[c]), 1+l.rng.IntN(12)))
			if l.battery[c] < lowBatteryPct {
				l.event(at, c, lockLowBattery, 0)
			}
		default:
			l.battery[c] -= uint8(1 + l.rng.IntN(4))
		}
	}
}

// appendItems appends the waiting events to a report's items and forgets them.
func (l *vehicleLocks) appendItems(b []byte) []byte {
	for i := range l.pending {
		if out, err := l.pending[i].AppendItem(b); err == nil {
			b = out
		}
	}
	l.pending = l.pending[:0]
	return b
}
