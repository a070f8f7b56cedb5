package tank

import "testing"

func TestConvert(t *testing.T) {
	comps := []Compartment{
		{No: 1, Product: ProductGasoline95, Density20: 740, Strap: strap3},
		{No: 2, Product: ProductDiesel0, ProbeOffsetMM: 20}, // no table: probe volume counts
		{No: 3, Product: ProductDiesel0, ProbeOffsetMM: 50, Strap: strap3},
	}
	l := &Levels{N: 4, Probes: [MaxCompartments]Level{
		{Compartment: 1, LevelMM: 550, VolumeL: 5100, TempDeci: 300},
		{Compartment: 2, LevelMM: 900, VolumeL: 7000, TempDeci: 200},
		{Compartment: 3, LevelMM: 50, VolumeL: 480, TempDeci: 200},
		{Compartment: 4, LevelMM: 10, VolumeL: 30, TempDeci: 300}, // not listed in tankInfo
	}}
	got := Convert(comps, l)
	want := []struct {
		vol, v20 float64
		src      Source
	}{
		{5000, 4938.5, SourceStrap}, // table at 550 mm; VCF20(gasoline 740, 30 °C) = 0.98770
		{7000, 7000, SourceProbe},   // 20 °C: V20 = Vt
		{500, 500, SourceStrap},     // 50 mm + 50 mm offset = 100 mm → 500 L
		{30, 30, SourceProbe},       // unknown compartment: no product, no conversion
	}
	if len(got) != 4 {
		t.Fatalf("%d readings", len(got))
	}
	for i, w := range want {
		g := got[i]
		if g.VolumeL != w.vol || g.V20L != w.v20 || g.Source != w.src {
			t.Errorf("compartment %d: volume %v V20 %v source %d; want %v %v %d", i+1, g.VolumeL, g.V20L, g.Source, w.vol, w.v20, w.src)
		}
		if g.LevelMM != l.Probes[i].LevelMM || g.ProbeL != l.Probes[i].VolumeL || g.TempDeci != l.Probes[i].TempDeci {
			t.Errorf("compartment %d: raw reading not kept: %+v", i+1, g)
		}
	}
	if got[3].MassKg != 0 || got[0].MassKg == 0 {
		t.Errorf("mass: %v %v", got[0].MassKg, got[3].MassKg)
	}
	if Convert(comps, nil) != nil || Convert(comps, &Levels{}) != nil {
		t.Error("no levels must give no readings")
	}
}

func TestCatalogSet(t *testing.T) {
	c := NewCatalog()
	l := &Levels{N: 1, Probes: [MaxCompartments]Level{{Compartment: 1, LevelMM: 550, VolumeL: 1, TempDeci: 200}}}
	if r := c.Convert(7, l); r[0].Source != SourceProbe {
		t.Fatalf("empty catalog: %+v", r)
	}
	c.Set(7, []Compartment{{CarID: 7, No: 1, Strap: strap3}})
	if r := c.Convert(7, l); r[0].Source != SourceStrap || r[0].VolumeL != 5000 {
		t.Fatalf("after Set: %+v", r)
	}
	c.Set(7, nil)
	if r := c.Convert(7, l); r[0].Source != SourceProbe {
		t.Fatalf("after clearing: %+v", r)
	}
	var nilCat *Catalog
	if r := nilCat.Convert(7, l); len(r) != 1 {
		t.Fatal("nil catalog")
	}
}
