package app

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"

	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/seal"
)

// sealRecords: lead-seal records and their incidents (leadSealRecord) — issue 16, D53.
type sealRecords struct {
	Service *seal.Service
}

// buildSealRecords creates the seal service and keeps the seal records with the waybills: the load
// record service (records written, edited, imported, deleted; seal checks) and the process engine
// (departures, unseals, openings on the way) and the operators' corrections tell it, inside their transactions, which waybill to
// sync (called by New after the waybill parts).
func (a *App) buildSealRecords() {
	a.sealRecords.Service = seal.New(a.DB)
	sync := func(ctx context.Context, tx bun.Tx, waybillID int64) error {
		return seal.Sync(ctx, tx, waybillID, a.now().UnixMilli())
	}
	if s := a.LoadRecords(); s != nil {
		s.OnSeals = sync
	}
	if e := a.WaybillProcess(); e != nil {
		e.OnSeals = sync
	}
	if s := a.waybillProcess.Service; s != nil { // an operator's correction (to IN_TRANSIT: the departure)
		s.OnSeals = sync
	}
}

func (a *App) sealRecordsRoutes() []httpx.Route { return a.sealRecords.Service.Routes() }

// SealRecords is the lead seal service (tests).
func (a *App) SealRecords() *seal.Service { return a.sealRecords.Service }

// seedSealRecordsDemo recomputes the seal records and incidents of the demo's history (the past
// trips the overview part seeded with their load records and steps): the same Rebuild that proves
// the incremental path.
func (a *App) seedSealRecordsDemo(ctx context.Context) error {
	if _, err := seal.Rebuild(ctx, a.DB, 0, 0, a.now().UnixMilli()); err != nil {
		return fmt.Errorf("seal records: %w", err)
	}
	return nil
}
