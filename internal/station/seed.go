package station

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"

	"tankwatch/internal/sim"
)

// Demo fence radii. The simulator stops a vehicle exactly on its place's point to load or unload
// (sim vehicle.arrive; loading starts at the home depot's point), so any radius contains those stops;
// these are the sizes of a refinery's tank farm and a filling station's forecourt.
const (
	demoDepotRadius   = 500
	demoStationRadius = 150
)

// SeedDemo registers the simulator's depots (type yk) and stations (type jyz) as circle-fenced
// stations of the subsidiary of their region ("华东" → 华东分公司). Idempotent: a station already
// registered under its name in that group is left as it is.
func (s *Service) SeedDemo(ctx context.Context) error {
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		groups := map[string]int64{}
		now := s.nowMS()
		for _, p := range sim.DemoPlaces {
			gid, ok := groups[p.Region]
			if !ok {
				if err := tx.NewSelect().Table("org_groups").Column("id").Where("name = ?", p.Region+"分公司").
					Limit(1).Scan(ctx, &gid); err != nil {
					return fmt.Errorf("demo group of %s: %w", p.Region, err)
				}
				groups[p.Region] = gid
			}
			n, err := tx.NewSelect().Model((*Station)(nil)).Where("group_id = ?", gid).Where("name = ?", p.Name).Count(ctx)
			if err != nil {
				return err
			}
			if n > 0 {
				continue
			}
			typ, radius := TypeOilStation, float64(demoStationRadius)
			if p.Kind == sim.KindDepot {
				typ, radius = TypeDepot, demoDepotRadius
			}
			c := Point{p.Lon, p.Lat}
			m := &Station{GroupID: gid, Name: p.Name, StationType: typ, FenceType: FenceCircle, FenceCenter: FormatPoint(c),
				Raduis: radius, CenterLng: c.Lng, CenterLat: c.Lat, CreatedAt: now, UpdatedAt: now}
			if _, err := tx.NewInsert().Model(m).Exec(ctx); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("demo stations: %w", err)
	}
	return s.Load(ctx)
}
