package stats

import (
	"context"
	"math"
	"os"
	"reflect"
	"slices"
	"testing"

	"github.com/uptrace/bun"

	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/db/dbtest"
	"tankwatch/internal/waybill"
)

// day1 00:00 Shanghai = 2026-11-01
var day1 = 20261101

// Two cars, three finished trips on 2026-11-01 and one on 11-02, one trip still in transit. Totals
// below are worked out by hand from these figures.
func seed(t *testing.T, d *db.DB) (east, north, sales, carE, carN, p92, p0 int64) {
	t.Helper()
	ctx := context.Background()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	id := func(q string, args ...any) int64 {
		t.Helper()
		var v int64
		must(d.NewRaw(q+" RETURNING id", args...).Scan(ctx, &v))
		return v
	}
	top := id("INSERT INTO org_groups (name, path, created_at) VALUES ('集团', '/1/', 1)")
	east = id("INSERT INTO org_groups (name, path, created_at) VALUES ('华东', '/1/2/', 1)")
	north = id("INSERT INTO org_groups (name, path, created_at) VALUES ('华北', '/1/3/', 1)")
	sales = id("INSERT INTO org_groups (name, path, created_at) VALUES ('销售', '/1/4/', 1)")
	carE = id("INSERT INTO cars (group_id, plate, compartments, created_at, updated_at) VALUES (?, '沪A00001', 2, 1, 1)", east)
	carN = id("INSERT INTO cars (group_id, plate, compartments, created_at, updated_at) VALUES (?, '京A00001', 2, 1, 1)", north)
	depot := id(`INSERT INTO stations (group_id, name, station_type, fence_type, fence_center, raduis, center_lng, center_lat, created_at, updated_at)
		VALUES (?, '油库', 'yk', 2, '121,31', 300, 121, 31, 1, 1)`, top)
	p92 = id("INSERT INTO products (group_id, code, name, created_at, updated_at) VALUES (?, 'P92', '92#汽油', 1, 1)", top)
	p0 = id("INSERT INTO products (group_id, code, name, created_at, updated_at) VALUES (?, 'P0', '0#柴油', 1, 1)", top)
	n := 0
	trip := func(g int64, s *int64, car int64, st waybill.State, closedAt, depart, arrive int64, shipped, mass, received, loss, rate, allowed, km float64, items ...[4]float64) int64 {
		n++
		r := waybill.Row{GroupID: g, SalesGroupID: s, CarID: car, DepotID: depot, No: "YD" + string(rune('A'+n)), State: st, StateAt: closedAt,
			ClosedAt: closedAt, DepartAt: depart, ArriveAt: arrive, ShippedV20: shipped, ShippedMassT: mass, ReceivedV20: received,
			LossL: loss, LossRatePct: rate, AllowedPct: allowed, LoadedKm: km, CreatedAt: 1, UpdatedAt: 1}
		must(waybill.Insert(ctx, d, &r, []waybill.Destination{{Seq: 1, StationID: depot}}, []waybill.Compartment{{No: 1, ProductID: p92, PlannedL: 1, DestSeq: 1}}))
		if len(items) > 0 {
			rec := id(`INSERT INTO load_records (waybill_id, group_id, car_id, depot_id, loaded_at, source, created_at, updated_at)
				VALUES (?, ?, ?, ?, 1, 1, 1, 1)`, r.ID, g, car, depot)
			for i, it := range items {
				_, err := d.NewRaw(`INSERT INTO load_record_items (record_id, compartment, product_id, vt_l, temp_c, density20, vcf20, v20_l, mass_t)
					VALUES (?, ?, ?, ?, 20, 740, 1, ?, ?)`, rec, i+1, int64(it[0]), it[1], it[2], it[3]).Exec(ctx)
				must(err)
			}
		}
		return r.ID
	}
	s1 := DayStart(day1)
	h := int64(3_600_000)
	// east car, day 1: two trips. Trip A: 92# 6000 V20 + 0# 4000 V20, loss 20 L (within 0.3 %), 100 km, 1.5 h out-to-arrival.
	a := trip(east, nil, carE, waybill.Closed, s1+10*h, s1+2*h, s1+2*h+90*60000, 10000, 7.5, 9980, 20, 0.2, 0.3, 100,
		[4]float64{float64(p92), 6100, 6000, 4.4}, [4]float64{float64(p0), 4050, 4000, 3.1})
	// Trip B: sold by the sales company, 92# only, loss 50 L over 5000 (1 %, over 0.3 %), 40 km, no departure known.
	trip(east, &sales, carE, waybill.DiffFlagged, s1+20*h, 0, s1+19*h, 5000, 3.7, 4950, 50, 1, 0.3, 40,
		[4]float64{float64(p92), 5080, 5000, 3.7})
	// north car, day 1 at 23:59:59.999 (still day 1), 0# only, 2 h out-to-arrival.
	trip(north, nil, carN, waybill.Closed, s1+24*h-1, s1+h, s1+3*h, 8000, 6.7, 7990, 10, 0.125, 0.3, 60,
		[4]float64{float64(p0), 8100, 8000, 6.7})
	// north car, day 2 (the first ms of 11-02)
	trip(north, nil, carN, waybill.Closed, s1+24*h, s1+20*h, s1+21*h, 1000, 0.8, 999, 1, 0.1, 0.3, 10,
		[4]float64{float64(p0), 1010, 1000, 0.8})
	// not finished: never counted
	trip(east, nil, carE, waybill.InTransit, s1+11*h, s1+9*h, 0, 3000, 2.2, 0, 0, 0, 0, 0, [4]float64{float64(p92), 3050, 3000, 2.2})
	// two openings on the way on trip A
	for i := 0; i < 2; i++ {
		_, err := d.NewRaw(`INSERT INTO waybill_steps (waybill_id, from_state, to_state, evidence, cause, t, recorded_at) VALUES (?, ?, ?, ?, 1, 1, 1)`,
			a, waybill.InTransit, waybill.InTransit, int(waybill.EvOpeningOnWay)).Exec(ctx)
		must(err)
	}
	return
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-6 }

func TestRollupFiguresByHand(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		east, north, sales, carE, carN, p92, p0 := seed(t, d)
		n, err := Rebuild(ctx, d, day1, NextDay(day1))
		if err != nil || n != 3 {
			t.Fatalf("Rebuild = %d, %v; want 3 (car, day) pairs", n, err)
		}
		all := Filter{From: day1, To: day1, Under: "/1/"}
		tot, err := Sum(ctx, d, all, ByTotal)
		if err != nil || len(tot) != 1 {
			t.Fatalf("Sum = %v, %v", tot, err)
		}
		g := tot[0]
		// trips 3; V20 10000+5000+8000; Vt 10150+5080+8100; t 7.5+3.7+6.7; received 9980+4950+7990; loss 80;
		// km 200; ton-km 750+148+402; timed 2 trips: 90 + 120 min; openings 2; over 1
		if g.Trips != 3 || !near(g.ShippedV20L, 23000) || !near(g.ShippedVtL, 23330) || !near(g.ShippedT, 17.9) ||
			!near(g.ReceivedV20L, 22920) || !near(g.LossL, 80) || !near(g.Km, 200) || !near(g.TonKm, 1300) ||
			g.TimedTrips != 2 || g.AbnormalOpenings != 2 || g.OverAllowance != 1 {
			t.Fatalf("day 1 totals = %+v", g)
		}
		if g.AvgOutToArrivalMin != 105 || g.LossRatePct != 0.3478 {
			t.Errorf("avg %v rate %v, want 105 min and 0.3478 %%", g.AvgOutToArrivalMin, g.LossRatePct)
		}
		byGroup, _ := Sum(ctx, d, Filter{From: day1, To: NextDay(day1), Under: "/1/"}, ByGroup)
		if len(byGroup) != 2 || byGroup[0].Key != east || byGroup[0].Trips != 2 || byGroup[1].Key != north || byGroup[1].Trips != 2 {
			t.Errorf("by group over two days = %+v", byGroup)
		}
		// the east subtree sees its own trips only; the sales company sees the one it sold
		if e, _ := Sum(ctx, d, Filter{From: day1, To: day1, Under: "/1/2/"}, ByTotal); e[0].Trips != 2 {
			t.Errorf("east trips = %d", e[0].Trips)
		}
		s, _ := Sum(ctx, d, Filter{From: day1, To: NextDay(day1), Under: "/1/4/", SalesView: true}, BySales)
		if len(s) != 1 || s[0].Key != sales || s[0].Trips != 1 || !near(s[0].LossL, 50) {
			t.Errorf("sales view = %+v", s)
		}
		// product split: 92# = A's 6000 + B's 5000 V20; its share of A's loss is 20×0.6 = 12, plus B's 50
		ps, _ := Sum(ctx, d, all, ByProduct)
		byP := map[int64]Total{}
		for _, p := range ps {
			byP[p.Key] = p
		}
		if p := byP[p92]; p.Trips != 2 || !near(p.ShippedV20L, 11000) || !near(p.LossL, 62) || !near(p.TonKm, 4.4*100+3.7*40) {
			t.Errorf("92# = %+v", p)
		}
		if p := byP[p0]; p.Trips != 2 || !near(p.ShippedV20L, 12000) || !near(p.LossL, 18) || !near(p.ReceivedV20L, 3992+7990) {
			t.Errorf("0# = %+v", p)
		}
		byDay, _ := Sum(ctx, d, Filter{From: day1, To: NextDay(day1), Under: "/1/", CarID: carN}, ByDay)
		if len(byDay) != 2 || byDay[0].Key != int64(day1) || byDay[1].Trips != 1 {
			t.Errorf("north by day = %+v", byDay)
		}
		// Refresh after a trip is corrected away from the finished set removes it
		if _, err := d.NewRaw("UPDATE waybills SET state = ? WHERE car_id = ? AND closed_at > ?", waybill.Received, carE, DayStart(day1)+15*3_600_000).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		if err := Refresh(ctx, d, carE, day1); err != nil {
			t.Fatal(err)
		}
		if e, _ := Sum(ctx, d, Filter{From: day1, To: day1, Under: "/1/2/"}, ByTotal); e[0].Trips != 1 || e[0].OverAllowance != 0 {
			t.Errorf("after the correction: %+v", e[0])
		}
		empty, err := Sum(ctx, d, Filter{From: 20200101, To: 20200102, Under: "/1/"}, ByTotal)
		if err != nil {
			t.Fatal(err)
		}
		if len(empty) != 1 || empty[0].Trips != 0 || empty[0].AvgOutToArrivalMin != -1 {
			t.Errorf("empty period = %+v", empty)
		}
	})
}

func TestDirtyMarks(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		for _, m := range []struct {
			car int64
			day int
			at  int64
		}{{1, 20261101, 10}, {2, 20261101, 5}, {1, 20261101, 20}, {1, 20261102, 30}} {
			if err := MarkDirty(ctx, d, DirtyTrip, m.car, m.day, m.at); err != nil {
				t.Fatal(err)
			}
		}
		if err := MarkDirty(ctx, d, DirtyLock, 1, 20261101, 1); err != nil {
			t.Fatal(err)
		}
		got, err := TakeDirty(ctx, d, DirtyTrip, 10)
		if err != nil || len(got) != 3 || got[0].CarID != 2 || got[1].MarkedAt != 20 {
			t.Fatalf("TakeDirty = %+v, %v", got, err)
		}
		// marked again after it was taken: the mark stays
		if err := MarkDirty(ctx, d, DirtyTrip, 1, 20261101, 40); err != nil {
			t.Fatal(err)
		}
		for _, m := range got {
			if err := Done(ctx, d, DirtyTrip, m); err != nil {
				t.Fatal(err)
			}
		}
		left, _ := TakeDirty(ctx, d, DirtyTrip, 10)
		if len(left) != 1 || left[0].MarkedAt != 40 {
			t.Errorf("left = %+v", left)
		}
		if l, _ := TakeDirty(ctx, d, DirtyLock, 10); len(l) != 1 {
			t.Errorf("lock marks = %+v", l)
		}
		// a node's share of the cars (D113): car 2 is partition 0 of 2, car 1 partition 1
		if err := MarkDirty(ctx, d, DirtyTrip, 2, 20261103, 50); err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			share Share
			cars  []int64
		}{
			{Share{}, []int64{1, 2}},
			{Share{Parts: 2, Held: []int{0}}, []int64{2}},
			{Share{Parts: 2, Held: []int{1}}, []int64{1}},
			{Share{Parts: 2, Held: []int{0, 1}}, []int64{1, 2}},
			{Share{Parts: 2}, nil}, // holds no partition: takes nothing
		} {
			got, err := TakeShare(ctx, d, DirtyTrip, 10, c.share)
			var cars []int64
			for _, m := range got {
				cars = append(cars, m.CarID)
				if !c.share.Has(m.CarID) {
					t.Errorf("%+v: Has(%d) is false for a mark it took", c.share, m.CarID)
				}
			}
			if err != nil || !slices.Equal(cars, c.cars) {
				t.Errorf("TakeShare(%+v) took cars %v (%v), want %v", c.share, cars, err, c.cars)
			}
		}
	})
}

// TestRefreshesTakeTurns: on PostgreSQL, two workers refresh one car's day at once (its partition
// moving from one node to another, D113): the second waits for the first's transaction instead of
// failing on the rows the first wrote (a primary-key error before D121), and the rows are a rebuild's.
func TestRefreshesTakeTurns(t *testing.T) {
	if os.Getenv(dbtest.EnvPG) == "" {
		t.Skip("PostgreSQL only: SQLite writes one transaction at a time")
	}
	d := dbtest.Open(t, db.Postgres)
	_, _, _, carE, carN, _, _ := seed(t, d)
	refresh := func(ctx context.Context, tx bun.Tx) error { return Refresh(ctx, tx, carE, day1) }
	dbtest.Overlap(t, d, refresh, refresh)
	if err := Refresh(context.Background(), d, carN, day1); err != nil { // the rebuild below counts it too
		t.Fatal(err)
	}
	tables := []string{"stat_trip_daily", "stat_trip_monthly", "stat_trip_group_daily", "stat_trip_group_monthly"}
	live := dbtest.Snapshot(t, d, tables...)
	if _, err := Rebuild(context.Background(), d, day1, day1); err != nil {
		t.Fatal(err)
	}
	if rebuilt := dbtest.Snapshot(t, d, tables...); !reflect.DeepEqual(live, rebuilt) || len(live["stat_trip_group_daily"]) == 0 {
		t.Errorf("rows after the two refreshes\n%v\nrebuilt\n%v", live, rebuilt)
	}
}
