package app_test

// noticesCalls are the notices part's out-of-scope requests for the authorization matrix (TestAuthorizationMatrix
// takes them with maps.Copy(calls, noticesCalls(f))): for every scoped route, a request naming another
// company's records.
func noticesCalls(f fixture) map[string][]call {
	return map[string][]call{}
}

// noticesTables are the part's tables, compared before and after every refused call.
var noticesTables = []string{}
