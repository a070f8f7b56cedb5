package telemetry_test

import (
	"fmt"
	"net/url"
	"testing"
	"time"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/telemetry"
)

const trackPath = "/monitor-app/realTimeMoitoring/track"

func trackQuery(carID int64, from, to string) string {
	return trackPath + "?" + url.Values{"carId": {fmt.Sprint(carID)}, "startTime": {from}, "endTime": {to}}.Encode()
}

// TestTrackReplay stores an hour of 沪A·6N337 (a drive, a 3-minute stop, an alarm, a position without
// fix, a 1-minute halt) and replays it over HTTP.
func TestTrackReplay(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		he := newHistEnv(t, e, 0)
		car := he.eastCar
		t0 := base.Add(-time.Hour)
		at := func(min int, speedDeci uint16, lat, lon int32) telemetry.Report {
			tm := t0.Add(time.Duration(min) * time.Minute)
			return telemetry.Report{TerminalID: car.TerminalID, CarID: car.ID, Phone: car.Phone, Received: tm, Time: tm,
				Lat: lat, Lon: lon, Speed: speedDeci, Direction: 45, Status: 3, Mileage: uint32(1000 + min), HasMileage: true}
		}
		const lat, lon = 31_230_416, 121_473_701
		alarm := at(5, 300, lat+500, lon+500)
		alarm.Alarm = 1<<1 | 1<<16
		he.store(t, []telemetry.Report{
			at(-1, 500, lat, lon), // before the range
			at(0, 500, lat-1000, lon-1000),
			at(1, 0, lat, lon), at(2, 5, lat, lon), at(3, 9, lat, lon), at(4, 0, lat, lon), // a stop of 3 minutes
			alarm,
			at(6, 0, 0, 0),                                 // no fix: left out
			at(7, 0, lat+900, lon), at(8, 0, lat+900, lon), // a halt of 1 minute
			at(9, 600, lat+2000, lon),
		}, nil)
		from, to := shTime(t0), shTime(t0.Add(30*time.Minute))
		customer := he.Login("customer", "customer123") // 04-45 and 04-01

		var tr telemetry.TrackReplay
		he.MustOK("GET", trackQuery(car.ID, from, to), customer, nil).Decode(&tr)
		if tr.CarID != car.ID || tr.Plate != "沪A·6N337" || tr.Truncated || len(tr.Points) != 9 {
			t.Fatalf("replay: %+v", tr)
		}
		first, last := tr.Points[0], tr.Points[8]
		if first.Time.String() != from || first.Lat != 31.229416 || first.Lng != 121.472701 || first.Speed != 50 ||
			first.Direction != 45 || first.Status != 3 || first.Mileage == nil || *first.Mileage != 100 ||
			last.Time.String() != shTime(t0.Add(9*time.Minute)) || last.Speed != 60 {
			t.Fatalf("points: %+v … %+v", first, last)
		}
		for i := 1; i < len(tr.Points); i++ {
			if tr.Points[i].Time <= tr.Points[i-1].Time || tr.Points[i].Lat == 0 {
				t.Fatalf("point %d out of order or without fix: %+v", i, tr.Points[i])
			}
		}
		if len(tr.Stops) != 1 || tr.Stops[0].Start.String() != shTime(t0.Add(time.Minute)) ||
			tr.Stops[0].End.String() != shTime(t0.Add(4*time.Minute)) || tr.Stops[0].Minutes != 3 ||
			tr.Stops[0].Lat != 31.230416 || tr.Stops[0].Lng != 121.473701 {
			t.Fatalf("stops: %+v", tr.Stops)
		}
		if len(tr.Alarms) != 1 || tr.Alarms[0].Time.String() != shTime(t0.Add(5*time.Minute)) || tr.Alarms[0].Alarm != 1<<1|1<<16 ||
			tr.Alarms[0].Speed != 30 || tr.Alarms[0].Lat != 31.230916 || fmt.Sprint(tr.Alarms[0].Names) != "[超速报警 报警位 16]" {
			t.Fatalf("alarms: %+v", tr.Alarms)
		}
		he.Lang = "en-US"
		he.MustOK("GET", trackQuery(car.ID, from, to), customer, nil).Decode(&tr)
		if fmt.Sprint(tr.Alarms[0].Names) != "[Overspeed Alarm bit 16]" {
			t.Fatalf("alarm names in English: %v", tr.Alarms[0].Names)
		}
		he.Lang = ""
		var empty map[string]any
		he.MustOK("GET", trackQuery(car.ID, shTime(base.Add(time.Hour)), shTime(base.Add(2*time.Hour))), customer, nil).Decode(&empty)
		if fmt.Sprint(empty) != fmt.Sprintf("map[alarms:[] carId:%d plate:沪A·6N337 points:[] stops:[] truncated:false]", car.ID) {
			t.Fatalf("empty range: %v", empty)
		}

		expect(t, he.Call("GET", trackQuery(he.northCar.ID, from, to), customer, nil), 403, "该记录不在您的数据范围内")
		expect(t, he.Call("GET", trackQuery(999999, from, to), customer, nil), 200, "记录不存在")
		expect(t, he.Call("GET", trackPath+"?"+url.Values{"startTime": {from}, "endTime": {to}}.Encode(), customer, nil), 200, "车辆不能为空")
		expect(t, he.Call("GET", trackPath+"?carId=x", customer, nil), 200, "车辆格式不正确")
		expect(t, he.Call("GET", trackQuery(car.ID, "", to), customer, nil), 200, "开始时间不能为空")
		expect(t, he.Call("GET", trackQuery(car.ID, from, ""), customer, nil), 200, "结束时间不能为空")
		expect(t, he.Call("GET", trackQuery(car.ID, "yesterday", to), customer, nil), 200, "开始时间格式不正确")
		expect(t, he.Call("GET", trackQuery(car.ID, to, from), customer, nil), 200, "结束时间不能早于开始时间")
		expect(t, he.Call("GET", trackQuery(car.ID, "2026-01-01", "2026-02-02"), customer, nil), 200, "查询时间跨度不能超过 31 天")
		expect(t, he.Call("GET", trackQuery(car.ID, from, to), he.east, nil), 403, "没有权限执行此操作") // 04, 04-06, 04-49 only
		if r := he.Call("GET", trackQuery(car.ID, from, to), "", nil); r.Status != 401 {
			t.Fatalf("no token: %d", r.Status)
		}
	})
}
