package cockpit

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"tankwatch/internal/alarm"
	"tankwatch/internal/fleet"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
	"tankwatch/internal/tank"
	"tankwatch/internal/telemetry"
)

type fakeCars map[int64]telemetry.CarState

func (f fakeCars) FindCarIDs(_ context.Context, p *httpx.Principal, _ telemetry.LiveFindQuery) ([]int64, error) {
	var out []int64
	for id, c := range f {
		if strings.HasPrefix(c.GroupPath, p.GroupPath) {
			out = append(out, id)
		}
	}
	return out, nil
}

func (f fakeCars) Car(id int64) (telemetry.CarState, bool) { c, ok := f[id]; return c, ok }

type fakeScopes struct{}

func (fakeScopes) LiveGroupPath(_ context.Context, p *httpx.Principal, _ int64) (string, error) {
	return p.GroupPath, nil
}

// fakeFences: a depot around lat 1, a station around lat 2 (named only inside /1/).
type fakeFences struct{}

func (fakeFences) FenceAt(gp string, lat, _ int32) (int64, string, string, bool) {
	switch lat / 1_000_000 {
	case 1:
		return 10, "油库A", "yk", true
	case 2:
		return 20, "加油站B", "jyz", true
	}
	return 0, "", "", false
}

type fakeGround struct {
	rows []tank.GroundStatus
	err  error
}

func (g fakeGround) GroundStatuses(_ context.Context, path string) ([]tank.GroundStatus, error) {
	return g.rows, g.err
}

type fakeAlarms struct{ open, recent []alarm.View }

func (f fakeAlarms) FindSome(_ context.Context, _ *httpx.Principal, _ i18n.Lang, q alarm.Query) (httpx.Page[alarm.View], error) {
	if len(q.Types) != len(AlarmTypes) {
		return httpx.Page[alarm.View]{}, errors.New("not the tank types")
	}
	rows := f.recent
	if len(q.States) > 0 {
		rows = f.open
	}
	return httpx.Page[alarm.View]{List: rows, Total: len(rows)}, nil
}

func (fakeAlarms) Types(i18n.Lang) []alarm.TypeView {
	var out []alarm.TypeView
	for _, c := range append([]string{alarm.CodeSpeeding}, AlarmTypes...) {
		out = append(out, alarm.TypeView{Type: alarm.Type{Code: c}})
	}
	return out
}

func car(id int64, path string, online bool, lat int32, vols []uint32, lock func(*tank.State)) telemetry.CarState {
	c := telemetry.CarState{LiveCar: fleet.LiveCar{ID: id, Plate: "京A" + string(rune('0'+id)), GroupPath: path, Compartments: len(vols)},
		Reported: true, Online: online, Lat: lat, Lon: 116_000_000, LevelTime: time.UnixMilli(1_000_000)}
	for i, v := range vols {
		c.Levels = append(c.Levels, tank.Level{Compartment: uint8(i + 1), LevelMM: 1000, VolumeL: v, TempDeci: 200})
	}
	if lock != nil {
		st := tank.State{Compartments: len(vols)}
		lock(&st)
		c.LockState = tank.LockString(&st)
	}
	return c
}

func TestSummary(t *testing.T) {
	valve := func(st *tank.State) { st.Devices[0][tank.DischargeValve] = tank.DevInstalled | tank.DevOpen }
	cars := fakeCars{
		1: car(1, "/1/2/", true, 2_000_100, []uint32{5000, 3000}, valve), // unloading in station B
		2: car(2, "/1/2/", true, 1_000_100, []uint32{100, 0}, valve),     // loading in depot A
		3: car(3, "/1/3/", true, 30_000_000, []uint32{9500, 9500}, nil),  // loaded on the road
		4: car(4, "/1/3/", false, 30_000_000, []uint32{0, 200}, nil),     // empty, offline
		5: car(5, "/9/", true, 30_000_000, []uint32{9500, 9500}, nil),    // another company's
	}
	cat := tank.NewCatalog()
	for id := range int64(6) {
		cat.Set(id, []tank.Compartment{{CarID: id, No: 1, CapacityL: 10000}, {CarID: id, No: 2, CapacityL: 10000}})
	}
	cat.Set(4, []tank.Compartment{{CarID: 4, No: 1, CapacityL: 10000}}) // compartment 2 unlisted
	now := time.UnixMilli(1_060_000)
	ground := fakeGround{rows: []tank.GroundStatus{
		{TankID: 1, StationName: "B", TankNo: 1, CapacityL: 30000, At: 1, VolumeL: 27000, FillPct: 90, DaysOfCover: 9, GaugeState: tank.GaugeOnline},
		{TankID: 2, StationName: "B", TankNo: 2, CapacityL: 30000, At: 1, VolumeL: 3000, FillPct: 10, DaysOfCover: 2, GaugeState: tank.GaugeOnline, LowStock: true, LowCover: true},
		{TankID: 3, StationName: "C", TankNo: 1, CapacityL: 20000, At: 1, VolumeL: 4000, FillPct: 20, DaysOfCover: 0.5, GaugeState: tank.GaugeGarbage, LowCover: true},
		{TankID: 4, StationName: "C", TankNo: 2, CapacityL: 20000, At: 0, DaysOfCover: -1, GaugeState: tank.GaugeOffline},
	}}
	al := fakeAlarms{
		open:   []alarm.View{{ID: 1, CarID: 1, Plate: "京A1", Type: alarm.CodeLockOpened, StartTime: 500, Lng: alarm.Coord{Deg: 116, Valid: true}, Lat: alarm.Coord{Deg: 2.0001, Valid: true}}},
		recent: []alarm.View{{ID: 2, CarID: 3, StartTime: 900}, {ID: 1, CarID: 1, StartTime: 500}},
	}
	s := New(Deps{Cars: cars, Catalog: cat, Fences: fakeFences{}, Alarms: al, Scopes: fakeScopes{}, Ground: ground})
	s.Now = func() time.Time { return now }
	p := &httpx.Principal{GroupPath: "/1/"}

	sum, err := s.Summary(context.Background(), p, i18n.ZhCN, Query{})
	if err != nil {
		t.Fatal(err)
	}
	tr := sum.Trucks
	if tr.Total != 4 || tr.Online != 3 {
		t.Fatalf("total %d online %d", tr.Total, tr.Online)
	}
	want := map[string]int{TruckUnloading: 1, TruckLoading: 1, TruckLoaded: 1, TruckEmpty: 1, TruckUnknown: 0} // car 4: a capacity missing, status bits say empty
	for k, v := range want {
		if tr.Counts[k] != v {
			t.Errorf("%s: %d, want %d (%v)", k, tr.Counts[k], v, tr.Counts)
		}
	}
	if len(tr.IDs[TruckUnloading]) != 1 || tr.IDs[TruckUnloading][0] != 1 || tr.IDs[TruckEmpty][0] != 4 {
		t.Errorf("ids %v", tr.IDs)
	}
	if len(tr.Active) != 2 || tr.Active[0].State != TruckLoading || tr.Active[0].StationName != "油库A" || tr.Active[1].StationName != "加油站B" {
		t.Errorf("active %+v", tr.Active)
	}
	c := sum.Compartments
	if c.Total != 8 || c.Known != 7 || c.Stale != 2 || c.Cars != 4 || c.Volume != 5000+3000+100+9500+9500+200 || c.Capacity != 70000 {
		t.Errorf("compartments %+v", c)
	}
	bands := map[string]int{}
	for _, b := range c.Bands {
		bands[b.Band] = b.Count
	}
	if bands[BandEmpty] != 3 || bands[BandLow] != 1 || bands[BandMid] != 1 || bands[BandHigh] != 2 || bands[BandUnknown] != 1 {
		t.Errorf("bands %v", bands)
	}
	g := sum.StationTanks
	if !g.Available || g.Total != 4 || g.LowStock != 1 || g.LowCover != 2 || g.Gauges[tank.GaugeOnline] != 2 || g.Gauges[tank.GaugeGarbage] != 1 || g.Gauges[tank.GaugeOffline] != 1 {
		t.Errorf("ground %+v", g)
	}
	if len(g.Low) != 2 || g.Low[0].TankID != 3 || g.Low[1].TankID != 2 {
		t.Errorf("low not by days of cover: %+v", g.Low)
	}
	if g.Tanks[0].TankID != 3 || g.Tanks[2].TankID != 1 || g.Tanks[3].TankID != 4 {
		t.Errorf("tanks order %v %v %v %v", g.Tanks[0].TankID, g.Tanks[1].TankID, g.Tanks[2].TankID, g.Tanks[3].TankID)
	}
	gb := map[string]int{}
	for _, b := range g.Bands {
		gb[b.Band] = b.Count
	}
	if gb[BandHigh] != 1 || gb[BandLow] != 2 || gb[BandUnknown] != 1 {
		t.Errorf("ground bands %v", gb)
	}
	a := sum.Alarms
	if a.Open != 1 || a.Recent != 2 || len(a.List) != 2 || a.List[0].ID != 2 || a.List[1].Place != "加油站B" {
		t.Errorf("alarms %+v", a)
	}

	// the volume falls between two summaries: the trend is known and the rate is given
	c1 := cars[1]
	c1.LevelTime = time.UnixMilli(1_040_000)
	c1.Levels[0].VolumeL = 4000
	cars[1] = c1
	// within MemoFor the same scope gets the same summary; after it, a new one
	now = now.Add(time.Second)
	if again, _ := s.Summary(context.Background(), p, i18n.ZhCN, Query{}); again != sum {
		t.Error("not served from the memo within MemoFor")
	}
	if other, _ := s.Summary(context.Background(), p, i18n.EnUS, Query{}); other == sum {
		t.Error("another language served the memo")
	}
	now = now.Add(MemoFor)
	sum, _ = s.Summary(context.Background(), p, i18n.ZhCN, Query{})
	for _, a := range sum.Trucks.Active {
		if a.CarID == 1 && (a.Rate == nil || *a.Rate != -1500) {
			t.Errorf("unloading rate %v", a.Rate)
		}
	}

	// a narrower scope sees only its cars
	sum, _ = s.Summary(context.Background(), &httpx.Principal{GroupPath: "/1/3/"}, i18n.ZhCN, Query{})
	if sum.Trucks.Total != 2 || sum.Trucks.Counts[TruckLoaded] != 1 || len(sum.Trucks.Active) != 0 {
		t.Errorf("subsidiary: %+v", sum.Trucks)
	}

	// without a gauge collector: not available, and nothing invented
	s2 := New(Deps{Cars: cars, Catalog: cat, Fences: fakeFences{}, Scopes: fakeScopes{}})
	sum, err = s2.Summary(context.Background(), p, i18n.ZhCN, Query{})
	if err != nil || sum.StationTanks.Available || sum.StationTanks.Total != 0 || len(sum.StationTanks.Bands) != len(Bands) {
		t.Errorf("no ground: %+v %v", sum.StationTanks, err)
	}
	// a failing source is an error, not an empty panel
	s3 := New(Deps{Cars: cars, Scopes: fakeScopes{}, Ground: fakeGround{err: errors.New("down")}})
	if _, err := s3.Summary(context.Background(), p, i18n.ZhCN, Query{}); err == nil {
		t.Error("ground error swallowed")
	}
	if _, err := s.Summary(context.Background(), p, i18n.ZhCN, Query{GroupID: -1}); err == nil {
		t.Error("negative group accepted")
	}
}

func TestObserve(t *testing.T) {
	s := New(Deps{})
	lv := &tank.Levels{N: 2}
	lv.Probes[0] = tank.Level{Compartment: 1, VolumeL: 5000}
	lv.Probes[1] = tank.Level{Compartment: 2, VolumeL: 1000}
	s.Observe([]telemetry.Report{{CarID: 7, Time: time.UnixMilli(100_000), Levels: lv}, {CarID: 0, Levels: lv}, {CarID: 8}})
	lv2 := *lv
	lv2.Probes[0].VolumeL = 4000
	s.Observe([]telemetry.Report{{CarID: 7, Time: time.UnixMilli(160_000), Levels: &lv2}})
	if tr, rate := s.trend.trend(7, 160_000); tr != TrendFalling || rate != -1000 {
		t.Fatalf("trend %d %v", tr, rate)
	}
	// the writer's own readings win over the probe volumes
	s.Observe([]telemetry.Report{{CarID: 7, Time: time.UnixMilli(220_000), Levels: &lv2, Readings: []tank.Reading{{VolumeL: 9000}}}})
	if tr, _ := s.trend.trend(7, 220_000); tr != TrendRising {
		t.Fatalf("readings not used: %d", tr)
	}
}
