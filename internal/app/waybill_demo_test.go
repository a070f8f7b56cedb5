package app_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/sim"
	"tankwatch/internal/waybill"
)

// TestDemoPlanner runs one demo truck against a real instance: the planner makes its trip's waybill
// through the waybill service (home depot, stations near it, the car's compartments and driver) and
// dispatches it; the truck follows the dispatch text to those stations; the depot's ticket becomes
// the load record (source LoadDepot, one unique seal per compartment) and the waybill's shipped V20;
// the process engine takes it from there (at least to ARRIVED at its first station).
func TestDemoPlanner(t *testing.T) {
	t.Parallel()
	e := apptest.NewWithGateway(t, "sqlite")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// 400×: the truck waits 45 simulated minutes (6.75 s) for the planner's dispatch; at 1000× (2.7 s) a
	// loaded machine delayed the dispatch past the wait and the truck loaded by its own plan
	cfg := sim.Config{Gateway: e.App.Devices.GatewayAddr(), Vehicles: 1, First: 1, Seed: 1, Speedup: 400, DayAtStart: true,
		Epoch: e.Clock.Now(), AckTimeout: 2 * time.Second, Backoff: 100 * time.Millisecond}
	e.App.DemoWaybillHooks(ctx, &cfg)
	if cfg.DispatchWait == 0 {
		t.Fatal("the planner is not wired to the waybill and load record services")
	}
	f, err := sim.Start(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Stop()
	var w waybill.Row
	apptest.WaitWithin(t, 3*time.Minute, "the planner's waybill to arrive at its first station", func() bool {
		err := e.DB.NewSelect().Model(&w).Where("remark = ?", "演示调度").OrderExpr("id").Limit(1).Scan(context.Background())
		return err == nil && w.State >= waybill.Arrived
	})
	var car struct {
		ID          int64  `bun:"id"`
		DriverName  string `bun:"driver_name"`
		DriverPhone string `bun:"driver_phone"`
	}
	if err := e.DB.NewSelect().TableExpr("terminals AS t").Join("JOIN cars AS c ON c.id = t.car_id").ColumnExpr("c.id, c.driver_name, c.driver_phone").
		Where("t.phone = ?", f.Phones()[0]).Scan(ctx, &car); err != nil {
		t.Fatal(err)
	}
	if w.CarID != car.ID || w.DriverName != car.DriverName || w.DispatchedAt == 0 || w.ShippedV20 < 27000 {
		t.Fatalf("waybill %+v for car %+v", w, car)
	}
	var depot string
	if err := e.DB.NewSelect().Table("stations").Column("name").Where("id = ?", w.DepotID).Scan(ctx, &depot); err != nil {
		t.Fatal(err)
	}
	var stops []string
	if err := e.DB.NewSelect().TableExpr("waybill_destinations AS d").Join("JOIN stations AS s ON s.id = d.station_id").
		ColumnExpr("s.name").Where("d.waybill_id = ?", w.ID).OrderExpr("d.seq").Scan(ctx, &stops); err != nil {
		t.Fatal(err)
	}
	near := sim.NearStations(depot, 6)
	for _, s := range stops {
		if !slices.Contains(near, s) {
			t.Errorf("stop %s is not near %s", s, depot)
		}
	}
	var arrived int
	if err := e.DB.NewSelect().Table("waybill_destinations").ColumnExpr("COUNT(*)").Where("waybill_id = ? AND seq = 1 AND arrive_at > 0", w.ID).
		Scan(ctx, &arrived); err != nil || arrived != 1 {
		t.Fatalf("the truck did not arrive at the dispatched station %s (%v)", stops[0], err)
	}
	var items []struct {
		Compartment int     `bun:"compartment"`
		SealNo      string  `bun:"seal_no"`
		VtL         float64 `bun:"vt_l"`
	}
	if err := e.DB.NewSelect().TableExpr("load_record_items AS i").Join("JOIN load_records AS r ON r.id = i.record_id").
		ColumnExpr("i.compartment, i.seal_no, i.vt_l").Where("r.waybill_id = ? AND r.source = ?", w.ID, waybill.LoadDepot).
		OrderExpr("i.compartment").Scan(ctx, &items); err != nil {
		t.Fatal(err)
	}
	if len(items) != sim.Compartments {
		t.Fatalf("load record items %+v", items)
	}
	seals := map[string]bool{}
	for _, it := range items {
		if it.VtL < 9000 || it.VtL > 9600 || it.SealNo == "" || seals[it.SealNo] {
			t.Errorf("item %+v", it)
		}
		seals[it.SealNo] = true
	}
}
