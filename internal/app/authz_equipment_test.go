package app_test

// equipmentCalls are the equipment part's out-of-scope requests for the authorization matrix (TestAuthorizationMatrix
// takes them with maps.Copy(calls, equipmentCalls(f))): for every scoped route, a request naming another
// company's records.
func equipmentCalls(f fixture) map[string][]call {
	return map[string][]call{}
}

// equipmentTables are the part's tables, compared before and after every refused call.
var equipmentTables = []string{}
