package geo

import (
	"context"
	"math/rand/v2"
	"testing"

	"tankwatch/internal/platform/i18n"
)

// BenchmarkReverseOffline looks up random points over eastern and central China with 200 places.
func BenchmarkReverseOffline(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	places := make([]Place, 200)
	for i := range places {
		places[i] = Place{Name: "油库", Lat: 22 + rng.Float64()*18, Lon: 104 + rng.Float64()*18}
	}
	s := New(Config{}, func() []Place { return places })
	pts := make([][2]float64, 1024)
	for i := range pts {
		pts[i] = [2]float64{104 + rng.Float64()*18, 22 + rng.Float64()*18}
	}
	if _, err := s.Reverse(context.Background(), 114.5, 38, i18n.ZhCN); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		p := pts[i%len(pts)]
		if _, err := s.Reverse(context.Background(), p[0], p[1], i18n.ZhCN); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkNearestArea is the grid lookup alone.
func BenchmarkNearestArea(b *testing.B) {
	t := mustTable(b)
	rng := rand.New(rand.NewPCG(5, 6))
	pts := make([][2]float64, 1024)
	for i := range pts {
		pts[i] = [2]float64{74 + rng.Float64()*60, 18 + rng.Float64()*35}
	}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		p := pts[i%len(pts)]
		t.grid.nearest(p[1], p[0], maxAreaKm)
	}
}
