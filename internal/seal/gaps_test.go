package seal_test

import (
	"context"
	"net/http/httptest"
	"reflect"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/db/dbtest"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/seal"
	"tankwatch/internal/tank"
	"tankwatch/internal/waybill"
	"tankwatch/internal/waybill/process"
)

// another station of the company, on the road between the depot and the destination
var otherAt = [2]int32{31_200_000, 121_200_000}

// fences: the depot, the destination and the other station, each holding exactly its point.
type fences struct{ depot, st, other int64 }

func (s fences) StationAt(_ string, lat, lon int32) (int64, string, bool) {
	switch [2]int32{lat, lon} {
	case depotAt:
		return s.depot, "油库", true
	case stAt:
		return s.st, "一号站", true
	case otherAt:
		return s.other, "二号站", true
	}
	return 0, "", false
}

// withFences rebuilds the flow's engine with the station fences (the app's engine has them).
func (f *flow) withFences() int64 {
	f.t.Helper()
	var other int64
	f.must(f.d.NewRaw(`INSERT INTO stations (group_id, name, station_type, fence_type, fence_center, raduis, center_lng, center_lat, created_at, updated_at)
		SELECT group_id, '二号站', 'jyz', 2, '121.2,31.2', 300, 121.2, 31.2, 1, 1 FROM cars WHERE id = ? RETURNING id`, f.car).Scan(f.ctx, &other))
	old := f.eng
	f.eng = process.NewEngine(process.Deps{DB: f.d, Now: func() time.Time { return time.UnixMilli(f.t0 + f.sec*1000) }, Stations: fences{f.depot, f.st, other}},
		process.EngineConfig{}, nil)
	f.eng.OnSeals = old.OnSeals
	f.loads.OnChange = f.eng.Touch
	f.must(f.eng.Reload(f.ctx))
	return other
}

// rebuildAgrees checks that a rebuild of everything leaves the live path's rows as they are.
func (f *flow) rebuildAgrees() {
	f.t.Helper()
	rs, inc := f.records(), f.incidents()
	if _, err := seal.Rebuild(f.ctx, f.d, 0, 0, f.t0+f.sec*1000); err != nil {
		f.t.Fatal(err)
	}
	if rs2, inc2 := f.records(), f.incidents(); !reflect.DeepEqual(rs, rs2) || !reflect.DeepEqual(inc, inc2) {
		f.t.Errorf("rebuild differs:\n live %+v %+v\n rebuilt %+v %+v", rs, inc, rs2, inc2)
	}
}

// TestFlowSealBrokenAtAnotherStation: the seal reads broken inside the fence of a station that is not
// the trip's destination (no opening on the way is stored there): the seals end broken away at that
// station, an incident each, once however many reports say so; a rebuild agrees.
func TestFlowSealBrokenAtAnotherStation(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		f := newFlow(t, d)
		other := f.withFences()
		f.loadAtDepot("QF1", "QF2")
		f.report(depotAt, tankState(tank.SealSealed))
		f.report(road, tankState(tank.SealSealed))
		f.wantState(waybill.InTransit)
		f.report(otherAt, tankState(tank.SealSealed))
		f.report(otherAt, tankState(tank.SealBroken))
		brokenAt := f.t0 + f.sec*1000
		f.report(otherAt, tankState(tank.SealBroken))
		f.wantState(waybill.InTransit) // an info step: the trip is not moved
		for _, r := range f.records() {
			if r.State != seal.StateBrokenAway || r.BrokenAt != brokenAt || r.BrokenStationID != other || r.BrokenLat != int64(otherAt[0]) {
				t.Errorf("seal %s = %+v, want broken away at the other station", r.SealNo, r)
			}
		}
		inc := f.incidents()
		if len(inc) != 2 || inc[0].Kind != seal.IncidentBrokenAway || inc[0].StationID != other || inc[1].SealNo != "QF2" {
			t.Fatalf("incidents %+v", inc)
		}
		var n int
		f.must(d.NewSelect().Table("waybill_steps").ColumnExpr("COUNT(*)").Where("waybill_id = ? AND evidence = ?", f.wb,
			int(waybill.EvUnseal)).Scan(f.ctx, &n))
		if n != 1 {
			t.Errorf("%d unseal steps, want 1", n)
		}
		// the truck goes on to its destination: the seals stay broken away
		f.report(stAt, tankState(tank.SealBroken))
		f.report(stAt, tankState(tank.SealBroken))
		if rs := f.records(); rs[0].State != seal.StateBrokenAway || rs[0].BrokenStationID != other {
			t.Errorf("after the destination: %+v", rs)
		}
		f.rebuildAgrees()
	})
}

// TestFlowSealByteBrokenAtDestination: at the destination the seal byte reads 2 BROKEN (not 3
// UNSEALED): the seals end there, broken at the destination, without an incident.
func TestFlowSealByteBrokenAtDestination(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		f := newFlow(t, d)
		f.withFences()
		f.loadAtDepot("QF1", "QF2")
		f.report(depotAt, tankState(tank.SealSealed))
		f.report(road, tankState(tank.SealSealed))
		f.report(stAt, tankState(tank.SealSealed))
		f.wantState(waybill.Arrived)
		f.report(stAt, tankState(tank.SealBroken))
		at := f.t0 + f.sec*1000
		f.wantState(waybill.Unsealed)
		for _, r := range f.records() {
			if r.State != seal.StateBrokenAtDest || r.BrokenAt != at || r.BrokenStationID != f.st {
				t.Errorf("seal %s = %+v, want broken at the destination", r.SealNo, r)
			}
		}
		if inc := f.incidents(); len(inc) != 0 {
			t.Errorf("incidents %+v", inc)
		}
		f.rebuildAgrees()
	})
}

// TestCorrectResyncsSeals: an operator corrects a loaded trip to IN_TRANSIT (the platform missed the
// departure): that is the trip's departure, so its compartment without a seal number is a trip
// without seals at once, as a rebuild finds it.
func TestCorrectResyncsSeals(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		f := newFlow(t, d)
		f.loadAtDepot("QF1", "")
		if inc := f.incidents(); len(inc) != 0 {
			t.Fatalf("before the correction: %+v", inc)
		}
		svc := process.NewService(d, nil)
		svc.OnSeals = func(ctx context.Context, tx bun.Tx, id int64) error { return seal.Sync(ctx, tx, id, f.t0+f.sec*1000) }
		var gid int64
		f.must(d.NewSelect().Table("cars").Column("group_id").Where("id = ?", f.car).Scan(f.ctx, &gid))
		r := httptest.NewRequest("POST", "/", nil)
		r = r.WithContext(httpx.WithPrincipal(f.ctx, &httpx.Principal{UserID: 1, GroupID: gid, GroupPath: "/1/"}))
		f.must(svc.Correct(r, process.CorrectInput{WaybillID: f.wb, State: "IN_TRANSIT", Reason: "出库未上报"}))
		inc := f.incidents()
		if len(inc) != 1 || inc[0].Kind != seal.IncidentNoSeals || inc[0].Detail != `{"unsealed":[2]}` {
			t.Fatalf("after the correction: %+v", inc)
		}
		f.rebuildAgrees()
	})
}
