package station

import (
	"errors"
	"math"
	"testing"
)

func TestParsePoints(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		err  error
		back string
	}{
		{"121.44,31.19", 1, nil, "121.440000,31.190000"},
		{"121.44,31.19;121.45,31.2;", 2, nil, "121.440000,31.190000;121.450000,31.200000"},
		{" 121.44 , 31.19 ; 121.45,31.2", 2, nil, "121.440000,31.190000;121.450000,31.200000"},
		{"", 0, nil, ""},
		{"121.44", 0, ErrPointSyntax, ""},
		{"abc,31", 0, ErrPointSyntax, ""},
		{"181,31", 0, ErrPointRange, ""},
		{"121,-91", 0, ErrPointRange, ""},
		{"0,0", 0, ErrPointRange, ""},
		{"NaN,1", 0, ErrPointSyntax, ""},
	} {
		ps, err := ParsePoints(c.in)
		if !errors.Is(err, c.err) || len(ps) != c.n {
			t.Errorf("%q: %v %v, want %d points, %v", c.in, ps, err, c.n, c.err)
			continue
		}
		if err == nil && FormatPoints(ps) != c.back {
			t.Errorf("%q formats as %q, want %q", c.in, FormatPoints(ps), c.back)
		}
	}
}

func TestValidation(t *testing.T) {
	sq := []Point{{121, 31}, {121.01, 31}, {121.01, 31.01}, {121, 31.01}}
	for _, c := range []struct {
		name string
		f    func() (Fence, error)
		err  error
	}{
		{"square", func() (Fence, error) { return NewPolygon(sq) }, nil},
		{"closed square", func() (Fence, error) { return NewPolygon(append(sq, sq[0])) }, nil},
		{"two points", func() (Fence, error) { return NewPolygon(sq[:2]) }, ErrPolygonPoints},
		{"three with a repeat", func() (Fence, error) { return NewPolygon([]Point{sq[0], sq[1], sq[1]}) }, ErrPolygonPoints},
		{"too many", func() (Fence, error) { return NewPolygon(make([]Point, MaxVertices+2)) }, ErrPolygonMany},
		{"circle", func() (Fence, error) { return NewCircle(Point{121, 31}, 200) }, nil},
		{"circle 9 m", func() (Fence, error) { return NewCircle(Point{121, 31}, 9) }, ErrRadiusRange},
		{"circle 50.1 km", func() (Fence, error) { return NewCircle(Point{121, 31}, 50_100) }, ErrRadiusRange},
		{"circle at 0,0", func() (Fence, error) { return NewCircle(Point{}, 100) }, ErrPointRange},
		{"type 3", func() (Fence, error) { return ParseFence(3, "", "", 0) }, ErrFenceType},
		{"parsed circle", func() (Fence, error) { return ParseFence(FenceCircle, "", "121,31", 100) }, nil},
		{"parsed bad centre", func() (Fence, error) { return ParseFence(FenceCircle, "", "121", 100) }, ErrPointSyntax},
	} {
		if _, err := c.f(); !errors.Is(err, c.err) {
			t.Errorf("%s: %v, want %v", c.name, err, c.err)
		}
	}
}

func TestContains(t *testing.T) {
	// An L-shaped (concave) polygon: the notch must be outside.
	l, err := NewPolygon([]Point{{121, 31}, {121.02, 31}, {121.02, 31.01}, {121.01, 31.01}, {121.01, 31.02}, {121, 31.02}})
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewCircle(Point{121.5, 31.2}, 300)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		f    *Fence
		p    Point
		in   bool
	}{
		{"L inside lower arm", &l, Point{121.015, 31.005}, true},
		{"L inside upper arm", &l, Point{121.005, 31.015}, true},
		{"L notch", &l, Point{121.015, 31.015}, false},
		{"L outside box", &l, Point{121.03, 31.005}, false},
		{"circle centre", &c, Point{121.5, 31.2}, true},
		{"circle 290 m north", &c, Point{121.5, 31.2 + 290/111195.0}, true},
		{"circle 310 m north", &c, Point{121.5, 31.2 + 310/111195.0}, false},
		{"circle 290 m east", &c, Point{121.5 + 290/(111195.0*math.Cos(31.2*math.Pi/180)), 31.2}, true},
		{"circle 310 m east", &c, Point{121.5 + 310/(111195.0*math.Cos(31.2*math.Pi/180)), 31.2}, false},
	} {
		if got := tc.f.Contains(tc.p); got != tc.in {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.in)
		}
	}
}

func TestDistance(t *testing.T) {
	// one degree of latitude is 111.2 km on the mean sphere
	if d := DistanceM(Point{121, 31}, Point{121, 32}); math.Abs(d-111195) > 5 {
		t.Errorf("1° of latitude: %.0f m", d)
	}
	sq, _ := NewPolygon([]Point{{121, 31}, {121.01, 31}, {121.01, 31.01}, {121, 31.01}})
	if d := sq.DistanceM(Point{121.005, 31.005}); d != 0 {
		t.Errorf("inside: %f", d)
	}
	// 0.001° of latitude south of the bottom edge ≈ 111 m
	if d := sq.DistanceM(Point{121.005, 30.999}); math.Abs(d-111.2) > 1 {
		t.Errorf("below the edge: %f", d)
	}
	c, _ := NewCircle(Point{121, 31}, 100)
	if d := c.DistanceM(Point{121, 31.002}); math.Abs(d-122.4) > 1 {
		t.Errorf("circle: %f", d)
	}
	if !c.Box.Contains(Point{121, 31.0008}) || c.Box.Contains(Point{121, 31.001}) {
		t.Errorf("circle box %+v", c.Box)
	}
}
