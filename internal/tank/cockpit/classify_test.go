package cockpit

import (
	"testing"

	"tankwatch/internal/tank"
)

func TestBandOf(t *testing.T) {
	cases := []struct {
		vol, cap float64
		want     string
	}{
		{0, 10000, BandEmpty},
		{499.9, 10000, BandEmpty},
		{500, 10000, BandLow},
		{4999, 10000, BandLow},
		{5000, 10000, BandMid},
		{8999, 10000, BandMid},
		{9000, 10000, BandHigh},
		{11000, 10000, BandHigh}, // over-full still ≥ 90 %
		{5000, 0, BandUnknown},
		{5000, -1, BandUnknown},
	}
	for _, c := range cases {
		if got := BandOf(c.vol, c.cap); got != c.want {
			t.Errorf("BandOf(%v, %v) = %q, want %q", c.vol, c.cap, got, c.want)
		}
	}
	if BandOfPct(95, true) != BandHigh || BandOfPct(4.9, true) != BandEmpty || BandOfPct(50, false) != BandUnknown || BandOfPct(-1, true) != BandUnknown {
		t.Error("BandOfPct")
	}
}

func TestClassify(t *testing.T) {
	loaded := TruckFacts{Online: true, HasReported: true, HasLevels: true, Volume: 20000, Capacity: 30000}
	with := func(f TruckFacts, mod func(*TruckFacts)) TruckFacts { mod(&f); return f }
	cases := []struct {
		name string
		f    TruckFacts
		want string
	}{
		{"loaded on the road", loaded, TruckLoaded},
		{"empty: below 5 %", with(loaded, func(f *TruckFacts) { f.Volume = 1499 }), TruckEmpty},
		{"exactly 5 % is loaded", with(loaded, func(f *TruckFacts) { f.Volume = 1500 }), TruckLoaded},
		{"unloading: valve open in a station", with(loaded, func(f *TruckFacts) { f.Fence, f.ValveOpen, f.Trend = FenceStation, true, TrendFalling }), TruckUnloading},
		{"unloading: valve open in a station, trend not known yet", with(loaded, func(f *TruckFacts) { f.Fence, f.ValveOpen = FenceStation, true }), TruckUnloading},
		{"station, valve open, rising: loading", with(loaded, func(f *TruckFacts) { f.Fence, f.ValveOpen, f.Trend = FenceStation, true, TrendRising }), TruckLoading},
		{"station, only a cover open: not unloading", with(loaded, func(f *TruckFacts) { f.Fence, f.CoverOpen = FenceStation, true }), TruckLoaded},
		{"depot, valve open: loading", with(loaded, func(f *TruckFacts) { f.Fence, f.ValveOpen, f.Trend = FenceDepot, true, TrendRising }), TruckLoading},
		{"depot, cover open: loading", with(loaded, func(f *TruckFacts) { f.Fence, f.CoverOpen = FenceDepot, true }), TruckLoading},
		{"depot, valve open, falling: unloading", with(loaded, func(f *TruckFacts) { f.Fence, f.ValveOpen, f.Trend = FenceDepot, true, TrendFalling }), TruckUnloading},
		{"depot, all closed: by volume", with(loaded, func(f *TruckFacts) { f.Fence = FenceDepot }), TruckLoaded},
		{"valve open outside every fence: not unloading", with(loaded, func(f *TruckFacts) { f.ValveOpen, f.Trend = true, TrendFalling }), TruckLoaded},
		{"offline in a station with a valve open: by volume", with(loaded, func(f *TruckFacts) { f.Online, f.Fence, f.ValveOpen = false, FenceStation, true }), TruckLoaded},
		{"no capacity: load bits full", with(loaded, func(f *TruckFacts) { f.Capacity, f.Load = 0, "full" }), TruckLoaded},
		{"no capacity: load bits half", with(loaded, func(f *TruckFacts) { f.Capacity, f.Load = 0, "half" }), TruckLoaded},
		{"no capacity: load bits empty", with(loaded, func(f *TruckFacts) { f.Capacity, f.Load = 0, "empty" }), TruckEmpty},
		{"no levels: load bits", TruckFacts{Online: true, HasReported: true, Load: "full"}, TruckLoaded},
		{"nothing known", TruckFacts{Online: true}, TruckUnknown},
		{"no capacity, no bits", with(loaded, func(f *TruckFacts) { f.Capacity = 0 }), TruckUnknown},
	}
	for _, c := range cases {
		if got := Classify(c.f); got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

func TestOpenings(t *testing.T) {
	st := tank.State{Compartments: 3}
	if v, c := Openings(st); v || c {
		t.Fatal("all closed read as open")
	}
	st.Devices[2][tank.BottomValve] = tank.DevInstalled | tank.DevOpen
	if v, c := Openings(st); !v || c {
		t.Fatalf("bottom valve: %v %v", v, c)
	}
	st = tank.State{Compartments: 2}
	st.Devices[1][tank.ManholeCover] = tank.DevInstalled | tank.DevOpen
	st.Devices[1][tank.DischargeValve] = tank.DevInstalled | tank.DevLocked
	if v, c := Openings(st); v || !c {
		t.Fatalf("cover: %v %v", v, c)
	}
	// a compartment beyond the count is not read
	st = tank.State{Compartments: 1}
	st.Devices[4][tank.DischargeValve] = tank.DevOpen
	if v, _ := Openings(st); v {
		t.Fatal("read beyond the compartments")
	}
}

func TestTrend(t *testing.T) {
	k := newTracker()
	const t0 = 1_000_000_000
	if tr, _ := k.trend(1, t0); tr != TrendUnknown {
		t.Fatal("no samples")
	}
	k.add(1, t0, 10000)
	k.add(1, t0+10_000, 9990)
	if tr, _ := k.trend(1, t0+10_000); tr != TrendUnknown {
		t.Fatalf("span below 20 s: %d", tr)
	}
	k.add(1, t0+30_000, 9700)
	tr, rate := k.trend(1, t0+30_000)
	if tr != TrendFalling || rate != -600 {
		t.Fatalf("falling: %d %v", tr, rate)
	}
	k.add(1, t0+30_000, 99999) // same time again: ignored
	k.add(1, t0+20_000, 99999) // older: ignored
	if tr, _ := k.trend(1, t0+30_000); tr != TrendFalling {
		t.Fatal("repeated sample changed the trend")
	}
	if tr, _ := k.trend(1, t0+30_000+TrendWindowMS+1); tr != TrendUnknown {
		t.Fatal("old newest sample still gives a trend")
	}
	k.add(2, t0, 5000)
	k.add(2, t0+60_000, 5020)
	if tr, _ := k.trend(2, t0+60_000); tr != TrendSteady {
		t.Fatalf("20 L in a minute is steady: %d", tr)
	}
	k.add(2, t0+120_000, 5400)
	if tr, _ := k.trend(2, t0+120_000); tr != TrendRising {
		t.Fatalf("rising: %d", tr)
	}
	// samples older than the window are dropped; the ring is bounded
	for i := range 100 {
		k.add(3, t0+int64(i)*10_000, float64(i))
	}
	if n := len(k.cars[3]); n > trendKeep {
		t.Fatalf("kept %d samples", n)
	}
}
