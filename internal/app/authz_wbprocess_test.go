package app_test

import (
	"context"
	"testing"

	"github.com/uptrace/bun"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/waybill"
)

// insertWaybillDiff stores an UNLOADING waybill of car (group groupID, from and to station) with one
// destination and an open difference of it, as the process engine would; it returns both ids.
func insertWaybillDiff(t *testing.T, e *apptest.Env, groupID, carID, stationID int64) (int64, int64) {
	t.Helper()
	ctx := t.Context()
	var product int64
	if err := e.DB.NewRaw("INSERT INTO products (group_id, code, name, created_at, updated_at) VALUES (?, 'WBP1', '92#', 1, 1) RETURNING id", groupID).
		Scan(ctx, &product); err != nil {
		t.Fatal(err)
	}
	r := waybill.Row{GroupID: groupID, No: "WBPNORTH1", CarID: carID, DepotID: stationID, State: waybill.Unloading, StateAt: 1, CreatedAt: 1, UpdatedAt: 1}
	d := &waybill.DiffRow{GroupID: groupID, CarID: carID, Kind: waybill.DiffOpeningOnWay, T: 1, Evidence: `{"t":1}`}
	if err := e.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if err := waybill.Insert(ctx, tx, &r, []waybill.Destination{{Seq: 1, StationID: stationID}},
			[]waybill.Compartment{{No: 1, ProductID: product, PlannedL: 1000, DestSeq: 1}}); err != nil {
			return err
		}
		d.WaybillID = r.ID
		return waybill.AddDiff(ctx, tx, d)
	}); err != nil {
		t.Fatal(err)
	}
	return r.ID, d.ID
}
