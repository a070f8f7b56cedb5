package geo

import (
	"context"
	"math"
	"strings"
	"testing"

	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
)

// offset moves a point by dNorth, dEast kilometres (small distances).
func offset(lat, lon, dNorth, dEast float64) (float64, float64) {
	return lat + dNorth/kmPerDeg, lon + dEast/(kmPerDeg*math.Cos(lat*math.Pi/180))
}

var depot = Place{Name: "中石化石家庄油库", Kind: "depot", Lat: 38.0300, Lon: 114.5300, GroupPath: "/1/3/"}

// ours is a lookup made for the depot's group (a help record of one of its cars).
var ours = WithScope(context.Background(), "/1/3/")

func TestPlaceDistanceAndBearing(t *testing.T) {
	far := Place{Name: "远处加油站", Kind: "station", Lat: 38.20, Lon: 114.53, GroupPath: "/1/3/"}
	s := New(Config{}, func() []Place { return []Place{far, depot} })
	lat, lng := offset(depot.Lat, depot.Lon, 0.85, 0.85) // 1.2 km north-east
	for lang, want := range map[i18n.Lang]string{
		i18n.ZhCN: "河北省石家庄市长安区附近，距中石化石家庄油库 1.2 公里（东北方向）",
		i18n.ZhTW: "河北省石家莊市長安區附近，距中石化石家莊油庫 1.2 公里（東北方向）",
		i18n.EnUS: "Chang'an District, Shijiazhuang, Hebei; 1.2 km north-east of 中石化石家庄油库",
	} {
		got, err := s.Reverse(ours, lng, lat, lang)
		if err != nil || got != want {
			t.Errorf("%v: %q, %v; want %q", lang, got, err, want)
		}
	}
}

func TestPlaceDirections(t *testing.T) {
	s := New(Config{}, func() []Place { return []Place{depot} })
	for _, c := range []struct {
		north, east float64
		zh, en      string
	}{
		{2, 0, "（北方向）", "2.0 km north of"}, {2, 2, "（东北方向）", "2.8 km north-east of"},
		{0, 2, "（东方向）", "2.0 km east of"}, {-2, 2, "（东南方向）", "2.8 km south-east of"},
		{-2, 0, "（南方向）", "2.0 km south of"}, {-2, -2, "（西南方向）", "2.8 km south-west of"},
		{0, -2, "（西方向）", "2.0 km west of"}, {2, -2, "（西北方向）", "2.8 km north-west of"},
		{3, 1, "（北方向）", "3.2 km north of"},         // 18° east of north is still north
		{0.3, 0.1, "320 米（北方向）", "320 m north of"}, // under a kilometre: metres, rounded to 10
	} {
		lat, lng := offset(depot.Lat, depot.Lon, c.north, c.east)
		zh, _ := s.Reverse(ours, lng, lat, i18n.ZhCN)
		en, _ := s.Reverse(ours, lng, lat, i18n.EnUS)
		if !strings.Contains(zh, c.zh) || !strings.HasSuffix(en, c.en+" 中石化石家庄油库") {
			t.Errorf("%+v: %q / %q", c, zh, en)
		}
	}
}

func TestPlaceAtAndTooFar(t *testing.T) {
	s := New(Config{}, func() []Place { return []Place{depot} })
	lat, lng := offset(depot.Lat, depot.Lon, 0.02, 0.01)
	if got, _ := s.Reverse(ours, lng, lat, i18n.ZhCN); got != "河北省石家庄市长安区附近，位于中石化石家庄油库" {
		t.Errorf("at the depot: %q", got)
	}
	if got, _ := s.Reverse(ours, lng, lat, i18n.EnUS); got != "Chang'an District, Shijiazhuang, Hebei; at 中石化石家庄油库" {
		t.Errorf("at the depot: %q", got)
	}
	lat, lng = offset(depot.Lat, depot.Lon, 0, 5.2)
	if got, _ := s.Reverse(ours, lng, lat, i18n.ZhCN); got != "河北省石家庄市长安区附近" {
		t.Errorf("5.2 km away: %q", got)
	}
	lat, lng = offset(depot.Lat, depot.Lon, 0, 4.8)
	if got, _ := s.Reverse(ours, lng, lat, i18n.ZhCN); !strings.HasSuffix(got, "4.8 公里（东方向）") {
		t.Errorf("4.8 km away: %q", got)
	}
}

// TestPlacesOutsideTheScopeAreNotNamed: a place is named only to users of its group's lineage (its
// subtree, or below it: a parent's depot is where a sub-group's cars load) — never to another company
// or a sibling subsidiary of the same company (D23, D29).
func TestPlacesOutsideTheScopeAreNotNamed(t *testing.T) {
	other := Place{Name: "另一公司油库", Kind: "depot", Lat: 38.0301, Lon: 114.5301, GroupPath: "/9/12/"}
	sibling := Place{Name: "华北分公司加油站", Kind: "station", Lat: 38.0302, Lon: 114.5302, GroupPath: "/1/4/"}
	s := New(Config{}, func() []Place { return []Place{other, sibling, depot} })
	lat, lng := offset(depot.Lat, depot.Lon, 0.02, 0.01)
	const area = "河北省石家庄市长安区附近"
	user := func(path string) context.Context {
		return httpx.WithPrincipal(context.Background(), &httpx.Principal{GroupPath: path})
	}
	for _, c := range []struct {
		name string
		ctx  context.Context
		want string
	}{
		{"the depot's group (a help record of its car)", ours, area + "，位于中石化石家庄油库"},
		{"a signed-in user of that group", user("/1/3/"), area + "，位于中石化石家庄油库"},
		{"a user of the company's top group sees all its groups' places", user("/1/"), area + "，位于华北分公司加油站"},
		{"a user of a sibling subsidiary: only its own", user("/1/4/"), area + "，位于华北分公司加油站"},
		{"a user of a sub-group below the depot's group", user("/1/3/7/"), area + "，位于中石化石家庄油库"},
		{"a user of the other company", user("/9/12/"), area + "，位于另一公司油库"},
		{"another group of the other company", user("/9/13/"), area},
		{"a scope with no places", WithScope(context.Background(), "/5/"), area},
		{"nobody: no place at all", context.Background(), area},
	} {
		if got, _ := s.Reverse(c.ctx, lng, lat, i18n.ZhCN); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

func TestReverseRejectsMissingPoints(t *testing.T) {
	calls := 0
	s := New(Config{}, func() []Place { calls++; return nil })
	for _, p := range [][2]float64{{0, 38}, {114, 0}, {0, 0}, {math.NaN(), 38}, {114, math.NaN()},
		{181, 38}, {-181, 38}, {114, 91}, {114, -91}, {math.Inf(1), 38}} {
		got, err := s.Reverse(context.Background(), p[0], p[1], i18n.ZhCN)
		if got != "" || err != nil {
			t.Errorf("%v: %q, %v", p, got, err)
		}
	}
	if calls != 0 {
		t.Errorf("places read %d times for points that need no lookup", calls)
	}
}

func TestReverseCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := New(Config{}, nil).Reverse(ctx, 114.5, 38, i18n.ZhCN); err == nil {
		t.Error("a cancelled lookup succeeded")
	}
}

func TestCoord(t *testing.T) {
	for in, want := range map[string]bool{"": false, " ": false, "0": false, "0.0": false, "-0": false, "0e3": false,
		"abc": false, "NaN": false, "Inf": false, "1e999": false, "114.5": true, " 38.04 ": true, "-74.0": true} {
		if _, ok := coord(in); ok != want {
			t.Errorf("coord(%q) = %v", in, ok)
		}
	}
}

func TestLRU(t *testing.T) {
	c := newLRU(2)
	a, b, d := cacheKey{1, 1}, cacheKey{2, 2}, cacheKey{3, 3}
	c.put(a, "a")
	c.put(b, "b")
	c.get(a) // a is now the most recent, b the oldest
	c.put(d, "d")
	if _, ok := c.get(b); ok {
		t.Error("the least recently used entry survived")
	}
	if v, ok := c.get(a); !ok || v != "a" {
		t.Error("a recently used entry was evicted")
	}
	if c.len() != 2 {
		t.Errorf("len %d", c.len())
	}
	if keyOf(114.50001, 38.00001) != keyOf(114.50009, 38.0001) || keyOf(114.5, 38) == keyOf(114.501, 38) {
		t.Error("cache keys do not round to ~50 m")
	}
}
