package tank

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestVCF20CheckValues(t *testing.T) {
	for _, c := range []struct {
		name  string
		f     Family
		rho20 float64
		temp  float64
		want  float64
		tol   float64
	}{
		// DOMAIN.md §2 check values
		{"gasoline at 20 °C is exactly 1", FamilyGasoline, 740, 20, 1, 0},
		{"diesel at 20 °C is exactly 1", FamilyDiesel, 840, 20, 1, 0},
		{"jet at 20 °C is exactly 1", FamilyJet, 795, 20, 1, 0},
		{"gasoline 740 at 30 °C", FamilyGasoline, 740, 30, 0.98770, 5e-6},
		{"gasoline 740 at 0 °C", FamilyGasoline, 740, 0, 1.02434, 5e-6},
		{"diesel 840 at 30 °C", FamilyDiesel, 840, 30, 0.99153, 5e-6},
		// derived from the same formulas by a separate implementation (Python, 100 fixed-point steps for
		// ρ15), rounded to 5 decimals
		{"diesel 840 at 0 °C", FamilyDiesel, 840, 0, 1.01681, 5e-6},
		{"gasoline 725 at −10 °C", FamilyGasoline, 725, -10, 1.03750, 5e-6},
		{"jet 795 at 40 °C", FamilyJet, 795, 40, 0.98112, 5e-6},
		{"diesel 830 at −20 °C", FamilyDiesel, 830, -20, 1.03396, 5e-6},
		{"gasoline 750 at 45 °C", FamilyGasoline, 750, 45, 0.96972, 5e-6},
		// no conversion possible
		{"no family", FamilyNone, 740, 30, 1, 0},
		{"density out of range", FamilyGasoline, 100, 30, 1, 0},
		{"NaN temperature", FamilyDiesel, 840, math.NaN(), 1, 0},
	} {
		got := VCF20(c.f, c.rho20, c.temp)
		if math.Abs(got-c.want) > c.tol {
			t.Errorf("%s: VCF20 = %.6f, want %.5f ± %g", c.name, got, c.want, c.tol)
		}
	}
}

func TestVCF20Monotonic(t *testing.T) {
	// warmer product is expanded: the factor falls as the temperature rises, for every family
	for _, f := range []Family{FamilyGasoline, FamilyDiesel, FamilyJet} {
		prev := math.Inf(1)
		for temp := -30.0; temp <= 50; temp += 0.5 {
			v := VCF20(f, 800, temp)
			if v >= prev {
				t.Fatalf("family %d: VCF20 not falling at %.1f °C (%.6f ≥ %.6f)", f, temp, v, prev)
			}
			prev = v
		}
	}
}

func TestToV20(t *testing.T) {
	s := ToV20(ProductGasoline95, 10000, 30, 740)
	if !s.Converted || math.Abs(s.V20L-9877.0) > 0.05 {
		t.Errorf("95# 10000 L at 30 °C: V20 %.2f (converted %v), want 9877.0", s.V20L, s.Converted)
	}
	if want := s.V20L * (740 - 1.1) / 1000; math.Abs(s.MassKg-want) > 1e-9 {
		t.Errorf("mass %.3f kg, want %.3f", s.MassKg, want)
	}
	d := ToV20(ProductDiesel0, 20000, 30, 0) // default density 840
	if math.Abs(d.VCF20-0.99153) > 5e-6 {
		t.Errorf("0# default density at 30 °C: VCF20 %.6f, want 0.99153", d.VCF20)
	}
	g := ToV20(ProductGas, 5000, 30, 0)
	if g.Converted || g.V20L != 5000 || g.MassKg != 0 {
		t.Errorf("natural gas: %+v, want unconverted 5000 L", g)
	}
	u := ToV20(99, 5000, 30, 0)
	if u.Converted || u.V20L != 5000 {
		t.Errorf("unknown product: %+v, want unconverted", u)
	}
}

// TestVCF20KRemembersNothingWrong: VCF20K keeps ρ15 and CTL(20) of the inputs it saw in a small table;
// whatever order the inputs come in and whichever slots they share, each result is the one computed
// afresh, to the bit.
func TestVCF20KRemembersNothingWrong(t *testing.T) {
	fresh := func(k0, k1, rho20, temp float64) float64 {
		rho15 := rho15Of(k0, k1, rho20)
		return ctl(k0, k1, rho15, temp) / ctl(k0, k1, rho15, 20)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	type in struct{ k0, k1, rho20 float64 }
	var ins []in
	for range 500 { // far more inputs than the table's slots
		ins = append(ins, in{100 + 600*rng.Float64(), rng.Float64(), MinDensity20 + (MaxDensity20-MinDensity20)*rng.Float64()})
	}
	ins = append(ins, in{346.4228, 0.4388, 735}, in{186.9696, 0.4862, 840}, in{594.5418, 0, 795})
	for range 20000 {
		x := ins[rng.IntN(len(ins))]
		temp := -30 + 80*rng.Float64()
		if got, want := VCF20K(x.k0, x.k1, x.rho20, temp), fresh(x.k0, x.k1, x.rho20, temp); math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("VCF20K(%v, %v, %v, %v) = %v, computed afresh %v", x.k0, x.k1, x.rho20, temp, got, want)
		}
	}
}
