package ground

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestThresholdEpisodes(t *testing.T) {
	cases := []struct {
		name string
		got  bool
		want bool
	}{
		{"stock above", lowStock(false, 16, 15), false},
		{"stock below opens", lowStock(false, 14.9, 15), true},
		{"stock open stays within margin", lowStock(true, 16.5, 15), true},
		{"stock open closes past margin", lowStock(true, 17.1, 15), false},
		{"stock threshold 0 off", lowStock(false, 1, 0), false},
		{"water below", highWater(false, 30, 30), false},
		{"water above opens", highWater(false, 30.5, 30), true},
		{"water open stays", highWater(true, 28.5, 30), true},
		{"water open closes", highWater(true, 27.9, 30), false},
		{"cover unknown does not open", lowCoverOn(false, -1, 2), false},
		{"cover unknown keeps open", lowCoverOn(true, -1, 2), true},
		{"cover low opens", lowCoverOn(false, 1.9, 2), true},
		{"cover open stays", lowCoverOn(true, 2.1, 2), true},
		{"cover open closes", lowCoverOn(true, 2.3, 2), false},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("%s: %v", c.name, c.got)
		}
	}
}

func TestDaysOfCover(t *testing.T) {
	if d := daysOfCover(10000, 5000, 86_400_000); d != 2 {
		t.Fatal(d)
	}
	if d := daysOfCover(10000, 5000, 3600_000); d != -1 {
		t.Fatal("one hour is too short", d)
	}
	if d := daysOfCover(10000, 0, 7*86_400_000); d != -1 {
		t.Fatal("no sales", d)
	}
}

// series builds readings every minute for hours with a steady fall rate (L/h), noise σ and sales:
// a sale of saleL every saleEvery minutes (0: none).
func series(hours, rate, sigma float64, saleEvery int, saleL float64, seed uint64) []point {
	r := rand.New(rand.NewPCG(seed, 1))
	var pts []point
	v := 20000.0
	for m := 0; m <= int(hours*60); m++ {
		if saleEvery > 0 && m > 0 && m%saleEvery == 0 {
			v -= saleL
		}
		pts = append(pts, point{t: int64(m) * 60_000, v: math.Round((v-rate*float64(m)/60+r.NormFloat64()*sigma)*10) / 10})
	}
	return pts
}

func TestLeakFall(t *testing.T) {
	if rate, ok := leakFall(series(3, 2, 0.3, 0, 0, 1)); !ok || math.Abs(rate-2) > 0.2 {
		t.Fatalf("2 L/h steady: %v %v", rate, ok)
	}
	if _, ok := leakFall(series(3, 0, 0.3, 0, 0, 2)); ok {
		t.Fatal("a still tank is a leak")
	}
	if _, ok := leakFall(series(3, 0.5, 0.3, 0, 0, 3)); ok {
		t.Fatal("0.5 L/h is below what inventory alone can tell")
	}
	if _, ok := leakFall(series(3, 0, 0.3, 7, 40, 4)); ok {
		t.Fatal("sales are a leak")
	}
	if _, ok := leakFall(series(2, 3, 0.3, 0, 0, 5)); ok {
		t.Fatal("a window shorter than 3 h judged")
	}
	// false alarms and detections over many noisy windows (the rate the documentation quotes)
	detect, falseAlarm := 0, 0
	const n = 200
	for s := range n {
		if _, ok := leakFall(series(3, 1.5*1.3, 0.5, 0, 0, uint64(100+s))); ok {
			detect++
		}
		if _, ok := leakFall(series(3, 0, 0.5, 0, 0, uint64(1000+s))); ok {
			falseAlarm++
		}
	}
	if detect < n*95/100 || falseAlarm > n*5/100 {
		t.Fatalf("detection %d/%d, false alarms %d/%d", detect, n, falseAlarm, n)
	}
	t.Logf("≈2 L/h over 3 h, σ 0.5 L: detected %d/%d, false alarms %d/%d", detect, n, falseAlarm, n)
}
