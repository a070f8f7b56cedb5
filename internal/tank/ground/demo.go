package ground

import (
	"context"
	"fmt"
	"net"
	"strconv"

	"tankwatch/internal/sim"
)

// SeedDemo registers the ground tanks of the demo stations (sim.DemoGroundTanks: 2–3 tanks of
// 20–50 m³ with a horizontal cylinder's strapping table) at the stations `station.SeedDemo` made.
// Idempotent: an existing tank (station, tank number) is kept, only its gauge connection is set
// when addrOf gives one — the simulator's gauges bind a new port at each start.
func (s *Service) SeedDemo(ctx context.Context, addrOf func(station string) string) error {
	now := s.Now().UnixMilli()
	for i, p := range sim.DemoPlaces {
		gts := sim.DemoGroundTanks(i)
		if len(gts) == 0 {
			continue
		}
		var ids []int64
		if err := s.db.NewSelect().Table("stations").Column("id").Where("name = ? AND station_type = ?", p.Name, "jyz").
			Scan(ctx, &ids); err != nil {
			return fmt.Errorf("demo ground tanks: %w", err)
		}
		host, port := "", 0
		if addrOf != nil {
			if a := addrOf(p.Name); a != "" {
				h, ps, err := net.SplitHostPort(a)
				if err != nil {
					return err
				}
				host = h
				port, _ = strconv.Atoi(ps)
			}
		}
		for _, sid := range ids {
			for _, g := range gts {
				n, err := s.db.NewSelect().Table("ground_tanks").Where("station_id = ? AND tank_no = ?", sid, g.No).Count(ctx)
				if err != nil {
					return err
				}
				if n > 0 {
					if host != "" {
						if _, err := s.db.NewUpdate().Table("ground_tanks").Set("gauge_host = ?", host).Set("gauge_port = ?", port).
							Where("station_id = ? AND tank_no = ?", sid, g.No).Exec(ctx); err != nil {
							return err
						}
					}
					continue
				}
				if _, err := s.db.NewInsert().Table("ground_tanks").Model(&map[string]any{
					"station_id": sid, "tank_no": g.No, "name": g.Name, "product": g.Product, "capacity_l": int64(g.CapacityL),
					"height_mm": int64(g.HeightMM), "density20": 0.0, "strap": g.Strap().Text(), "gauge_host": host, "gauge_port": port,
					"gauge_tank": g.No, "low_stock_pct": 15, "cover_days_min": 1.0, "water_max_mm": 30,
					"created_at": now, "updated_at": now,
				}).Exec(ctx); err != nil {
					return fmt.Errorf("demo ground tank: %w", err)
				}
			}
		}
	}
	return nil
}
