// Package alarm is alarm management (spec §2 /police, §4 alarm processing, §7 Alarms calls, §9
// levels I–V): alarm types with their level, group and push flag, control modes (which types are
// watched and the thresholds, per group or per car), the rule engine that judges every committed
// report, the alarm records with their processing, overtime parking periods and the statistics.
//
// Help requests live in the same package (help*.go, HelpService) but are another service.
package alarm

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"tankwatch/internal/audit"
	"tankwatch/internal/fleet"
	"tankwatch/internal/platform/db"
)

// Processing states of an alarm record (spec §4).
const (
	StateUnprocessed = 0
	StateProcessed   = 1
	StatePending     = 2 // pending further process
)

// Levels run from I (most severe) to V.
const (
	LevelI   = 1
	LevelV   = 5
	pushUpTo = 2 // seeded push: levels I–II only
)

// maxBatch bounds the ids of one processing call.
const maxBatch = 1000

// maxExportRows bounds one export.
const maxExportRows = 100_000

// Service is the alarm records, types, control modes and calls. The Engine writes records through
// it; handlers read them.
type Service struct {
	db    *db.DB
	fleet *fleet.Service
	audit *audit.Log
	Now   func() time.Time
	Log   *slog.Logger
	// Locks lists the platform's lock / unlock commands (the password record); nil: not available.
	Locks LockCommandSource

	mu       sync.RWMutex
	types    map[string]Type // cache of alarm_types, refreshed on every change
	controls *controlSet
	// defaultParking is the platform's overtime parking minutes set at run time by the system settings
	// (SetDefaultParking); 0: DefaultParkingMinutes. A control mode's own minutes still win.
	defaultParking atomic.Int64
}

// New returns the alarm service; Load reads the types and control modes.
func New(d *db.DB, f *fleet.Service, log *audit.Log) *Service {
	return &Service{db: d, fleet: f, audit: log, Now: time.Now, Log: slog.Default(),
		types: map[string]Type{}, controls: newControlSet(nil)}
}

func (s *Service) nowMS() int64 { return s.Now().UnixMilli() }

// Load reads the alarm types and control modes into memory (the engine reads them per report).
func (s *Service) Load(ctx context.Context) error {
	if err := s.loadTypes(ctx); err != nil {
		return err
	}
	return s.loadControls(ctx)
}
