package app_test

// staffCalls are the staff part's out-of-scope requests for the authorization matrix (TestAuthorizationMatrix
// takes them with maps.Copy(calls, staffCalls(f))): for every scoped route, a request naming another
// company's records.
func staffCalls(f fixture) map[string][]call {
	return map[string][]call{}
}

// staffTables are the part's tables, compared before and after every refused call.
var staffTables = []string{}
