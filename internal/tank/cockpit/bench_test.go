package cockpit

import (
	"context"
	"fmt"
	"testing"
	"time"

	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
	"tankwatch/internal/tank"
)

// BenchmarkSummary10k: the summary of a scope of 10,000 trucks with three compartments each, half of
// them at a fence, with 2,000 station tanks (fakes for the live state, fences and gauges: what is
// measured is the cockpit's own work). docs/PERFORMANCE.md.
func BenchmarkSummary10k(b *testing.B) {
	cars := fakeCars{}
	cat := tank.NewCatalog()
	valve := func(st *tank.State) { st.Devices[0][tank.DischargeValve] = tank.DevInstalled | tank.DevOpen }
	for i := range int64(10_000) {
		lat := int32(30_000_000)
		if i%2 == 0 {
			lat = int32(1+i%3) * 1_000_000 // depot, station or none
		}
		var lock func(*tank.State)
		if i%5 == 0 {
			lock = valve
		}
		cars[i+1] = car(i+1, fmt.Sprintf("/1/%d/", 2+i%20), true, lat, []uint32{uint32(i % 10000), 5000, 9000}, lock)
		cat.Set(i+1, []tank.Compartment{{No: 1, CapacityL: 10000}, {No: 2, CapacityL: 10000}, {No: 3, CapacityL: 10000}})
	}
	var ground fakeGround
	for i := range 2000 {
		ground.rows = append(ground.rows, tank.GroundStatus{TankID: int64(i), StationName: fmt.Sprint("S", i/4), TankNo: i%4 + 1, CapacityL: 30000,
			At: 1, VolumeL: float64(i * 15), FillPct: float64(i*15) / 300, DaysOfCover: float64(i%30) / 3, LowStock: i%17 == 0, GaugeState: tank.GaugeOnline})
	}
	s := New(Deps{Cars: cars, Catalog: cat, Fences: fakeFences{}, Scopes: fakeScopes{}, Ground: ground})
	at := time.UnixMilli(1_060_000)
	s.Now = func() time.Time { at = at.Add(MemoFor); return at } // every call computes (no memo)
	p := &httpx.Principal{GroupPath: "/1/"}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Summary(context.Background(), p, i18n.ZhCN, Query{}); err != nil {
			b.Fatal(err)
		}
	}
}
