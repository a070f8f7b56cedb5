package tank

import "testing"

// TestSensorClash: which registrations of two different groups cannot both be decoded as registered
// (the gateway looks identifications up across all groups, longest prefix first; D29).
func TestSensorClash(t *testing.T) {
	s := func(id, dec string, length int) *Sensor {
		return &Sensor{Identification: id, Decoder: dec, Length: length}
	}
	for _, c := range []struct {
		name string
		a, b *Sensor
		want bool
	}{
		{"same ID, decoder and length: decoded alike", s("A1", "level", 10), s("A1", "level", 10), false},
		{"same ID, length unchecked on both", s("A1", "level", 0), s("A1", "level", 0), false},
		{"same ID, another decoder", s("A1", "level", 0), s("A1", "lock", 0), true},
		{"same ID, another length", s("A1", "level", 10), s("A1", "level", 0), true},
		{"ours extends theirs", s("A1FF", "lock", 0), s("A1", "level", 0), true},
		{"theirs extends ours", s("A1", "level", 0), s("A1FF", "level", 0), true},
		{"unrelated IDs", s("A1", "level", 0), s("B1", "lock", 0), false},
		{"a shared leading nibble is not a byte prefix", s("A1", "level", 0), s("A2", "level", 0), false},
	} {
		if got := clash(c.a, c.b); got != c.want {
			t.Errorf("%s: clash %v, want %v", c.name, got, c.want)
		}
		if got := clash(c.b, c.a); got != c.want {
			t.Errorf("%s (reversed): clash %v, want %v", c.name, got, c.want)
		}
	}
}
