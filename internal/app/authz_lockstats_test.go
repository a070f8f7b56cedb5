package app_test

import (
	"fmt"
	"strings"
	"testing"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/lock/lockstats"
	"tankwatch/internal/platform/httpx"
)

func init() { stateTables = append(stateTables, "stat_lock_daily", "stat_seal_daily", "stat_dirty") }

// lockStatsCalls are the out-of-scope requests of the lock and seal statistics (华北's group or car,
// asked by 华东's administrator). TestAuthorizationMatrix takes them with
// maps.Copy(calls, lockStatsCalls(f)); TestLockStatsScope runs them on their own.
func lockStatsCalls(f fixture) map[string][]call {
	period := map[string]any{"start": "2026-03-01 00:00:00", "end": "2026-03-01 23:59:59"}
	with := func(k string, v any) map[string]any {
		m := map[string]any{k: v}
		for pk, pv := range period {
			m[pk] = pv
		}
		return m
	}
	out := map[string][]call{}
	for _, pg := range lockstats.Pages {
		cs := []call{{body: with("groupId", f.north)}, {body: with("carId", f.northCar)}}
		out["POST /monitor-app/"+pg.Name+"/page"] = cs
		out["POST /monitor-app/"+pg.Name+"/export"] = cs
	}
	drill := func(kind, col, k string, v any) call {
		m := map[string]any{"kind": kind, "column": col, "from": "2026-03-01", "to": "2026-03-01", k: v}
		return call{body: m}
	}
	out["POST /monitor-app/lockStat/rows"] = []call{drill("lock", "opened", "companyId", f.north), drill("lock", "offlineS", "carId", f.northCar),
		drill("seal", "applied", "groupId", f.north), drill("seal", "reused", "carId", f.northCar)}
	return out
}

// TestLockStatsScope: every statistics route refuses a caller without its code, and 华东's
// administrator naming 华北's group or car gets the scope error, never data.
func TestLockStatsScope(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		f := setup(t, e)
		calls := lockStatsCalls(f)
		n := 0
		for _, rt := range e.App.Routes() {
			cs, ok := calls[rt.Pattern()]
			if !ok {
				if strings.Contains(rt.Path, "Stat") && (strings.Contains(rt.Path, "blueLock") || strings.Contains(rt.Path, "sealRecord")) {
					t.Errorf("%s has no out-of-scope request", rt.Pattern())
				}
				continue
			}
			n++
			if !rt.Scoped || rt.Access.Kind != httpx.Code {
				t.Errorf("%s: scoped %v, access %v", rt.Pattern(), rt.Scoped, rt.Access.Kind)
			}
			if r := e.Call(rt.Method, rt.Path, f.nobodyTok, cs[0].body); r.Status != 403 || r.Message != "没有权限执行此操作" {
				t.Errorf("%s without its code: %d %s", rt.Pattern(), r.Status, r.Body)
			}
			for i, c := range cs {
				r := e.Call(rt.Method, rt.Path, f.eastTok, c.body)
				if r.Status != 403 || r.Message != "该记录不在您的数据范围内" {
					t.Errorf("%s foreign request %d: %d %s, want 403 scope", rt.Pattern(), i, r.Status, r.Body)
				}
			}
			// the same caller inside its own scope
			if strings.HasSuffix(rt.Path, "/page") {
				e.MustOK(rt.Method, rt.Path, f.eastTok, map[string]any{"start": "2026-03-01 00:00:00", "end": "2026-03-01 23:59:59", "carId": f.eastCar})
			}
		}
		if n != 15 {
			t.Errorf("%d statistics routes checked, want 15", n)
		}
		r := e.Call("POST", "/monitor-app/lockStat/rows", f.eastTok, map[string]any{"kind": "lock", "column": "opened", "from": "2026-03-01", "to": "2026-03-01", "carId": fmt.Sprint(f.eastCar)})
		if r.Status == 500 {
			t.Errorf("a string id crashed the drill-down: %s", r.Body)
		}
	})
}
