package station

import (
	"math"
	"testing"
)

// poly builds a polygon near Shanghai from small integer steps (1 step = 0.001°, about 100 m), so the
// cases read as drawings.
func poly(xy ...float64) []Point {
	out := make([]Point, 0, len(xy)/2)
	for i := 0; i+1 < len(xy); i += 2 {
		out = append(out, Point{121.4 + xy[i]*0.001, 31.2 + xy[i+1]*0.001})
	}
	return out
}

func TestSelfIntersection(t *testing.T) {
	none := [2]Edge{}
	for _, c := range []struct {
		name  string
		ps    []Point
		edges [2]Edge // the edges reported, when the fence is refused
		bad   bool
	}{
		{"square", poly(0, 0, 4, 0, 4, 4, 0, 4), none, false},
		{"square closed explicitly (NewPolygon drops the copy)", poly(0, 0, 4, 0, 4, 4, 0, 4, 0, 0)[:4], none, false},
		{"concave L", poly(0, 0, 4, 0, 4, 2, 2, 2, 2, 4, 0, 4), none, false},
		{"straight-through vertex", poly(0, 0, 2, 0, 4, 0, 4, 4, 0, 4), none, false},
		{"repeated vertex", poly(0, 0, 4, 0, 4, 0, 4, 4, 0, 4), none, false},
		{"vertex one micro-degree off an edge", []Point{{121.4, 31.2}, {121.406, 31.2}, {121.406, 31.206}, {121.403, 31.200001}, {121.4, 31.206}}, none, false},
		{"bowtie", poly(0, 0, 4, 4, 4, 0, 0, 4), [2]Edge{{0, 1}, {2, 3}}, true},
		{"closing edge crosses", poly(0, 0, 4, 0, 0, 4, 4, 4), [2]Edge{{1, 2}, {3, 0}}, true},
		{"vertex touches another edge", poly(0, 0, 6, 0, 6, 6, 3, 0, 0, 6), [2]Edge{{0, 1}, {2, 3}}, true},
		{"vertex touches at stored precision (0.01 m off)", []Point{{121.4, 31.2}, {121.406, 31.2}, {121.406, 31.206}, {121.403, 31.2000001}, {121.4, 31.206}}, [2]Edge{{0, 1}, {2, 3}}, true},
		{"two vertices meet (pinched figure of eight)", poly(0, 0, 2, 2, 4, 0, 4, 4, 2, 2, 0, 4), [2]Edge{{0, 1}, {3, 4}}, true},
		{"collinear overlap of non-adjacent edges", poly(0, 0, 4, 0, 4, 1, 3, 1, 3, 0, 1, 0, 1, 1, 0, 1), [2]Edge{{0, 1}, {3, 4}}, true},
		{"spike doubling back", poly(0, 0, 4, 0, 2, 0, 2, 3), [2]Edge{{0, 1}, {1, 2}}, true},
		{"last vertex back on the first edge (the closing edge overlaps it)", poly(0, 0, 4, 0, 4, 4, 2, 0), [2]Edge{{0, 1}, {2, 3}}, true},
		{"arrow (concave, valid)", poly(0, 0, 4, 0, 2, 2, 4, 4, 0, 4), none, false},
		{"a vertex on the closing edge", poly(0, 0, 4, 0, 0, 2, 4, 4, 0, 4), [2]Edge{{1, 2}, {4, 0}}, true},
		{"collinear triangle", poly(0, 0, 1, 0, 2, 0), [2]Edge{{1, 2}, {2, 0}}, true},
	} {
		e1, e2, bad := SelfIntersection(c.ps)
		if bad != c.bad || (bad && [2]Edge{e1, e2} != c.edges) {
			t.Errorf("%s: %v %v %v, want %v %v", c.name, e1, e2, bad, c.bad, c.edges)
		}
	}
}

// The check is O(n²) over at most MaxVertices edges: a 500-vertex round fence passes; swapping two of
// its vertices makes it cross itself.
func TestSelfIntersectionManyVertices(t *testing.T) {
	ps := make([]Point, MaxVertices)
	for i := range ps {
		a := float64(i) / float64(MaxVertices) * 2 * math.Pi
		ps[i] = Point{121.4 + 0.01*math.Cos(a), 31.2 + 0.01*math.Sin(a)}
	}
	if e1, e2, bad := SelfIntersection(ps); bad {
		t.Fatalf("round fence refused: %v %v", e1, e2)
	}
	ps[100], ps[300] = ps[300], ps[100]
	if _, _, bad := SelfIntersection(ps); !bad {
		t.Fatal("two swapped vertices not refused")
	}
}
