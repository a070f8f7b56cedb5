package app_test

import (
	"fmt"
	"strings"
	"testing"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/platform/db/dbtest"
)

// analysisForeignCalls are, per analysis route, requests naming another group's company, carrier
// group, product or station (the authorization matrix's rows of the analysis part; TestAuthorizationMatrix
// takes them with maps.Copy(calls, analysisForeignCalls(f)) once the parts are merged).
func analysisForeignCalls(f fixture) map[string][]call {
	period := func(kv ...any) map[string]any {
		m := map[string]any{"start": "2026-02-01 00:00:00", "end": "2026-02-28 23:59:59"}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	foreign := []call{{body: period("groupId", f.north)}, {body: period("companyId", f.north)},
		{body: period("productId", f.northProduct)}, {body: period("depotId", f.northStation, "stationId", f.northJYZ)}}
	out := map[string][]call{}
	for _, p := range []string{"selectTransportProcessStatistics", "selectTransportationConsumption", "v20Top5", "selectTonKilometers", "trips", "options", "export", "exportTrend"} {
		out["POST /monitor-app/outToArrival/"+p] = foreign
	}
	out["POST /monitor-app/outToArrival/tonKilometersMonth"] = []call{{body: map[string]any{"year": 2026, "groupId": f.north}},
		{body: map[string]any{"year": 2026, "companyId": f.north}}}
	return out
}

// TestAnalysisAuthz runs the analysis rows of the matrix: every analysis route is covered, refuses
// another group's ids with the scope error and changes nothing; without its code it is refused.
func TestAnalysisAuthz(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		f := setup(t, e)
		calls := analysisForeignCalls(f)
		n := 0
		var refused []dbtest.Step
		for _, rt := range e.App.Routes() {
			if !strings.HasPrefix(rt.Path, "/monitor-app/outToArrival/") {
				continue
			}
			n++
			if !rt.Scoped {
				t.Errorf("%s is not scoped", rt.Pattern())
			}
			cs, ok := calls[rt.Pattern()]
			if !ok {
				t.Errorf("%s has no out-of-scope request", rt.Pattern())
			}
			for i, c := range cs {
				what := fmt.Sprintf("%s foreign request %d", rt.Pattern(), i)
				refused = append(refused, dbtest.Step{What: what, Run: func() {
					if r := e.Call(rt.Method, rt.Path, f.eastTok, c.body); r.Status != 403 || r.Message != "该记录不在您的数据范围内" {
						t.Errorf("%s: %d %s, want 403 scope", what, r.Status, r.Body)
					}
				}})
			}
			if r := e.Call(rt.Method, rt.Path, f.nobodyTok, "{}"); r.Status != 403 {
				t.Errorf("%s without its code: %d", rt.Pattern(), r.Status)
			}
		}
		dbtest.Unchanged(t, e.DB, stateTables, refused...)
		if n != len(calls) {
			t.Errorf("%d analysis routes, %d rows", n, len(calls))
		}
	})
}
