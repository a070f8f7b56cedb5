// Package carpass holds the vehicles' local unlock passwords (车辆密码, menu 03-04) and the record of
// every time one was revealed (密码查看记录, menu 02-04). A password is the six digits a driver types on
// the e-lock keypad when the vehicle has no signal; the platform sets it, sends it down as item 0xE5
// (docs/PROTOCOL.md) and gives it to a dispatcher only through View, which records the reveal
// (DECISIONS D21).
package carpass

import (
	"context"
	"crypto/rand"
	"fmt"
	"math/big"
	"net/http"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"tankwatch/internal/audit"
	"tankwatch/internal/fleet"
	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/tank"
	"tankwatch/internal/telemetry"
)

// Permission codes (internal/org/menu.json).
const (
	PageCode         = "03-04"    // 车辆密码: the list
	ViewCode         = "03-04-01" // reveal a password (recorded)
	SetCode          = "03-04-02" // set, generate or resend
	ExportCode       = "03-04-03"
	RecordCode       = "02-04" // 密码查看记录
	RecordExportCode = "02-04-01"
)

// Sync states of a stored password.
const (
	SyncPending = "pending" // not (yet) accepted by the terminal: offline, no terminal, in flight
	SyncOK      = "ok"      // the terminal answered 0 to the 0xE5
	SyncFailed  = "failed"  // the terminal refused it or did not answer
)

// Sync reasons (catalogue carPassword.reason.*): why a password is not in sync.
const (
	ReasonSending    = "sending"
	ReasonOffline    = "offline"
	ReasonNoTerminal = "noTerminal"
	ReasonTimeout    = "timeout"
	ReasonRefused    = "refused"
	ReasonError      = "error"
)

// Module is the operation log's module of password changes.
const Module = "carPassword"

// Service is the car password store and its viewing records.
type Service struct {
	db       *db.DB
	fleet    *fleet.Service
	commands *telemetry.Commands
	sender   telemetry.Sender
	audit    *audit.Log
	Now      func() time.Time
}

// New returns the service; commands and sender carry the 0xE5 down (the command log and the JT/T 808
// gateway), fleet answers scope questions about cars.
func New(d *db.DB, f *fleet.Service, commands *telemetry.Commands, sender telemetry.Sender, a *audit.Log) *Service {
	s := &Service{db: d, fleet: f, commands: commands, sender: sender, audit: a, Now: time.Now}
	// a deleted car's password goes with it (a later car could get its id); its viewing records stay:
	// they are history and carry the plate
	f.OnCarsDeleted(func(ctx context.Context, tx bun.Tx, ids []int64) error {
		_, err := tx.NewDelete().Model((*password)(nil)).Where("car_id IN (?)", bun.In(ids)).Exec(ctx)
		return err
	})
	return s
}

// password is a row of car_passwords.
type password struct {
	bun.BaseModel `bun:"table:car_passwords,alias:cp"`

	CarID      int64  `bun:"car_id,pk"`
	Password   string `bun:"password"`
	SetBy      int64  `bun:"set_by"`
	SetByName  string `bun:"set_by_name"`
	SetAt      int64  `bun:"set_at"`
	SyncState  string `bun:"sync_state"`
	SyncReason string `bun:"sync_reason"`
	CommandID  int64  `bun:"command_id"`
	SyncedAt   int64  `bun:"synced_at"`
}

// cleanPassword checks an operator's password: exactly six ASCII digits (surrounding spaces from a
// paste are dropped); "" asks for a generated one.
func cleanPassword(s string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return generate()
	}
	if !tank.ValidPassword(s) {
		return "", httpx.Biz("carPassword.format")
	}
	return s, nil
}

// generate draws six uniform digits from crypto/rand: a guessable sequence would open the locks.
func generate() (string, error) {
	n, err := rand.Int(rand.Reader, big.NewInt(1_000_000))
	if err != nil {
		return "", fmt.Errorf("carpass: random password: %w", err)
	}
	return fmt.Sprintf("%06d", n.Int64()), nil
}

func (s *Service) record(r *http.Request, action string, car fleet.CarRef, detail string) {
	if s.audit == nil {
		return
	}
	s.audit.Record(r.Context(), r, nil, audit.Entry{Module: Module, Action: action, Target: car.Plate, TargetID: car.ID, Detail: detail})
}
