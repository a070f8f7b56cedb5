package seal

import (
	"context"
	"fmt"
	"reflect"
	"sort"
	"testing"

	"github.com/uptrace/bun"

	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/db/dbtest"
	"tankwatch/internal/stats"
	"tankwatch/internal/waybill"
)

// fixture is a small history: a company with a carrier, one car, a depot and two stations.
type fixture struct {
	t                   *testing.T
	d                   *db.DB
	ctx                 context.Context
	top, east, car, usr int64
	depot, st1, st2     int64
	p92                 int64
	n                   int
}

const h = int64(3_600_000)

// t0 is 2026-11-01 08:00 Asia/Shanghai.
var t0 = stats.DayStart(20261101) + 8*h

func newFixture(t *testing.T, d *db.DB) *fixture {
	f := &fixture{t: t, d: d, ctx: context.Background()}
	f.top = f.id("INSERT INTO org_groups (name, path, created_at) VALUES ('集团', '/1/', 1)")
	f.east = f.id("INSERT INTO org_groups (name, path, created_at) VALUES ('华东', '/1/2/', 1)")
	f.car = f.id("INSERT INTO cars (group_id, plate, compartments, created_at, updated_at) VALUES (?, '沪A00001', 3, 1, 1)", f.east)
	f.usr = f.id("INSERT INTO users (name, nick_name, password_hash, group_id, created_at) VALUES ('depot', '油库员', 'x', ?, 1)", f.east)
	station := func(name, kind string) int64 {
		return f.id(`INSERT INTO stations (group_id, name, station_type, fence_type, fence_center, raduis, center_lng, center_lat, created_at, updated_at)
			VALUES (?, ?, ?, 2, '121,31', 300, 121, 31, 1, 1)`, f.top, name, kind)
	}
	f.depot, f.st1, f.st2 = station("油库", "yk"), station("一站", "jyz"), station("二站", "jyz")
	f.p92 = f.id("INSERT INTO products (group_id, code, name, created_at, updated_at) VALUES (?, 'P92', '92#汽油', 1, 1)", f.top)
	return f
}

func (f *fixture) must(err error) {
	f.t.Helper()
	if err != nil {
		f.t.Fatal(err)
	}
}

func (f *fixture) id(q string, args ...any) int64 {
	f.t.Helper()
	var v int64
	f.must(f.d.NewRaw(q+" RETURNING id", args...).Scan(f.ctx, &v))
	return v
}

// waybill makes a waybill to st1 in state st.
func (f *fixture) waybill(st waybill.State, leftUnsealed bool) int64 {
	f.t.Helper()
	f.n++
	r := waybill.Row{GroupID: f.east, CarID: f.car, DepotID: f.depot, No: fmt.Sprintf("YD%03d", f.n), State: st, LeftUnsealed: leftUnsealed,
		CreatedAt: 1, UpdatedAt: 1}
	f.must(waybill.Insert(f.ctx, f.d, &r, []waybill.Destination{{Seq: 1, StationID: f.st1}},
		[]waybill.Compartment{{No: 1, ProductID: f.p92, PlannedL: 1, DestSeq: 1}, {No: 2, ProductID: f.p92, PlannedL: 1, DestSeq: 1}}))
	return r.ID
}

// record writes waybill w's load record at loadedAt with one item per seal ("" = no number).
func (f *fixture) record(w int64, loadedAt int64, seals ...string) int64 {
	f.t.Helper()
	rec := f.id(`INSERT INTO load_records (waybill_id, group_id, car_id, depot_id, loaded_at, source, created_by, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, 1, ?, 1, 1)`, w, f.east, f.car, f.depot, loadedAt, f.usr)
	for i, s := range seals {
		_, err := f.d.NewRaw(`INSERT INTO load_record_items (record_id, compartment, product_id, vt_l, temp_c, density20, vcf20, v20_l, mass_t, seal_no)
			VALUES (?, ?, ?, 1000, 20, 740, 1, 1000, 0.7, ?)`, rec, i+1, f.p92, s).Exec(f.ctx)
		f.must(err)
	}
	return rec
}

func (f *fixture) step(w int64, from, to waybill.State, ev waybill.Evidence, cause int, t, station int64, lat, lon int32, detail string) {
	f.t.Helper()
	row := waybill.StepRow{WaybillID: w, From: from, To: to, Evidence: int(ev), Cause: cause, T: t, RecordedAt: t, StationID: station,
		Lat: lat, Lon: lon, Detail: detail}
	_, err := f.d.NewInsert().Model(&row).Exec(f.ctx)
	f.must(err)
}

func (f *fixture) sync(w int64) {
	f.t.Helper()
	f.must(f.d.RunInTx(f.ctx, nil, func(ctx context.Context, tx bun.Tx) error { return Sync(ctx, tx, w, t0+100*h) }))
}

func (f *fixture) records(w int64) []Record {
	f.t.Helper()
	var rs []Record
	f.must(f.d.NewSelect().Model(&rs).Where("waybill_id = ?", w).OrderExpr("compartment").Scan(f.ctx))
	return rs
}

func (f *fixture) incidents(w int64) []IncidentRow {
	f.t.Helper()
	var rs []IncidentRow
	f.must(f.d.NewSelect().Model(&rs).Where("waybill_id = ?", w).OrderExpr("kind, compartment, t").Scan(f.ctx))
	return rs
}

// history builds the small history every test below reads; the comments give what each waybill must show.
type hist struct {
	a, b, c, d, e, g int64
}

func (f *fixture) history() hist {
	var x hist
	// A: loaded 08:00 with S1, S2; left 08:30; arrived st1 10:00; the engine saw the seal unsealed there
	// 10:05 → both broken at the destination, no incident.
	x.a = f.waybill(waybill.Unsealed, false)
	f.record(x.a, t0, "S1", "S2")
	f.step(x.a, waybill.Sealed, waybill.InTransit, waybill.EvDepotExit, waybill.CauseReport, t0+h/2, f.depot, 31_000_000, 121_000_000, "")
	f.step(x.a, waybill.InTransit, waybill.Arrived, waybill.EvArrive, waybill.CauseReport, t0+2*h, f.st1, 31_100_000, 121_100_000, "")
	f.step(x.a, waybill.Arrived, waybill.Unsealed, waybill.EvUnseal, waybill.CauseReport, t0+2*h+5*60_000, f.st1, 31_100_100, 121_100_100, "")
	// B: loaded 12:00 with S1 again (A had it first) and S3; left 12:30; on the way a cover opened
	// (no seal in the evidence: not a break), then at 13:00 the seal read broken at 31.5, 121.5 → both
	// broken away: a reused incident for S1 and a broken-away incident per seal.
	x.b = f.waybill(waybill.DiffFlagged, false)
	f.record(x.b, t0+4*h, "S1", "S3")
	f.step(x.b, waybill.Sealed, waybill.InTransit, waybill.EvDepotExit, waybill.CauseReport, t0+4*h+h/2, f.depot, 0, 0, "")
	f.step(x.b, waybill.InTransit, waybill.InTransit, waybill.EvOpeningOnWay, waybill.CauseReport, t0+4*h+40*60_000, 0, 31_400_000, 121_400_000,
		`{"t":1,"compartment":1,"device":1}`)
	f.step(x.b, waybill.InTransit, waybill.InTransit, waybill.EvOpeningOnWay, waybill.CauseReport, t0+5*h, 0, 31_500_000, 121_500_000,
		`{"t":1,"seal":2}`)
	// C: left the depot before it was sealed (left_unsealed) with S4 → a trip without seals
	x.c = f.waybill(waybill.InTransit, true)
	f.record(x.c, t0+6*h, "S4")
	f.step(x.c, waybill.Loaded, waybill.InTransit, waybill.EvDepotExit, waybill.CauseReport, t0+6*h+h/2, f.depot, 31_000_000, 121_000_000, "")
	// D: a load record without numbers in compartment 2, left by a correction → a trip without seals
	x.d = f.waybill(waybill.InTransit, false)
	f.record(x.d, t0+7*h, "S5", "")
	f.step(x.d, waybill.Sealed, waybill.InTransit, 0, waybill.CauseUser, t0+7*h+h/2, 0, 0, 0, "")
	// E: checked at st2 (its arrival) by the station: compartment 2 carried X9 instead of S7 → a
	// mismatch; the seals stay applied (the waybill did not move)
	x.e = f.waybill(waybill.Arrived, false)
	f.record(x.e, t0+8*h, "S6", "S7")
	f.step(x.e, waybill.Sealed, waybill.InTransit, waybill.EvDepotExit, waybill.CauseReport, t0+8*h+h/2, f.depot, 0, 0, "")
	f.step(x.e, waybill.InTransit, waybill.Arrived, waybill.EvArrive, waybill.CauseReport, t0+9*h, f.st2, 31_200_000, 121_200_000, "")
	for _, c := range []struct {
		comp      int
		exp, fnd  string
		ok        bool
		checkedAt int64
	}{{1, "S6", "S6", true, t0 + 9*h + 60_000}, {2, "S7", "X9", false, t0 + 9*h + 60_000}} {
		_, err := f.d.NewRaw(`INSERT INTO seal_checks (waybill_id, compartment, expected_no, found_no, ok, checked_by, checked_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
			x.e, c.comp, c.exp, c.fnd, c.ok, f.usr, c.checkedAt).Exec(f.ctx)
		f.must(err)
	}
	f.step(x.e, waybill.Arrived, waybill.Arrived, waybill.EvUnseal, waybill.CauseRecord, t0+9*h+60_000, 0, 0, 0, `{"mismatches":[]}`)
	// G: loaded with S8, not left yet: applied, nothing else
	x.g = f.waybill(waybill.Loaded, false)
	f.record(x.g, t0+10*h, "S8")
	return x
}

func (f *fixture) syncAll(x hist) {
	for _, w := range []int64{x.a, x.b, x.c, x.d, x.e, x.g} {
		f.sync(w)
	}
}

func TestSealsFromTheHistory(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		f := newFixture(t, d)
		x := f.history()
		f.syncAll(x)

		a := f.records(x.a)
		if len(a) != 2 || a[0].SealNo != "S1" || a[1].SealNo != "S2" || a[0].AppliedAt != t0 || a[0].AppliedBy != f.usr || a[0].DepotID != f.depot {
			t.Fatalf("A records = %+v", a)
		}
		for _, r := range a {
			if r.State != StateBrokenAtDest || r.BrokenAt != t0+2*h+5*60_000 || r.BrokenStationID != f.st1 || r.BrokenLat != 31_100_100 {
				t.Errorf("A seal %s = %+v, want broken at st1 10:05", r.SealNo, r)
			}
		}
		if inc := f.incidents(x.a); len(inc) != 0 {
			t.Errorf("A incidents = %+v, want none", inc)
		}

		b := f.records(x.b)
		for _, r := range b {
			if r.State != StateBrokenAway || r.BrokenAt != t0+5*h || r.BrokenStationID != 0 || r.BrokenLat != 31_500_000 || r.BrokenLon != 121_500_000 {
				t.Errorf("B seal %s = %+v, want broken away at 13:00 (31.5, 121.5)", r.SealNo, r)
			}
		}
		bi := f.incidents(x.b) // ordered by kind: reused (1) then broken away (2) ×2
		if len(bi) != 3 || bi[0].Kind != IncidentReused || bi[0].SealNo != "S1" || bi[0].SealID != b[0].ID || bi[0].T != t0+4*h ||
			bi[0].Detail != fmt.Sprintf(`{"waybillId":%d,"waybillNo":"YD001","appliedAt":%d}`, x.a, t0) {
			t.Fatalf("B incidents = %+v", bi)
		}
		if bi[1].Kind != IncidentBrokenAway || bi[1].SealNo != "S1" || bi[2].SealNo != "S3" || bi[2].T != t0+5*h || bi[2].Lat != 31_500_000 {
			t.Errorf("B broken away = %+v", bi[1:])
		}

		if ci := f.incidents(x.c); len(ci) != 1 || ci[0].Kind != IncidentNoSeals || ci[0].T != t0+6*h+h/2 || ci[0].StationID != f.depot ||
			ci[0].Detail != `{"leftUnsealed":true}` {
			t.Errorf("C incidents = %+v, want one trip without seals (left unsealed)", ci)
		}
		if cr := f.records(x.c); len(cr) != 1 || cr[0].State != StateApplied {
			t.Errorf("C records = %+v", cr)
		}
		if di := f.incidents(x.d); len(di) != 1 || di[0].Kind != IncidentNoSeals || di[0].T != t0+7*h+h/2 || di[0].StationID != f.depot ||
			di[0].Detail != `{"unsealed":[2]}` {
			t.Errorf("D incidents = %+v, want one trip without seals (compartment 2)", di)
		}
		if dr := f.records(x.d); len(dr) != 1 || dr[0].SealNo != "S5" {
			t.Errorf("D records = %+v, want the numbered compartment only", dr)
		}
		e := f.records(x.e)
		ei := f.incidents(x.e)
		if len(ei) != 1 || ei[0].Kind != IncidentMismatch || ei[0].Compartment != 2 || ei[0].SealNo != "S7" || ei[0].SealID != e[1].ID ||
			ei[0].StationID != f.st2 || ei[0].T != t0+9*h+60_000 || ei[0].Detail != `{"found":"X9"}` {
			t.Errorf("E incidents = %+v, want a mismatch at st2", ei)
		}
		if e[0].State != StateApplied || e[1].State != StateApplied {
			t.Errorf("E records = %+v, want applied (the waybill did not move)", e)
		}
		if g := f.records(x.g); len(g) != 1 || g[0].State != StateApplied || len(f.incidents(x.g)) != 0 {
			t.Errorf("G = %+v", g)
		}

		// the seal statistics of the days concerned are marked dirty (all on 2026-11-01 here)
		marks, err := stats.TakeDirty(f.ctx, d, stats.DirtySeal, 100)
		if err != nil || len(marks) != 1 || marks[0].CarID != f.car || marks[0].Day != 20261101 {
			t.Errorf("dirty marks = %+v, %v", marks, err)
		}

		// idempotent: syncing everything again changes nothing (no incident twice, same ids)
		before := dbtest.Snapshot(t, d, "seal_records", "seal_incidents")
		f.syncAll(x)
		f.syncAll(x)
		if after := dbtest.Snapshot(t, d, "seal_records", "seal_incidents"); !reflect.DeepEqual(before, after) {
			t.Errorf("a re-run changed the rows:\nbefore %v\nafter  %v", before, after)
		}
	})
}

func TestReusedFollowsTheOtherWaybills(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		f := newFixture(t, d)
		a := f.waybill(waybill.Loaded, false)
		f.record(a, t0+2*h, "S1", "S2")
		f.sync(a)
		// B loaded earlier with S2: B was first, so A's S2 becomes the reused one (Sync(B) re-syncs A)
		b := f.waybill(waybill.Loaded, false)
		rb := f.record(b, t0, "S2")
		f.sync(b)
		ai := f.incidents(a)
		if len(ai) != 1 || ai[0].Kind != IncidentReused || ai[0].SealNo != "S2" || ai[0].Compartment != 2 || len(f.incidents(b)) != 0 {
			t.Fatalf("A incidents = %+v, B = %+v", ai, f.incidents(b))
		}
		// B's record corrected to S9: A's incident goes (B's old number is still in its seal rows)
		_, err := d.NewRaw("UPDATE load_record_items SET seal_no = 'S9' WHERE record_id = ?", rb).Exec(f.ctx)
		f.must(err)
		f.sync(b)
		if ai := f.incidents(a); len(ai) != 0 {
			t.Errorf("A incidents after B's correction = %+v", ai)
		}
		if br := f.records(b); len(br) != 1 || br[0].SealNo != "S9" {
			t.Errorf("B records = %+v", br)
		}
		// B's record deleted: its seal rows go
		_, err = d.NewRaw("DELETE FROM load_records WHERE id = ?", rb).Exec(f.ctx)
		f.must(err)
		f.sync(b)
		if br := f.records(b); len(br) != 0 {
			t.Errorf("B records after delete = %+v", br)
		}
	})
}

// rows reads a table's rows without ids, in a stable order, for comparing the incremental rows with a rebuild.
func rows(t *testing.T, d *db.DB) []string {
	var out []string
	var rs []Record
	if err := d.NewSelect().Model(&rs).Scan(context.Background()); err != nil {
		t.Fatal(err)
	}
	ids := map[int64]string{}
	for _, r := range rs {
		key := fmt.Sprintf("%d/%d", r.WaybillID, r.Compartment)
		ids[r.ID] = key
		r.ID = 0
		out = append(out, fmt.Sprintf("R %+v", r))
	}
	var is []IncidentRow
	if err := d.NewSelect().Model(&is).Scan(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, r := range is {
		seal := ids[r.SealID]
		r.ID, r.SealID = 0, 0
		out = append(out, fmt.Sprintf("I %+v seal=%s", r, seal))
	}
	sort.Strings(out)
	return out
}

func TestRebuildAgreesWithIncremental(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		f := newFixture(t, d)
		x := f.history()
		f.syncAll(x)
		inc := rows(t, d)
		if len(inc) != 15 { // records: A2 B2 C1 D1 E2 G1 = 9; incidents: B3 C1 D1 E1 = 6
			t.Fatalf("incremental rows = %d:\n%v", len(inc), inc)
		}
		_, err := d.NewRaw("DELETE FROM seal_incidents").Exec(f.ctx)
		f.must(err)
		_, err = d.NewRaw("DELETE FROM seal_records").Exec(f.ctx)
		f.must(err)
		n, err := Rebuild(f.ctx, d, 0, 0, t0+100*h)
		if err != nil || n != 6 {
			t.Fatalf("Rebuild = %d, %v; want 6 waybills", n, err)
		}
		if got := rows(t, d); !reflect.DeepEqual(got, inc) {
			t.Errorf("rebuilt rows differ:\nrebuilt     %v\nincremental %v", got, inc)
		}
		// a range that holds only G's loading rebuilds G alone
		if n, err := Rebuild(f.ctx, d, t0+10*h, t0+10*h, t0); err != nil || n != 1 {
			t.Errorf("Rebuild of G's hour = %d, %v", n, err)
		}
	})
}
