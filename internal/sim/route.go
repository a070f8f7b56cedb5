package sim

import (
	"hash/fnv"
	"math"
	"sync"
)

const (
	earthRadius = 6371008.8 // m, mean
	mPerDegLat  = 110540.0
	mPerDegLon  = 111320.0 // at the equator; times cos(latitude)
	subStep     = 50.0     // m: the curve is followed in chords this long
)

type point struct{ lat, lon float64 }

// distance is the great-circle distance in metres.
func distance(a, b point) float64 {
	la1, la2 := a.lat*math.Pi/180, b.lat*math.Pi/180
	dla, dlo := la2-la1, (b.lon-a.lon)*math.Pi/180
	h := math.Sin(dla/2)*math.Sin(dla/2) + math.Cos(la1)*math.Cos(la2)*math.Sin(dlo/2)*math.Sin(dlo/2)
	return 2 * earthRadius * math.Asin(math.Min(1, math.Sqrt(h)))
}

// bearing is the initial course from a to b in degrees, 0 = north, clockwise, in [0, 360).
func bearing(a, b point) float64 {
	la1, la2 := a.lat*math.Pi/180, b.lat*math.Pi/180
	dlo := (b.lon - a.lon) * math.Pi / 180
	y := math.Sin(dlo) * math.Cos(la2)
	x := math.Cos(la1)*math.Sin(la2) - math.Sin(la1)*math.Cos(la2)*math.Cos(dlo)
	d := math.Atan2(y, x) * 180 / math.Pi
	return math.Mod(d+360, 360)
}

// segment is one leg between two route points. Roads are not straight: the leg bends sideways by a
// sine wave that vanishes at both ends, so the route still passes every waypoint. The wave depends only
// on the two endpoints, so every vehicle (in either direction) drives the same road.
type segment struct {
	a, b      point // canonical order (the wave is defined from a to b)
	flip      bool  // travelled from b to a
	kx, ky    float64
	tx, ty    float64 // unit direction in the local metric frame
	length    float64 // m, straight
	amp, wave float64 // m
	phase     float64
	city      bool
}

func newSegment(from, to point, city bool) segment {
	a, b, flip := from, to, false
	if b.lat < a.lat || (b.lat == a.lat && b.lon < a.lon) {
		a, b, flip = to, from, true
	}
	s := segment{a: a, b: b, flip: flip, city: city, ky: mPerDegLat}
	s.kx = mPerDegLon * math.Cos((a.lat+b.lat)/2*math.Pi/180)
	dx, dy := (b.lon-a.lon)*s.kx, (b.lat-a.lat)*s.ky
	s.length = math.Hypot(dx, dy)
	if s.length > 0 {
		s.tx, s.ty = dx/s.length, dy/s.length
	}
	h := fnv.New64a()
	for _, v := range []float64{a.lat, a.lon, b.lat, b.lon} {
		q := int64(math.Round(v * 1e4))
		h.Write([]byte{byte(q), byte(q >> 8), byte(q >> 16), byte(q >> 24), byte(q >> 32)})
	}
	x := h.Sum64()
	frac := func(shift uint) float64 { return float64(x>>shift&0xffff) / 0xffff }
	if city {
		s.amp = math.Min(60, s.length/30) * (0.5 + 0.5*frac(0))
		s.wave = 1200 + 800*frac(16)
	} else {
		s.amp = math.Min(350, s.length/25) * (0.5 + 0.5*frac(0))
		s.wave = 5000 + 6000*frac(16)
	}
	s.phase = 2 * math.Pi * frac(32)
	return s
}

// at returns the point u metres (along the straight leg) from the start of travel.
func (s *segment) at(u float64) point {
	if s.flip {
		u = s.length - u
	}
	if s.length == 0 {
		return s.a
	}
	w := s.amp * math.Sin(math.Pi*u/s.length) * math.Sin(2*math.Pi*u/s.wave+s.phase)
	x := s.tx*u - s.ty*w
	y := s.ty*u + s.tx*w
	return point{s.a.lat + y/s.ky, s.a.lon + x/s.kx}
}

// route is the road from one place to another.
type route struct {
	from, to int // DemoPlaces indexes
	segs     []segment
	length   float64 // sum of the straight legs, m
}

// walker is a position along a route.
type walker struct {
	r   *route
	seg int
	u   float64
}

func (w *walker) done() bool { return w.r == nil || w.seg >= len(w.r.segs) }

func (w *walker) pos() point {
	if w.done() {
		if w.r == nil {
			return point{}
		}
		return DemoPlaces[w.r.to].point()
	}
	return w.r.segs[w.seg].at(w.u)
}

// city reports whether the current leg is an urban road (the approach to a place).
func (w *walker) city() bool { return !w.done() && w.r.segs[w.seg].city }

// remaining is the straight-leg distance to the destination, m.
func (w *walker) remaining() float64 {
	if w.done() {
		return 0
	}
	d := w.r.segs[w.seg].length - w.u
	for _, s := range w.r.segs[w.seg+1:] {
		d += s.length
	}
	return d
}

// fraction is how much of the route lies behind, 0–1.
func (w *walker) fraction() float64 {
	if w.r == nil || w.r.length == 0 {
		return 1
	}
	return 1 - w.remaining()/w.r.length
}

// seek jumps to fraction f of the route (by straight legs): used to place a vehicle mid-trip.
func (w *walker) seek(f float64) {
	w.seg, w.u = 0, 0
	left := f * w.r.length
	for w.seg < len(w.r.segs) && left >= w.r.segs[w.seg].length {
		left -= w.r.segs[w.seg].length
		w.seg++
	}
	if w.seg < len(w.r.segs) {
		w.u = left
	}
}

// advance moves d metres along the curved road. The straight line between the old and the new
// position is never longer than d: the curve is followed in short chords whose lengths add up to d.
func (w *walker) advance(d float64) {
	for d > 0 && !w.done() {
		s := &w.r.segs[w.seg]
		du := math.Min(subStep, s.length-w.u)
		if du <= 1e-9 {
			w.seg, w.u = w.seg+1, 0
			continue
		}
		p0, p1 := s.at(w.u), s.at(w.u+du)
		c := distance(p0, p1)
		if c > d {
			// the chord is not exactly proportional to u along a bend: shrink until it fits
			f := d / c
			for range 8 {
				cc := distance(p0, s.at(w.u+du*f))
				if cc <= d {
					break
				}
				f *= d / cc * 0.99999
			}
			w.u += du * f
			return
		}
		w.u += du
		d -= c
		if w.u >= s.length-1e-9 {
			w.seg, w.u = w.seg+1, 0
		}
	}
}

func (p Place) point() point { return point{p.Lat, p.Lon} }

// graph is a region's network ready for routing.
type graph struct {
	nodes []node
	adj   [][]int
}

var (
	graphs     = map[string]*graph{}
	routeMu    sync.Mutex
	routeCache = map[[2]int]*route{}
)

func init() {
	for region, n := range networks {
		g := &graph{nodes: n.nodes, adj: make([][]int, len(n.nodes))}
		idx := map[string]int{}
		for i, w := range n.nodes {
			if _, dup := idx[w.name]; dup {
				panic("sim: duplicate waypoint " + w.name) // a programming error in the table above
			}
			idx[w.name] = i
		}
		for _, e := range n.edges {
			a, okA := idx[e[0]]
			b, okB := idx[e[1]]
			if !okA || !okB {
				panic("sim: edge to an unknown waypoint " + e[0] + "–" + e[1])
			}
			g.adj[a] = append(g.adj[a], b)
			g.adj[b] = append(g.adj[b], a)
		}
		graphs[region] = g
	}
}

func (g *graph) pt(i int) point { return point{g.nodes[i].lat, g.nodes[i].lon} }

// nearest returns the waypoint closest to p.
func (g *graph) nearest(p point) int {
	best, bd := 0, math.Inf(1)
	for i := range g.nodes {
		if d := distance(p, g.pt(i)); d < bd {
			best, bd = i, d
		}
	}
	return best
}

// path is the shortest waypoint path from a to b (Dijkstra; the graphs have a few dozen nodes).
func (g *graph) path(a, b int) []int {
	n := len(g.nodes)
	dist := make([]float64, n)
	prev := make([]int, n)
	done := make([]bool, n)
	for i := range dist {
		dist[i], prev[i] = math.Inf(1), -1
	}
	dist[a] = 0
	for {
		u := -1
		for i := range n {
			if !done[i] && !math.IsInf(dist[i], 1) && (u < 0 || dist[i] < dist[u]) {
				u = i
			}
		}
		if u < 0 || u == b {
			break
		}
		done[u] = true
		for _, v := range g.adj[u] {
			if d := dist[u] + distance(g.pt(u), g.pt(v)); d < dist[v] {
				dist[v], prev[v] = d, u
			}
		}
	}
	if math.IsInf(dist[b], 1) {
		return nil
	}
	var p []int
	for v := b; v >= 0; v = prev[v] {
		p = append(p, v)
	}
	for i, j := 0, len(p)-1; i < j; i, j = i+1, j-1 {
		p[i], p[j] = p[j], p[i]
	}
	return p
}

// routeBetween returns the road from DemoPlaces[from] to DemoPlaces[to]: city streets to the nearest
// waypoint, the expressway network's shortest path, city streets to the destination. Routes are
// shared by all vehicles and computed once.
func routeBetween(from, to int) *route {
	routeMu.Lock()
	defer routeMu.Unlock()
	key := [2]int{from, to}
	if r, ok := routeCache[key]; ok {
		return r
	}
	a, b := DemoPlaces[from], DemoPlaces[to]
	g := graphs[a.Region]
	pts := []point{a.point()}
	city := []bool{}
	if g != nil {
		na, nb := g.nearest(a.point()), g.nearest(b.point())
		if p := g.path(na, nb); na != nb && p != nil {
			for i, v := range p {
				pts = append(pts, g.pt(v))
				city = append(city, i == 0)
			}
		}
	}
	pts = append(pts, b.point())
	city = append(city, true)
	r := &route{from: from, to: to}
	for i := range len(pts) - 1 {
		if pts[i] == pts[i+1] {
			continue
		}
		s := newSegment(pts[i], pts[i+1], city[i])
		r.segs = append(r.segs, s)
		r.length += s.length
	}
	routeCache[key] = r
	return r
}
