package gateway

import (
	"context"

	"tankwatch/internal/fleet"
)

// FleetRegistry is the Registry over the fleet service's terminals table. Disabled terminals are
// reported as unknown, so they are refused at registration (0x8100 result 4) and authentication. The
// terminal's device ID and its car's plate and VIN are what a registration must match (D25).
type FleetRegistry struct{ Fleet *fleet.Service }

func (r FleetRegistry) Terminal(ctx context.Context, phone string) (Terminal, bool, error) {
	t, ok, err := r.Fleet.GatewayTerminal(ctx, phone)
	if err != nil || !ok || !t.Enabled {
		return Terminal{}, false, err
	}
	return Terminal{ID: t.ID, CarID: t.CarID, GroupID: t.GroupID, Phone: t.Phone, DeviceID: t.DeviceID, Plate: t.Plate, VIN: t.VIN,
		AuthCode: t.AuthCode, Protocol: t.Protocol}, true, nil
}

func (r FleetRegistry) SetAuthCode(ctx context.Context, terminalID int64, code string) error {
	return r.Fleet.GatewaySetAuthCode(ctx, terminalID, code)
}
