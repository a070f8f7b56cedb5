package gateway

import (
	"testing"

	"tankwatch/internal/jt808"
	"tankwatch/internal/tank"
)

// lockSensor reports one slot, as the registry's "lock" decoder does: compartment 2's discharge valve open.
type lockSensor struct{}

func (lockSensor) PassThrough(byte, []byte) (tank.Extract, error) {
	p := &tank.State{Compartments: 2}
	p.Devices[1][tank.DischargeValve] = tank.DevInstalled | tank.DevOpen
	return tank.Extract{Tank: p}, nil
}

// TestPartialLockStateMergedIntoLastFullState: a lock sensor's single slot is merged into the last
// full tank state of the terminal, never stored as a tank whose other devices read "not fitted".
func TestPartialLockStateMergedIntoLastFullState(t *testing.T) {
	e := start(t, Config{}, true, lockSensor{})
	c := e.dial(jt808.V2013, term1.Phone)
	c.login()

	// before any full state the slot has nothing to merge into: stored as a raw frame only
	serial := c.send(&jt808.PassThrough{Type: jt808.PassSerial1, Data: []byte{0xC3, 2, 2, 3}})
	c.ack(serial, jt808.MsgUplinkPassThrough, jt808.ResultOK)
	if sub := e.sink.next(t, withMsg(jt808.MsgUplinkPassThrough)); len(sub.reports) != 0 {
		t.Fatalf("partial state without a base stored: %+v", sub.reports[0])
	}

	full := tank.State{Compartments: 3, Seal: tank.SealSealed}
	for i := range 3 {
		for k := range tank.Kinds {
			full.Devices[i][k] = tank.DevInstalled | tank.DevLocked
		}
	}
	loc := location(42)
	item, err := full.AppendItem(nil)
	if err != nil {
		t.Fatal(err)
	}
	loc.AddItem(item[0], item[2:])
	c.ack(c.send(loc), jt808.MsgLocation, jt808.ResultOK)
	e.sink.next(t, withReports)

	serial = c.send(&jt808.PassThrough{Type: jt808.PassSerial1, Data: []byte{0xC3, 2, 2, 3}})
	c.ack(serial, jt808.MsgUplinkPassThrough, jt808.ResultOK)
	r := e.sink.next(t, withReports).reports[0]
	want := full
	want.Devices[1][tank.DischargeValve] = tank.DevInstalled | tank.DevOpen
	if !r.TankOnly || r.Tank == nil || *r.Tank != want {
		t.Fatalf("merged state %+v, want %+v", r.Tank, want)
	}
}
