package app_test

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/telemetry"
	"tankwatch/internal/waybill"
	"tankwatch/internal/waybill/live"
)

// wbMapCar is a demo car of group name with two stations of that group.
type wbMapCar struct {
	car, group, depot, dest1, dest2 int64
	depotLng, depotLat              float64
}

func wbMapPick(t *testing.T, e *apptest.Env, group string) wbMapCar {
	t.Helper()
	var c wbMapCar
	if err := e.DB.NewRaw(`SELECT c.id, c.group_id FROM cars AS c JOIN org_groups AS g ON g.id = c.group_id
WHERE g.name = ? ORDER BY c.id LIMIT 1`, group).Scan(t.Context(), &c.car, &c.group); err != nil {
		t.Fatalf("a demo car of %s: %v", group, err)
	}
	var ids []int64
	if err := e.DB.NewRaw(`SELECT id FROM stations ORDER BY id LIMIT 3`).Scan(t.Context(), &ids); err != nil || len(ids) < 3 {
		t.Fatalf("three demo stations: %v %v", ids, err)
	}
	c.depot, c.dest1, c.dest2 = ids[0], ids[1], ids[2]
	if err := e.DB.NewRaw(`SELECT center_lng, center_lat FROM stations WHERE id = ?`, c.depot).Scan(t.Context(), &c.depotLng, &c.depotLat); err != nil {
		t.Fatal(err)
	}
	return c
}

// wbMapInsert stores a waybill of c in state st (rows as the waybill pages would write them).
func wbMapInsert(t *testing.T, e *apptest.Env, c wbMapCar, no string, st waybill.State, departAt, plannedArrive int64) int64 {
	t.Helper()
	now := e.Clock.Now().UnixMilli()
	r := &waybill.Row{GroupID: c.group, No: no, CarID: c.car, DepotID: c.depot, State: st, StateAt: now, DispatchedAt: now - 3_600_000,
		DepartAt: departAt, PlannedArriveAt: plannedArrive, CreatedAt: now, UpdatedAt: now}
	dests := []waybill.Destination{{Seq: 1, StationID: c.dest1}, {Seq: 2, StationID: c.dest2}}
	if err := waybill.Insert(t.Context(), e.DB, r, dests, nil); err != nil {
		t.Fatal(err)
	}
	return r.ID
}

type wbMapResult struct {
	List []struct {
		CarID       int64    `json:"carId"`
		WaybillID   int64    `json:"waybillId"`
		WaybillNo   string   `json:"waybillNo"`
		State       string   `json:"state"`
		NextSeq     int      `json:"nextSeq"`
		NextName    string   `json:"nextName"`
		NextKm      *float64 `json:"nextKm"`
		FinalKm     *float64 `json:"finalKm"`
		EtaAt       *int64   `json:"etaAt"`
		FinalEtaAt  *int64   `json:"finalEtaAt"`
		Late        bool     `json:"late"`
		AvgKmh      float64  `json:"avgKmh"`
		SpeedSource string   `json:"speedSource"`
	} `json:"list"`
	ServerTime int64   `json:"serverTime"`
	DefaultKmh float64 `json:"defaultKmh"`
}

func TestWaybillMap(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		admin := e.Login("admin", "admin123")
		customer := e.Login("customer", "customer123") // 华东分公司, holds 04-42 and 04-43
		east, north := wbMapPick(t, e, "华东分公司"), wbMapPick(t, e, "华北分公司")
		now := e.Clock.Now()
		departAt := now.Add(-40 * time.Minute)

		// the east car left the depot 40 minutes ago and drove north at 0.01° a minute (66.7 km/h) for
		// 30 minutes, then stood 10 minutes
		var reports []telemetry.Report
		lat := east.depotLat
		for i := 0; i <= 40; i++ {
			kmh := uint16(600)
			if i > 30 {
				kmh = 0
			} else if i > 0 {
				lat += 0.01
			}
			at := departAt.Add(time.Duration(i) * time.Minute)
			reports = append(reports, telemetry.Report{CarID: east.car, TerminalID: 1, Time: at, Received: at,
				Lat: int32(math.Round(lat * 1e6)), Lon: int32(math.Round(east.depotLng * 1e6)), Speed: kmh, Status: 3})
		}
		for _, r := range reports {
			if _, err := e.DB.NewRaw(`INSERT INTO positions (car_id, t, terminal_id, received_at, lat, lon, speed) VALUES (?, ?, ?, ?, ?, ?, ?)`,
				r.CarID, r.Time.UnixMilli(), r.TerminalID, r.Received.UnixMilli(), r.Lat, r.Lon, r.Speed).Exec(t.Context()); err != nil {
				t.Fatal(err)
			}
		}
		if err := e.App.Devices.Live.Reload(t.Context()); err != nil { // the live state is not running in tests
			t.Fatal(err)
		}
		e.App.Devices.Live.Apply(reports[len(reports)-1:])

		onWay := wbMapInsert(t, e, east, "WBMAP-E-1", waybill.InTransit, departAt.UnixMilli(), now.Add(time.Minute).UnixMilli())
		wbMapInsert(t, e, north, "WBMAP-N-1", waybill.Dispatched, 0, 0)
		// a finished and a planned waybill are not on the map
		wbMapInsert(t, e, north, "WBMAP-N-0", waybill.Closed, 0, 0)

		var all wbMapResult
		e.MustOK("POST", "/monitor-app/realTimeMoitoring/findCarsByWaybill", admin, map[string]any{}).Decode(&all)
		got := map[string]bool{}
		for _, c := range all.List {
			got[c.WaybillNo] = true
		}
		if !got["WBMAP-E-1"] || !got["WBMAP-N-1"] || got["WBMAP-N-0"] {
			t.Fatalf("admin sees %v, want the two active waybills only", got)
		}

		var mine wbMapResult
		e.MustOK("POST", "/monitor-app/realTimeMoitoring/findCarsByWaybill", customer, map[string]any{}).Decode(&mine)
		if len(mine.List) != 1 || mine.List[0].WaybillID != onWay {
			t.Fatalf("the customer sees %+v, want only 华东's waybill", mine.List)
		}
		c := mine.List[0]
		if c.State != "IN_TRANSIT" || c.SpeedSource != "trip" || math.Abs(c.AvgKmh-66.7) > 0.3 || c.NextSeq != 1 || c.NextName == "" {
			t.Errorf("the trip on its way: %+v", c)
		}
		// the ETA is the remaining distance over the average moving speed, from the server's now
		if c.NextKm == nil || c.EtaAt == nil || c.FinalEtaAt == nil || c.FinalKm == nil || *c.FinalKm < *c.NextKm {
			t.Fatalf("remaining distance and ETA missing: %+v", c)
		}
		wantEta := all.ServerTime + int64(*c.NextKm/c.AvgKmh*3_600_000)
		if d := *c.EtaAt - wantEta; d < -60_000 || d > 60_000 {
			t.Errorf("ETA %d, want about %d", *c.EtaAt, wantEta)
		}
		if c.Late != (*c.FinalEtaAt > now.Add(time.Minute).UnixMilli()) {
			t.Errorf("late marker %v with final ETA %d", c.Late, *c.FinalEtaAt)
		}

		// before departure: the default speed, said so
		var dispatched wbMapResult
		e.MustOK("POST", "/monitor-app/realTimeMoitoring/findCarsByWaybill", admin, map[string]any{"state": "DISPATCHED", "waybillNo": "WBMAP-N"}).Decode(&dispatched)
		if len(dispatched.List) != 1 || dispatched.List[0].SpeedSource != "default" || dispatched.List[0].AvgKmh != live.DefaultKmh {
			t.Errorf("dispatched: %+v", dispatched.List)
		}

		// the car's card: route and track since departure
		var ex struct {
			WaybillNo string `json:"waybillNo"`
			Depot     struct {
				Name string  `json:"name"`
				Lng  float64 `json:"lng"`
			} `json:"depot"`
			Destinations []struct {
				Seq  int    `json:"seq"`
				Name string `json:"name"`
			} `json:"destinations"`
			Track []struct {
				T int64 `json:"t"`
			} `json:"track"`
			SpeedSource string `json:"speedSource"`
		}
		e.MustOK("GET", fmt.Sprintf("/monitor-app/realTimeMoitoring/carExhibitionByWaybill?carId=%d", east.car), customer, nil).Decode(&ex)
		if ex.WaybillNo != "WBMAP-E-1" || ex.Depot.Name == "" || len(ex.Destinations) != 2 || len(ex.Track) != 41 || ex.SpeedSource != "trip" {
			t.Errorf("car card: %+v (track %d points)", ex, len(ex.Track))
		}

		// another group's car is refused; a car without an active waybill says so; bad input names the field
		for _, lang := range []string{"zh-CN", "en-US"} {
			e.Lang = lang
			r := e.Call("GET", fmt.Sprintf("/monitor-app/realTimeMoitoring/carExhibitionByWaybill?carId=%d", north.car), customer, nil)
			if r.Status != 403 {
				t.Errorf("another group's car (%s): %d %s", lang, r.Status, r.Body)
			}
			r = e.Call("POST", "/monitor-app/realTimeMoitoring/findCarsByWaybill", customer, map[string]any{"groupId": north.group})
			if r.Status != 403 {
				t.Errorf("another group (%s): %d %s", lang, r.Status, r.Body)
			}
			r = e.Call("POST", "/monitor-app/realTimeMoitoring/findCarsByWaybill", admin, map[string]any{"state": "CLOSED"})
			want := map[string]string{"zh-CN": "运单状态", "en-US": "Waybill state"}[lang]
			if r.Code == 1 || !strings.Contains(r.Message, want) {
				t.Errorf("a state not on the map (%s): %s", lang, r.Body)
			}
		}
		e.Lang = ""
		if _, err := e.DB.NewRaw("UPDATE waybills SET state = ? WHERE id = ?", int(waybill.Closed), onWay).Exec(t.Context()); err != nil {
			t.Fatal(err)
		}
		r := e.Call("GET", fmt.Sprintf("/monitor-app/realTimeMoitoring/carExhibitionByWaybill?carId=%d", east.car), customer, nil)
		if r.Code == 1 || r.Message != "该车辆当前没有进行中的运单" {
			t.Errorf("no active waybill: %s", r.Body)
		}

		// historyWaybill's list: finished trips of the caller's scope, with the replay window
		type trip struct {
			WaybillNo    string `json:"waybillNo"`
			State        string `json:"state"`
			Destinations string `json:"destinations"`
			StartAt      int64  `json:"startAt"`
			EndAt        int64  `json:"endAt"`
		}
		var hist struct {
			List  []trip `json:"list"`
			Total int    `json:"total"`
		}
		e.MustOK("POST", "/monitor-app/realTimeMoitoring/findWaybillHistory", customer, map[string]any{}).Decode(&hist)
		if hist.Total != 1 || hist.List[0].WaybillNo != "WBMAP-E-1" || hist.List[0].State != "CLOSED" || hist.List[0].Destinations == "" ||
			hist.List[0].StartAt != now.Add(-time.Hour).UnixMilli() || hist.List[0].EndAt < hist.List[0].StartAt {
			t.Errorf("the customer's finished trips: %+v", hist)
		}
		e.MustOK("POST", "/monitor-app/realTimeMoitoring/findWaybillHistory", admin, map[string]any{"waybillNo": "WBMAP"}).Decode(&hist)
		if hist.Total != 2 {
			t.Errorf("admin's finished trips: %+v", hist)
		}
		day := func(d time.Time) string { return d.In(time.FixedZone("CST", 8*3600)).Format("2006-01-02 15:04:05") }
		e.MustOK("POST", "/monitor-app/realTimeMoitoring/findWaybillHistory", admin, map[string]any{"waybillNo": "WBMAP",
			"startTime": day(now.Add(24 * time.Hour)), "endTime": day(now.Add(48 * time.Hour))}).Decode(&hist)
		if hist.Total != 0 {
			t.Errorf("a range without trips: %+v", hist)
		}
		if r := e.Call("POST", "/monitor-app/realTimeMoitoring/findWaybillHistory", customer, map[string]any{"carId": north.car}); r.Status != 403 {
			t.Errorf("another group's car in the history: %d %s", r.Status, r.Body)
		}
		if r := e.Call("POST", "/monitor-app/realTimeMoitoring/findWaybillHistory", admin, map[string]any{"state": "IN_TRANSIT"}); r.Code == 1 {
			t.Errorf("an active state in the history: %s", r.Body)
		}
	})
}
