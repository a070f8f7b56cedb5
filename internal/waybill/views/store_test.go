package views

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/db/dbtest"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/waybill"
)

type fix struct {
	svc                      *Service
	top, east, north, sales  int64
	eastCar, northCar        int64
	depot, station, station2 int64
	closedEast, closedNorth  int64
	soldNorth, transitEast   int64
	eastP, salesP, topP      *httpx.Principal
	shippedOf                map[int64]float64
}

const t0 = int64(1_780_000_000_000)

func setupFix(t *testing.T, d *db.DB) *fix {
	t.Helper()
	ctx := context.Background()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	f := &fix{svc: New(d), shippedOf: map[int64]float64{}}
	f.svc.Now = func() time.Time { return time.UnixMilli(t0 + 10*3_600_000) }
	group := func(name, path string) int64 {
		var id int64
		must(d.NewRaw("INSERT INTO org_groups (name, path, created_at) VALUES (?, ?, 1) RETURNING id", name, path).Scan(ctx, &id))
		return id
	}
	f.top, f.east, f.north, f.sales = group("集团", "/1/"), group("华东", "/1/2/"), group("华北", "/1/3/"), group("销售", "/1/4/")
	car := func(g int64, plate string) int64 {
		var id int64
		must(d.NewRaw("INSERT INTO cars (group_id, plate, compartments, created_at, updated_at) VALUES (?, ?, 3, 1, 1) RETURNING id", g, plate).Scan(ctx, &id))
		return id
	}
	f.eastCar, f.northCar = car(f.east, "沪A00001"), car(f.north, "京A00001")
	station := func(g int64, name, typ string) int64 {
		var id int64
		must(d.NewRaw(`INSERT INTO stations (group_id, name, station_type, fence_type, fence_center, raduis, center_lng, center_lat, created_at, updated_at)
			VALUES (?, ?, ?, 2, '121,31', 300, 121, 31, 1, 1) RETURNING id`, g, name, typ).Scan(ctx, &id))
		return id
	}
	f.depot, f.station, f.station2 = station(f.top, "吴泾油库", "yk"), station(f.east, "浦东加油站", "jyz"), station(f.north, "朝阳加油站", "jyz")
	var product int64
	must(d.NewRaw("INSERT INTO products (group_id, code, name, created_at, updated_at) VALUES (?, 'P1', '92#汽油', 1, 1) RETURNING id", f.top).Scan(ctx, &product))
	var user int64
	must(d.NewRaw("INSERT INTO users (name, nick_name, password_hash, group_id, created_at) VALUES ('op', '调度员小李', 'x', ?, 1) RETURNING id", f.east).Scan(ctx, &user))

	n := 0
	insert := func(g int64, sales *int64, car, st int64, r waybill.Row) int64 {
		n++
		r.GroupID, r.SalesGroupID, r.CarID, r.DepotID = g, sales, car, f.depot
		r.No = "YD" + string(rune('A'+n))
		r.CreatedAt, r.UpdatedAt = t0, t0
		if r.StateAt == 0 {
			r.StateAt = t0
		}
		must(waybill.Insert(ctx, d, &r, []waybill.Destination{{Seq: 1, StationID: st}},
			[]waybill.Compartment{{No: 1, ProductID: product, PlannedL: 10000, DestSeq: 1}}))
		f.shippedOf[r.ID] = r.ShippedV20
		return r.ID
	}
	closed := func(shipped, mass, received, km float64, depart, arrive, closedAt int64, st waybill.State) waybill.Row {
		l := waybill.LossOf(shipped, received, km)
		return waybill.Row{State: st, PlannedLoadAt: t0, ShippedV20: shipped, ShippedMassT: mass, ReceivedV20: received,
			ReceivedSource: waybill.ReceivedGauge, LossL: l.LossL, LossRatePct: l.RatePct, AllowedPct: l.AllowedPct, LoadedKm: km,
			DepartAt: depart, ArriveAt: arrive, ClosedAt: closedAt}
	}
	f.closedEast = insert(f.east, nil, f.eastCar, f.station, closed(20000, 14.8, 19995, 120, t0+3_600_000, t0+5_400_000, t0+7_200_000, waybill.Closed))
	f.closedNorth = insert(f.north, nil, f.northCar, f.station2, closed(10000, 8.4, 9900, 40, t0+1000, t0+1000+3_600_000, t0+7_300_000, waybill.DiffFlagged))
	f.soldNorth = insert(f.north, &f.sales, f.northCar, f.station2, closed(8000, 6, 7999, 60, t0, t0+600_000, t0+7_400_000, waybill.Closed))
	f.transitEast = insert(f.east, nil, f.eastCar, f.station, waybill.Row{State: waybill.Planned, PlannedLoadAt: t0 + 86_400_000, PlannedArriveAt: t0 + 3_600_000})
	// the trip in transit got there through its steps: dispatched by a user, load record, seal, exit with its place
	adv := func(m waybill.Move) {
		t.Helper()
		_, _, err := waybill.Advance(ctx, d, f.transitEast, m, m.T+50)
		must(err)
	}
	adv(waybill.Move{Evidence: waybill.EvDispatch, Cause: waybill.CauseUser, UserID: user, T: t0 + 100})
	adv(waybill.Move{Evidence: waybill.EvLoadStart, Cause: waybill.CauseReport, T: t0 + 200, StationID: f.depot})
	adv(waybill.Move{Evidence: waybill.EvLoadRecord, Cause: waybill.CauseRecord, UserID: user, T: t0 + 300, VolumeL: 9873.4})
	adv(waybill.Move{Evidence: waybill.EvDepotExit, Cause: waybill.CauseReport, T: t0 + 400})
	adv(waybill.Move{Evidence: waybill.EvOpeningOnWay, Cause: waybill.CauseReport, T: t0 + 450, Lat: 31_200_000, Lon: 121_500_000, Compartment: 1})
	var rec int64
	must(d.NewRaw(`INSERT INTO load_records (waybill_id, group_id, car_id, depot_id, ticket_no, loaded_at, source, created_at, updated_at)
		VALUES (?, ?, ?, ?, 'T-001', ?, 1, 1, 1) RETURNING id`, f.transitEast, f.east, f.eastCar, f.depot, t0+300).Scan(ctx, &rec))
	_, err := d.NewRaw(`INSERT INTO load_record_items (record_id, compartment, product_id, vt_l, temp_c, density20, vcf20, v20_l, mass_t, seal_no)
		VALUES (?, 1, ?, 10000, 30, 740, 0.98770, 9877.0, 7.298, 'S123')`, rec, product).Exec(ctx)
	must(err)
	must(waybill.AddDiff(ctx, d, &waybill.DiffRow{WaybillID: f.transitEast, GroupID: f.east, CarID: f.eastCar, Kind: waybill.DiffOpeningOnWay, T: t0 + 350}))

	f.eastP = &httpx.Principal{UserID: user, GroupID: f.east, GroupPath: "/1/2/"}
	f.salesP = &httpx.Principal{GroupID: f.sales, GroupPath: "/1/4/"}
	f.topP = &httpx.Principal{GroupID: f.top, GroupPath: "/1/"}
	return f
}

func ids(ts []Trip) map[int64]bool {
	out := map[int64]bool{}
	for _, t := range ts {
		out[t.ID] = true
	}
	return out
}

func TestPageScopeAndFilters(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f := setupFix(t, d)
		pg, err := f.svc.Page(ctx, f.eastP, Query{})
		if err != nil {
			t.Fatal(err)
		}
		if got := ids(pg.List); len(got) != 2 || !got[f.closedEast] || !got[f.transitEast] || pg.Total != 2 {
			t.Fatalf("east sees %v (total %d)", got, pg.Total)
		}
		for _, tr := range pg.List {
			if tr.ID == f.transitEast {
				if tr.State != "IN_TRANSIT" || !tr.Late || !tr.LeftUnsealed || !tr.Flagged || tr.Plate != "沪A00001" || tr.DepotName != "吴泾油库" ||
					len(tr.Destinations) != 1 || tr.Destinations[0].StationName != "浦东加油站" {
					t.Errorf("in transit: %+v", tr)
				}
			}
		}
		// the sales company sees what it sold, carried by another group
		pg, _ = f.svc.Page(ctx, f.salesP, Query{})
		if got := ids(pg.List); len(got) != 1 || !got[f.soldNorth] || pg.List[0].SalesGroupName != "销售" {
			t.Fatalf("sales sees %v", got)
		}
		for name, c := range map[string]struct {
			q    Query
			want []int64
		}{
			"state":    {Query{State: "IN_TRANSIT"}, []int64{f.transitEast}},
			"states":   {Query{States: []string{"CLOSED", "DIFF_FLAGGED"}}, []int64{f.closedEast, f.closedNorth, f.soldNorth}},
			"station":  {Query{StationID: f.station2}, []int64{f.closedNorth, f.soldNorth}},
			"depot":    {Query{DepotID: f.depot, CarID: f.eastCar}, []int64{f.closedEast, f.transitEast}},
			"range":    {Query{Start: httpx.Time(t0 + 3_600_000)}, []int64{f.transitEast}}, // planned to load the next day
			"board":    {Query{Board: true, Start: httpx.Time(t0 + 7_250_000)}, []int64{f.transitEast, f.closedNorth, f.soldNorth}},
			"group":    {Query{GroupID: f.north}, []int64{f.closedNorth, f.soldNorth}},
			"numberIs": {Query{No: "YD"}, []int64{f.closedEast, f.closedNorth, f.soldNorth, f.transitEast}},
		} {
			pg, err := f.svc.Page(ctx, f.topP, c.q)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			got := ids(pg.List)
			if len(got) != len(c.want) {
				t.Errorf("%s: got %v want %v", name, got, c.want)
			}
			for _, id := range c.want {
				if !got[id] {
					t.Errorf("%s: %d missing from %v", name, id, got)
				}
			}
		}
		// another group's car, group or station is refused; a bad state names the field
		for name, q := range map[string]Query{"car": {CarID: f.northCar}, "group": {GroupID: f.north}, "station": {StationID: f.station2}} {
			if _, err := f.svc.Page(ctx, f.eastP, q); err != httpx.ErrScope {
				t.Errorf("east filtering by north's %s: %v", name, err)
			}
		}
		// the company's depot (an ancestor's station) is visible to the subsidiary
		if _, err := f.svc.Page(ctx, f.eastP, Query{DepotID: f.depot}); err != nil {
			t.Errorf("depot of the company: %v", err)
		}
		if _, err := f.svc.Page(ctx, f.eastP, Query{State: "FLYING"}); err == nil {
			t.Error("unknown state accepted")
		}
		if _, err := f.svc.Page(ctx, f.eastP, Query{Start: 2000, End: 1000}); err == nil {
			t.Error("end before start accepted")
		}
	})
}

func TestRecordTotalsMatchTheRows(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f := setupFix(t, d)
		pg, err := f.svc.RecordPage(ctx, f.topP, Query{PageReq: httpx.PageReq{PageSize: 1}})
		if err != nil {
			t.Fatal(err)
		}
		if pg.Total != 3 || len(pg.List) != 1 || pg.List[0].ID != f.soldNorth { // newest finished first
			t.Fatalf("record page: total %d, %+v", pg.Total, pg.List)
		}
		all, err := f.svc.records(ctx, f.topP, Query{})
		if err != nil {
			t.Fatal(err)
		}
		var figs []Figures
		for _, r := range all {
			figs = append(figs, Figures{ShippedV20: r.ShippedV20, ShippedMassT: r.ShippedMassT, ReceivedV20: r.ReceivedV20, LossL: r.LossL,
				LoadedKm: r.LoadedKm, DepartAt: r.DepartAt, ArriveAt: r.ArriveAt, Over: r.Over})
		}
		if want := Summarize(figs); pg.Totals != want {
			t.Errorf("store totals %+v\n  row totals %+v", pg.Totals, want)
		}
		want := Totals{Trips: 3, ShippedV20: 38000, ReceivedV20: 37894, LossL: 106, LossRatePct: 0.2789, OverCount: 1,
			LoadedKm: 220, TonKm: 14.8*120 + 8.4*40 + 6*60, AvgOutToArrivalMin: 33.3, TimedTrips: 3}
		if pg.Totals != want {
			t.Errorf("totals %+v, want %+v", pg.Totals, want)
		}
		for _, r := range all {
			if r.ID == f.closedEast && (r.TonKm != 1776 || r.OutToArrivalMin != 30 || r.Over) {
				t.Errorf("east trip figures: %+v", r)
			}
			if r.ID == f.closedNorth && !r.Over {
				t.Errorf("north trip not over: %+v", r)
			}
		}
		over, _ := f.svc.RecordPage(ctx, f.topP, Query{Over: "over"})
		if over.Total != 1 || over.List[0].ID != f.closedNorth || over.Totals.Trips != 1 {
			t.Errorf("over filter: %+v", over)
		}
		east, _ := f.svc.RecordPage(ctx, f.eastP, Query{})
		if east.Total != 1 || east.Totals.ShippedV20 != 20000 {
			t.Errorf("east record: %+v", east)
		}
		ranged, _ := f.svc.RecordPage(ctx, f.topP, Query{Start: httpx.Time(t0 + 7_250_000), End: httpx.Time(t0 + 7_350_000)})
		if ranged.Total != 1 || ranged.List[0].ID != f.closedNorth {
			t.Errorf("closed range: %+v", ranged)
		}
	})
}

func TestDetail(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		f := setupFix(t, d)
		req := func(p *httpx.Principal) *httpx.Principal { return p }
		get := func(p *httpx.Principal, id int64) (*Detail, error) {
			r := httptest.NewRequest("GET", "/", nil).WithContext(httpx.WithPrincipal(context.Background(), req(p)))
			r.Header.Set("Accept-Language", "zh-CN")
			return f.svc.Detail(r, id)
		}
		dt, err := get(f.eastP, f.transitEast)
		if err != nil {
			t.Fatal(err)
		}
		if dt.Waybill.State != "IN_TRANSIT" || len(dt.Destinations) != 1 || dt.Destinations[0].StationName != "浦东加油站" {
			t.Errorf("head: %+v", dt.Waybill)
		}
		if len(dt.Compartments) != 1 || dt.Compartments[0].ProductName != "92#汽油" || dt.Compartments[0].PlannedL != 10000 {
			t.Errorf("compartments: %+v", dt.Compartments)
		}
		if dt.Load == nil || dt.Load.TicketNo != "T-001" || len(dt.Load.Items) != 1 || dt.Load.Items[0].VCF20 != 0.98770 ||
			dt.Load.Items[0].V20L != 9877 || dt.Load.Items[0].SealNo != "S123" || dt.Load.Items[0].MassT != 7.298 {
			t.Errorf("load: %+v", dt.Load)
		}
		if len(dt.Steps) != 5 {
			t.Fatalf("steps: %+v", dt.Steps)
		}
		s0, s1, s2, s4, s3 := dt.Steps[0], dt.Steps[1], dt.Steps[2], dt.Steps[3], dt.Steps[4]
		if s0.From != "PLANNED" || s0.To != "DISPATCHED" || s0.Cause != waybill.CauseUser || s0.UserName != "调度员小李" {
			t.Errorf("dispatch step: %+v", s0)
		}
		if s1.StationName != "吴泾油库" || s1.Cause != waybill.CauseReport {
			t.Errorf("loading step: %+v", s1)
		}
		if s2.VolumeL != 9873.4 || s2.To != "LOADED" {
			t.Errorf("load step: %+v", s2)
		}
		if !s3.Mark || s3.Evidence != int(waybill.EvOpeningOnWay) || s3.Lat != 31.2 || s3.Lon != 121.5 || s3.Compartment != 1 {
			t.Errorf("opening mark: %+v", s3)
		}
		if s4.To != "IN_TRANSIT" || s4.T != t0+400 || s4.RecordedAt != t0+450 || s4.Mark {
			t.Errorf("exit: %+v", s4)
		}
		if len(dt.Diffs) != 1 || dt.Diffs[0].Kind != waybill.DiffOpeningOnWay {
			t.Errorf("diffs: %+v", dt.Diffs)
		}
		if dt, err := get(f.eastP, f.closedEast); err != nil || dt.Load != nil || len(dt.Steps) != 0 {
			t.Errorf("a trip without a load record or steps: %+v %v", dt, err)
		}
		if _, err := get(f.eastP, f.closedNorth); err != httpx.ErrScope {
			t.Errorf("north's waybill to east: %v", err)
		}
		if _, err := get(f.salesP, f.soldNorth); err != nil {
			t.Errorf("sold trip to its sales company: %v", err)
		}
		if _, err := get(f.eastP, 999999); err != httpx.ErrNotFound {
			t.Errorf("missing: %v", err)
		}
	})
}
