package monitor

import (
	"math"

	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/tank"
)

// V20Query is the getVtV20 request: an observed volume at a temperature of a product.
type V20Query struct {
	Vt          *float64 `json:"vt"`          // litres, 0–1e7
	Temperature *float64 `json:"temperature"` // °C, −50–100
	Density20   float64  `json:"density20"`   // kg/m³ at 20 °C: 0 (the product's default) or 500–1100
	Product     *int     `json:"product"`     // tank.Product* (0–4)
}

// V20Result is the getVtV20 answer (tank.ToV20).
type V20Result struct {
	VCF20     float64 `json:"vcf20"`
	V20       float64 `json:"v20"`    // litres
	MassKg    float64 `json:"massKg"` // kg in air
	Density20 float64 `json:"density20"`
	Converted bool    `json:"converted"` // false: no conversion for this product (V20 = Vt)
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// V20 validates q and converts through tank.ToV20, the platform's only V20 computation.
func V20(q V20Query) (V20Result, error) {
	switch {
	case q.Vt == nil:
		return V20Result{}, httpx.Required("tankmon.vt")
	case !finite(*q.Vt) || *q.Vt < 0 || *q.Vt > 1e7:
		return V20Result{}, httpx.Biz("field.range", httpx.Field("tankmon.vt"), 0, 10_000_000)
	case q.Temperature == nil:
		return V20Result{}, httpx.Required("tankmon.temperature")
	case !finite(*q.Temperature) || *q.Temperature < -50 || *q.Temperature > 100:
		return V20Result{}, httpx.Biz("field.range", httpx.Field("tankmon.temperature"), -50, 100)
	case !finite(q.Density20) || q.Density20 != 0 && (q.Density20 < tank.MinDensity20 || q.Density20 > tank.MaxDensity20):
		return V20Result{}, httpx.Biz("tankmon.density", httpx.Field("tankmon.density20"))
	case q.Product == nil:
		return V20Result{}, httpx.Required("tankmon.product")
	case *q.Product < 0 || *q.Product >= tank.Products:
		return V20Result{}, httpx.Invalid("tankmon.product")
	}
	rho := q.Density20
	if rho == 0 {
		rho = tank.DefaultDensity20(*q.Product)
	}
	s := tank.ToV20(*q.Product, *q.Vt, *q.Temperature, rho)
	return V20Result{VCF20: math.Round(s.VCF20*1e5) / 1e5, V20: round1(s.V20L), MassKg: round1(s.MassKg), Density20: rho,
		Converted: s.Converted}, nil
}
