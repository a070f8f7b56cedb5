package app_test

// faultsCalls are the faults part's out-of-scope requests for the authorization matrix (TestAuthorizationMatrix
// takes them with maps.Copy(calls, faultsCalls(f))): for every scoped route, a request naming another
// company's records. Fault 1 is the first demo fault, a 华北分公司 car's (aftersales.demoFaults; its
// TestFaults checks that it stays so).
func faultsCalls(f fixture) map[string][]call {
	const p = "POST /after-sales-app/faultRecord/"
	group, car := map[string]any{"groupId": f.north}, map[string]any{"carId": f.northCar}
	add := map[string]any{"carId": f.northCar, "faultType": "probe", "symptom": "读数不变"}
	edit := map[string]any{"id": 1, "carId": f.eastCar, "faultType": "probe", "symptom": "读数不变"}
	return map[string][]call{
		p + "page":   {{body: group}, {body: car}},
		p + "export": {{body: group}, {body: car}},
		p + "add":    {{body: add}},
		p + "edit":   {{body: edit}},
		p + "close":  {{body: map[string]any{"id": 1, "resolution": "已修复"}}},
		p + "delete": {{body: map[string]any{"id": 1}}},
	}
}

// faultsTables are the part's tables, compared before and after every refused call.
var faultsTables = []string{"faults"}
