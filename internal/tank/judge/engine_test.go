package judge_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/fleet"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/tank"
	"tankwatch/internal/tank/judge"
	"tankwatch/internal/telemetry"
)

// demoCar is a demo car of group (by name).
func demoCar(t *testing.T, e *apptest.Env, group string) fleet.LiveCar {
	t.Helper()
	cars, err := e.App.Fleet.LiveCars(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cars {
		if strings.Contains(c.GroupName, group) || group == "" {
			return c
		}
	}
	t.Fatalf("no demo car in %s", group)
	return fleet.LiveCar{}
}

// drain is a parked car away from every fence whose compartment 1 loses 400 L through an opened
// discharge valve: a report every 10 s for 30 min.
func drain(car fleet.LiveCar, t0 time.Time) []telemetry.Report {
	var out []telemetry.Report
	for s := 0; s <= 1800; s += 10 {
		st := &tank.State{Compartments: car.Compartments}
		for c := range car.Compartments {
			for k := range tank.Kinds {
				st.Devices[c][k] = tank.DevInstalled | tank.DevLocked
			}
		}
		vol := 8000.0
		switch {
		case s > 300 && s <= 600:
			vol = 8000 - float64(s-300)*400/300
			st.Devices[0][tank.DischargeValve] = tank.DevInstalled | tank.DevOpen
		case s > 600:
			vol = 7600
		}
		l := &tank.Levels{N: car.Compartments}
		for c := range car.Compartments {
			l.Probes[c] = tank.Level{Compartment: uint8(c + 1), LevelMM: 1000, VolumeL: 5000, TempDeci: 200}
		}
		l.Probes[0].VolumeL, l.Probes[0].LevelMM = uint32(vol), uint16(vol/5)
		at := t0.Add(time.Duration(s) * time.Second)
		// far from any demo place (the middle of the Gobi)
		out = append(out, telemetry.Report{CarID: car.ID, TerminalID: car.TerminalID, Time: at, Received: at,
			Lat: 42_000_000, Lon: 100_000_000, Tank: st, Levels: l})
	}
	return out
}

func TestEngineStoresEventsAndValveChanges(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		ctx := context.Background()
		if err := e.App.Stations.Load(ctx); err != nil {
			t.Fatal(err)
		}
		eng := e.App.TankJudge.Engine
		if err := eng.Warm(ctx); err != nil {
			t.Fatal(err)
		}
		admin := e.Login("admin", "admin123")
		groups := e.Groups(admin)
		car := demoCar(t, e, "上海")
		t0 := e.Clock.Now()
		reports := drain(car, t0)
		for i := 0; i < len(reports); i += 7 { // batches as the writer commits them
			eng.Evaluate(ctx, reports[i:min(i+7, len(reports))])
		}
		var page httpx.Page[judge.EventView]
		e.MustOK("POST", "/monitor-app/carEventRecord/page", admin, map[string]any{"carId": car.ID, "pageSize": 50}).Decode(&page)
		kinds := map[string]judge.EventView{}
		for _, v := range page.List {
			kinds[v.Kind] = v
		}
		th, ok := kinds[judge.KindTheft]
		if page.Total != 2 || !ok || kinds[judge.KindValveOpen].End == 0 {
			t.Fatalf("events %+v", page.List)
		}
		if loss := th.Before - th.After; loss < 360 || loss > 440 || th.StationID != 0 || th.Compartment != 1 || th.Plate != car.Plate {
			t.Errorf("theft %+v", th)
		}
		if v := kinds[judge.KindValveOpen]; v.Device != tank.DischargeValve || v.DeviceName != "卸油阀" || v.End-v.Start != 300_000 {
			t.Errorf("valve episode %+v", v)
		}
		// filters
		var none httpx.Page[judge.EventView]
		e.MustOK("POST", "/monitor-app/carEventRecord/page", admin, map[string]any{"carId": car.ID, "kind": "load"}).Decode(&none)
		if none.Total != 0 {
			t.Errorf("kind filter: %+v", none.List)
		}
		if r := e.Call("POST", "/monitor-app/carEventRecord/page", admin, map[string]any{"kind": "nonsense"}); r.Code != 0 || r.Message != "事件类型格式不正确" {
			t.Errorf("bad kind accepted: %s", r.Body)
		}
		// every device change, with place
		var valves httpx.Page[judge.ValveView]
		e.MustOK("POST", "/base-info-app/AllDataValveStates/getAllDataValveStatesPage", admin,
			map[string]any{"carId": car.ID, "deviceKind": tank.DischargeValve}).Decode(&valves)
		if valves.Total != 2 || valves.List[0].StateText != "关闭 · 上锁" || valves.List[1].StateText != "打开" || valves.List[0].Lat != 42 {
			t.Fatalf("valve changes %+v", valves.List)
		}
		// judging the same reports again (a catch-up overlapping the queue) stores nothing twice
		eng2 := judge.NewEngine(judge.Deps{DB: e.DB, Cars: e.App.Fleet}, judge.EngineConfig{}, nil)
		if err := eng2.Warm(ctx); err != nil {
			t.Fatal(err)
		}
		eng2.Evaluate(ctx, reports)
		e.MustOK("POST", "/base-info-app/AllDataValveStates/getAllDataValveStatesPage", admin,
			map[string]any{"carId": car.ID, "deviceKind": tank.DischargeValve}).Decode(&valves)
		if valves.Total != 2 {
			t.Errorf("valve changes stored twice: %d", valves.Total)
		}
		// export
		r := e.Call("POST", "/monitor-app/carEventRecord/export", admin, map[string]any{"carId": car.ID})
		if rows := sheet(t, r); len(rows) != 3 || rows[0][0] != "车牌号" {
			t.Errorf("export rows %v", rows)
		}
		r = e.Call("POST", "/base-info-app/AllDataValveStates/export", admin, map[string]any{"carId": car.ID})
		if rows := sheet(t, r); len(rows) < 3 {
			t.Errorf("valve export rows %v", rows)
		}
		// scope: a 华北 user sees neither the car nor its events
		role := e.MustOK("POST", "/authority-app/roleInfo/insert", admin, map[string]any{"name": "事件查看", "groupId": groups["华北分公司"],
			"resourceCodes": []string{judge.PageCode}}).ID()
		e.MustOK("POST", "/authority-app/userInfo/insert", admin, map[string]any{"name": "northevents", "password": "secret1",
			"groupId": groups["华北分公司"], "roleIds": []int64{role}})
		north := e.Login("northevents", "secret1")
		if r := e.Call("POST", "/monitor-app/carEventRecord/page", north, map[string]any{"carId": car.ID}); r.Status != 403 {
			t.Errorf("another group's car: %d %s", r.Status, r.Body)
		}
		if r := e.Call("POST", "/base-info-app/AllDataValveStates/getAllDataValveStatesPage", north, map[string]any{"carId": car.ID}); r.Status != 403 {
			t.Errorf("another group's car (valves): %d %s", r.Status, r.Body)
		}
		var mine httpx.Page[judge.EventView]
		e.MustOK("POST", "/monitor-app/carEventRecord/page", north, map[string]any{}).Decode(&mine)
		if mine.Total != 0 {
			t.Errorf("华北 sees 华东's events: %+v", mine.List)
		}
		// without the page's permission
		if r := e.Call("POST", "/monitor-app/carEventRecord/page", e.Login("customer", "customer123"), map[string]any{}); r.Status != 403 {
			t.Errorf("no permission: %d", r.Status)
		}
	})
}

// TestEngineCatchesUpAfterOverflow: batches that do not fit the queue are not lost: the cars are
// read back from the store (positions and tank_states) and judged in order.
func TestEngineCatchesUpAfterOverflow(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		ctx := context.Background()
		car := demoCar(t, e, "")
		eng := judge.NewEngine(judge.Deps{DB: e.DB, Cars: e.App.Fleet}, judge.EngineConfig{Queue: 1}, nil)
		if err := eng.Warm(ctx); err != nil {
			t.Fatal(err)
		}
		reports := drain(car, e.Clock.Now())
		// the writer committed them (the store has them) ...
		commit(t, e, reports)
		// ... but the engine's queue takes only the first batch
		eng.Enqueue(reports[:1])
		eng.Enqueue(reports[1:])
		if _, ov, _, _ := eng.Stats(); ov != 1 {
			t.Fatalf("overflows %d", ov)
		}
		if err := eng.CatchUp(ctx); err != nil {
			t.Fatal(err)
		}
		n, err := e.DB.NewSelect().TableExpr("car_tank_events").Where("car_id = ? AND kind = ?", car.ID, judge.KindTheft).Count(ctx)
		if err != nil || n != 1 {
			t.Fatalf("theft after catch-up: %d %v", n, err)
		}
		if _, _, cu, _ := eng.Stats(); cu != int64(len(reports)) {
			t.Errorf("caught up %d of %d", cu, len(reports))
		}
	})
}

// commit stores reports as the writer does (positions and tank_states), without judging them.
func commit(t *testing.T, e *apptest.Env, reports []telemetry.Report) {
	t.Helper()
	ctx := context.Background()
	for _, r := range reports {
		at := r.Time.UnixMilli()
		if _, err := e.DB.NewRaw("INSERT INTO positions (car_id, t, terminal_id, received_at, lat, lon, speed) VALUES (?, ?, ?, ?, ?, ?, ?)",
			r.CarID, at, r.TerminalID, at, r.Lat, r.Lon, r.Speed).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := e.DB.NewRaw("INSERT INTO tank_states (car_id, t, terminal_id, lock_state, seal, levels) VALUES (?, ?, ?, ?, 0, ?)",
			r.CarID, at, r.TerminalID, tank.LockString(r.Tank), telemetry.LevelsText(r.Levels)).Exec(ctx); err != nil {
			t.Fatal(err)
		}
	}
}

// TestEngineCatchUpKeepsWhatFailed: a catch-up pass or a store that fails loses nothing. The store
// fails for reading (a table gone) during a pass over two cars behind: both stay behind and are judged
// by the next pass. It fails for writing while a batch and a read-back are judged: what they found is
// stored by the next pass, once, and the cars' later reports wait for it.
func TestEngineCatchUpKeepsWhatFailed(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		ctx := context.Background()
		live, err := e.App.Fleet.LiveCars(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var cars []fleet.LiveCar
		for _, c := range live {
			if c.Compartments > 0 && len(cars) < 2 {
				cars = append(cars, c)
			}
		}
		if len(cars) < 2 {
			t.Fatalf("demo cars with compartments: %d", len(cars))
		}
		a, b := cars[0], cars[1]
		eng := judge.NewEngine(judge.Deps{DB: e.DB, Cars: e.App.Fleet}, judge.EngineConfig{Queue: 1}, nil)
		if err := eng.Warm(ctx); err != nil {
			t.Fatal(err)
		}
		rename := func(from, to string) {
			t.Helper()
			if _, err := e.DB.ExecContext(ctx, "ALTER TABLE "+from+" RENAME TO "+to); err != nil {
				t.Fatal(err)
			}
		}
		eventsOf := func(car fleet.LiveCar, kind any) int {
			t.Helper()
			n, err := e.DB.NewSelect().TableExpr("car_tank_events").Where("car_id = ? AND kind = ?", car.ID, kind).Count(ctx)
			if err != nil {
				t.Fatal(err)
			}
			return int(n)
		}
		thefts := func(car fleet.LiveCar) int { t.Helper(); return eventsOf(car, judge.KindTheft) }
		t0 := e.Clock.Now()
		ra, rb := drain(a, t0), drain(b, t0)
		commit(t, e, ra)
		commit(t, e, rb)
		// both cars overflow the queue
		eng.Enqueue(ra[:1])
		eng.Enqueue(append(append([]telemetry.Report{}, ra[1:]...), rb...))
		// the pass cannot read the store: whichever car it takes first fails, neither is lost
		rename("positions", "positions_gone")
		if err := eng.CatchUp(ctx); err == nil {
			t.Fatal("catch-up without positions succeeded")
		}
		rename("positions_gone", "positions")
		if n := eng.Behind(); n != 2 {
			t.Errorf("%d cars behind after a failed pass, want 2", n)
		}
		if err := eng.CatchUp(ctx); err != nil {
			t.Fatal(err)
		}
		if na, nb := thefts(a), thefts(b); na != 1 || nb != 1 {
			t.Fatalf("thefts after the failed pass and the next: %d and %d, want 1 each", na, nb)
		}

		// an hour later both drain again; the store takes no event meanwhile: car a's batch comes
		// through the queue, car b's overflows and is read back
		t1 := t0.Add(time.Hour)
		ra, rb = drain(a, t1), drain(b, t1)
		commit(t, e, ra)
		commit(t, e, rb)
		rename("car_tank_events", "car_tank_events_gone")
		half := len(ra) / 2
		eng.Evaluate(ctx, ra[:half])
		eng.Enqueue(ra[half : half+1]) // fills the queue: car a's next reports overflow
		eng.Enqueue(ra[half+1:])
		eng.Enqueue(rb)
		if err := eng.CatchUp(ctx); err == nil {
			t.Fatal("catch-up without car_tank_events succeeded")
		}
		rename("car_tank_events_gone", "car_tank_events")
		if n := eng.Behind(); n != 2 {
			t.Errorf("%d cars behind with events not stored, want 2", n)
		}
		for range 3 { // a pass may stop at more to read; three are plenty for 181 reports a car
			if err := eng.CatchUp(ctx); err != nil {
				t.Fatal(err)
			}
		}
		if n := eng.Behind(); n != 0 {
			t.Errorf("%d cars still behind", n)
		}
		if na, nb := thefts(a), thefts(b); na != 2 || nb != 2 {
			t.Errorf("thefts after the store came back: %d and %d, want 2 each", na, nb)
		}
		valveOpens := func(car fleet.LiveCar) int { t.Helper(); return eventsOf(car, judge.KindValveOpen) }
		if na, nb := valveOpens(a), valveOpens(b); na != 2 || nb != 2 {
			t.Errorf("valve openings: %d and %d, want 2 each", na, nb)
		}
	})
}

func sheet(t *testing.T, r *apptest.Resp) [][]string {
	t.Helper()
	if r.Status != 200 {
		t.Fatalf("export: %d %s", r.Status, r.Body)
	}
	x, err := excelize.OpenReader(bytes.NewReader(r.Body))
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	rows, err := x.GetRows(x.GetSheetName(0))
	if err != nil {
		t.Fatal(err)
	}
	return rows
}
