package station

import (
	"math"
	"strconv"
	"strings"
)

// Fence types (spec §9).
const (
	FencePolygon = 1
	FenceCircle  = 2
)

// Radius bounds of a circle fence, metres: below 10 m a GNSS fix wanders out of the fence while the
// tanker stands still; beyond 50 km a "station" is a region, not a place.
const (
	MinRadius = 10
	MaxRadius = 50_000
	// MaxVertices bounds a polygon so the point-in-polygon test on every report stays cheap.
	MaxVertices = 500
)

const earthRadiusM = 6371008.8

// Point is a WGS-84 position in degrees.
type Point struct{ Lng, Lat float64 }

// Box is a bounding box in degrees.
type Box struct{ MinLng, MinLat, MaxLng, MaxLat float64 }

// Contains reports whether p lies in b (edges included).
func (b Box) Contains(p Point) bool {
	return p.Lng >= b.MinLng && p.Lng <= b.MaxLng && p.Lat >= b.MinLat && p.Lat <= b.MaxLat
}

// geomError names what is wrong with a fence; the service turns it into a translated message.
type geomError string

func (e geomError) Error() string { return string(e) }

// Errors of fence parsing and validation; each is also the catalogue key of its message.
const (
	ErrPointSyntax   geomError = "station.pointSyntax"
	ErrPointRange    geomError = "station.pointRange"
	ErrPolygonPoints geomError = "station.polygonPoints"
	ErrPolygonMany   geomError = "station.polygonMany"
	ErrRadiusRange   geomError = "station.radiusRange"
	ErrFenceType     geomError = "station.fenceType"
	ErrSelfIntersect geomError = "station.selfIntersecting"
)

// ParsePoint reads "lng,lat".
func ParsePoint(s string) (Point, error) {
	a, b, ok := strings.Cut(strings.TrimSpace(s), ",")
	if !ok {
		return Point{}, ErrPointSyntax
	}
	lng, err1 := strconv.ParseFloat(strings.TrimSpace(a), 64)
	lat, err2 := strconv.ParseFloat(strings.TrimSpace(b), 64)
	if err1 != nil || err2 != nil || math.IsNaN(lng) || math.IsNaN(lat) {
		return Point{}, ErrPointSyntax
	}
	p := Point{lng, lat}
	if !p.Valid() {
		return Point{}, ErrPointRange
	}
	return p, nil
}

// Valid reports whether p is a position: both coordinates in range and not the 0,0 the spec counts as
// missing.
func (p Point) Valid() bool {
	return p.Lng >= -180 && p.Lng <= 180 && p.Lat >= -90 && p.Lat <= 90 && (p.Lng != 0 || p.Lat != 0)
}

// FormatPoint writes "lng,lat" with 6 decimals (about 0.1 m).
func FormatPoint(p Point) string {
	return strconv.FormatFloat(p.Lng, 'f', 6, 64) + "," + strconv.FormatFloat(p.Lat, 'f', 6, 64)
}

// ParsePoints reads "lng,lat;lng,lat;..."; empty parts (a trailing semicolon) are skipped.
func ParsePoints(s string) ([]Point, error) {
	var out []Point
	for part := range strings.SplitSeq(s, ";") {
		if strings.TrimSpace(part) == "" {
			continue
		}
		p, err := ParsePoint(part)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// FormatPoints writes points as "lng,lat;lng,lat".
func FormatPoints(ps []Point) string {
	var b strings.Builder
	for i, p := range ps {
		if i > 0 {
			b.WriteByte(';')
		}
		b.WriteString(FormatPoint(p))
	}
	return b.String()
}

// Fence is a parsed, valid station fence.
type Fence struct {
	Type   int
	Points []Point // polygon vertices, not closed (the last is not a copy of the first)
	Center Point
	Radius float64 // metres
	Box    Box
}

// NewPolygon validates a polygon: at least three distinct vertices, at most MaxVertices. A closing
// vertex equal to the first is dropped.
func NewPolygon(ps []Point) (Fence, error) {
	if n := len(ps); n > 1 && ps[0] == ps[n-1] {
		ps = ps[:n-1]
	}
	if len(ps) > MaxVertices {
		return Fence{}, ErrPolygonMany
	}
	distinct := map[Point]bool{}
	for _, p := range ps {
		if !p.Valid() {
			return Fence{}, ErrPointRange
		}
		distinct[p] = true
	}
	if len(distinct) < 3 {
		return Fence{}, ErrPolygonPoints
	}
	f := Fence{Type: FencePolygon, Points: ps}
	f.Box = Box{math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)}
	var sx, sy float64
	for _, p := range ps {
		f.Box.MinLng, f.Box.MaxLng = min(f.Box.MinLng, p.Lng), max(f.Box.MaxLng, p.Lng)
		f.Box.MinLat, f.Box.MaxLat = min(f.Box.MinLat, p.Lat), max(f.Box.MaxLat, p.Lat)
		sx, sy = sx+p.Lng, sy+p.Lat
	}
	// The vertex mean is the centre addresses and markers use: inside for the convex fences stations
	// have, and a marker needs no more.
	f.Center = Point{sx / float64(len(ps)), sy / float64(len(ps))}
	return f, nil
}

// Edge is a polygon edge named by the indexes of its two vertices (0-based, in the order drawn; the
// closing edge runs from the last vertex to vertex 0).
type Edge struct{ From, To int }

// microPoint is a vertex in integer micro-degrees: the precision a fence is stored at (FormatPoint),
// so the test judges the fence that will be kept, and its cross products are exact.
type microPoint struct{ x, y int64 }

func microOf(p Point) microPoint {
	return microPoint{int64(math.Round(p.Lng * 1e6)), int64(math.Round(p.Lat * 1e6))}
}

// orient is the sign of the cross product (b-a)×(c-a): 1 left turn, -1 right turn, 0 collinear.
// Coordinates are at most 3.6e8 apart, so the products stay far inside int64.
func orient(a, b, c microPoint) int {
	v := (b.x-a.x)*(c.y-a.y) - (b.y-a.y)*(c.x-a.x)
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}

// onSegment reports whether c, collinear with a and b, lies on the closed segment ab.
func onSegment(a, b, c microPoint) bool {
	return min(a.x, b.x) <= c.x && c.x <= max(a.x, b.x) && min(a.y, b.y) <= c.y && c.y <= max(a.y, b.y)
}

// segmentsMeet reports whether the closed segments ab and cd share a point: a proper crossing, an
// end touching the other segment, or a collinear overlap.
func segmentsMeet(a, b, c, d microPoint) bool {
	o1, o2, o3, o4 := orient(a, b, c), orient(a, b, d), orient(c, d, a), orient(c, d, b)
	if o1*o2 < 0 && o3*o4 < 0 {
		return true
	}
	return (o1 == 0 && onSegment(a, b, c)) || (o2 == 0 && onSegment(a, b, d)) ||
		(o3 == 0 && onSegment(c, d, a)) || (o4 == 0 && onSegment(c, d, b))
}

// SelfIntersection finds two edges of the polygon ps (implicitly closed) that cross, touch or overlap
// other than where consecutive edges join: a figure-of-eight, a vertex lying on another edge, a spike
// that doubles back along its own edge. Such a fence has no clear inside (the even-odd test would count
// the crossed part as outside), so it is refused when entered. Repeated consecutive vertices are one
// vertex. O(n²) over at most MaxVertices edges, once per save.
func SelfIntersection(ps []Point) (Edge, Edge, bool) {
	type edge struct {
		Edge
		a, b microPoint
	}
	n := len(ps)
	q := make([]microPoint, n)
	for i, p := range ps {
		q[i] = microOf(p)
	}
	var es []edge
	for i := range q {
		j := (i + 1) % n
		if q[i] != q[j] {
			es = append(es, edge{Edge{i, j}, q[i], q[j]})
		}
	}
	m := len(es)
	for k := range es {
		// consecutive edges meet at their shared vertex; they overlap only if the second turns straight
		// back along the first (collinear, pointing the same way from the shared vertex)
		e, f := es[k], es[(k+1)%m]
		if m >= 2 && orient(e.a, e.b, f.b) == 0 && (e.a.x-e.b.x)*(f.b.x-f.a.x)+(e.a.y-e.b.y)*(f.b.y-f.a.y) > 0 {
			return e.Edge, f.Edge, true
		}
		for l := k + 2; l < m; l++ {
			if k == 0 && l == m-1 {
				continue // the closing edge and the first edge are consecutive
			}
			if g := es[l]; segmentsMeet(e.a, e.b, g.a, g.b) {
				return e.Edge, g.Edge, true
			}
		}
	}
	return Edge{}, Edge{}, false
}

// NewCircle validates a circle fence.
func NewCircle(c Point, radius float64) (Fence, error) {
	if !c.Valid() {
		return Fence{}, ErrPointRange
	}
	if math.IsNaN(radius) || radius < MinRadius || radius > MaxRadius {
		return Fence{}, ErrRadiusRange
	}
	dLat := radius / earthRadiusM * 180 / math.Pi
	cos := math.Max(math.Cos(c.Lat*math.Pi/180), 0.01)
	dLng := dLat / cos
	return Fence{Type: FenceCircle, Center: c, Radius: radius,
		Box: Box{c.Lng - dLng, c.Lat - dLat, c.Lng + dLng, c.Lat + dLat}}, nil
}

// ParseFence validates the stored text form of a fence.
func ParseFence(fenceType int, points, center string, radius float64) (Fence, error) {
	switch fenceType {
	case FencePolygon:
		ps, err := ParsePoints(points)
		if err != nil {
			return Fence{}, err
		}
		return NewPolygon(ps)
	case FenceCircle:
		c, err := ParsePoint(center)
		if err != nil {
			return Fence{}, err
		}
		return NewCircle(c, radius)
	}
	return Fence{}, ErrFenceType
}

// Contains reports whether p lies inside the fence (on a polygon's edge counts as either).
func (f *Fence) Contains(p Point) bool {
	if !f.Box.Contains(p) {
		return false
	}
	if f.Type == FenceCircle {
		return DistanceM(f.Center, p) <= f.Radius
	}
	return InPolygon(f.Points, p)
}

// DistanceM is the distance from p to the fence's edge, 0 inside.
func (f *Fence) DistanceM(p Point) float64 {
	if f.Contains(p) {
		return 0
	}
	if f.Type == FenceCircle {
		return DistanceM(f.Center, p) - f.Radius
	}
	best := math.Inf(1)
	for i := range f.Points {
		a, b := f.Points[i], f.Points[(i+1)%len(f.Points)]
		best = min(best, segmentDistanceM(a, b, p))
	}
	return best
}

// InPolygon is the even-odd ray test in degrees: fences are small enough that the plane is flat.
func InPolygon(ps []Point, p Point) bool {
	in := false
	for i, j := 0, len(ps)-1; i < len(ps); j, i = i, i+1 {
		a, b := ps[i], ps[j]
		if (a.Lat > p.Lat) != (b.Lat > p.Lat) &&
			p.Lng < (b.Lng-a.Lng)*(p.Lat-a.Lat)/(b.Lat-a.Lat)+a.Lng {
			in = !in
		}
	}
	return in
}

// DistanceM is the haversine distance in metres.
func DistanceM(a, b Point) float64 {
	const rad = math.Pi / 180
	dLat, dLng := (b.Lat-a.Lat)*rad, (b.Lng-a.Lng)*rad
	h := math.Sin(dLat/2)*math.Sin(dLat/2) + math.Cos(a.Lat*rad)*math.Cos(b.Lat*rad)*math.Sin(dLng/2)*math.Sin(dLng/2)
	return 2 * earthRadiusM * math.Asin(math.Min(1, math.Sqrt(h)))
}

// segmentDistanceM projects on a local plane around p: good to a fraction of a metre at fence sizes.
func segmentDistanceM(a, b, p Point) float64 {
	kx := math.Cos(p.Lat*math.Pi/180) * earthRadiusM * math.Pi / 180
	ky := earthRadiusM * math.Pi / 180
	ax, ay := (a.Lng-p.Lng)*kx, (a.Lat-p.Lat)*ky
	bx, by := (b.Lng-p.Lng)*kx, (b.Lat-p.Lat)*ky
	dx, dy := bx-ax, by-ay
	t := 0.0
	if l := dx*dx + dy*dy; l > 0 {
		t = math.Max(0, math.Min(1, -(ax*dx+ay*dy)/l))
	}
	x, y := ax+t*dx, ay+t*dy
	return math.Hypot(x, y)
}
