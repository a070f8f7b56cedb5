package app_test

import "fmt"

// videoCalls are live video's and replay's out-of-scope requests for the authorization matrix: every call naming a
// car takes a 华北 car from 华东's administrator (TestAuthorizationMatrix takes them with maps.Copy).
func videoCalls(f fixture) map[string][]call {
	const p = "/base-info-app/carInfo/"
	car := fmt.Sprintf("?carId=%d", f.northCar)
	return map[string][]call{
		"GET " + p + "doVisual":          {{query: car + "&channelNo=1"}},
		"GET " + p + "doVisual2":         {{query: car + "&channels=1,2"}},
		"GET " + p + "doVisualAll":       {{query: car}},
		"POST " + p + "stopLiveVideo":    {{body: map[string]any{"carId": f.northCar, "channelNo": 1}}},
		"POST " + p + "stopLiveVideos":   {{body: map[string]any{"carIds": []int64{f.eastCar, f.northCar}}}},
		"POST " + p + "reportLiveVideos": {{body: map[string]any{"carId": f.northCar}}},
		// replay (D84)
		"POST " + p + "sendGetVideoList":    {{body: map[string]any{"carId": f.northCar, "startTime": "2026-11-26 08:00:00", "endTime": "2026-11-26 09:00:00"}}},
		"POST " + p + "historyVideoByTime":  {{body: map[string]any{"carId": f.northCar, "channelNo": 1, "startTime": "2026-11-26 08:00:00", "endTime": "2026-11-26 09:00:00"}}},
		"POST " + p + "historyVideoByTime2": {{body: map[string]any{"carId": f.northCar, "channels": []int{1, 2}, "startTime": "2026-11-26 08:00:00", "endTime": "2026-11-26 09:00:00"}}},
		"GET " + p + "historyVideo":         {{query: car + "&channelNo=1&startTime=2026-11-26%2008:00:00&endTime=2026-11-26%2009:00:00"}},
		"POST " + p + "historyVideoControl": {{body: map[string]any{"carId": f.northCar, "token": "AAAAAAAAAAAAAAAAAAAAAAAA", "command": "pause"}}},
	}
}
