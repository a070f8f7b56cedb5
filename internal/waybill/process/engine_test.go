package process_test

import (
	"context"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/db/dbtest"
	"tankwatch/internal/tank"
	"tankwatch/internal/telemetry"
	"tankwatch/internal/waybill"
	"tankwatch/internal/waybill/process"
)

// Places: a depot at (121.0, 31.0), a station at (121.3, 31.3), the road between; fences of 300 m.
var (
	depotAt = [2]int32{31_000_000, 121_000_000}
	stAt    = [2]int32{31_300_000, 121_300_000}
)

type trip struct {
	d        *db.DB
	gid      int64
	car      int64
	depot    int64
	station  int64
	wb       int64
	t0       int64
	t        int64 // seconds since t0 of the next report
	eng      *process.Engine
	enqueued bool // feed through Enqueue (the queue) rather than Evaluate
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// newTrip stores a group, a car, a depot, a station, a product and a DISPATCHED waybill of 3
// compartments to the station, and an engine loaded with it.
func newTrip(t *testing.T, d *db.DB, cfg process.EngineConfig) *trip {
	ctx := context.Background()
	tr := &trip{d: d, t0: 1_800_000_000_000}
	must(t, d.NewRaw("INSERT INTO org_groups (name, path, created_at) VALUES ('g', '/1/', 1) RETURNING id").Scan(ctx, &tr.gid))
	must(t, d.NewRaw("INSERT INTO cars (group_id, plate, compartments, created_at, updated_at) VALUES (?, '沪A00001', 3, 1, 1) RETURNING id", tr.gid).Scan(ctx, &tr.car))
	must(t, d.NewRaw(`INSERT INTO stations (group_id, name, station_type, fence_type, fence_center, raduis, center_lng, center_lat, created_at, updated_at)
		VALUES (?, '油库', 'yk', 2, '121,31', 300, 121, 31, 1, 1) RETURNING id`, tr.gid).Scan(ctx, &tr.depot))
	must(t, d.NewRaw(`INSERT INTO stations (group_id, name, station_type, fence_type, fence_center, raduis, center_lng, center_lat, created_at, updated_at)
		VALUES (?, '一号站', 'jyz', 2, '121.3,31.3', 300, 121.3, 31.3, 1, 1) RETURNING id`, tr.gid).Scan(ctx, &tr.station))
	var product int64
	must(t, d.NewRaw("INSERT INTO products (group_id, code, name, created_at, updated_at) VALUES (?, 'P1', '92#', 1, 1) RETURNING id", tr.gid).Scan(ctx, &product))
	r := waybill.Row{GroupID: tr.gid, No: "W1", CarID: tr.car, DepotID: tr.depot, State: waybill.Dispatched, StateAt: 1, CreatedAt: 1, UpdatedAt: 1}
	dests := []waybill.Destination{{Seq: 1, StationID: tr.station}}
	comps := []waybill.Compartment{{No: 1, ProductID: product, PlannedL: 8000, DestSeq: 1}, {No: 2, ProductID: product, PlannedL: 8000, DestSeq: 1},
		{No: 3, ProductID: product, PlannedL: 8000, DestSeq: 1}}
	must(t, d.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error { return waybill.Insert(ctx, tx, &r, dests, comps) }))
	tr.wb = r.ID
	tr.eng = process.NewEngine(process.Deps{DB: d, Now: func() time.Time { return time.UnixMilli(tr.t0 + tr.t*1000) }}, cfg, nil)
	must(t, tr.eng.Reload(ctx))
	return tr
}

func state(seal tank.Seal, open ...[2]int) *tank.State {
	s := &tank.State{Compartments: 3, Seal: seal}
	for c := range 3 {
		for k := range tank.Kinds {
			s.Devices[c][k] = tank.DevInstalled | tank.DevLocked
		}
	}
	for _, o := range open {
		s.Devices[o[0]-1][o[1]] = tank.DevInstalled | tank.DevOpen
	}
	return s
}

// report commits a report the way the history writer does (positions, tank_states, level_readings)
// and hands it to the engine; at nil: a pass-through without a position.
func (tr *trip) report(t *testing.T, at *[2]int32, st *tank.State, v20 ...float64) {
	t.Helper()
	ctx := context.Background()
	tr.t += 10
	ms := tr.t0 + tr.t*1000
	r := telemetry.Report{CarID: tr.car, TerminalID: 1, Time: time.UnixMilli(ms), Received: time.UnixMilli(ms), Tank: st, TankOnly: at == nil}
	if at != nil {
		r.Lat, r.Lon = at[0], at[1]
		_, err := tr.d.NewRaw("INSERT INTO positions (car_id, t, terminal_id, received_at, lat, lon) VALUES (?, ?, 1, ?, ?, ?)",
			tr.car, ms, ms, at[0], at[1]).Exec(ctx)
		must(t, err)
	}
	if st != nil {
		_, err := tr.d.NewRaw("INSERT INTO tank_states (car_id, t, terminal_id, lock_state, seal) VALUES (?, ?, 1, ?, ?)",
			tr.car, ms, tank.LockString(st), int(st.Seal)).Exec(ctx)
		must(t, err)
	}
	for i, v := range v20 {
		r.Readings = append(r.Readings, tank.Reading{Compartment: uint8(i + 1), VolumeL: v, V20L: v})
		_, err := tr.d.NewRaw(`INSERT INTO level_readings (car_id, t, compartment, level_mm, probe_l, temp_dc, volume_l, source, v20_l, mass_kg)
			VALUES (?, ?, ?, 0, 0, 200, ?, 1, ?, 0)`, tr.car, ms, i+1, v, v).Exec(ctx)
		must(t, err)
	}
	if tr.enqueued {
		tr.eng.Enqueue([]telemetry.Report{r})
		return
	}
	tr.eng.Evaluate(ctx, []telemetry.Report{r})
}

func (tr *trip) row(t *testing.T) waybill.Row {
	t.Helper()
	var r waybill.Row
	must(t, tr.d.NewSelect().Model(&r).Where("id = ?", tr.wb).Scan(context.Background()))
	return r
}

func (tr *trip) wantState(t *testing.T, want waybill.State) {
	t.Helper()
	if got := tr.row(t).State; got != want {
		t.Fatalf("t=%d: state %s, want %s", tr.t, got, want)
	}
}

// loadRecord is H3's load record: shipped V20 and Advance(EvLoadRecord) in one transaction.
func (tr *trip) loadRecord(t *testing.T, shipped float64) {
	ctx := context.Background()
	must(t, tr.d.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if _, err := tx.NewUpdate().Table("waybills").Set("shipped_v20 = ?", shipped).Where("id = ?", tr.wb).Exec(ctx); err != nil {
			return err
		}
		_, _, err := waybill.Advance(ctx, tx, tr.wb, waybill.Move{Evidence: waybill.EvLoadRecord, Cause: waybill.CauseRecord, T: tr.t0 + tr.t*1000}, tr.t0+tr.t*1000)
		return err
	}))
	tr.eng.Touch(tr.car)
}

var road = [2]int32{31_150_000, 121_150_000}

// drive plays the trip: depot, loading, the load record, seal, road (with a hook on the way),
// station, unseal, unloading; the truck's V20 falls by lost litres on the way.
func (tr *trip) drive(t *testing.T, onTheWay func(), lost float64) {
	full := 8000.0
	tr.report(t, &road, state(tank.SealNone), 0, 0, 0)
	tr.report(t, &depotAt, state(tank.SealNone), 0, 0, 0)
	tr.report(t, &depotAt, state(tank.SealNone, [2]int{1, tank.ManholeCover}), 100, 0, 0)
	tr.wantState(t, waybill.Loading)
	tr.report(t, &depotAt, state(tank.SealNone, [2]int{2, tank.ManholeCover}), full, full, 0)
	tr.report(t, &depotAt, state(tank.SealNone, [2]int{3, tank.ManholeCover}), full, full, full)
	tr.loadRecord(t, 3*full)
	tr.wantState(t, waybill.Loaded)
	tr.report(t, &depotAt, state(tank.SealSealed), full, full, full)
	tr.wantState(t, waybill.Sealed)
	tr.report(t, &road, state(tank.SealSealed), full, full, full)
	tr.wantState(t, waybill.InTransit)
	for range 3 {
		tr.report(t, &road, state(tank.SealSealed), full, full, full)
	}
	if onTheWay != nil {
		onTheWay()
	}
	c1 := full - lost
	for range 3 {
		tr.report(t, &road, state(tank.SealSealed), c1, full, full)
	}
	tr.report(t, &stAt, state(tank.SealSealed), c1, full, full)
	tr.wantState(t, waybill.Arrived)
	tr.report(t, &stAt, state(tank.SealUnsealed), c1, full, full)
	tr.wantState(t, waybill.Unsealed)
	tr.report(t, &stAt, state(tank.SealUnsealed, [2]int{1, tank.DischargeValve}), c1-3000, full, full)
	tr.wantState(t, waybill.Unloading)
	tr.report(t, &stAt, state(tank.SealUnsealed, [2]int{1, tank.DischargeValve}, [2]int{2, tank.DischargeValve}), 0, 2000, full)
	tr.report(t, nil, state(tank.SealUnsealed, [2]int{3, tank.DischargeValve}), 0, 0, 3000)
	tr.report(t, &stAt, state(tank.SealUnsealed), 0, 0, 0)
	tr.report(t, &stAt, state(tank.SealUnsealed), 0, 0, 0)
	tr.report(t, &stAt, state(tank.SealUnsealed), 0, 0, 0)
}

func (tr *trip) diffs(t *testing.T) []waybill.DiffRow {
	var ds []waybill.DiffRow
	must(t, tr.d.NewSelect().Model(&ds).Where("waybill_id = ?", tr.wb).OrderExpr("id").Scan(context.Background()))
	return ds
}

// TestEngineTripClosesByItself: a whole simulated trip moves the waybill from DISPATCHED to CLOSED
// without a click; the received volume is the truck's own V20 before minus after, the loss within
// the allowance; every step is stored with its cause.
func TestEngineTripClosesByItself(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		tr := newTrip(t, d, process.EngineConfig{})
		tr.drive(t, nil, 1) // 1 L of 24000: 0.0042 %, within 0.01 %
		r := tr.row(t)
		if r.State != waybill.Closed || r.ReceivedSource != waybill.ReceivedTruck || r.ReceivedV20 != 23999 || r.LossL != 1 {
			t.Fatalf("%+v", r)
		}
		if r.LoadedKm < 20 || r.LoadedKm > 25 || r.AllowedPct != 0.01 { // from the depot exit to the arrival
			t.Fatalf("loaded km %v allowed %v", r.LoadedKm, r.AllowedPct)
		}
		steps, err := waybill.Steps(context.Background(), d, tr.wb)
		must(t, err)
		want := []waybill.State{waybill.Loading, waybill.Loaded, waybill.Sealed, waybill.InTransit, waybill.Arrived, waybill.Unsealed,
			waybill.Unloading, waybill.Received, waybill.Closed}
		if len(steps) != len(want) {
			t.Fatalf("%d steps: %+v", len(steps), steps)
		}
		for i, s := range steps {
			if s.To != want[i] {
				t.Fatalf("step %d: %s, want %s", i, s.To, want[i])
			}
		}
		if steps[0].Cause != waybill.CauseReport || steps[7].Cause != waybill.CauseRecord || steps[8].Cause != waybill.CauseRule {
			t.Fatalf("causes %d %d %d", steps[0].Cause, steps[7].Cause, steps[8].Cause)
		}
		if steps[4].StationID != tr.station || steps[4].DestSeq != 1 || steps[6].VolumeL != 23999 {
			t.Fatalf("arrival %+v, unload %+v", steps[4], steps[6])
		}
		var dst waybill.Destination
		must(t, d.NewSelect().Model(&dst).Where("waybill_id = ?", tr.wb).Scan(context.Background()))
		if dst.State != waybill.DestReceived || dst.ArriveAt == 0 || dst.UnloadStartAt == 0 || dst.UnloadEndAt == 0 || dst.ReceivedSource != waybill.ReceivedTruck {
			t.Fatalf("%+v", dst)
		}
		if len(tr.diffs(t)) != 0 {
			t.Fatal("a clean trip has differences")
		}
		// a late report (older than the trip's end) does not pull anything back
		tr.t -= 205
		tr.report(t, &depotAt, state(tank.SealNone, [2]int{1, tank.ManholeCover}), 0, 0, 0)
		tr.wantState(t, waybill.Closed)
	})
}

// TestEngineValveOnTheWayFlagsTheTrip: a discharge valve opened on the road (and 300 L gone) flags the
// trip: one opening difference with its evidence, the loss over the allowance, DIFF_FLAGGED with a
// loss difference; a review of both closes it.
func TestEngineValveOnTheWayFlagsTheTrip(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		tr := newTrip(t, d, process.EngineConfig{})
		tr.drive(t, func() {
			for range 3 { // the same episode: one difference
				tr.report(t, &road, state(tank.SealSealed, [2]int{1, tank.DischargeValve}), 7700, 8000, 8000)
			}
		}, 300)
		r := tr.row(t)
		if r.State != waybill.DiffFlagged || !r.Flagged || r.LossL != 300 {
			t.Fatalf("%+v", r)
		}
		ds := tr.diffs(t)
		if len(ds) != 2 || ds[0].Kind != waybill.DiffOpeningOnWay || ds[1].Kind != waybill.DiffLossOver || ds[1].LossL != 300 {
			t.Fatalf("%+v", ds)
		}
		if ds[0].Evidence == "" || process.EvidenceText(0, ds[0].Kind, ds[0].Evidence) == "" {
			t.Fatalf("no evidence: %+v", ds[0])
		}
		if txt := process.EvidenceText(0, ds[0].Kind, ds[0].Evidence); !contains(txt, "1 号仓卸油阀") {
			t.Fatalf("evidence text %q", txt)
		}
	})
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

// TestEngineCatchUpAfterOverflowLosesNoStep: with a queue of one batch that nobody drains, every
// later report overflows; the catch-up reads them back from the store and the trip still closes,
// each step once.
func TestEngineCatchUpAfterOverflowLosesNoStep(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		tr := newTrip(t, d, process.EngineConfig{Queue: 1})
		tr.enqueued = true
		tr.eng.Enqueue(nil) // fills the queue
		ctx := context.Background()
		catch := func() {
			must(t, tr.eng.CatchUp(ctx))
		}
		// the trip with a catch-up now and then (the load record needs LOADING first)
		full := 8000.0
		tr.report(t, &depotAt, state(tank.SealNone), 0, 0, 0)
		tr.report(t, &depotAt, state(tank.SealNone, [2]int{1, tank.ManholeCover}), full, full, full)
		catch()
		tr.wantState(t, waybill.Loading)
		tr.loadRecord(t, 3*full)
		tr.report(t, &depotAt, state(tank.SealSealed), full, full, full)
		tr.report(t, &road, state(tank.SealSealed), full, full, full)
		tr.report(t, &stAt, state(tank.SealSealed), full, full, full)
		tr.report(t, &stAt, state(tank.SealUnsealed), full, full, full)
		tr.report(t, &stAt, state(tank.SealUnsealed, [2]int{1, tank.DischargeValve}), 0, full, full)
		tr.report(t, &stAt, state(tank.SealUnsealed, [2]int{2, tank.DischargeValve}, [2]int{3, tank.DischargeValve}), 0, 0, 0)
		for range 3 {
			tr.report(t, &stAt, state(tank.SealUnsealed), 0, 0, 0)
		}
		_, overflows, _, _ := tr.eng.Stats()
		if overflows < 10 {
			t.Fatalf("%d overflows", overflows)
		}
		catch()
		r := tr.row(t)
		if r.State != waybill.Closed || r.LossL != 0 {
			t.Fatalf("%+v", r)
		}
		steps, err := waybill.Steps(ctx, d, tr.wb)
		must(t, err)
		if len(steps) != 9 {
			t.Fatalf("%d steps", len(steps))
		}
		_, _, caught, _ := tr.eng.Stats()
		if caught < 10 {
			t.Fatalf("%d caught up", caught)
		}
	})
}

// TestEngineGaugeDeliveryIsTheReceivedVolume: at a station with a gauge the engine waits for the
// gauge's delivery of the unloading window and takes it (source gauge); over the allowance the trip
// is flagged.
func TestEngineGaugeDeliveryIsTheReceivedVolume(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		tr := newTrip(t, d, process.EngineConfig{})
		ctx := context.Background()
		var tankID int64
		must(t, d.NewRaw(`INSERT INTO ground_tanks (station_id, tank_no, gauge_host, gauge_port, gauge_tank, created_at, updated_at)
			VALUES (?, 1, '127.0.0.1', 10001, 1, 1, 1) RETURNING id`, tr.station).Scan(ctx, &tankID))
		tr.drive(t, nil, 0)
		tr.wantState(t, waybill.Unloading) // waiting for the gauge
		must(t, tr.eng.Resolve(ctx))
		tr.wantState(t, waybill.Unloading)
		end := tr.t0 + tr.t*1000
		_, err := d.NewRaw(`INSERT INTO ground_deliveries (tank_id, start_at, end_at, start_l, end_l, start_tc_l, end_tc_l, start_height, end_height, start_temp_c, end_temp_c)
			VALUES (?, ?, ?, 10000, 33950, 10000, 33900, 0, 0, 20, 20)`, tankID, end-60_000, end+120_000).Exec(ctx)
		must(t, err)
		must(t, tr.eng.Resolve(ctx))
		r := tr.row(t)
		if r.State != waybill.DiffFlagged || r.ReceivedSource != waybill.ReceivedGauge || r.ReceivedV20 != 23900 || r.LossL != 100 {
			t.Fatalf("%+v", r)
		}
		if ds := tr.diffs(t); len(ds) != 1 || ds[0].Kind != waybill.DiffLossOver {
			t.Fatalf("%+v", ds)
		}
	})
}
