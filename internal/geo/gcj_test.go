package geo

import (
	"math"
	"testing"
)

func TestWGS84ToGCJ02(t *testing.T) {
	// Published pairs (eviltransform's test table: WGS-84 lat, lng → GCJ-02 lat, lng).
	for _, c := range []struct {
		name                   string
		wLat, wLng, gLat, gLng float64
	}{
		{name: "Shanghai", wLat: 31.1774276, wLng: 121.5272106, gLat: 31.17530398364597, gLng: 121.531541859215},
		{name: "Shenzhen", wLat: 22.543847, wLng: 113.912316, gLat: 22.540796131694766, gLng: 113.9171764808363},
		{name: "Beijing", wLat: 39.911954, wLng: 116.377817, gLat: 39.91334545536069, gLng: 116.38404722455657},
	} {
		lng, lat := WGS84ToGCJ02(c.wLng, c.wLat)
		if math.Abs(lng-c.gLng) > 1e-6 || math.Abs(lat-c.gLat) > 1e-6 {
			t.Errorf("%s: (%.9f, %.9f), want (%.9f, %.9f)", c.name, lng, lat, c.gLng, c.gLat)
		}
	}
	for _, p := range [][2]float64{{2.3522, 48.8566}, {139.69, 35.69}, {-74, 40.7}, {100, 60}} {
		if lng, lat := WGS84ToGCJ02(p[0], p[1]); lng != p[0] || lat != p[1] {
			t.Errorf("outside China %v moved to (%f, %f)", p, lng, lat)
		}
	}
}
