package tankinfo

import (
	"context"

	"github.com/uptrace/bun"

	"tankwatch/internal/sim"
	"tankwatch/internal/tank"
)

// DemoProbeTypes are the probe types the demo compartments name (free text, as an operator types it).
var DemoProbeTypes = []string{"磁致伸缩", "雷达"}

// DemoStrapRows is the number of rows of a demo compartment's table (20 mm steps over 1800 mm).
const DemoStrapRows = 91

// SeedDemo gives every demo car (by plate) that has no compartments kept the simulator's tanker:
// sim.Compartments compartments of sim.CompartmentLitres in a sim.TankHeightMM high tank, with the
// elliptical tank's strapping table, the car's fuel type as product, probe offset 0. Cars that have
// compartments are left alone, so an operator's changes survive restarts. The catalog is updated.
func (s *Service) SeedDemo(ctx context.Context, plates []string) error {
	if len(plates) == 0 {
		return nil
	}
	strap := tank.EllipseStrap(sim.CompartmentLitres, sim.TankHeightMM, DemoStrapRows)
	text := strap.Text()
	var seeded []int64
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var cars []struct {
			ID       int64 `bun:"id"`
			FuelType int   `bun:"fuel_type"`
			Count    int   `bun:"compartments"`
		}
		if err := tx.NewSelect().TableExpr("cars AS c").ColumnExpr("c.id, c.fuel_type, c.compartments").
			Where("c.plate IN (?)", bun.In(plates)).
			Where("NOT EXISTS (SELECT 1 FROM compartments AS k WHERE k.car_id = c.id)").OrderExpr("c.id").Scan(ctx, &cars); err != nil {
			return err
		}
		now := s.nowMS()
		for _, c := range cars {
			n := min(max(c.Count, 1), sim.Compartments)
			comps := make([]tank.Compartment, n)
			for i := range comps {
				comps[i] = tank.Compartment{CarID: c.ID, No: i + 1, Product: defaultProduct(c.FuelType), CapacityL: sim.CompartmentLitres,
					HeightMM: sim.TankHeightMM, ProbeType: DemoProbeTypes[int(c.ID)%len(DemoProbeTypes)], StrapText: text, UpdatedAt: now}
			}
			if _, err := tx.NewInsert().Model(&comps).Exec(ctx); err != nil {
				return err
			}
			seeded = append(seeded, c.ID)
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, id := range seeded {
		if err := s.reloadCar(ctx, s.db, id); err != nil {
			return err
		}
	}
	return nil
}
