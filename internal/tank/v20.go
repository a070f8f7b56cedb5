package tank

import (
	"math"
	"sync/atomic"
)

// Family is the product family whose thermal expansion coefficients (K0, K1) convert an observed
// volume to 20 °C (DOMAIN.md §2: GB/T 1885, the ISO 91 / API 2540 method with base 20 °C).
type Family uint8

const (
	FamilyNone     Family = iota // no standard-volume conversion (natural gas, unknown): V20 = Vt
	FamilyGasoline               // K0 346.4228, K1 0.4388
	FamilyDiesel                 // K0 186.9696, K1 0.4862
	FamilyJet                    // K0 594.5418, K1 0
)

// Product codes are the car registry's fuel types (fleet: fuelType; i18n fuel.N). The waybill issue's
// product catalogue (transProduct) will name its products by family and density; until then a
// compartment or ground tank names one of these.
const (
	ProductDiesel0    = 0 // 0# 柴油
	ProductGasoline92 = 1 // 92# 汽油
	ProductGasoline95 = 2 // 95# 汽油
	ProductGas        = 3 // 天然气: no V20
	ProductJet        = 4 // 航空煤油 (jet fuel)
	Products          = 5
)

// ProductFamily is the family of a product code; an unknown code has no conversion.
func ProductFamily(product int) Family {
	switch product {
	case ProductDiesel0:
		return FamilyDiesel
	case ProductGasoline92, ProductGasoline95:
		return FamilyGasoline
	case ProductJet:
		return FamilyJet
	}
	return FamilyNone
}

// DefaultDensity20 is the density at 20 °C (kg/m³) assumed for a product when neither the
// compartment nor a load record gives one: typical values of Chinese market fuels (common practice,
// not a standard). 0 for products without a conversion.
func DefaultDensity20(product int) float64 {
	switch product {
	case ProductDiesel0:
		return 840
	case ProductGasoline92:
		return 735
	case ProductGasoline95:
		return 740
	case ProductJet:
		return 795
	}
	return 0
}

func (f Family) k() (k0, k1 float64, ok bool) {
	switch f {
	case FamilyGasoline:
		return 346.4228, 0.4388, true
	case FamilyDiesel:
		return 186.9696, 0.4862, true
	case FamilyJet:
		return 594.5418, 0, true
	}
	return 0, 0, false
}

// ctl is the volume correction from 15 °C to T for a product of density rho15 (kg/m³).
func ctl(k0, k1, rho15, temp float64) float64 {
	a := k0/(rho15*rho15) + k1/rho15
	d := temp - 15
	return math.Exp(-a * d * (1 + 0.8*a*d))
}

// VCF20 is the volume correction factor from temperature temp (°C) to 20 °C for a product of family f
// whose density at 20 °C is rho20 (kg/m³): V20 = Vt · VCF20. It is 1 (exactly) at 20 °C, and 1 for a
// family without coefficients or a density outside 500–1100 kg/m³ (no fuel is; the caller's record
// then says no conversion was made, see Standard).
func VCF20(f Family, rho20, temp float64) float64 {
	k0, k1, ok := f.k()
	if !ok {
		return 1
	}
	return VCF20K(k0, k1, rho20, temp)
}

// VCF20K is VCF20 with the coefficients K0, K1 given (a product catalogue entry that overrides its
// family's constants, products.k0/k1). It is 1 for a density outside 500–1100 kg/m³ or an invalid
// temperature, and for coefficients that are both zero.
func VCF20K(k0, k1, rho20, temp float64) float64 {
	if (k0 == 0 && k1 == 0) || !validDensity(rho20) || math.IsNaN(temp) || math.IsInf(temp, 0) ||
		math.IsNaN(k0) || math.IsNaN(k1) {
		return 1
	}
	b := base20(k0, k1, rho20)
	return ctl(k0, k1, b.rho15, temp) / b.ctl20
}

// base is what VCF20K derives from a product's coefficients and density alone: ρ15 and CTL(20).
type base struct {
	k0, k1, rho20 float64
	rho15, ctl20  float64
}

// bases keeps the last bases computed, by a hash of their inputs: every level reading at ingest is
// converted (tank.Convert), and ρ15's iteration was most of the conversion's cost. A fleet has a few
// products and densities; a slot another input took is computed again, so any input gives the same
// result, to the bit, and the table never grows.
var bases [64]atomic.Pointer[base]

func base20(k0, k1, rho20 float64) base {
	h := math.Float64bits(k0)*31 ^ math.Float64bits(k1)*131 ^ math.Float64bits(rho20)*0x9e3779b97f4a7c15
	slot := &bases[h>>58]
	if b := slot.Load(); b != nil && b.k0 == k0 && b.k1 == k1 && b.rho20 == rho20 {
		return *b
	}
	rho15 := rho15Of(k0, k1, rho20)
	b := &base{k0: k0, k1: k1, rho20: rho20, rho15: rho15, ctl20: ctl(k0, k1, rho15, 20)}
	slot.Store(b)
	return *b
}

// rho15Of is ρ15 from ρ20 = ρ15 · CTL(20), iterating from ρ15 = ρ20; it converges to 1e-9 in a few
// steps.
func rho15Of(k0, k1, rho20 float64) float64 {
	rho15 := rho20
	for range 20 {
		next := rho20 / ctl(k0, k1, rho15, 20)
		if math.Abs(next-rho15) < 1e-9 {
			return next
		}
		rho15 = next
	}
	return rho15
}

// The densities at 20 °C (kg/m³) a product may have: no fuel lies outside. Every form that takes a
// density (tankInfo, getVtV20) accepts this range and 0, the product's default.
const (
	MinDensity20 = 500
	MaxDensity20 = 1100
)

func validDensity(rho20 float64) bool { return rho20 >= MinDensity20 && rho20 <= MaxDensity20 }

// Standard is one observed volume brought to 20 °C.
type Standard struct {
	VCF20  float64 // volume correction factor to 20 °C
	V20L   float64 // litres at 20 °C
	MassKg float64 // mass in air, kg: V20 · (ρ20 − 1.1) / 1000 t
	// Converted is false when no conversion was possible (no family, no valid density): then
	// V20L = Vt and MassKg is 0.
	Converted bool
}

// ToV20 converts an observed volume vt (litres) at temp (°C) of product (a product code) with density
// rho20 at 20 °C (kg/m³; 0 = the product's default). It is the only V20 computation of the platform:
// ingest, the getVtV20 call, load records and statistics all use it.
func ToV20(product int, vt, temp, rho20 float64) Standard {
	if rho20 == 0 {
		rho20 = DefaultDensity20(product)
	}
	f := ProductFamily(product)
	if _, _, ok := f.k(); !ok || !validDensity(rho20) || math.IsNaN(temp) || math.IsInf(temp, 0) {
		return Standard{VCF20: 1, V20L: vt}
	}
	vcf := VCF20(f, rho20, temp)
	v20 := vt * vcf
	// m [t] = V20 [m³] · (ρ20 − 1.1) / 1000  →  kg = V20 [L] · (ρ20 − 1.1) / 1000
	return Standard{VCF20: vcf, V20L: v20, MassKg: v20 * (rho20 - 1.1) / 1000, Converted: true}
}
