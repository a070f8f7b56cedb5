package app_test

// noticesCalls are the notices part's out-of-scope requests for the authorization matrix (TestAuthorizationMatrix
// takes them with maps.Copy(calls, noticesCalls(f))): for every scoped route, a request naming another
// company's records. Templates are named by their key (group, kind, language), so 华北's group is enough.
func noticesCalls(f fixture) map[string][]call {
	const p = "POST /authority-app/noticeTemplate/"
	key := map[string]any{"groupId": f.north, "kind": "dispatch", "lang": "zh-CN", "body": "运单 {waybillNo}：{depot}→{stops}"}
	return map[string][]call{
		p + "page":   {{body: map[string]any{"groupId": f.north}}},
		p + "add":    {{body: key}},
		p + "edit":   {{body: key}},
		p + "delete": {{body: key}},
	}
}

// noticesTables are the part's tables, compared before and after every refused call.
var noticesTables = []string{"notice_templates"}
