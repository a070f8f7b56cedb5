package tank

import (
	"errors"
	"math"
	"testing"
)

var strap3 = Strap{{0, 0}, {100, 500}, {1000, 9500}, {1800, 10000}}

func TestStrapVolume(t *testing.T) {
	for _, c := range []struct {
		mm   float64
		want float64
		over bool
	}{
		{-5, 0, false}, {0, 0, false}, {50, 250, false}, {100, 500, false}, {550, 5000, false},
		{1000, 9500, false}, {1400, 9750, false}, {1800, 10000, false}, {1900, 10000, true},
		{math.NaN(), 0, false},
	} {
		got, over := strap3.Volume(c.mm)
		if math.Abs(got-c.want) > 1e-9 || over != c.over {
			t.Errorf("Volume(%v) = %v,%v; want %v,%v", c.mm, got, over, c.want, c.over)
		}
	}
	// a table that starts above the bottom is interpolated from (0, 0)
	raised := Strap{{200, 1000}, {400, 3000}}
	if v, _ := raised.Volume(100); v != 500 {
		t.Errorf("below the first row: %v, want 500", v)
	}
	if v, _ := (Strap{}).Volume(100); v != 0 {
		t.Errorf("empty table: %v", v)
	}
}

func TestStrapHeightInvertsVolume(t *testing.T) {
	for _, v := range []float64{1, 250, 499, 500, 4321, 9500, 9999} {
		h := strap3.Height(v)
		back, _ := strap3.Volume(h)
		if math.Abs(back-v) > 1e-6 {
			t.Errorf("Volume(Height(%v)=%v) = %v", v, h, back)
		}
	}
	if h := strap3.Height(20000); h != 1800 {
		t.Errorf("above capacity: height %v, want 1800", h)
	}
	flat := Strap{{0, 0}, {10, 0}, {20, 100}}
	if h := flat.Height(0); h != 0 {
		t.Errorf("flat bottom: %v", h)
	}
}

func TestStrapValidate(t *testing.T) {
	for _, c := range []struct {
		name   string
		s      Strap
		row    int
		reason string
	}{
		{"valid", strap3, 0, ""},
		{"one row", Strap{{0, 0}}, 0, "tooFew"},
		{"height repeats", Strap{{0, 0}, {10, 5}, {10, 6}}, 3, "notRising"},
		{"height falls", Strap{{0, 0}, {10, 5}, {5, 6}}, 3, "notRising"},
		{"volume falls", Strap{{0, 0}, {10, 5}, {20, 4}}, 3, "falling"},
		{"flat volume is allowed", Strap{{0, 0}, {10, 5}, {20, 5}}, 0, ""},
		{"negative", Strap{{0, -1}, {10, 5}}, 1, "negative"},
		{"NaN", Strap{{0, 0}, {math.NaN(), 5}}, 2, "badRow"},
		{"too high", Strap{{0, 0}, {20001, 5}}, 2, "tooHigh"},
		{"too large", Strap{{0, 0}, {10, 1e8}}, 2, "tooLarge"},
	} {
		err := c.s.Validate()
		if c.reason == "" {
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
			}
			continue
		}
		var se *StrapError
		if !errors.As(err, &se) || se.Row != c.row || se.Reason != c.reason {
			t.Errorf("%s: %v, want row %d %s", c.name, err, c.row, c.reason)
		}
	}
	big := make(Strap, StrapMaxRows+1)
	for i := range big {
		big[i] = StrapRow{float64(i), float64(i)}
	}
	if err := big.Validate(); err == nil {
		t.Error("5001 rows accepted")
	}
}

func TestStrapText(t *testing.T) {
	s := Strap{{0, 0}, {12.5, 100.25}, {1800, 10000}}
	got, err := ParseStrap(s.Text())
	if err != nil || len(got) != 3 || got[1] != s[1] {
		t.Fatalf("round trip %q: %v %v", s.Text(), got, err)
	}
	if s.Text() != "0:0;12.5:100.25;1800:10000" {
		t.Errorf("text %q", s.Text())
	}
	if e, err := ParseStrap(" "); e != nil || err != nil {
		t.Errorf("empty: %v %v", e, err)
	}
	for _, bad := range []string{"1", "a:1", "1:b", "1:2;3"} {
		if _, err := ParseStrap(bad); err == nil {
			t.Errorf("ParseStrap(%q) accepted", bad)
		}
	}
}

func TestEllipseStrap(t *testing.T) {
	s := EllipseStrap(10000, 1800, 181)
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	if s.Capacity() != 10000 || s[0].VolumeL != 0 || s[180].HeightMM != 1800 {
		t.Fatalf("ends: %v %v", s[0], s[180])
	}
	// half height holds half the volume; a quarter of the height (y = 0.25) holds
	// (θ − sin θ)/2π with θ = 2π/3: 0.1955
	if v, _ := s.Volume(900); math.Abs(v-5000) > 1 {
		t.Errorf("half height: %v", v)
	}
	if v, _ := s.Volume(450); math.Abs(v-1955) > 2 {
		t.Errorf("quarter height: %v, want ≈1955", v)
	}
}
