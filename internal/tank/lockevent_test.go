package tank_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"tankwatch/internal/tank"
)

// docLockEvent is the 0xE6 example of docs/PROTOCOL.md: compartment 1's manhole cover opened by a
// remote command, battery 87 %, at 2026-03-01 15:58:30 GMT+8, lock "BL-0001".
func docLockEvent() *tank.LockEvent {
	return &tank.LockEvent{Event: 1, Method: 1, Compartment: 1, Device: 1, Battery: 87,
		Time: time.Date(2026, 3, 1, 7, 58, 30, 0, time.UTC), Serial: "BL-0001"}
}

func TestLockEventItem(t *testing.T) {
	want := hx(t, "E6 14 01 01 01 01 01 57 260301155830 07 424C2D30303031")
	got, err := docLockEvent().AppendItem(nil)
	if err != nil || string(got) != string(want) {
		t.Fatalf("append: %X %v, want %X", got, err, want)
	}
	var d tank.LockEvent
	if err := d.Decode(want[2:]); err != nil || d != *docLockEvent() {
		t.Fatalf("decode: %+v %v", d, err)
	}
	// battery unknown, 32-character serial, tampered without a method, bottom valve of compartment 8
	long := &tank.LockEvent{Event: 3, Compartment: 8, Device: 3, Battery: tank.BatteryUnknown,
		Time: time.Date(2026, 12, 31, 15, 59, 59, 0, time.UTC), Serial: strings.Repeat("Z", 32)}
	b, err := long.AppendItem(nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Decode(b[2:]); err != nil || d != *long {
		t.Fatalf("long decode: %+v %v", d, err)
	}
}

// TestLockEventRefused: every field outside §2's range is refused by the encoder and the decoder alike.
func TestLockEventRefused(t *testing.T) {
	cases := []struct {
		name string
		edit func(e *tank.LockEvent)
		hex  string // the value as a terminal might send it ("" = the edit applied to the example)
	}{
		{name: "event 0", edit: func(e *tank.LockEvent) { e.Event = 0 }},
		{name: "event 7", edit: func(e *tank.LockEvent) { e.Event = 7 }},
		{name: "method 4", edit: func(e *tank.LockEvent) { e.Method = 4 }},
		{name: "compartment 0", edit: func(e *tank.LockEvent) { e.Compartment = 0 }},
		{name: "compartment 9", edit: func(e *tank.LockEvent) { e.Compartment = 9 }},
		{name: "device 4", edit: func(e *tank.LockEvent) { e.Device = 4 }},
		{name: "battery 101", edit: func(e *tank.LockEvent) { e.Battery = 101 }},
		{name: "no time", edit: func(e *tank.LockEvent) { e.Time = time.Time{} }},
		{name: "serial of 3", edit: func(e *tank.LockEvent) { e.Serial = "BL1" }},
		{name: "serial of 33", edit: func(e *tank.LockEvent) { e.Serial = strings.Repeat("A", 33) }},
		{name: "serial with a space", edit: func(e *tank.LockEvent) { e.Serial = "BL 0001" }},
		{name: "serial not ASCII", edit: func(e *tank.LockEvent) { e.Serial = "锁0001" }},
		{name: "version 2", hex: "02 01 01 01 01 57 260301155830 07 424C2D30303031"},
		{name: "short", hex: "01 01 01 01 01 57 2603011558"},
		{name: "serial longer than sent", hex: "01 01 01 01 01 57 260301155830 08 424C2D30303031"},
		{name: "serial shorter than sent", hex: "01 01 01 01 01 57 260301155830 06 424C2D30303031"},
		{name: "time not BCD", hex: "01 01 01 01 01 57 2603011558AA 07 424C2D30303031"},
		{name: "month 13", hex: "01 01 01 01 01 57 261301155830 07 424C2D30303031"},
		{name: "zero time", hex: "01 01 01 01 01 57 000000000000 07 424C2D30303031"},
	}
	for _, c := range cases {
		var v []byte
		if c.hex != "" {
			v = hx(t, c.hex)
		} else {
			e := docLockEvent()
			c.edit(e)
			if got, err := e.AppendItem([]byte{0xAA}); !errors.Is(err, tank.ErrItem) || string(got) != "\xaa" {
				t.Errorf("%s: encoded %X %v", c.name, got, err)
			}
			// the same value as a terminal would put it on the wire, bypassing the encoder's check
			v = rawLockEvent(e)
		}
		var d tank.LockEvent
		if err := d.Decode(v); !errors.Is(err, tank.ErrItem) {
			t.Errorf("%s: decoded %+v %v", c.name, d, err)
		}
	}
}

// rawLockEvent writes e's fields without checking them (a broken terminal does).
func rawLockEvent(e *tank.LockEvent) []byte {
	v := []byte{1, e.Event, e.Method, e.Compartment, e.Device, e.Battery}
	if e.Time.IsZero() {
		v = append(v, 0, 0, 0, 0, 0, 0)
	} else {
		c := e.Time.In(time.FixedZone("", 8*3600))
		bcd := func(n int) byte { return byte(n/10)<<4 | byte(n%10) }
		v = append(v, bcd(c.Year()-2000), bcd(int(c.Month())), bcd(c.Day()), bcd(c.Hour()), bcd(c.Minute()), bcd(c.Second()))
	}
	return append(append(v, byte(len(e.Serial))), e.Serial...)
}

// TestLockEventsInAList: several 0xE6 of one message are all kept, in order; a malformed one is
// dropped on its own and the tank state beside it survives.
func TestLockEventsInAList(t *testing.T) {
	first, _ := docLockEvent().AppendItem(nil)
	second := *docLockEvent()
	second.Event, second.Method, second.Compartment = 2, 2, 2
	secondItem, _ := second.AppendItem(nil)
	state, _ := twoCompartments().AppendItem(nil)
	bad := hx(t, "E6 05 01 01 01 01 01")
	list := append(append(append(append([]byte{}, first...), bad...), state...), secondItem...)
	e, err := tank.FromPassThrough(list)
	if tank.Dropped(err) != 1 || !errors.Is(err, tank.ErrItem) || e.Tank == nil || len(e.Locks) != 2 ||
		e.Locks[0] != *docLockEvent() || e.Locks[1] != second || e.Empty() {
		t.Fatalf("extract %+v, %v", e, err)
	}
	only, err := tank.FromPassThrough(first)
	if err != nil || only.Empty() || len(only.Locks) != 1 {
		t.Fatalf("lock event alone: %+v %v", only, err)
	}
}

// FuzzLockEvent: no input panics the decoder; whatever decodes encodes back to the same bytes.
func FuzzLockEvent(f *testing.F) {
	f.Add(hx(f, "01 01 01 01 01 57 260301155830 07 424C2D30303031"))
	f.Add(hx(f, "01 03 00 08 03 FF 261231235959 04 41424344"))
	f.Add(hx(f, "01 01 01 01 01 57 260301155830 08 424C2D30303031"))
	f.Fuzz(func(t *testing.T, in []byte) {
		var e tank.LockEvent
		if e.Decode(in) == nil {
			out, err := e.AppendItem(nil)
			if err != nil || string(out[2:]) != string(in) {
				t.Fatalf("lock event round trip: %X %v", out, err)
			}
		}
		x, err := tank.FromPassThrough(append([]byte{tank.ItemLockEvent, byte(len(in))}, in...))
		if len(in) < 256 && (err == nil) != (len(x.Locks) == 1) {
			t.Fatalf("list of one lock event: %+v %v", x, err)
		}
	})
}
