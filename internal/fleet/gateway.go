package fleet

import (
	"context"
	"fmt"
	"strings"

	"github.com/uptrace/bun"
)

// GatewayTerminal is what the JT/T 808 gateway needs of a terminal to register and authenticate it.
type GatewayTerminal struct {
	ID, CarID, GroupID int64 // CarID 0: bound to no car
	Phone              string
	AuthCode           string
	Protocol           int
	Enabled            bool
}

// maxPhoneDigits is the width of a 2019 header's BCD[10] phone.
const maxPhoneDigits = 20

// GatewayTerminal finds the terminal whose stored phone equals phone ignoring leading zeros (headers
// carry "013852600100" as BCD, the console may have stored "13852600100"). ok is false for no match and
// for input that is not 1–20 digits. It asks for the few zero-padded spellings by the unique index
// rather than ltrim(phone), which would read every terminal on each login of a reconnect storm.
// Should two spellings both be stored, the enabled one with the lowest id wins.
func (s *Service) GatewayTerminal(ctx context.Context, phone string) (GatewayTerminal, bool, error) {
	if len(phone) == 0 || len(phone) > maxPhoneDigits || !terminalPhoneRe.MatchString(phone) {
		return GatewayTerminal{}, false, nil
	}
	bare := strings.TrimLeft(phone, "0")
	var forms []string
	for z := 0; len(bare)+z <= maxPhoneDigits; z++ {
		if z == 0 && bare == "" {
			continue
		}
		forms = append(forms, strings.Repeat("0", z)+bare)
	}
	var rows []Terminal
	err := s.db.NewSelect().Model(&rows).Column("id", "group_id", "phone", "protocol", "car_id", "auth_code", "status").
		Where("t.phone IN (?)", bun.In(forms)).OrderExpr("t.status DESC, t.id").Limit(1).Scan(ctx)
	if err != nil {
		return GatewayTerminal{}, false, fmt.Errorf("fleet: terminal %s: %w", phone, err)
	}
	if len(rows) == 0 {
		return GatewayTerminal{}, false, nil
	}
	t := rows[0]
	g := GatewayTerminal{ID: t.ID, GroupID: t.GroupID, Phone: t.Phone, AuthCode: t.AuthCode, Protocol: t.Protocol, Enabled: t.Status == 1}
	if t.CarID != nil {
		g.CarID = *t.CarID
	}
	return g, true, nil
}

// GatewaySetAuthCode stores the auth code the gateway issued at registration.
func (s *Service) GatewaySetAuthCode(ctx context.Context, terminalID int64, code string) error {
	res, err := s.db.NewUpdate().TableExpr("terminals").Set("auth_code = ?", code).Where("id = ?", terminalID).Exec(ctx)
	if err != nil {
		return fmt.Errorf("fleet: auth code of terminal %d: %w", terminalID, err)
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		return fmt.Errorf("fleet: auth code of terminal %d: no such terminal", terminalID)
	}
	return nil
}
