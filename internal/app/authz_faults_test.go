package app_test

// faultsCalls are the faults part's out-of-scope requests for the authorization matrix (TestAuthorizationMatrix
// takes them with maps.Copy(calls, faultsCalls(f))): for every scoped route, a request naming another
// company's records.
func faultsCalls(f fixture) map[string][]call {
	return map[string][]call{}
}

// faultsTables are the part's tables, compared before and after every refused call.
var faultsTables = []string{}
