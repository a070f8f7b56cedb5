package app_test

import (
	"strings"
	"testing"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/platform/config"
	"tankwatch/internal/platform/httpx"
)

// overviewForeignCalls are, per scoped route of the overview and the report, requests naming a
// group outside 华东's scope (the rows TestAuthorizationMatrix needs for these routes: one
// maps.Copy(calls, overviewForeignCalls(f)) there).
func overviewForeignCalls(f fixture) map[string][]call {
	period := map[string]any{"start": "2026-02-01", "end": "2026-02-28", "groupId": f.north}
	return map[string][]call{
		"POST /monitor-app/transportProcessItem/selectTrafficStatistics":  {{body: period}},
		"POST /base-info-app/transportProcess/transportProcessStatistics": {{body: map[string]any{"groupId": f.north}}},
		"POST /monitor-app/transportProcessItem/vehicleUnloading":         {{body: period}},
		"POST /monitor-app/transportProcessItem/trips":                    {{body: period}},
		"POST /monitor-app/transportProcessItem/exportStatistics":         {{body: period}},
		"POST /monitor-app/report/operations":                             {{body: map[string]any{"groupId": f.north, "kind": "month", "date": "2026-02-01"}}},
		"POST /monitor-app/report/export":                                 {{body: map[string]any{"groupId": f.north, "kind": "month", "date": "2026-02-01"}}},
	}
}

// TestOverviewAuthorization: every overview and report endpoint refuses a call without a token and a
// user without its code (403), refuses 华东's administrator naming 华北 (403 scope, nothing read),
// and answers the same administrator for 华东.
func TestOverviewAuthorization(t *testing.T) {
	t.Parallel()
	e := apptest.New(t, "sqlite", config.Config{Demo: true})
	f := setup(t, e)
	calls := overviewForeignCalls(f)
	own := map[string]any{"start": "2026-02-01", "end": "2026-02-28", "groupId": f.east, "kind": "month", "date": "2026-02-01"}
	seen := 0
	for _, rt := range e.App.Routes() {
		cs, ok := calls[rt.Pattern()]
		if !ok {
			continue
		}
		seen++
		if !rt.Scoped || rt.Access.Kind != httpx.Code {
			t.Errorf("%s: not a scoped route with a code", rt.Pattern())
		}
		if r := e.Call(rt.Method, rt.Path, "", "{}"); r.Status != 401 {
			t.Errorf("%s without a token: %d", rt.Pattern(), r.Status)
		}
		if r := e.Call(rt.Method, rt.Path, f.nobodyTok, own); r.Status != 403 || r.Message != "没有权限执行此操作" {
			t.Errorf("%s without its code: %d %s", rt.Pattern(), r.Status, r.Body)
		}
		for _, c := range cs {
			if r := e.Call(rt.Method, rt.Path, f.eastTok, c.body); r.Status != 403 || r.Message != "该记录不在您的数据范围内" {
				t.Errorf("%s naming 华北: %d %s", rt.Pattern(), r.Status, r.Body)
			}
		}
		if r := e.Call(rt.Method, rt.Path, f.eastTok, own); r.Status != 200 || (r.Code != 1 && strings.HasPrefix(r.Header.Get("Content-Type"), "application/json")) {
			t.Errorf("%s for 华东: %d %s", rt.Pattern(), r.Status, r.Body)
		}
	}
	if seen != len(calls) {
		t.Errorf("%d of %d overview routes registered", seen, len(calls))
	}
}
