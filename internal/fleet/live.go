package fleet

import (
	"context"

	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/plate"
)

// LiveCar is what the live state (internal/telemetry) keeps of a car from the registry.
type LiveCar struct {
	ID                 int64  `bun:"id"`
	Plate              string `bun:"plate"`
	GroupID            int64  `bun:"group_id"`
	GroupPath          string `bun:"group_path"`
	GroupName          string `bun:"group_name"`
	Compartments       int    `bun:"compartments"`
	SmallManholeCovers int    `bun:"small_manhole_covers"`
	ManholeCovers      int    `bun:"manhole_covers"`
	OilDischargeValves int    `bun:"oil_discharge_valves"`
	BottomValves       int    `bun:"bottom_valves"`
	DriverName         string `bun:"driver_name"`
	DriverPhone        string `bun:"driver_phone"`
	OfflineMinutes     int    `bun:"offline_minutes"`
	SpeedLimit         int    `bun:"speed_limit"`
	VehicleClass       string `bun:"vehicle_class"`  // the alarm engine's speed limit per class
	TerminalID         int64  `bun:"terminal_id"`    // 0 when no terminal is bound
	TerminalPhone      string `bun:"terminal_phone"` // "" when no terminal is bound
	PlateKey           string `bun:"-"`              // plate.Key(Plate), what plate searches compare (D30)
}

// LiveCars lists every car of every group with its group and bound terminal, in one query: the live
// state reloads it periodically, so it must stay cheap for 100,000 cars.
func (s *Service) LiveCars(ctx context.Context) ([]LiveCar, error) {
	var out []LiveCar
	err := s.db.NewSelect().TableExpr("cars AS c").
		ColumnExpr("c.id, c.plate, c.group_id, g.path AS group_path, g.name AS group_name, c.compartments").
		ColumnExpr("c.small_manhole_covers, c.manhole_covers, c.oil_discharge_valves, c.bottom_valves").
		ColumnExpr("c.driver_name, c.driver_phone, c.offline_minutes, c.speed_limit, c.vehicle_class").
		ColumnExpr("COALESCE(t.id, 0) AS terminal_id, COALESCE(t.phone, '') AS terminal_phone").
		Join("JOIN org_groups AS g ON g.id = c.group_id").
		Join("LEFT JOIN terminals AS t ON t.car_id = c.id").
		OrderExpr("c.id").Scan(ctx, &out)
	for i := range out {
		out[i].PlateKey = plate.Key(out[i].Plate)
	}
	return out, err
}

// LiveGroupPath is the group path a monitoring call is limited to: the caller's own group for
// groupID 0, else groupID's path when it lies in the caller's subtree (403 scope otherwise, 记录不存在
// when it does not exist).
func (s *Service) LiveGroupPath(ctx context.Context, p *httpx.Principal, groupID int64) (string, error) {
	if groupID < 0 {
		return "", httpx.Invalid("groupId")
	}
	return underPath(ctx, s.db, p, groupID)
}

// LiveCheckCars verifies that every car id exists and lies in the caller's scope (403 before
// 记录不存在), against the registry rather than the live cache, whose copy of the groups may be up to
// one reload old.
func (s *Service) LiveCheckCars(ctx context.Context, p *httpx.Principal, ids []int64) error {
	return checkScope(ctx, s.db, p, "cars", ids)
}
