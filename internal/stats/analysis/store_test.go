package analysis

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"sort"
	"testing"

	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/db/dbtest"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/stats"
	"tankwatch/internal/waybill"
)

func init() { stats.Register("route", Refresh); stats.RegisterLayers("route", Regroup) }

// nov2 is a Monday.
const nov2 = 20261102

type fixture struct {
	east, north, carE, carN, depot, s1, s2, p92, p0, tripB, tripC int64
}

// seed: three finished trips in November 2026 (A and B of the east car, C of the north car), D in
// October 2026, E in November 2025, one trip still in transit; lock events and a seal incident.
// Every total in the tests below is worked out by hand from these figures.
func seed(t *testing.T, d *db.DB) fixture {
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
	var f fixture
	top := id("INSERT INTO org_groups (name, path, created_at) VALUES ('集团', '/1/', 1)")
	f.east = id("INSERT INTO org_groups (name, path, created_at) VALUES ('华东', '/1/2/', 1)")
	f.north = id("INSERT INTO org_groups (name, path, created_at) VALUES ('华北', '/1/3/', 1)")
	f.carE = id("INSERT INTO cars (group_id, plate, compartments, created_at, updated_at) VALUES (?, '沪A00001', 2, 1, 1)", f.east)
	f.carN = id("INSERT INTO cars (group_id, plate, compartments, created_at, updated_at) VALUES (?, '京A00001', 2, 1, 1)", f.north)
	station := func(name, kind string) int64 {
		return id(`INSERT INTO stations (group_id, name, station_type, fence_type, fence_center, raduis, center_lng, center_lat, created_at, updated_at)
		VALUES (?, ?, ?, 2, '121,31', 300, 121, 31, 1, 1)`, top, name, kind)
	}
	f.depot, f.s1, f.s2 = station("油库", "yk"), station("一站", "jyz"), station("二站", "jyz")
	f.p92 = id("INSERT INTO products (group_id, code, name, created_at, updated_at) VALUES (?, 'P92', '92#汽油', 1, 1)", top)
	f.p0 = id("INSERT INTO products (group_id, code, name, created_at, updated_at) VALUES (?, 'P0', '0#柴油', 1, 1)", top)
	n := 0
	h := int64(3_600_000)
	trip := func(g, car, st int64, state waybill.State, closedAt, depart, arrive int64, shipped, mass, received, loss, rate, km float64, items ...[4]float64) int64 {
		n++
		r := waybill.Row{GroupID: g, CarID: car, DepotID: f.depot, No: fmt.Sprintf("YD%03d", n), State: state, StateAt: closedAt,
			ClosedAt: closedAt, DepartAt: depart, ArriveAt: arrive, ShippedV20: shipped, ShippedMassT: mass, ReceivedV20: received,
			LossL: loss, LossRatePct: rate, AllowedPct: 0.3, LoadedKm: km, CreatedAt: 1, UpdatedAt: 1}
		must(waybill.Insert(ctx, d, &r, []waybill.Destination{{Seq: 1, StationID: st}, {Seq: 2, StationID: f.s2}},
			[]waybill.Compartment{{No: 1, ProductID: f.p92, PlannedL: 1, DestSeq: 1}}))
		rec := id(`INSERT INTO load_records (waybill_id, group_id, car_id, depot_id, loaded_at, source, created_at, updated_at)
			VALUES (?, ?, ?, ?, 1, 1, 1, 1)`, r.ID, g, car, f.depot)
		for i, it := range items {
			_, err := d.NewRaw(`INSERT INTO load_record_items (record_id, compartment, product_id, vt_l, temp_c, density20, vcf20, v20_l, mass_t)
				VALUES (?, ?, ?, ?, 20, 740, 1, ?, ?)`, rec, i+1, int64(it[0]), it[1], it[2], it[3]).Exec(ctx)
			must(err)
		}
		return r.ID
	}
	s := stats.DayStart(nov2)
	p92, p0 := float64(f.p92), float64(f.p0)
	// A: east, depot → 一站, 90 min out to arrival, 92# 6000 + 0# 4000 V20, loss 20 (within), 100 km, 2 openings
	a := trip(f.east, f.carE, f.s1, waybill.Closed, s+10*h, s+2*h, s+2*h+90*60000, 10000, 7.5, 9980, 20, 0.2, 100,
		[4]float64{p92, 6100, 6000, 4.4}, [4]float64{p0, 4050, 4000, 3.1})
	// B: east, depot → 二站, departure unknown, 92# 5000, loss 50 (1 %: over), 40 km
	f.tripB = trip(f.east, f.carE, f.s2, waybill.DiffFlagged, s+20*h, 0, s+19*h, 5000, 3.7, 4950, 50, 1, 40, [4]float64{p92, 5080, 5000, 3.7})
	// C: north, depot → 一站, closed at the day's last millisecond, 150 min, 0# 8000, loss 10, 60 km
	f.tripC = trip(f.north, f.carN, f.s1, waybill.Closed, s+24*h-1, s+h, s+h+150*60000, 8000, 6.7, 7990, 10, 0.125, 60, [4]float64{p0, 8100, 8000, 6.7})
	// D: north, October 15th, 60 min, 0# 1000, loss 1, 10 km
	od := stats.DayStart(20261015)
	trip(f.north, f.carN, f.s1, waybill.Closed, od+12*h, od+h, od+2*h, 1000, 0.8, 999, 1, 0.1, 10, [4]float64{p0, 1010, 1000, 0.8})
	// E: east, 2025-11-10, 30 min, 92# 2000, loss 4, 20 km
	ly := stats.DayStart(20251110)
	trip(f.east, f.carE, f.s1, waybill.Closed, ly+12*h, ly+h, ly+h+30*60000, 2000, 1.5, 1996, 4, 0.2, 20, [4]float64{p92, 2020, 2000, 1.5})
	// not finished: never counted
	trip(f.east, f.carE, f.s1, waybill.InTransit, s+11*h, s+9*h, 0, 3000, 2.2, 0, 0, 0, 0, [4]float64{p92, 3050, 3000, 2.2})
	for i := 0; i < 2; i++ {
		_, err := d.NewRaw(`INSERT INTO waybill_steps (waybill_id, from_state, to_state, evidence, cause, t, recorded_at) VALUES (?, ?, ?, ?, 1, 1, 1)`,
			a, waybill.InTransit, waybill.InTransit, int(waybill.EvOpeningOnWay)).Exec(ctx)
		must(err)
	}
	// lock events: tampered twice on the east car and once on the north car in November; an opening (not
	// tampering) and a tampering in December are not counted
	ev := func(g, car int64, event int, at int64) {
		_, err := d.NewRaw(`INSERT INTO lock_events (group_id, car_id, event, t, recorded_at) VALUES (?, ?, ?, ?, ?)`, g, car, event, at, at).Exec(ctx)
		must(err)
	}
	ev(f.east, f.carE, 3, s+12*h)
	ev(f.east, f.carE, 3, s+13*h)
	ev(f.north, f.carN, 3, s+5*24*h) // Saturday 11-07
	ev(f.east, f.carE, 1, s+12*h)
	ev(f.east, f.carE, 3, stats.DayStart(20261201))
	_, err := d.NewRaw(`INSERT INTO seal_incidents (group_id, waybill_id, car_id, kind, t) VALUES (?, ?, ?, 2, ?)`, f.north, f.tripC, f.carN, s+20*h).Exec(ctx)
	must(err)
	return f
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-6 }

var nov = Period{20261101, 20261130}

func TestRouteRollupAndBreakdowns(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f := seed(t, d)
		for _, p := range []Period{nov, {20261001, 20261031}, {20251101, 20251130}} {
			if _, err := stats.Rebuild(ctx, d, p.From, p.To); err != nil {
				t.Fatal(err)
			}
		}
		s := New(d)
		all := Scope{Period: nov, Under: "/1/"}
		tot, err := s.Totals(ctx, all)
		if err != nil {
			t.Fatal(err)
		}
		// trips A+B+C; V20 10000+5000+8000; t 7.5+3.7+6.7; loss 80; km 200; ton-km 750+148+402; timed A 90, C 150
		if tot.Trips != 3 || !near(tot.ShippedV20L, 23000) || !near(tot.ShippedT, 17.9) || !near(tot.LossL, 80) || !near(tot.Km, 200) ||
			!near(tot.TonKm, 1300) || tot.AvgOutToArrivalMin != 120 || tot.LossRatePct != 0.3478 || tot.AbnormalOpenings != 2 ||
			tot.OverAllowance != 1 || *tot.Tampering != 3 || *tot.SealIncidents != 1 {
			t.Fatalf("November totals = %+v tampering %v seals %v", tot, *tot.Tampering, *tot.SealIncidents)
		}

		// routes: depot → 一站 = A + C (90 and 150 min: avg 120, spread 90–150, σ 30); depot → 二站 = B (untimed)
		rb, err := s.Breakdown(ctx, all, DimRoute)
		if err != nil || len(rb.Rows) != 2 {
			t.Fatalf("routes = %+v, %v", rb, err)
		}
		r1, r2 := rb.Rows[0], rb.Rows[1]
		if r1.StationID != f.s1 || r1.Name != "油库 → 一站" || r1.Trips != 2 || !near(r1.ShippedV20L, 18000) || !near(r1.LossL, 30) ||
			*r1.Spread != (Spread{AvgMin: 120, MinMin: 90, MaxMin: 150, StdMin: 30}) || r1.Tampering != nil {
			t.Errorf("route 一站 = %+v %+v", r1, r1.Spread)
		}
		if r2.StationID != f.s2 || r2.Trips != 1 || !near(r2.LossL, 50) || r2.OverAllowance != 1 || *r2.Spread != (Spread{-1, -1, -1, -1}) {
			t.Errorf("route 二站 = %+v %+v", r2, r2.Spread)
		}
		// the route rows add up to the trip rows over the same filter, figure by figure
		for _, under := range []string{"/1/", "/1/2/", "/1/3/"} {
			rs, err := sumRoutes(ctx, d, Scope{Period: Period{20251101, 20261130}, Under: under}, "0", false)
			if err != nil || len(rs) != 1 {
				t.Fatal(rs, err)
			}
			ts, _ := stats.Sum(ctx, d, stats.Filter{From: 20251101, To: 20261130, Under: under}, stats.ByTotal)
			if !reflect.DeepEqual(rs[0].Total, ts[0]) {
				t.Errorf("%s: route sums %+v ≠ trip sums %+v", under, rs[0].Total, ts[0])
			}
		}

		cb, _ := s.Breakdown(ctx, all, DimCompany)
		if len(cb.Rows) != 2 || cb.Rows[0].Name != "华东" || cb.Rows[0].Trips != 2 || !near(cb.Rows[0].ShippedV20L, 15000) ||
			*cb.Rows[0].Tampering != 2 || *cb.Rows[0].SealIncidents != 0 || cb.Rows[1].Key != f.north || *cb.Rows[1].Tampering != 1 || *cb.Rows[1].SealIncidents != 1 {
			t.Errorf("companies = %+v", cb.Rows)
		}
		pb, _ := s.Breakdown(ctx, all, DimProduct)
		// 92#: A's 6000 + B's 5000 (2 trips); 0#: A's 4000 + C's 8000 (2 trips)
		if len(pb.Rows) != 2 || pb.Rows[0].Key != f.p0 || pb.Rows[0].Trips != 2 || !near(pb.Rows[0].ShippedV20L, 12000) ||
			pb.Rows[1].Name != "92#汽油" || !near(pb.Rows[1].ShippedV20L, 11000) || pb.Rows[1].Tampering != nil {
			t.Errorf("products = %+v", pb.Rows)
		}
		// the east subtree sees its own
		if e, _ := s.Totals(ctx, Scope{Period: nov, Under: "/1/2/"}); e.Trips != 2 || *e.Tampering != 2 || *e.SealIncidents != 0 {
			t.Errorf("east = %+v", e)
		}

		// every figure's drill-down: the count is the figure
		drill := func(sc Scope, only Only) int {
			pg, err := s.Trips(ctx, sc, only, httpx.PageReq{PageNum: 1, PageSize: 10})
			if err != nil {
				t.Fatal(err)
			}
			return pg.Total
		}
		route1 := Scope{Period: nov, Under: "/1/", DepotID: f.depot, StationID: f.s1}
		checks := []struct {
			name      string
			got, want int
		}{
			{"all", drill(all, OnlyAll), 3},
			{"over", drill(all, OnlyOver), int(tot.OverAllowance)},
			{"timed", drill(all, OnlyTimed), int(tot.TimedTrips)},
			{"openings (trips with any)", drill(all, OnlyOpenings), 1},
			{"route 一站", drill(route1, OnlyAll), int(r1.Trips)},
			{"company 华东", drill(Scope{Period: nov, Under: "/1/", GroupID: f.east}, OnlyAll), int(cb.Rows[0].Trips)},
			{"product 92#", drill(Scope{Period: nov, Under: "/1/", ProductID: f.p92}, OnlyAll), int(pb.Rows[1].Trips)},
			{"last year", drill(Scope{Period: Period{20251101, 20251130}, Under: "/1/"}, OnlyAll), 1},
		}
		for _, c := range checks {
			if c.got != c.want {
				t.Errorf("drill-down %s: %d trips, want %d", c.name, c.got, c.want)
			}
		}
		if r, _ := s.Totals(ctx, route1); r.Trips != 2 || r.Tampering != nil {
			t.Errorf("route-filtered totals = %+v", r)
		}

		top, err := s.Top5(ctx, all)
		if err != nil || len(top) != 3 || top[0].ID != f.tripB || top[0].LossL != 50 || top[1].LossL != 20 || top[2].ID != f.tripC ||
			top[2].StationName != "一站" || top[2].OutToArrivalMin != 150 || !near(top[0].TonKm, 148) || !top[0].Over {
			t.Errorf("top 5 = %+v, %v", top, err)
		}
	})
}

func TestComparison(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f := seed(t, d)
		if _, err := stats.Rebuild(ctx, d, 20251101, 20261130); err != nil {
			t.Fatal(err)
		}
		s := New(d)
		c, err := s.Compare(ctx, Scope{Period: nov, Under: "/1/"}, GrainWeek)
		if err != nil {
			t.Fatal(err)
		}
		// November 2026 in ISO weeks: 11-01 (Sunday), 02–08, 09–15, 16–22, 23–29, 30
		if len(c.Current.Points) != 6 || c.Current.Points[1].Trips != 3 || *c.Current.Points[1].Tampering != 3 ||
			*c.Current.Points[1].SealIncidents != 1 || c.Current.Points[0].Trips != 0 || c.Current.Points[0].AvgOutToArrivalMin != -1 {
			t.Errorf("weeks = %+v", c.Current.Points)
		}
		if c.LastMonth.Period != (Period{20261001, 20261031}) || c.LastMonth.Totals.Trips != 1 || !near(c.LastMonth.Totals.ShippedV20L, 1000) {
			t.Errorf("last month = %+v", c.LastMonth)
		}
		if c.LastYear.Period != (Period{20251101, 20251130}) || c.LastYear.Totals.Trips != 1 || !near(c.LastYear.Totals.LossL, 4) {
			t.Errorf("last year = %+v", c.LastYear)
		}
		want := func(m map[string]*float64, k string, v float64) {
			t.Helper()
			if m[k] == nil || *m[k] != v {
				t.Errorf("%s = %v, want %v", k, m[k], v)
			}
		}
		// trips 3 against 1: +200 %; V20 23000 against 1000: +2200 %; avg 120 min against 60: +100 %
		want(c.MoM, "trips", 200)
		want(c.MoM, "shippedV20", 2200)
		want(c.MoM, "avgOutToArrivalMin", 100)
		// year on year: loss 80 against 4: +1900 %; ton-km 1300 against 1.5 × 20 = 30: +4233.3 %
		want(c.YoY, "lossL", 1900)
		want(c.YoY, "tonKm", 4233.3)
		// nothing to compare with (no tampering in October, no opening last year): no change, not ∞
		for _, k := range []string{"tampering", "sealIncidents", "abnormalOpenings", "overAllowance"} {
			if c.MoM[k] != nil {
				t.Errorf("MoM %s = %v, want none", k, *c.MoM[k])
			}
		}
		// months of a year: 12 steps whatever the data
		y, _ := s.Compare(ctx, Scope{Period: Period{20260101, 20261231}, Under: "/1/"}, GrainMonth)
		if len(y.Current.Points) != 12 || y.Current.Points[10].Trips != 3 || y.Current.Points[9].Trips != 1 || y.LastYear.Points[10].Trips != 1 {
			t.Errorf("year = %+v", y.Current.Points)
		}
		_ = f
	})
}

// TestRebuildEqualsIncremental: the route rows kept car by car as trips finish (stats.Refresh, in any
// order) are the rows a rebuild writes; a trip leaving the finished set takes its route row away in
// both, also when it was its car's last on that day.
func TestRebuildEqualsIncremental(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f := seed(t, d)
		snapshot := func() []RouteDaily {
			var rows []RouteDaily
			if err := d.NewSelect().Model(&rows).Order("day", "car_id", "depot_id", "station_id").Scan(ctx); err != nil {
				t.Fatal(err)
			}
			return rows
		}
		pairs := [][2]int64{{f.carN, 20261015}, {f.carN, nov2}, {f.carE, nov2}, {f.carE, 20251110}}
		for _, p := range pairs {
			if err := stats.Refresh(ctx, d, p[0], int(p[1])); err != nil {
				t.Fatal(err)
			}
		}
		inc := snapshot()
		layersMatch(t, d, "incremental")
		if len(inc) != 5 {
			t.Fatalf("incremental rows = %d, want 5 (A, B, C, D, E on their own car-day-routes)", len(inc))
		}
		if _, err := stats.Rebuild(ctx, d, 20251101, 20261130); err != nil {
			t.Fatal(err)
		}
		if reb := snapshot(); !reflect.DeepEqual(inc, reb) {
			t.Errorf("rebuild ≠ incremental:\n%+v\n%+v", reb, inc)
		}
		layersMatch(t, d, "rebuild")
		if _, err := Rebuild(ctx, d, 20251101, 20261130); err != nil {
			t.Fatal(err)
		}
		if reb := snapshot(); !reflect.DeepEqual(inc, reb) {
			t.Errorf("route-only rebuild ≠ incremental:\n%+v\n%+v", reb, inc)
		}
		layersMatch(t, d, "route-only rebuild")
		// C is corrected out of the finished set: north has no trip on 11-02 any more
		if _, err := d.NewRaw("UPDATE waybills SET state = ? WHERE id = ?", waybill.Received, f.tripC).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		if err := stats.Refresh(ctx, d, f.carN, nov2); err != nil {
			t.Fatal(err)
		}
		inc = snapshot()
		layersMatch(t, d, "after C left")
		if len(inc) != 4 {
			t.Errorf("after C left: %d rows, want 4", len(inc))
		}
		// B as well, but only the rebuild is told: the rebuild of the day must drop both stale rows
		if _, err := d.NewRaw("UPDATE waybills SET state = ? WHERE id = ?", waybill.Received, f.tripB).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := d.NewRaw("INSERT INTO stat_route_daily (day, car_id, group_id, depot_id, station_id, trips) VALUES (?, ?, ?, ?, ?, 1)",
			nov2, f.carN, f.north, f.depot, f.s1).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := stats.Rebuild(ctx, d, nov2, nov2); err != nil {
			t.Fatal(err)
		}
		var left []string
		for _, r := range snapshot() {
			if r.Day == nov2 {
				left = append(left, fmt.Sprint(r.CarID, r.StationID, r.Trips))
			}
		}
		layersMatch(t, d, "after B left")
		sort.Strings(left)
		if want := []string{fmt.Sprint(f.carE, f.s1, 1)}; !reflect.DeepEqual(left, want) {
			t.Errorf("11-02 after the rebuild = %v, want %v (A only)", left, want)
		}
	})
}
