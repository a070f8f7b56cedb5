package overview

import (
	"context"
	"errors"
	"math"
	"testing"
	"time"

	"tankwatch/internal/lock"
	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/db/dbtest"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/stats"
	"tankwatch/internal/waybill"
	"tankwatch/internal/waybill/views"
)

// fix are the ids of the fixture.
type fix struct {
	top, east, north, carE, carN, s1, s2 int64
}

// The fixture: a group with two companies (华东 /1/2/, 华北 /1/3/), one car each, a depot and two
// stations, the product 92#汽油 in each company's catalogue (two ids, one name) and 0#柴油.
//
//	2026-10-31 (the previous period): D  east  closed   10,000 V20, loss 0.5 L, 50 km
//	2026-11-01:                       A  east  closed   6,000 (92#) + 4,000 (0#) V20, two stops (S1 5,999, S2 4,000), loss 1 L (0.01 % of 0.02 %), 100 km, 60 min out-to-arrival
//	                                  C  north closed   8,000 (92# north) V20, S1 7,999.2, loss 0.8 L (0.01 % of 0.02 %), 80 km, 90 min
//	2026-11-02:                       B  east  flagged  5,000 (92#) V20, S1 4,950, loss 50 L = 1 % over 0.01 %, 40 km, an opening on the way
//	                                  E  east  in transit: never counted
//
// Lock events: tampering east 11-01 ×2 and 10-31 ×1, north 11-02 ×1, an east opening 11-01 (not
// tampering). Seal incidents: east 11-02, north 11-01.
func seedFix(t *testing.T, d *db.DB) fix {
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
	var f fix
	f.top = id("INSERT INTO org_groups (name, path, created_at) VALUES ('集团', '/1/', 1)")
	f.east = id("INSERT INTO org_groups (name, parent_id, path, created_at) VALUES ('华东', ?, '/1/2/', 1)", f.top)
	f.north = id("INSERT INTO org_groups (name, parent_id, path, created_at) VALUES ('华北', ?, '/1/3/', 1)", f.top)
	f.carE = id("INSERT INTO cars (group_id, plate, compartments, created_at, updated_at) VALUES (?, '沪A00001', 2, 1, 1)", f.east)
	f.carN = id("INSERT INTO cars (group_id, plate, compartments, created_at, updated_at) VALUES (?, '京A00001', 2, 1, 1)", f.north)
	station := func(name, typ string) int64 {
		return id(`INSERT INTO stations (group_id, name, station_type, fence_type, fence_center, raduis, center_lng, center_lat, created_at, updated_at)
			VALUES (?, ?, ?, 2, '121,31', 300, 121, 31, 1, 1)`, f.top, name, typ)
	}
	depot := station("油库", "yk")
	f.s1, f.s2 = station("一号站", "jyz"), station("二号站", "jyz")
	p92e := id("INSERT INTO products (group_id, code, name, created_at, updated_at) VALUES (?, 'P92', '92#汽油', 1, 1)", f.east)
	p92n := id("INSERT INTO products (group_id, code, name, created_at, updated_at) VALUES (?, 'P92', '92#汽油', 1, 1)", f.north)
	p0 := id("INSERT INTO products (group_id, code, name, created_at, updated_at) VALUES (?, 'P0', '0#柴油', 1, 1)", f.top)
	h := int64(3_600_000)
	n := 0
	type item struct {
		product int64
		v20     float64
	}
	trip := func(g, car int64, st waybill.State, closed, depart, arrive int64, km float64, dests []waybill.Destination, items ...item) int64 {
		n++
		var shipped, received float64
		for _, it := range items {
			shipped += it.v20
		}
		for _, d := range dests {
			received += d.ReceivedV20
		}
		l := waybill.LossOf(shipped, received, km)
		r := waybill.Row{GroupID: g, CarID: car, DepotID: depot, No: "YD" + string(rune('A'+n)), State: st, StateAt: closed, ClosedAt: closed,
			DepartAt: depart, ArriveAt: arrive, ShippedV20: shipped, ShippedMassT: shipped * 0.00074, ReceivedV20: received,
			LossL: math.Round(l.LossL*10) / 10, LossRatePct: math.Round(l.RatePct*10000) / 10000, AllowedPct: l.AllowedPct, LoadedKm: km,
			CreatedAt: 1, UpdatedAt: 1}
		comps := []waybill.Compartment{}
		for i, it := range items {
			comps = append(comps, waybill.Compartment{No: i + 1, ProductID: it.product, PlannedL: it.v20, DestSeq: 1})
		}
		must(waybill.Insert(ctx, d, &r, dests, comps))
		rec := id(`INSERT INTO load_records (waybill_id, group_id, car_id, depot_id, loaded_at, source, created_at, updated_at)
			VALUES (?, ?, ?, ?, 1, 1, 1, 1)`, r.ID, g, car, depot)
		for i, it := range items {
			_, err := d.NewRaw(`INSERT INTO load_record_items (record_id, compartment, product_id, vt_l, temp_c, density20, vcf20, v20_l, mass_t)
				VALUES (?, ?, ?, ?, 20, 740, 1, ?, ?)`, rec, i+1, it.product, it.v20, it.v20, it.v20*0.00074).Exec(ctx)
			must(err)
		}
		return r.ID
	}
	d31, d1, d2 := stats.DayStart(20261031), stats.DayStart(20261101), stats.DayStart(20261102)
	dest := func(seq int, s int64, v float64) waybill.Destination {
		return waybill.Destination{Seq: seq, StationID: s, State: waybill.DestReceived, ReceivedV20: v, ReceivedSource: waybill.ReceivedGauge}
	}
	trip(f.east, f.carE, waybill.Closed, d31+10*h, d31+8*h, d31+9*h, 50, []waybill.Destination{dest(1, f.s1, 9999.5)}, item{p92e, 10000})
	trip(f.east, f.carE, waybill.Closed, d1+10*h, d1+8*h, d1+9*h, 100, []waybill.Destination{dest(1, f.s1, 5999), dest(2, f.s2, 4000)},
		item{p92e, 6000}, item{p0, 4000})
	trip(f.north, f.carN, waybill.Closed, d1+12*h, d1+9*h, d1+10*h+30*60000, 80, []waybill.Destination{dest(1, f.s1, 7999.2)}, item{p92n, 8000})
	b := trip(f.east, f.carE, waybill.DiffFlagged, d2+15*h, d2+12*h, d2+13*h, 40, []waybill.Destination{dest(1, f.s1, 4950)}, item{p92e, 5000})
	trip(f.east, f.carE, waybill.InTransit, 0, d2+16*h, 0, 0, []waybill.Destination{dest(1, f.s1, 0)}, item{p92e, 3000})
	_, err := d.NewRaw(`INSERT INTO waybill_steps (waybill_id, from_state, to_state, evidence, cause, t, recorded_at, compartment) VALUES (?, ?, ?, ?, 1, ?, 1, 1)`,
		b, waybill.InTransit, waybill.InTransit, int(waybill.EvOpeningOnWay), d2+12*h+30*60000).Exec(ctx)
	must(err)
	for _, e := range []struct {
		g, car int64
		ev     lock.Event
		t      int64
	}{{f.east, f.carE, lock.EventTampered, d1 + h}, {f.east, f.carE, lock.EventTampered, d1 + 2*h}, {f.east, f.carE, lock.EventTampered, d31 + h},
		{f.north, f.carN, lock.EventTampered, d2 + h}, {f.east, f.carE, lock.EventOpened, d1 + 3*h}} {
		_, err := d.NewRaw("INSERT INTO lock_events (group_id, car_id, event, t, recorded_at) VALUES (?, ?, ?, ?, 1)", e.g, e.car, int(e.ev), e.t).Exec(ctx)
		must(err)
	}
	for _, s := range []struct {
		g, car int64
		t      int64
	}{{f.east, f.carE, d2 + 14*h}, {f.north, f.carN, d1 + 11*h}} {
		_, err := d.NewRaw("INSERT INTO seal_incidents (group_id, waybill_id, car_id, kind, t, seal_no) VALUES (?, ?, ?, 2, ?, 'QF1')", s.g, b, s.car, s.t).Exec(ctx)
		must(err)
	}
	if _, err := stats.Rebuild(ctx, d, 20261030, 20261102); err != nil {
		t.Fatal(err)
	}
	return f
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-6 }

func svc(d *db.DB) *Service {
	s := New(d, views.New(d))
	s.Now = func() time.Time { return time.Date(2026, 11, 3, 2, 0, 0, 0, time.UTC) }
	return s
}

func TestStatisticByHand(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f := seedFix(t, d)
		s := svc(d)
		all := &httpx.Principal{GroupID: f.top, GroupPath: "/1/"}
		o, err := s.Statistic(ctx, all, Query{Start: "2026-11-01", End: "2026-11-02"})
		if err != nil {
			t.Fatal(err)
		}
		c := o.Current
		// A + C + B: 3 trips; V20 10,000 + 8,000 + 5,000; received 9,999 + 7,999.2 + 4,950; loss 1 + 0.8 + 50;
		// km 220; timed 3: 60 + 90 + 60 min → 70; over 1 (B); openings 1; tampering 2 east + 1 north; seals 2
		if c.Trips != 3 || !near(c.ShippedV20L, 23000) || !near(c.ReceivedV20L, 22948.2) || !near(c.LossL, 51.8) || !near(c.Km, 220) ||
			c.AvgOutToArrivalMin != 70 || c.OverAllowance != 1 || c.AbnormalOpenings != 1 || c.LockTampered != 3 || c.SealIncidents != 2 {
			t.Fatalf("current = %+v", c)
		}
		// 51.8 / 23,000 = 0.22521… %
		if c.LossRatePct != 0.2252 {
			t.Errorf("loss rate %v, want 0.2252", c.LossRatePct)
		}
		// the previous two days (10-30, 10-31): D and one tampering
		if o.PrevFrom != "2026-10-30" || o.PrevTo != "2026-10-31" || o.Previous.Trips != 1 || !near(o.Previous.LossL, 0.5) || o.Previous.LockTampered != 1 || o.Previous.SealIncidents != 0 {
			t.Errorf("previous %s…%s = %+v", o.PrevFrom, o.PrevTo, o.Previous)
		}
		if len(o.ByDay) != 2 || o.ByDay[0].Trips != 2 || o.ByDay[1].Trips != 1 || o.ByDay[0].Day != "2026-11-01" {
			t.Errorf("by day = %+v", o.ByDay)
		}
		if len(o.ByCompany) != 2 || o.ByCompany[0].Name != "华东" || o.ByCompany[0].Trips != 2 || o.ByCompany[1].Trips != 1 {
			t.Errorf("by company = %+v", o.ByCompany)
		}
		// products: 92# of both catalogues is one line: A (6,000), C (8,000), B (5,000) = 19,000 in 3 trips; 0# 4,000 in 1.
		// A's received 9,999 is shared 6:4, so 92# received 5,999.4 + 7,999.2 + 4,950
		if len(o.ByProduct) != 2 || o.ByProduct[0].Name != "92#汽油" || o.ByProduct[0].Trips != 3 || !near(o.ByProduct[0].ShippedV20L, 19000) ||
			!near(o.ByProduct[0].ReceivedV20L, 18948.6) || o.ByProduct[1].Name != "0#柴油" || !near(o.ByProduct[1].ShippedV20L, 4000) {
			t.Errorf("by product = %+v", o.ByProduct)
		}
		// the east company only, named by the caller at the top; the same from an east user
		for _, q := range []struct {
			p *httpx.Principal
			g int64
		}{{all, f.east}, {&httpx.Principal{GroupID: f.east, GroupPath: "/1/2/"}, 0}} {
			e, err := s.Statistic(ctx, q.p, Query{Start: "2026-11-01", End: "2026-11-02", GroupID: q.g})
			if err != nil || e.Current.Trips != 2 || e.Current.LockTampered != 2 || e.Current.SealIncidents != 1 || len(e.ByCompany) != 1 {
				t.Errorf("east = %+v, %v", e, err)
			}
		}
		// an east user naming the north company: refused
		if _, err := s.Statistic(ctx, &httpx.Principal{GroupID: f.east, GroupPath: "/1/2/"}, Query{Start: "2026-11-01", End: "2026-11-02", GroupID: f.north}); !errors.Is(err, httpx.ErrScope) {
			t.Errorf("foreign group: %v", err)
		}
		// the drill-down lists the same trips
		pg, err := s.Trips(ctx, all, TripsQuery{Query: Query{Start: "2026-11-01", End: "2026-11-02"}, PageReq: httpx.PageReq{PageNum: 1, PageSize: 10}})
		if err != nil || pg.Total != 3 || pg.Totals.OverCount != 1 {
			t.Errorf("drill-down = %d rows, %+v, %v", pg.Total, pg.Totals, err)
		}
		pg, err = s.Trips(ctx, all, TripsQuery{Query: Query{Start: "2026-11-01", End: "2026-11-02"}, Day: "2026-11-02", PageReq: httpx.PageReq{PageNum: 1, PageSize: 10}})
		if err != nil || pg.Total != 1 || pg.List[0].No != "YDE" {
			t.Errorf("drill-down of 11-02 = %+v, %v", pg.List, err)
		}
		// right now: E is in transit, B awaits its review
		now, err := s.StatesNow(ctx, all, Query{})
		if err != nil || now.Total != 2 {
			t.Fatalf("states now = %+v, %v", now, err)
		}
		for _, sc := range now.States {
			want := 0
			if sc.State == "IN_TRANSIT" || sc.State == "DIFF_FLAGGED" {
				want = 1
			}
			if sc.Count != want {
				t.Errorf("%s: %d", sc.State, sc.Count)
			}
		}
	})
}

func TestReportByHand(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f := seedFix(t, d)
		s := svc(d)
		all := &httpx.Principal{GroupID: f.top, GroupPath: "/1/"}
		r, err := s.Report(ctx, all, ReportQuery{GroupID: f.east, Kind: "month", Date: "2026-11-20"})
		if err != nil {
			t.Fatal(err)
		}
		// November for east: A and B (D is October's); one car; 92# (A 6,000 + B 5,000) and 0# (A 4,000)
		if r.Company != "华东" || r.From != "2026-11-01" || r.To != "2026-11-30" || r.Summary.Trips != 2 || !near(r.Summary.ShippedV20L, 15000) ||
			!near(r.Summary.LossL, 51) || r.Summary.LockTampered != 2 || r.Summary.SealIncidents != 1 {
			t.Fatalf("report %s %s…%s: %+v", r.Company, r.From, r.To, r.Summary)
		}
		if len(r.Cars) != 1 || r.Cars[0].Name != "沪A00001" || r.Cars[0].Trips != 2 {
			t.Errorf("cars = %+v", r.Cars)
		}
		if len(r.Products) != 2 || r.Products[0].Name != "92#汽油" || !near(r.Products[0].ShippedV20L, 11000) || r.Products[0].Trips != 2 {
			t.Errorf("products = %+v", r.Products)
		}
		// stations: 一号站 A (5,999) + B (4,950) by one car; 二号站 A (4,000); they add up to the received V20
		if len(r.Stations) != 2 || r.Stations[0].Name != "一号站" || r.Stations[0].Unloadings != 2 || r.Stations[0].Cars != 1 ||
			!near(r.Stations[0].ReceivedV20, 10949) || !near(r.Stations[1].ReceivedV20, 4000) ||
			!near(r.Stations[0].ReceivedV20+r.Stations[1].ReceivedV20, r.Summary.ReceivedV20L) {
			t.Errorf("stations = %+v", r.Stations)
		}
		// differences, by time: B's opening (12:30), the seal incident (14:00), B over the allowance (15:00)
		if len(r.Differences) != 3 || r.Differences[0].Kind != "opening" || r.Differences[1].Kind != "seal" || r.Differences[2].Kind != "over" ||
			r.Differences[2].WaybillNo != "YDE" || r.Differences[2].LossRatePct != 1 || r.Differences[1].SealNo != "QF1" {
			t.Errorf("differences = %+v", r.Differences)
		}
		// a day without trips: a report of zeros, not an error
		z, err := s.Report(ctx, all, ReportQuery{GroupID: f.north, Kind: "day", Date: "2026-11-02"})
		if err != nil || z.Summary.Trips != 0 || len(z.Cars) != 0 || len(z.Stations) != 0 || z.Summary.LockTampered != 1 || z.Summary.AvgOutToArrivalMin != -1 {
			t.Errorf("empty day = %+v, %v", z, err)
		}
		if _, err := s.Report(ctx, &httpx.Principal{GroupID: f.north, GroupPath: "/1/3/"}, ReportQuery{GroupID: f.east, Kind: "day", Date: "2026-11-02"}); !errors.Is(err, httpx.ErrScope) {
			t.Errorf("foreign company: %v", err)
		}
	})
}

func TestPeriods(t *testing.T) {
	for _, c := range []struct {
		kind, date string
		from, to   int
	}{
		{"day", "2026-11-26", 20261126, 20261126},
		{"week", "2026-11-26", 20261123, 20261129}, // Thursday → Monday … Sunday
		{"week", "2026-11-29", 20261123, 20261129}, // Sunday belongs to the week before
		{"month", "2028-02-10", 20280201, 20280229},
		{"month", "2026-12-31", 20261201, 20261231},
	} {
		p, err := ReportPeriod(c.kind, c.date)
		if err != nil || p.From != c.from || p.To != c.to {
			t.Errorf("%s %s = %+v, %v", c.kind, c.date, p, err)
		}
	}
	if _, err := ReportPeriod("year", "2026-11-26"); err == nil {
		t.Error("a year report was accepted")
	}
	if p := (Period{From: 20261101, To: 20261130}).Prev(); p.From != 20261002 || p.To != 20261031 {
		t.Errorf("prev of November = %+v", p)
	}
	for _, c := range []struct{ start, end, key string }{
		{"", "2026-11-01", "overview.periodRequired"},
		{"2026-11-02", "2026-11-01", "overview.endBeforeStart"},
		{"2025-01-01", "2026-11-01", "overview.tooLong"},
		{"2026-02-30", "2026-03-01", "field.invalid"},
	} {
		_, err := ParsePeriod(c.start, c.end)
		var he *httpx.Error
		if !errors.As(err, &he) || he.Key != c.key {
			t.Errorf("%q…%q: %v, want %s", c.start, c.end, err, c.key)
		}
	}
	if p, err := ParsePeriod("2026-11-01 00:00:00", "2026-11-26 23:59:59"); err != nil || p.From != 20261101 || p.To != 20261126 {
		t.Errorf("with times: %+v, %v", p, err)
	}
}
