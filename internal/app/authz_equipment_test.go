package app_test

import "fmt"

// equipmentCalls are the equipment part's out-of-scope requests for the authorization matrix (TestAuthorizationMatrix
// takes them with maps.Copy(calls, equipmentCalls(f))): for every scoped route, a request naming another
// company's records: 华北's group, car or terminal (the device models are platform-wide and not scoped).
func equipmentCalls(f fixture) map[string][]call {
	g, car := map[string]any{"groupId": f.north}, map[string]any{"carId": f.northCar}
	const p = "/base-info-app/equipment/"
	return map[string][]call{
		"POST " + p + "page":   {{body: g}, {body: car}},
		"POST " + p + "export": {{body: g}, {body: car}},
		"POST " + p + "save": {{body: map[string]any{"kind": "terminal", "serial": f.northPhone, "notes": "x"}},
			{body: map[string]any{"kind": "camera", "serial": "CAM-AUTHZ", "carId": f.northCar}}},
		"POST " + p + "delete":      {{body: map[string]any{"kind": "terminal", "serial": f.northPhone}}},
		"GET " + p + "carFunctions": {{query: fmt.Sprintf("?carId=%d", f.northCar)}},
	}
}

// equipmentTables are the part's tables, compared before and after every refused call.
var equipmentTables = []string{"equipment", "equipment_models"}
