package waybill

import (
	"math"
	"testing"
)

func TestAllowancePct(t *testing.T) {
	for _, c := range []struct{ km, want float64 }{
		{-1, 0.01}, {0, 0.01}, {1, 0.01}, {50, 0.01}, {50.1, 0.02}, {100, 0.02}, {101, 0.03}, {250, 0.05}, {1000, 0.2},
	} {
		if got := AllowancePct(c.km); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("AllowancePct(%v) = %v, want %v", c.km, got, c.want)
		}
	}
}

func TestLossOf(t *testing.T) {
	for _, c := range []struct {
		name              string
		shipped, recv, km float64
		loss, rate, allow float64
		over              bool
	}{
		{"within: 1 L of 20000 over 80 km", 20000, 19999, 80, 1, 0.005, 0.02, false},
		{"exactly at the allowance", 20000, 19996, 80, 4, 0.02, 0.02, false},
		{"over: 10 L of 20000 over 80 km", 20000, 19990, 80, 10, 0.05, 0.02, true},
		{"gain is not a loss", 20000, 20005, 30, -5, -0.025, 0.01, false},
		{"nothing shipped", 0, 0, 30, 0, 0, 0.01, false},
	} {
		l := LossOf(c.shipped, c.recv, c.km)
		if math.Abs(l.LossL-c.loss) > 1e-9 || math.Abs(l.RatePct-c.rate) > 1e-9 || math.Abs(l.AllowedPct-c.allow) > 1e-12 || l.Over != c.over {
			t.Errorf("%s: %+v", c.name, l)
		}
	}
}

func TestTonKm(t *testing.T) {
	if got := TonKm(22.4, 120); math.Abs(got-2688) > 1e-9 {
		t.Errorf("TonKm = %v", got)
	}
	if TonKm(0, 100) != 0 || TonKm(10, -1) != 0 {
		t.Error("empty or unknown trips count 0")
	}
}
