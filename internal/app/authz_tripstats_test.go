package app_test

import (
	"strings"
	"testing"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/stats"
)

// tripStatsForeignCalls are the out-of-scope requests of the statistics pages (stats_trips.go): 华北's
// group or car named by 华东's administrator, in the carrier and the sales-company views. The
// authorization matrix (authz_test.go) takes them with maps.Copy(calls, tripStatsForeignCalls(f)).
func tripStatsForeignCalls(f fixture) map[string][]call {
	p := func(extra ...any) map[string]any {
		b := map[string]any{"start": stats.DayStart(20260201), "end": stats.DayEnd(20260228)}
		for i := 0; i+1 < len(extra); i += 2 {
			b[extra[i].(string)] = extra[i+1]
		}
		return b
	}
	group := []call{{body: p("groupId", f.north)}, {body: p("groupId", f.north, "sales", true)}}
	car := append(group, call{body: p("carId", f.northCar)})
	return map[string][]call{
		"POST /monitor-app/realTimeMoitoring/getVehicleTransportationStatisticsPage1": car,
		"POST /monitor-app/realTimeMoitoring/exportDataExcel":                         car,
		"POST /monitor-app/statistics/company/page":                                   car,
		"POST /monitor-app/statistics/company/export":                                 car,
		"POST /monitor-app/statistics/product/page":                                   car,
		"POST /monitor-app/statistics/product/export":                                 car,
		"POST /monitor-app/statistics/trips": {{body: p("kind", "car", "all", true, "groupId", f.north)}, {body: p("kind", "car", "key", f.northCar)},
			{body: p("kind", "company", "key", f.north)},
			{body: p("kind", "company", "sales", true, "all", true, "groupId", f.north)}},
	}
}

// TestTripStatsAuthz: every statistics route refuses a caller without its code and answers 华北's
// records named by 华东 with the scope refusal (the matrix's checks, run on this part's routes).
func TestTripStatsAuthz(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		f := setup(t, e)
		calls := tripStatsForeignCalls(f)
		n := 0
		for _, rt := range e.App.Routes() {
			cs, ok := calls[rt.Pattern()]
			if !ok {
				if strings.Contains(rt.Path, "/statistics/") || strings.Contains(rt.Path, "TransportationStatistics") {
					t.Errorf("%s has no out-of-scope request", rt.Pattern())
				}
				continue
			}
			n++
			if !rt.Scoped {
				t.Errorf("%s is not declared scoped", rt.Pattern())
			}
			if r := e.Call(rt.Method, rt.Path, f.nobodyTok, cs[0].body); r.Status != 403 || r.Message != "没有权限执行此操作" {
				t.Errorf("%s without its code: %d %s", rt.Pattern(), r.Status, r.Body)
			}
			for i, c := range cs {
				if r := e.Call(rt.Method, rt.Path, f.eastTok, c.body); r.Status != 403 || r.Message != "该记录不在您的数据范围内" {
					t.Errorf("%s foreign request %d: %d %s, want 403 scope", rt.Pattern(), i, r.Status, r.Body)
				}
			}
		}
		if n != len(calls) {
			t.Errorf("%d of %d entries are routes", n, len(calls))
		}
	})
}
