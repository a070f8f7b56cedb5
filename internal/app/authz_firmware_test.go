package app_test

// firmwareCalls are the firmware part's out-of-scope requests for the authorization matrix (TestAuthorizationMatrix
// takes them with maps.Copy(calls, firmwareCalls(f))): for every scoped route, a request naming another
// company's records.
func firmwareCalls(f fixture) map[string][]call {
	return map[string][]call{}
}

// firmwareTables are the part's tables, compared before and after every refused call.
var firmwareTables = []string{}
