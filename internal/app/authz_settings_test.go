package app_test

import "fmt"

// settingsCalls are the settings part's out-of-scope requests for the authorization matrix (TestAuthorizationMatrix
// takes them with maps.Copy(calls, settingsCalls(f))): for every scoped route, a request naming another
// company's records. The code lists and platform settings belong to the platform (not scoped; their
// changes are platform-only, tested in internal/settings); the sessions list is scoped by group.
func settingsCalls(f fixture) map[string][]call {
	g := map[string]any{"groupId": f.north}
	return map[string][]call{
		"GET /authority-app/userInfo/listCurrentRecords":  {{query: "?groupId=" + fmt.Sprint(f.north)}},
		"POST /authority-app/userInfo/listCurrentRecords": {{body: g}},
		"POST /authority-app/userInfo/signOutSession":     {{body: map[string]any{"userId": f.foreignUser}}},
	}
}

// settingsTables are the part's tables, compared before and after every refused call.
var settingsTables = []string{"code_items", "platform_settings"}
