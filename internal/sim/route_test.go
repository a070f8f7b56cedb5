package sim

import (
	"fmt"
	"math"
	"testing"
)

func TestDemoPlaces(t *testing.T) {
	for _, region := range Regions {
		box, ok := RegionBox(region)
		if !ok {
			t.Fatalf("no box for %s", region)
		}
		depots, stations := placesOf(region, KindDepot), placesOf(region, KindStation)
		if len(depots) < 4 || len(stations) < 12 {
			t.Errorf("%s: %d depots and %d stations, want at least 4 and 12", region, len(depots), len(stations))
		}
		g := graphs[region]
		for _, i := range append(depots, stations...) {
			p := DemoPlaces[i]
			if !box.Contains(p.Lat, p.Lon) {
				t.Errorf("%s outside the %s box", p.Name, region)
			}
			if d := distance(p.point(), g.pt(g.nearest(p.point()))); d > 15000 {
				t.Errorf("%s is %.0f m from the nearest waypoint, want within 15 km", p.Name, d)
			}
		}
	}
	seen := map[string]bool{}
	for _, p := range DemoPlaces {
		if seen[p.Name] {
			t.Errorf("duplicate place %s", p.Name)
		}
		seen[p.Name] = true
	}
}

func placeIndex(t *testing.T, name string) int {
	t.Helper()
	for i, p := range DemoPlaces {
		if p.Name == name {
			return i
		}
	}
	t.Fatalf("no place %s", name)
	return -1
}

// TestRoutes walks every depot–station route of every region at several speeds: every point stays in
// the region's box, consecutive points are never further apart than speed × interval, and the walk
// ends at the destination.
func TestRoutes(t *testing.T) {
	const interval = 10.0 // s
	for _, region := range Regions {
		box, _ := RegionBox(region)
		for _, d := range placesOf(region, KindDepot) {
			for _, s := range placesOf(region, KindStation) {
				for _, pair := range [][2]int{{d, s}, {s, d}} {
					for _, kmh := range []float64{40, 95} {
						name := fmt.Sprintf("%s→%s@%v", DemoPlaces[pair[0]].Name, DemoPlaces[pair[1]].Name, kmh)
						step := kmh / 3.6 * interval
						w := walker{r: routeBetween(pair[0], pair[1])}
						prev := w.pos()
						if distance(prev, DemoPlaces[pair[0]].point()) > 0.01 {
							t.Fatalf("%s: starts %.1f m from its origin", name, distance(prev, DemoPlaces[pair[0]].point()))
						}
						for n := 0; !w.done(); n++ {
							if n > 100000 {
								t.Fatalf("%s: never arrives", name)
							}
							w.advance(step)
							p := w.pos()
							if !box.Contains(p.lat, p.lon) {
								t.Fatalf("%s: point %.6f,%.6f outside the %s box", name, p.lat, p.lon, region)
							}
							if got := distance(prev, p); got > step+0.01 {
								t.Fatalf("%s: consecutive points %.2f m apart, speed allows %.2f", name, got, step)
							}
							prev = p
						}
						if got := distance(prev, DemoPlaces[pair[1]].point()); got > 0.01 {
							t.Fatalf("%s: ends %.1f m from the destination", name, got)
						}
					}
				}
			}
		}
	}
}

// TestRoutesFollowExpressways: a trip from the Yanshan depot to Shijiazhuang runs down G4 through
// Zhuozhou, Baoding and Dingzhou rather than cutting across the plain, and is longer than the crow flies.
func TestRoutesFollowExpressways(t *testing.T) {
	for _, tc := range []struct {
		from, to string
		via      []string
	}{
		{"中国石化燕山石化油库", "中国石化石家庄中华大街加油站", []string{"涿州", "保定", "定州"}},
		{"中国石化高桥石化油库", "中国石化无锡中山路加油站", []string{"安亭", "昆山", "苏州"}},
		{"中国石化上海石化油库", "中国石化杭州文一路加油站", []string{"嘉兴", "桐乡"}},
		{"中国石化深圳妈湾油库", "中国石化广州天河路加油站", []string{"宝安", "虎门"}},
	} {
		a, b := placeIndex(t, tc.from), placeIndex(t, tc.to)
		r := routeBetween(a, b)
		g := graphs[DemoPlaces[a].Region]
		for _, name := range tc.via {
			var wp point
			for _, n := range g.nodes {
				if n.name == name {
					wp = point{n.lat, n.lon}
				}
			}
			near := math.Inf(1)
			w := walker{r: r}
			for !w.done() {
				near = math.Min(near, distance(w.pos(), wp))
				w.advance(200)
			}
			if near > 250 {
				t.Errorf("%s → %s passes %s at %.0f m, want through it", tc.from, tc.to, name, near)
			}
		}
		crow := distance(DemoPlaces[a].point(), DemoPlaces[b].point())
		if r.length < crow || r.length > 1.6*crow {
			t.Errorf("%s → %s: %.0f km by road, %.0f km straight", tc.from, tc.to, r.length/1000, crow/1000)
		}
	}
}

func TestBearing(t *testing.T) {
	o := point{30, 120}
	for _, tc := range []struct {
		to   point
		want float64
	}{{point{30.1, 120}, 0}, {point{30, 120.1}, 90}, {point{29.9, 120}, 180}, {point{30, 119.9}, 270}} {
		if got := bearing(o, tc.to); math.Abs(got-tc.want) > 0.1 {
			t.Errorf("bearing to %v = %.2f, want %.0f", tc.to, got, tc.want)
		}
	}
}
