package fleet

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/uptrace/bun"
)

// GatewayTerminal is what the JT/T 808 gateway needs of a terminal to register and authenticate it.
type GatewayTerminal struct {
	ID, CarID, GroupID int64 // CarID 0: bound to no car
	Phone              string
	DeviceID           string // the terminal ID a 0x0100 must carry ("" until an operator sets it)
	Plate, VIN         string // of the bound car ("" when bound to none)
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
	var rows []struct {
		ID       int64   `bun:"id"`
		GroupID  int64   `bun:"group_id"`
		Phone    string  `bun:"phone"`
		DeviceID string  `bun:"device_id"`
		Protocol int     `bun:"protocol"`
		CarID    *int64  `bun:"car_id"`
		AuthCode string  `bun:"auth_code"`
		Status   int     `bun:"status"`
		Plate    *string `bun:"plate"`
		VIN      *string `bun:"vin"`
	}
	err := s.db.NewSelect().TableExpr("terminals AS t").
		ColumnExpr("t.id, t.group_id, t.phone, t.device_id, t.protocol, t.car_id, t.auth_code, t.status, c.plate, c.vin").
		Join("LEFT JOIN cars AS c ON c.id = t.car_id").
		Where("t.phone IN (?)", bun.In(forms)).OrderExpr("t.status DESC, t.id").Limit(1).Scan(ctx, &rows)
	if err != nil {
		return GatewayTerminal{}, false, fmt.Errorf("fleet: terminal %s: %w", phone, err)
	}
	if len(rows) == 0 {
		return GatewayTerminal{}, false, nil
	}
	t := rows[0]
	g := GatewayTerminal{ID: t.ID, GroupID: t.GroupID, Phone: t.Phone, DeviceID: t.DeviceID, AuthCode: t.AuthCode,
		Protocol: t.Protocol, Enabled: t.Status == 1}
	if t.CarID != nil {
		g.CarID = *t.CarID
	}
	if t.Plate != nil {
		g.Plate = *t.Plate
	}
	if t.VIN != nil {
		g.VIN = *t.VIN
	}
	return g, true, nil
}

// GatewaySetAuthCode stores the auth code the gateway issued at registration. After a restart every
// terminal registers at once; one transaction (one fsync) per registration made that storm queue behind
// the history writer for longer than terminals wait for a reply, so concurrent calls share transactions:
// the first caller writes what has queued meanwhile, and each caller returns once its code is stored.
func (s *Service) GatewaySetAuthCode(ctx context.Context, terminalID int64, code string) error {
	req := &authReq{id: terminalID, code: code, done: make(chan error, 1)}
	s.auth.mu.Lock()
	s.auth.pending = append(s.auth.pending, req)
	if !s.auth.writing {
		s.auth.writing = true
		go s.writeAuthCodes()
	}
	s.auth.mu.Unlock()
	select {
	case err := <-req.done:
		return err
	case <-ctx.Done():
		return ctx.Err() // the code may still be stored; the terminal registers again anyway
	}
}

type authReq struct {
	id   int64
	code string
	done chan error // buffered 1
}

type authCodes struct {
	mu      sync.Mutex
	pending []*authReq
	writing bool // a writeAuthCodes goroutine is running
}

// authWriteTimeout bounds one transaction of auth codes (SQLite may wait for the history writer).
const authWriteTimeout = 30 * time.Second

func (s *Service) writeAuthCodes() {
	for {
		s.auth.mu.Lock()
		batch := s.auth.pending
		s.auth.pending = nil
		if len(batch) == 0 {
			s.auth.writing = false
			s.auth.mu.Unlock()
			return
		}
		s.auth.mu.Unlock()
		ctx, cancel := context.WithTimeout(context.Background(), authWriteTimeout)
		missing := map[int64]bool{}
		err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			for _, r := range batch {
				res, err := tx.NewUpdate().TableExpr("terminals").Set("auth_code = ?", r.code).Where("id = ?", r.id).Exec(ctx)
				if err != nil {
					return err
				}
				if n, err := res.RowsAffected(); err == nil && n == 0 {
					missing[r.id] = true
				}
			}
			return nil
		})
		cancel()
		for _, r := range batch {
			switch {
			case err != nil:
				r.done <- fmt.Errorf("fleet: auth code of terminal %d: %w", r.id, err)
			case missing[r.id]:
				r.done <- fmt.Errorf("fleet: auth code of terminal %d: no such terminal", r.id)
			default:
				r.done <- nil
			}
		}
	}
}
