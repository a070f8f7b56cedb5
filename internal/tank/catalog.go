package tank

import (
	"context"
	"fmt"
	"math"
	"sync"

	"github.com/uptrace/bun"

	"tankwatch/internal/platform/db"
)

// Compartment is one compartment of a car as tankInfo keeps it (table compartments).
type Compartment struct {
	bun.BaseModel `bun:"table:compartments"`

	CarID         int64   `bun:"car_id,pk" json:"carId"`
	No            int     `bun:"no,pk" json:"no"`
	Product       int     `bun:"product" json:"product"`
	CapacityL     int     `bun:"capacity_l" json:"capacity"`
	HeightMM      int     `bun:"height_mm" json:"height"`
	ProbeType     string  `bun:"probe_type" json:"probeType"`
	ProbeOffsetMM int     `bun:"probe_offset_mm" json:"probeOffset"`
	Density20     float64 `bun:"density20" json:"density20"`
	StrapText     string  `bun:"strap" json:"-"`
	UpdatedBy     int64   `bun:"updated_by" json:"updatedBy"`
	UpdatedAt     int64   `bun:"updated_at" json:"updatedAt"`

	Strap Strap `bun:"-" json:"strap"` // parsed StrapText
}

// Convert makes a car's probe readings volumes: through the compartment's strapping table where it
// has one (level + probe offset), else the probe's own volume; then V20 and mass with the
// compartment's product and density (ToV20). A probe of a compartment that tankInfo does not list
// counts its probe volume with no product: V20 = Vt, no mass. Pure.
func Convert(comps []Compartment, l *Levels) []Reading {
	if l == nil || l.N == 0 {
		return nil
	}
	out := make([]Reading, 0, l.N)
	for _, p := range l.Probes[:l.N] {
		r := Reading{Compartment: p.Compartment, LevelMM: p.LevelMM, ProbeL: p.VolumeL, TempDeci: p.TempDeci,
			VolumeL: float64(p.VolumeL), Source: SourceProbe}
		product, rho := -1, 0.0
		for i := range comps {
			c := &comps[i]
			if c.No != int(p.Compartment) {
				continue
			}
			product, rho = c.Product, c.Density20
			if len(c.Strap) >= StrapMinRows {
				v, _ := c.Strap.Volume(float64(p.LevelMM) + float64(c.ProbeOffsetMM))
				r.VolumeL, r.Source = math.Round(v*10)/10, SourceStrap
			}
			break
		}
		s := ToV20(product, r.VolumeL, float64(p.TempDeci)/10, rho)
		r.V20L, r.MassKg = math.Round(s.V20L*10)/10, math.Round(s.MassKg*10)/10
		out = append(out, r)
	}
	return out
}

// Catalog is every car's compartments in memory, for the history writer (which converts every level
// report before its commit) and the engines. It is loaded once and kept current by Set, which
// tankInfo calls after every change; it never reads the store on the hot path.
type Catalog struct {
	mu   sync.RWMutex
	cars map[int64][]Compartment
}

// NewCatalog returns an empty catalog (Load fills it).
func NewCatalog() *Catalog { return &Catalog{cars: map[int64][]Compartment{}} }

// Load reads every car's compartments from the store, replacing what the catalog held.
func (c *Catalog) Load(ctx context.Context, d *db.DB) error {
	var rows []Compartment
	if err := d.NewSelect().Model(&rows).OrderExpr("car_id, no").Scan(ctx); err != nil {
		return fmt.Errorf("tank: load compartments: %w", err)
	}
	cars := map[int64][]Compartment{}
	for _, r := range rows {
		s, err := ParseStrap(r.StrapText)
		if err == nil && s.Validate() == nil {
			r.Strap = s
		}
		cars[r.CarID] = append(cars[r.CarID], r)
	}
	c.mu.Lock()
	c.cars = cars
	c.mu.Unlock()
	return nil
}

// Set replaces one car's compartments (nil or empty: the car has none listed).
func (c *Catalog) Set(carID int64, comps []Compartment) {
	cp := append([]Compartment(nil), comps...)
	c.mu.Lock()
	if len(cp) == 0 {
		delete(c.cars, carID)
	} else {
		c.cars[carID] = cp
	}
	c.mu.Unlock()
}

// Compartments returns the car's compartments (shared: do not modify).
func (c *Catalog) Compartments(carID int64) []Compartment {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.cars[carID]
}

// Convert converts one report's levels for a car (see Convert).
func (c *Catalog) Convert(carID int64, l *Levels) []Reading {
	if c == nil {
		return Convert(nil, l)
	}
	return Convert(c.Compartments(carID), l)
}
