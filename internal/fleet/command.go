package fleet

import (
	"context"

	"tankwatch/internal/platform/httpx"
)

// CommandTarget is the terminal a command for a car goes to.
type CommandTarget struct {
	TerminalID int64
	Phone      string
	Plate      string
}

// CommandTerminal finds the terminal bound to carID for a downlink command; the car must be in the
// caller's scope, and a car without a terminal is a business error naming it.
func (s *Service) CommandTerminal(ctx context.Context, p *httpx.Principal, carID int64) (CommandTarget, error) {
	plate, err := s.HistoryCar(ctx, p, carID)
	if err != nil {
		return CommandTarget{}, err
	}
	var t struct {
		ID    int64  `bun:"id"`
		Phone string `bun:"phone"`
	}
	err = s.db.NewSelect().TableExpr("terminals").ColumnExpr("id, phone").Where("car_id = ?", carID).Limit(1).Scan(ctx, &t)
	if notFound(err) {
		return CommandTarget{}, httpx.Biz("command.noTerminal", plate)
	}
	if err != nil {
		return CommandTarget{}, err
	}
	return CommandTarget{TerminalID: t.ID, Phone: t.Phone, Plate: plate}, nil
}
