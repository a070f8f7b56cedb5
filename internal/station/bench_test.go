package station

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkStationAt: 10,000 stations of one company (circles of 150–500 m and small polygons) spread
// over eastern China, positions anywhere in the same area (most outside every fence, as on the road).
func BenchmarkStationAt(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	rows := make([]stationRow, 10_000)
	for i := range rows {
		lng, lat := 110+rng.Float64()*12, 22+rng.Float64()*18
		r := &rows[i]
		r.ID, r.Name, r.StationType, r.GroupPath = int64(i+1), fmt.Sprint("s", i), TypeOilStation, "/1/3/"
		if i%4 == 0 {
			d := 0.003
			r.FenceType = FencePolygon
			r.FencePoints = FormatPoints([]Point{{lng, lat}, {lng + d, lat}, {lng + d, lat + d}, {lng, lat + d}})
		} else {
			r.FenceType, r.FenceCenter, r.Raduis = FenceCircle, FormatPoint(Point{lng, lat}), 150+rng.Float64()*350
		}
	}
	s := New(nil, nil)
	s.idx.Store(buildIndex(rows))
	pts := make([][2]int32, 4096)
	for i := range pts {
		if i%8 == 0 { // one report in eight at a station
			f, _ := ParseFence(rows[i].FenceType, rows[i].FencePoints, rows[i].FenceCenter, rows[i].Raduis)
			pts[i] = [2]int32{int32(f.Center.Lat * 1e6), int32(f.Center.Lng * 1e6)}
		} else {
			pts[i] = [2]int32{int32((22 + rng.Float64()*18) * 1e6), int32((110 + rng.Float64()*12) * 1e6)}
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	hits := 0
	for i := 0; b.Loop(); i++ {
		p := pts[i%len(pts)]
		if _, _, ok := s.StationAt("/1/3/7/", p[0], p[1]); ok {
			hits++
		}
	}
	if hits == 0 {
		b.Fatal("no hit")
	}
}
