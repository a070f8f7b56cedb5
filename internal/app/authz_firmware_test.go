package app_test

// firmwareCalls are the firmware part's out-of-scope requests for the authorization matrix (TestAuthorizationMatrix
// takes them with maps.Copy(calls, firmwareCalls(f))): for every scoped route, a request naming another
// company's records.
func firmwareCalls(f fixture) map[string][]call {
	const p = "POST /base-info-app/upgradePack/"
	north := map[string]any{"groupId": f.north}
	return map[string][]call{
		// the demo's terminal package is id 1 (seeded first); the car is checked before the package
		p + "push":       {{body: map[string]any{"packageId": 1, "carIds": []int64{f.northCar}}}},
		p + "retry":      {{body: map[string]any{"carId": f.northCar, "packageId": 1}}},
		p + "jobs":       {{body: north}},
		p + "pushes":     {{body: north}},
		p + "pushExport": {{body: north}},
	}
}

// firmwareTables are the part's tables, compared before and after every refused call.
var firmwareTables = []string{"firmware_packages", "firmware_pushes", "firmware_jobs"}
