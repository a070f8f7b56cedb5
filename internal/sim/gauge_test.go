package sim

import (
	"context"
	"testing"
	"time"

	"tankwatch/internal/tank/gauge"
)

func TestDemoGroundTanks(t *testing.T) {
	stations := 0
	for i, p := range DemoPlaces {
		gts := DemoGroundTanks(i)
		if p.Kind != KindStation {
			if gts != nil {
				t.Fatalf("%s: tanks at a depot", p.Name)
			}
			continue
		}
		stations++
		if len(gts) < 2 || len(gts) > 3 {
			t.Fatalf("%s: %d tanks", p.Name, len(gts))
		}
		for _, g := range gts {
			if g.CapacityL < 20000 || g.CapacityL > 50000 || g.StartFill <= 0 || g.StartFill >= 0.95 {
				t.Fatalf("%s: %+v", p.Name, g)
			}
			if err := g.Strap().Validate(); err != nil {
				t.Fatal(err)
			}
		}
	}
	if stations == 0 {
		t.Fatal("no stations")
	}
}

// The simulator's gauge answers parse with the platform's parser (the parser's own tests use
// hand-written exchanges; this one checks the two agree), sales lower the volume and an unload shows
// as a rise and a 202 delivery.
func TestGaugeStationSellsAndDelivers(t *testing.T) {
	t0 := time.Date(2026, 11, 26, 8, 0, 0, 0, time.UTC)
	gts := []GroundTank{{No: 1, Product: 1, CapacityL: 30000, HeightMM: 2500, WaterMM: 10, DailyL: 4800, StartFill: 0.5},
		{No: 2, Product: 0, CapacityL: 20000, HeightMM: 2400, WaterMM: 40, DailyL: 3000, StartFill: 0.8}}
	st := NewGaugeStation("s", gts, 1, time.UTC, t0)
	_, inv, err := gauge.ParseInventory(st.Answer("i20100", t0), 0, nil, time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	if len(inv) != 2 || inv[0].Volume != 15000 || inv[0].Height < 1200 || inv[0].Height > 1300 || inv[1].Water != 40 {
		t.Fatalf("%+v", inv)
	}
	t1 := t0.Add(2 * time.Hour)
	_, inv1, err := gauge.ParseInventory(st.Answer("i20100", t1), 0, nil, time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	sold := inv[0].Volume - inv1[0].Volume
	// 08:00–10:00 at 4800 L/day: (5 + 4.5)/76.4 of the day
	if sold < 500 || sold > 700 {
		t.Fatalf("sold %v L in 2 h", sold)
	}
	st.unload(10000, t1, t1.Add(20*time.Minute))
	at, ds, err := gauge.ParseDeliveries(st.Answer("i20200", t1.Add(21*time.Minute)), 0, time.UTC)
	if err != nil || at.IsZero() {
		t.Fatal(err)
	}
	if len(ds) != 1 || ds[0].Tank != 1 || ds[0].EndVolume-ds[0].StartVolume < 9999 {
		t.Fatalf("%+v", ds)
	}
	_, as, err := gauge.ParseAlarms(st.Answer("i20500", t1), 0, time.UTC)
	if err != nil || len(as) != 2 || len(as[1].Types) != 1 || as[1].Types[0] != 9 {
		t.Fatalf("%+v %v", as, err)
	}
	if _, ls, err := gauge.ParseLeakTests(st.Answer("i20300", t1), 0, time.UTC); err != nil || len(ls) != 2 || !ls[0].Passed {
		t.Fatalf("%+v %v", ls, err)
	}
	if _, _, err := gauge.ParseInventory(st.Answer("x20100", t1), 0, nil, time.UTC); err == nil {
		t.Fatal("unknown command answered")
	}
}

func TestGaugeServerTCP(t *testing.T) {
	g, err := StartGauges(context.Background(), GaugeConfig{Speedup: 60})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Stop()
	name := ""
	for _, p := range DemoPlaces {
		if p.Kind == KindStation {
			name = p.Name
			break
		}
	}
	cl := &gauge.Client{Addr: g.Addr(name), ReadTimeout: 2 * time.Second}
	_, inv, err := cl.Inventory(context.Background())
	if err != nil || len(inv) < 2 {
		t.Fatalf("%v %v", inv, err)
	}
	g.Unload(name, 8000, time.Now().Add(-20*time.Minute), time.Now())
	_, ds, err := cl.Deliveries(context.Background())
	if err != nil || len(ds) != 1 {
		t.Fatalf("%v %v", ds, err)
	}
}

// The unload hook: a day of a demo truck calls OnUnload at each station it unloads at, with the
// litres its emptied compartments held.
func TestVehicleOnUnload(t *testing.T) {
	v := newVehicle(0, 7, testEpoch, 10*time.Second, 0, 0)
	type call struct {
		station    string
		litres     float64
		start, end time.Time
	}
	var calls []call
	v.onUnload = func(station string, litres float64, start, end time.Time) {
		calls = append(calls, call{station, litres, start, end})
	}
	for v.now.Before(testEpoch.Add(24 * time.Hour)) {
		v.step()
	}
	if len(calls) == 0 {
		t.Fatal("no unload in a day")
	}
	for _, c := range calls {
		i := -1
		for k, p := range DemoPlaces {
			if p.Name == c.station {
				i = k
			}
		}
		if i < 0 || DemoPlaces[i].Kind != KindStation || c.litres < 1000 || c.litres > Compartments*CompartmentLitres || !c.end.After(c.start) {
			t.Fatalf("%+v", c)
		}
	}
}
