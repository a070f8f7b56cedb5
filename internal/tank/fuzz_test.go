package tank_test

import (
	"testing"

	"tankwatch/internal/tank"
)

// FuzzExtract feeds the same bytes to every decoder of the package: the pass-through item list, each
// item decoder, the serial registry and the lock-state parser. None may panic; whatever decodes must
// encode back to the same bytes. Seeds live in testdata/fuzz/FuzzExtract.
func FuzzExtract(f *testing.F) {
	f.Add([]byte("\xe1\x0b\x01\x02\x05\x05\x01\x03\x05\x07\x00\x09\x01"))
	f.Add([]byte("\xe2\x0a\x01\x01\x05\xf0\x00\x00\x48\xda\x00\xeb\xe3\x03\x01\x12\x34"))
	f.Add([]byte("\xa1\x03\x06\x40\x00\x00\x4e\x20\xff\x9c"))
	// a malformed 0xE1 between good items, then a last item cut short: both dropped, 0xE3 kept
	f.Add([]byte("\xe1\x03\x01\x09\x00\xe3\x03\x01\x12\x34\xe2\x0a\x01\x01"))
	reg := registry()
	f.Fuzz(func(t *testing.T, in []byte) {
		// with or without dropped items, what was kept is whole
		e, err := tank.FromPassThrough(in)
		if e.Tank != nil {
			if _, err := e.Tank.AppendItem(nil); err != nil {
				t.Fatalf("decoded state does not encode: %v", err)
			}
		}
		if e.Levels != nil {
			if _, err := e.Levels.AppendItem(nil); err != nil {
				t.Fatalf("decoded levels do not encode: %v", err)
			}
		}
		if (err == nil) != (tank.Dropped(err) == 0) || tank.Dropped(err) > len(in) {
			t.Fatalf("%d items dropped from %d bytes: %v", tank.Dropped(err), len(in), err)
		}
		var s tank.State
		if s.Decode(in) == nil {
			out, err := s.AppendItem(nil)
			if err != nil || string(out[2:]) != string(in) {
				t.Fatalf("state round trip: %X %v", out, err)
			}
			if back, ok := tank.ParseLockString(tank.LockString(&s), s.Compartments); !ok || back.Compartments != s.Compartments {
				t.Fatalf("lock string round trip: %+v", back)
			}
		}
		var l tank.Levels
		if l.Decode(in) == nil {
			out, err := l.AppendItem(nil)
			if err != nil || string(out[2:]) != string(in) {
				t.Fatalf("levels round trip: %X %v", out, err)
			}
		}
		var h tank.Help
		if h.Decode(in) == nil && string(h.AppendItem(nil)[2:]) != string(in) {
			t.Fatal("help round trip")
		}
		var c tank.LockCommand
		if c.Decode(in) == nil && string(c.AppendItem(nil)[2:]) != string(in) {
			t.Fatal("lock command round trip")
		}
		_, _ = reg.Decode(in)
		_, _ = tank.ParseLockString(string(in), len(in)%10)
	})
}
