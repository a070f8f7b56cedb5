package seal_test

import (
	"context"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/db/dbtest"
	"tankwatch/internal/seal"
	"tankwatch/internal/tank"
	"tankwatch/internal/telemetry"
	"tankwatch/internal/waybill"
	"tankwatch/internal/waybill/load"
	"tankwatch/internal/waybill/process"
)

// The flow: a real waybill through the load record service (its seals) and the process engine (what
// the truck reports), both wired to seal.Sync as the app wires them: the seal records follow by
// themselves.

var (
	depotAt = [2]int32{31_000_000, 121_000_000}
	road    = [2]int32{31_150_000, 121_150_000}
	stAt    = [2]int32{31_300_000, 121_300_000}
)

type flow struct {
	t     *testing.T
	d     *db.DB
	ctx   context.Context
	car   int64
	wb    int64
	depot int64
	st    int64
	t0    int64
	sec   int64
	eng   *process.Engine
	loads *load.Service
}

func (f *flow) must(err error) {
	f.t.Helper()
	if err != nil {
		f.t.Fatal(err)
	}
}

func newFlow(t *testing.T, d *db.DB) *flow {
	f := &flow{t: t, d: d, ctx: context.Background(), t0: 1_800_000_000_000}
	var gid, product int64
	f.must(d.NewRaw("INSERT INTO org_groups (name, path, code, created_at) VALUES ('g', '/1/', 'G1', 1) RETURNING id").Scan(f.ctx, &gid))
	f.must(d.NewRaw("INSERT INTO cars (group_id, plate, compartments, created_at, updated_at) VALUES (?, '沪A00001', 2, 1, 1) RETURNING id", gid).Scan(f.ctx, &f.car))
	f.must(d.NewRaw(`INSERT INTO stations (group_id, name, station_type, fence_type, fence_center, raduis, center_lng, center_lat, created_at, updated_at)
		VALUES (?, '油库', 'yk', 2, '121,31', 300, 121, 31, 1, 1) RETURNING id`, gid).Scan(f.ctx, &f.depot))
	f.must(d.NewRaw(`INSERT INTO stations (group_id, name, station_type, fence_type, fence_center, raduis, center_lng, center_lat, created_at, updated_at)
		VALUES (?, '一号站', 'jyz', 2, '121.3,31.3', 300, 121.3, 31.3, 1, 1) RETURNING id`, gid).Scan(f.ctx, &f.st))
	f.must(d.NewRaw(`INSERT INTO products (group_id, code, name, product, family, density20, created_at, updated_at)
		VALUES (?, 'P92', '92#', 2, 1, 740, 1, 1) RETURNING id`, gid).Scan(f.ctx, &product))
	r := waybill.Row{GroupID: gid, No: "W1", CarID: f.car, DepotID: f.depot, State: waybill.Dispatched, StateAt: 1, CreatedAt: 1, UpdatedAt: 1}
	f.must(waybill.Insert(f.ctx, d, &r, []waybill.Destination{{Seq: 1, StationID: f.st}},
		[]waybill.Compartment{{No: 1, ProductID: product, PlannedL: 8000, DestSeq: 1}, {No: 2, ProductID: product, PlannedL: 8000, DestSeq: 1}}))
	f.wb = r.ID
	now := func() time.Time { return time.UnixMilli(f.t0 + f.sec*1000) }
	sync := func(ctx context.Context, tx bun.Tx, id int64) error { return seal.Sync(ctx, tx, id, now().UnixMilli()) }
	f.eng = process.NewEngine(process.Deps{DB: d, Now: now}, process.EngineConfig{}, nil)
	f.eng.OnSeals = sync
	f.loads = load.New(d, nil)
	f.loads.Now, f.loads.OnSeals, f.loads.OnChange = now, sync, f.eng.Touch
	f.must(f.eng.Reload(f.ctx))
	return f
}

func tankState(s tank.Seal, open ...[2]int) *tank.State {
	st := &tank.State{Compartments: 2, Seal: s}
	for c := range 2 {
		for k := range tank.Kinds {
			st.Devices[c][k] = tank.DevInstalled | tank.DevLocked
		}
	}
	for _, o := range open {
		st.Devices[o[0]-1][o[1]] = tank.DevInstalled | tank.DevOpen
	}
	return st
}

// report commits a report as the history writer does and hands it to the engine.
func (f *flow) report(at [2]int32, st *tank.State) {
	f.t.Helper()
	f.sec += 10
	ms := f.t0 + f.sec*1000
	_, err := f.d.NewRaw("INSERT INTO positions (car_id, t, terminal_id, received_at, lat, lon) VALUES (?, ?, 1, ?, ?, ?)", f.car, ms, ms, at[0], at[1]).Exec(f.ctx)
	f.must(err)
	_, err = f.d.NewRaw("INSERT INTO tank_states (car_id, t, terminal_id, lock_state, seal) VALUES (?, ?, 1, ?, ?)", f.car, ms, tank.LockString(st), int(st.Seal)).Exec(f.ctx)
	f.must(err)
	f.eng.Evaluate(f.ctx, []telemetry.Report{{CarID: f.car, TerminalID: 1, Time: time.UnixMilli(ms), Received: time.UnixMilli(ms), Lat: at[0], Lon: at[1], Tank: st}})
}

// loadAtDepot: the truck loads at the depot and the depot's ticket is recorded with seals (QF1, QF2).
func (f *flow) loadAtDepot(seals ...string) {
	f.t.Helper()
	f.report(road, tankState(tank.SealNone))
	f.report(depotAt, tankState(tank.SealNone))
	f.report(depotAt, tankState(tank.SealNone, [2]int{1, tank.ManholeCover}))
	in := load.RecordInput{WaybillID: f.wb, TicketNo: "T1", LoadedAt: f.t0 + f.sec*1000}
	for i, s := range seals {
		in.Items = append(in.Items, load.ItemInput{Compartment: i + 1, VtL: 8000, TempC: 20, SealNo: s})
	}
	_, err := f.loads.Record(f.ctx, 0, waybill.LoadDepot, in)
	f.must(err)
}

func (f *flow) records() []seal.Record {
	var rs []seal.Record
	f.must(f.d.NewSelect().Model(&rs).Where("waybill_id = ?", f.wb).OrderExpr("compartment").Scan(f.ctx))
	return rs
}

func (f *flow) incidents() []seal.IncidentRow {
	var rs []seal.IncidentRow
	f.must(f.d.NewSelect().Model(&rs).Where("waybill_id = ?", f.wb).OrderExpr("kind, compartment").Scan(f.ctx))
	return rs
}

func (f *flow) wantState(want waybill.State) {
	f.t.Helper()
	var st waybill.State
	f.must(f.d.NewSelect().Table("waybills").Column("state").Where("id = ?", f.wb).Scan(f.ctx, &st))
	if st != want {
		f.t.Fatalf("waybill %s, want %s", st, want)
	}
}

// TestFlowSealsBrokenAtTheDestination: loaded with two seals, sealed, driven to the station and
// unsealed there: both seals are applied at loading and broken at the station, with no incident.
func TestFlowSealsBrokenAtTheDestination(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		f := newFlow(t, d)
		f.loadAtDepot("qf1", "QF2")
		loadedAt := f.t0 + f.sec*1000
		rs := f.records()
		if len(rs) != 2 || rs[0].SealNo != "QF1" || rs[0].State != seal.StateApplied || rs[0].AppliedAt != loadedAt || rs[0].DepotID != f.depot {
			t.Fatalf("after the load record: %+v", rs)
		}
		f.report(depotAt, tankState(tank.SealSealed))
		f.wantState(waybill.Sealed)
		f.report(road, tankState(tank.SealSealed))
		f.wantState(waybill.InTransit)
		f.report(road, tankState(tank.SealSealed))
		f.report(stAt, tankState(tank.SealSealed))
		f.wantState(waybill.Arrived)
		if rs := f.records(); rs[0].State != seal.StateApplied {
			t.Fatalf("before the unseal: %+v", rs)
		}
		f.report(stAt, tankState(tank.SealUnsealed))
		f.wantState(waybill.Unsealed)
		unsealAt := f.t0 + f.sec*1000
		for _, r := range f.records() {
			if r.State != seal.StateBrokenAtDest || r.BrokenAt != unsealAt || r.BrokenStationID != f.st || r.BrokenLat != int64(stAt[0]) {
				t.Errorf("seal %s = %+v, want broken at the station", r.SealNo, r)
			}
		}
		if inc := f.incidents(); len(inc) != 0 {
			t.Errorf("incidents %+v", inc)
		}
	})
}

// TestFlowSealBrokenOnTheWay: the seal reads broken on the road: both seals broken away, an incident
// each; the truck that left before it was sealed also counts as a trip without seals.
func TestFlowSealBrokenOnTheWay(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		f := newFlow(t, d)
		f.loadAtDepot("QF1", "QF2")
		f.report(road, tankState(tank.SealNone)) // leaves LOADED: never sealed
		f.wantState(waybill.InTransit)
		departAt := f.t0 + f.sec*1000
		f.report(road, tankState(tank.SealBroken))
		brokenAt := f.t0 + f.sec*1000
		f.report(road, tankState(tank.SealBroken)) // the same episode: nothing more
		rs := f.records()
		for _, r := range rs {
			if r.State != seal.StateBrokenAway || r.BrokenAt != brokenAt || r.BrokenStationID != 0 || r.BrokenLat != int64(road[0]) {
				t.Errorf("seal %s = %+v, want broken away on the road", r.SealNo, r)
			}
		}
		inc := f.incidents()
		if len(inc) != 3 || inc[0].Kind != seal.IncidentBrokenAway || inc[0].SealID != rs[0].ID || inc[1].SealNo != "QF2" ||
			inc[2].Kind != seal.IncidentNoSeals || inc[2].T != departAt || inc[2].Detail != `{"leftUnsealed":true}` {
			t.Fatalf("incidents %+v", inc)
		}
	})
}
