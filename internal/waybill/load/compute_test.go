package load

import (
	"math"
	"testing"

	"tankwatch/internal/tank"
)

func f64(v float64) *float64 { return &v }

// TestCompute: V20 and mass per compartment against DOMAIN.md §2's check values, the density's
// defaults, and the product's own K0/K1.
func TestCompute(t *testing.T) {
	t.Parallel()
	gasoline := Product{Product: tank.ProductGasoline95, Family: int(tank.FamilyGasoline), Density20: 740}
	diesel := Product{Product: tank.ProductDiesel0, Family: int(tank.FamilyDiesel), Density20: 840}
	noFamily := Product{Product: tank.ProductDiesel0, Density20: 840} // family 0: the product code's (diesel)
	gas := Product{Product: tank.ProductGas}
	ownK := Product{Product: tank.ProductDiesel0, Family: int(tank.FamilyGasoline), K0: f64(186.9696), K1: f64(0.4862)}
	for _, c := range []struct {
		name              string
		p                 Product
		vt, temp, rho     float64
		vcf, v20, mass, d float64
	}{
		{"gasoline 740 at 30 °C", gasoline, 10000, 30, 0, 0.98770, 9877.0, 7.298, 740},
		{"gasoline 740 at 0 °C", gasoline, 10000, 0, 0, 1.02434, 10243.4, 7.569, 740},
		{"diesel 840 at 30 °C", diesel, 10000, 30, 0, 0.99153, 9915.3, 8.318, 840},
		{"exactly 1 at 20 °C", diesel, 12345.6, 20, 0, 1, 12345.6, 10.357, 840},
		{"density given overrides the product's", gasoline, 10000, 20, 750, 1, 10000, 7.489, 750},
		{"family from the product code", noFamily, 10000, 30, 0, 0.99153, 9915.3, 8.318, 840},
		{"own K0/K1 override the family", ownK, 10000, 30, 840, 0.99153, 9915.3, 8.318, 840},
		{"no conversion without coefficients", gas, 1000, 30, 0, 1, 1000, 0, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := Compute(c.p, c.vt, c.temp, c.rho)
			if math.Abs(f.VCF20-c.vcf) > 0.000006 || math.Abs(f.V20L-c.v20) > 0.051 || math.Abs(f.MassT-c.mass) > 0.0011 || f.Density20 != c.d {
				t.Errorf("got %+v, want vcf %.5f v20 %.1f mass %.3f density %.0f", f, c.vcf, c.v20, c.mass, c.d)
			}
		})
	}
}

// TestParseRows: the loading tickets sheet's rows, header skipped, cell errors per row.
func TestParseRows(t *testing.T) {
	t.Parallel()
	cells := [][]string{
		{"运单号", "装油单号", "装油时间", "仓号", "油品", "发油量", "温度", "密度", "铅封号"},
		{"YD1", "T1", "2026-03-01 15:30", "1", "92#", "8000", "25.5", "735", "s001"},
		{"YD1", "T1", "2026/03/01 15:30:00", "2", "", "7,500", "25", "", "S002"},
		{},
		{"YD2", "T2", "yesterday", "1", "", "100", "20", "", ""},
		{"YD2", "T2", "2026-03-01", "x", "", "100", "20", "", ""},
		{"YD2", "T2", "2026-03-01", "1", "", "lots", "20", "", ""},
		{"", "T2", "2026-03-01", "1", "", "100", "20", "", ""},
		{"YD3", "T3", "46082.5", "3", "", "100", "-5", "", ""},
	}
	rows, errs := ParseRows(cells)
	if len(rows) != 3 || rows[1].VtL != 7500 || rows[0].SealNo != "s001" || rows[0].Row != 2 || rows[2].Row != 9 {
		t.Fatalf("rows %+v", rows)
	}
	if rows[0].LoadedAt != rows[1].LoadedAt || rows[0].LoadedAt != 1772350200000 {
		t.Errorf("loaded at %d %d", rows[0].LoadedAt, rows[1].LoadedAt)
	}
	if rows[2].LoadedAt != 1772337600000 { // 2026-03-01 12:00 Shanghai
		t.Errorf("excel serial: %d", rows[2].LoadedAt)
	}
	want := []int{5, 6, 7, 8}
	if len(errs) != len(want) {
		t.Fatalf("errors %+v", errs)
	}
	for i, e := range errs {
		if e.row != want[i] {
			t.Errorf("error %d on row %d, want %d", i, e.row, want[i])
		}
	}
}
