package app_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/tank"
	"tankwatch/internal/tank/cockpit"
	"tankwatch/internal/telemetry"
)

// TestCockpitSummaryScopeAndPermission: the cockpit summary needs a token and 04-04; a subsidiary's
// user sees only its own cars (counts, ids, compartments), the administrator sees every car.
func TestCockpitSummaryScopeAndPermission(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		ctx := context.Background()
		if err := e.App.Devices.Live.Load(ctx); err != nil {
			t.Fatal(err)
		}
		if err := e.App.Alarms.Service.Load(ctx); err != nil {
			t.Fatal(err)
		}
		const path = "/monitor-app/cockpit/summary"
		admin := e.Login("admin", "admin123")
		groups := e.Groups(admin)
		east := groups["华东分公司"]
		role := e.MustOK("POST", "/authority-app/roleInfo/insert", admin, map[string]any{"name": "华东驾驶舱", "groupId": east,
			"resourceCodes": []string{"04", cockpit.Code}}).ID()
		e.MustOK("POST", "/authority-app/userInfo/insert", admin, map[string]any{"name": "eastwall", "password": "secret1", "groupId": east, "roleIds": []int64{role}})
		other := e.MustOK("POST", "/authority-app/roleInfo/insert", admin, map[string]any{"name": "仅监控", "groupId": east, "resourceCodes": []string{"04", "04-01"}}).ID()
		e.MustOK("POST", "/authority-app/userInfo/insert", admin, map[string]any{"name": "eastmon", "password": "secret1", "groupId": east, "roleIds": []int64{other}})

		if r := e.Call("POST", path, "", map[string]any{}); r.Status != 401 {
			t.Fatalf("no token: %d", r.Status)
		}
		if r := e.Call("POST", path, e.Login("eastmon", "secret1"), map[string]any{}); r.Status != 403 {
			t.Fatalf("without 04-04: %d %s", r.Status, r.Body)
		}

		// every car by group: the east ones, and one of another group
		type carRow struct {
			CarID int64 `json:"carId"`
		}
		var all httpx.Page[carRow]
		e.MustOK("POST", "/monitor-app/realTimeMoitoring/findCars", admin, map[string]any{"pageSize": 500}).Decode(&all)
		var eastCar, otherCar int64
		eastIDs := map[int64]bool{}
		var mine httpx.Page[carRow]
		e.MustOK("POST", "/monitor-app/realTimeMoitoring/findCars", admin, map[string]any{"pageSize": 500, "groupId": east}).Decode(&mine)
		for _, c := range mine.List {
			eastIDs[c.CarID] = true
			eastCar = c.CarID
		}
		for _, c := range all.List {
			if !eastIDs[c.CarID] {
				otherCar = c.CarID
			}
		}
		if eastCar == 0 || otherCar == 0 {
			t.Fatalf("demo cars: east %d other %d", eastCar, otherCar)
		}
		// both report levels (two compartments each) and a full load
		lv := &tank.Levels{N: 2}
		lv.Probes[0] = tank.Level{Compartment: 1, LevelMM: 1200, VolumeL: 9000, TempDeci: 150}
		lv.Probes[1] = tank.Level{Compartment: 2, LevelMM: 1100, VolumeL: 8000, TempDeci: 150}
		now := e.Clock.Now()
		e.App.Devices.Live.Apply([]telemetry.Report{
			{CarID: eastCar, TerminalID: 1, Time: now, Received: now, Lat: 31_000_000, Lon: 121_000_000, Status: 3 << 8, Levels: lv},
			{CarID: otherCar, TerminalID: 2, Time: now.Add(time.Second), Received: now, Lat: 39_000_000, Lon: 116_000_000, Status: 3 << 8, Levels: lv},
		})

		insertAlarm(t, e, eastCar) // speeding: not a tank alarm
		tankAlarm := func(carID int64, at time.Time) int64 {
			id := insertAlarm(t, e, carID)
			if _, err := e.DB.NewRaw("UPDATE alarms SET type_code = 'lockOpened', start_at = ? WHERE id = ?", at.UnixMilli(), id).Exec(ctx); err != nil {
				t.Fatal(err)
			}
			return id
		}
		eastOld := tankAlarm(eastCar, now.Add(-72*time.Hour)) // open, though old
		eastNew := tankAlarm(eastCar, now.Add(-time.Hour))
		tankAlarm(otherCar, now.Add(-time.Minute))

		var sum cockpit.Summary
		e.MustOK("POST", path, e.Login("eastwall", "secret1"), map[string]any{}).Decode(&sum)
		if sum.Trucks.Total != len(mine.List) {
			t.Fatalf("east sees %d trucks, has %d", sum.Trucks.Total, len(mine.List))
		}
		for _, ids := range sum.Trucks.IDs {
			for _, id := range ids {
				if !eastIDs[id] {
					t.Fatalf("east sees car %d of another group", id)
				}
			}
		}
		// volumes through the demo compartments' strapping tables (tankInfo), as ingest converts them
		volume := func(carID int64) float64 {
			v := 0.0
			for _, r := range e.App.TankCatalog.Convert(carID, lv) {
				v += r.VolumeL
			}
			return v
		}
		near := func(a, b float64) bool { return a-b < 0.5 && b-a < 0.5 }
		if !slices.Contains(sum.Trucks.IDs[cockpit.TruckLoaded], eastCar) || sum.Compartments.Total != 2 || !near(sum.Compartments.Volume, volume(eastCar)) {
			t.Fatalf("east summary: %+v %+v", sum.Trucks.IDs, sum.Compartments)
		}
		if len(sum.Alarms.List) != 2 || sum.Alarms.List[0].ID != eastNew || sum.Alarms.List[1].ID != eastOld ||
			sum.Alarms.Open != 2 || sum.Alarms.Recent != 1 || sum.Alarms.List[0].TypeName == "" {
			t.Fatalf("east alarms: %+v", sum.Alarms)
		}
		if !sum.StationTanks.Available {
			t.Fatal("station tanks not available though the gauge collector is wired")
		}
		// a group outside the caller's subtree is refused
		if r := e.Call("POST", path, e.Login("eastwall", "secret1"), map[string]any{"groupId": groups["华北分公司"]}); r.Status != 403 {
			t.Fatalf("another subtree's group: %d %s", r.Status, r.Body)
		}

		var whole cockpit.Summary
		e.MustOK("POST", path, admin, map[string]any{}).Decode(&whole)
		if whole.Trucks.Total != len(all.List) || whole.Compartments.Total != 4 || !near(whole.Compartments.Volume, volume(eastCar)+volume(otherCar)) {
			t.Fatalf("admin summary: total %d of %d, %+v", whole.Trucks.Total, len(all.List), whole.Compartments)
		}
		if whole.Alarms.Open != 3 || len(whole.Alarms.List) != 3 {
			t.Fatalf("admin alarms: %+v", whole.Alarms)
		}
		n := 0
		for _, c := range whole.Trucks.Counts {
			n += c
		}
		if n != whole.Trucks.Total {
			t.Fatalf("states do not partition the trucks: %v", whole.Trucks.Counts)
		}
		if r := e.Call("POST", path, admin, `{"groupId":-1}`); r.Status == 200 && r.Success != 0 {
			t.Fatalf("negative group accepted: %s", r.Body)
		}
	})
}
