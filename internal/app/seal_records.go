package app

import (
	"context"

	"tankwatch/internal/platform/httpx"
)

// sealRecords: lead-seal records and their incidents (leadSealRecord) — issue 16.
type sealRecords struct{}

// buildSealRecords creates the part's services (called by New after the waybill parts).
func (a *App) buildSealRecords() {}

func (a *App) sealRecordsRoutes() []httpx.Route { return nil }

// seedSealRecordsDemo adds the part's demo data (Bootstrap, after the waybill demo; order in Bootstrap).
func (a *App) seedSealRecordsDemo(ctx context.Context) error { return nil }
