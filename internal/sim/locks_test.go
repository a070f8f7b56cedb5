package sim

import (
	"testing"
	"time"

	"tankwatch/internal/tank"
)

// TestVehicleLockEvents runs demo vehicles for two days: each compartment's lock opens at the depot
// and at the stations and closes again, always in turn, with the vehicle's serial; openings at a
// depot or station happen there; a remote unlock answers with remote-method events.
func TestVehicleLockEvents(t *testing.T) {
	for idx := range 6 {
		start := testEpoch.Add(time.Duration(idx) * 5 * time.Hour) // some start resting, some loading, some on the way
		v := newVehicle(idx, 7, start, 10*time.Second, 0, 0)
		open := map[int]bool{} // as the locks were when the simulation started (that is not reported)
		for c := range Compartments {
			open[c+1] = v.locks.isOpen[c]
		}
		opened, closed := 0, 0
		for v.now.Before(start.Add(48 * time.Hour)) {
			s := v.step()
			if s.body == nil {
				continue
			}
			d := decodeBody(t, s.body)
			for _, e := range d.ext.Locks {
				c := int(e.Compartment)
				if e.Serial != LockSerial(idx, c) || e.Time.After(d.loc.Time) || e.Battery > 100 {
					t.Fatalf("vehicle %d: event %+v in a report of %v", idx, e, d.loc.Time)
				}
				switch e.Event {
				case lockOpened:
					if open[c] {
						t.Fatalf("vehicle %d: compartment %d opened twice", idx, c)
					}
					if !nearPlace(d.point(), 1500) {
						t.Errorf("vehicle %d: a well-behaved truck opened compartment %d away from every place at %v", idx, c, d.point())
					}
					open[c] = true
					opened++
				case lockClosed:
					if !open[c] {
						t.Fatalf("vehicle %d: compartment %d closed while closed", idx, c)
					}
					open[c] = false
					closed++
				}
			}
		}
		if opened < 2*Compartments || closed < 2*Compartments {
			t.Errorf("vehicle %d: %d openings, %d closings in two days", idx, opened, closed)
		}
	}
	v := newVehicle(0, 7, testEpoch.Add(6*time.Hour), 10*time.Second, 0, 0)
	v.body(v.now) // what the start had to say
	at := v.now.Add(time.Minute)
	v.applyLock(tank.HelpUnlock, 0b001, at)
	d := decodeBody(t, v.body(at))
	if len(d.ext.Locks) != 1 || d.ext.Locks[0].Method != lockMethodRemote || d.ext.Locks[0].Event != lockOpened ||
		d.ext.Locks[0].Compartment != 1 || !d.ext.Locks[0].Time.Equal(at.Truncate(time.Second)) {
		t.Fatalf("remote unlock: %+v", d.ext.Locks)
	}
	v.applyLock(tank.HelpLock, 0, at)
	if d := decodeBody(t, v.body(at)); len(d.ext.Locks) != 1 || d.ext.Locks[0].Event != lockClosed || d.ext.Locks[0].Method != lockMethodRemote {
		t.Fatalf("remote lock: %+v", d.ext.Locks)
	}
	// opened by the platform, closed by the driver: that closing is not remote
	v.applyLock(tank.HelpUnlock, 0b001, at)
	v.body(at)
	v.lockAll(0)
	if d := decodeBody(t, v.body(at)); len(d.ext.Locks) != 1 || d.ext.Locks[0].Event != lockClosed || d.ext.Locks[0].Method != lockMethodBLE {
		t.Fatalf("closed by hand after a remote unlock: %+v", d.ext.Locks)
	}
}
