package tank_test

import (
	"errors"
	"strings"
	"testing"

	"tankwatch/internal/tank"
)

func TestParseIdentification(t *testing.T) {
	for in, want := range map[string]string{"A1": "A1", "a1": "A1", " 0a1b ": "0A1B", "A": "0A", "12345": "012345", "DEADBEEF": "DEADBEEF"} {
		got, b, ok := tank.ParseIdentification(in)
		if !ok || got != want || len(b) != len(want)/2 {
			t.Errorf("%q: %q %X %v, want %q", in, got, b, ok, want)
		}
	}
	for _, bad := range []string{"", " ", "G1", "DEADBEEF0", "A-1", "0x1"} {
		if _, _, ok := tank.ParseIdentification(bad); ok {
			t.Errorf("%q accepted", bad)
		}
	}
}

func registry() *tank.Registry {
	return tank.NewRegistry([]tank.SensorDef{
		{ID: 1, Identification: []byte{0xA1}, Length: 10, Decoder: tank.DecoderLevel},
		{ID: 2, Identification: []byte{0xA1, 0x02}, Length: 0, Decoder: tank.DecoderLock},
		{ID: 3, Identification: []byte{0xB0}, Length: 0, Decoder: tank.DecoderLock},
		{ID: 4, Identification: []byte{0xB0}, Length: 0, Decoder: tank.DecoderLock}, // same sensor in another group
		{ID: 5, Identification: []byte{0xC0}, Length: 0, Decoder: tank.DecoderLock},
		{ID: 6, Identification: []byte{0xC0}, Length: 0, Decoder: tank.DecoderLevel}, // conflicting registration
	})
}

func TestRegistryDecode(t *testing.T) {
	r := registry()
	if r.Len() != 6 {
		t.Fatalf("len %d", r.Len())
	}
	e, err := r.Decode(hx(t, "A1 03 0640 00004E20 FF9C"))
	if err != nil || e.Levels == nil || e.Levels.N != 1 || e.Tank != nil ||
		e.Levels.Probes[0] != (tank.Level{Compartment: 3, LevelMM: 1600, VolumeL: 20000, TempDeci: -100}) {
		t.Fatalf("level: %+v %v", e, err)
	}
	// A1 02 is the longer registered identification, so this is the lock sensor, not a level message.
	e, err = r.Decode(hx(t, "A1 02 03 01 06"))
	if err != nil || e.Tank == nil || e.Levels != nil || e.Tank.Compartments != 3 ||
		e.Tank.Devices[2][tank.ManholeCover] != tank.DevInstalled|tank.DevOpen|tank.DevLocked {
		t.Fatalf("lock: %+v %v", e, err)
	}
	if e, err := r.Decode(hx(t, "B0 01 03 04")); err != nil || tank.LockString(e.Tank)[96:100] != "1010" {
		t.Fatalf("agreeing registrations: %+v %v", e, err)
	}
	cases := []struct {
		hex, msg string
		unknown  bool
	}{
		{"", "empty serial pass-through", false},
		{"FF 01 02 03", "no sensor registered for content starting FF010203", true},
		{"A1 03 0640 00004E20 FF", "registered message length is 10", false},
		{"C0 01 00 01", "registered 2 times with different decoders", false},
		{"B0 01 04 01", "device kind 4", false},
		{"B0 01 00 10", "undefined bits", false},
		{"B0 09 00 01", "compartment 9", false},
		{"B0 01 00", "lock payload of 2 bytes, want 3", false},
	}
	for _, c := range cases {
		_, err := r.Decode(hx(t, c.hex))
		if err == nil || !strings.Contains(err.Error(), c.msg) || errors.Is(err, tank.ErrUnknownSensor) != c.unknown {
			t.Errorf("%s: %v, want %q", c.hex, err, c.msg)
		}
	}
	if _, err := tank.DecodeSerial("valve", []byte{1}); err == nil || !strings.Contains(err.Error(), `unknown decoder "valve"`) {
		t.Errorf("unknown decoder: %v", err)
	}
}

func TestStateMerge(t *testing.T) {
	last := *twoCompartments()
	e, err := tank.DecodeSerial(tank.DecoderLock, hx(t, "02 03 03")) // compartment 2 bottom valve: open
	if err != nil {
		t.Fatal(err)
	}
	last.Merge(e.Tank)
	want := *twoCompartments()
	want.Devices[1][tank.BottomValve] = tank.DevInstalled | tank.DevOpen
	if last != want {
		t.Fatalf("merge: %+v", last)
	}
	e, _ = tank.DecodeSerial(tank.DecoderLock, hx(t, "04 00 05"))
	last.Merge(e.Tank)
	if last.Compartments != 4 || last.Seal != tank.SealSealed || last.Devices[3][0] != 0x05 {
		t.Fatalf("widening merge: %+v", last)
	}
	last.Merge(nil)
}
