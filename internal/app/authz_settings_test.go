package app_test

// settingsCalls are the settings part's out-of-scope requests for the authorization matrix (TestAuthorizationMatrix
// takes them with maps.Copy(calls, settingsCalls(f))): for every scoped route, a request naming another
// company's records.
func settingsCalls(f fixture) map[string][]call {
	return map[string][]call{}
}

// settingsTables are the part's tables, compared before and after every refused call.
var settingsTables = []string{}
