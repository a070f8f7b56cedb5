package app_test

import (
	"fmt"
	"maps"
	"reflect"
	"strings"
	"testing"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/platform/db/dbtest"
)

// sealsCalls are the lead seal endpoints' out-of-scope requests (another company's group or car), for
// the authorization matrix: TestAuthorizationMatrix takes them with maps.Copy(calls, sealsCalls(f)).
func sealsCalls(f fixture) map[string][]call {
	g, car := map[string]any{"groupId": f.north}, map[string]any{"carId": f.northCar}
	out := map[string][]call{}
	for _, p := range []string{"page", "incidents", "export", "exportIncidents"} {
		out["POST /monitor-app/leadSealRecord/"+p] = []call{{body: g}, {body: car}}
	}
	return out
}

// TestSealsAuthorization runs the matrix's checks on the lead seal endpoints: no token → 401, a user
// without the code → 403, another company's group or car → 403 scope, and nothing changes.
func TestSealsAuthorization(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		f := setup(t, e)
		calls := sealsCalls(f)
		seen := map[string]bool{}
		for _, rt := range e.App.Routes() {
			pattern := rt.Pattern()
			cs, ok := calls[pattern]
			if !ok {
				continue
			}
			seen[pattern] = true
			if !rt.Scoped {
				t.Errorf("%s is not declared scoped", pattern)
			}
			if r := e.Call(rt.Method, rt.Path, "", "{}"); r.Status != 401 {
				t.Errorf("%s without a token: %d", pattern, r.Status)
			}
			if r := e.Call(rt.Method, rt.Path, f.nobodyTok, "{}"); r.Status != 403 || r.Message != "没有权限执行此操作" {
				t.Errorf("%s without its code: %d %s", pattern, r.Status, r.Body)
			}
			var refused []dbtest.Step
			for i, c := range cs {
				what := fmt.Sprintf("%s foreign request %d", pattern, i)
				refused = append(refused, dbtest.Step{What: what, Run: func() {
					if r := e.Call(rt.Method, rt.Path+c.query, f.eastTok, c.body); r.Status != 403 || r.Message != "该记录不在您的数据范围内" {
						t.Errorf("%s: %d %s", what, r.Status, r.Body)
					}
				}})
			}
			dbtest.Unchanged(t, e.DB, stateTables, refused...)
			// inside its scope the same caller is answered (a list, or a sheet)
			r := e.Call(rt.Method, rt.Path, f.eastTok, map[string]any{"groupId": f.east})
			if r.Status != 200 || (strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") && r.Code != 1) {
				t.Errorf("%s in scope: %d %s", pattern, r.Status, r.Body)
			}
		}
		if want := maps.Collect(func(yield func(string, bool) bool) {
			for k := range calls {
				if !yield(k, true) {
					return
				}
			}
		}); !reflect.DeepEqual(seen, want) {
			t.Errorf("routes found %v, want %v", seen, want)
		}
	})
}
