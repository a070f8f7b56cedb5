package app_test

import (
	"fmt"
	"strings"
	"testing"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/platform/db/dbtest"
	"tankwatch/internal/platform/httpx"
)

// locksIDs: 华北's records of the lock registry (outside 华东's scope) and a lock of 华东's own.
type locksIDs struct {
	northLock, northBound, northEntry, northCar int64
	eastLock, eastCar, north                    int64
}

func setupLocks(t *testing.T, e *apptest.Env, f fixture) locksIDs {
	t.Helper()
	admin := e.Login("admin", "admin123")
	l := locksIDs{northCar: f.northCar, eastCar: f.eastCar, north: f.north}
	l.northLock = newID(e, admin, "/base-info-app/blueLock/save", map[string]any{"serial": "AZN-LOCK-1", "kind": 1, "groupId": f.north})
	l.northBound = newID(e, admin, "/base-info-app/blueLock/save", map[string]any{"serial": "AZN-LOCK-2", "kind": 2, "groupId": f.north})
	e.MustOK("POST", "/base-info-app/blueLock/bind", admin, map[string]any{"lockId": l.northBound, "carId": f.northCar, "compartment": 1, "device": 0})
	l.northEntry = newID(e, admin, "/base-info-app/carBlacklist/add", map[string]any{"carId": f.northCar, "reason": "矩阵"})
	l.eastLock = newID(e, f.eastTok, "/base-info-app/blueLock/save", map[string]any{"serial": "AZE-LOCK-1", "kind": 1})
	return l
}

// locksCalls are, per scoped route of the lock registry, requests that name 华北's records from 华东
// (TestAuthorizationMatrix takes them with maps.Copy(calls, locksCalls(setupLocks(t, e, f)))).
func locksCalls(l locksIDs) map[string][]call {
	g := map[string]any{"groupId": l.north}
	return map[string][]call{
		"POST /base-info-app/blueLock/page": {{body: g}, {body: map[string]any{"carId": l.northCar}}},
		"POST /base-info-app/blueLock/save": {{body: map[string]any{"id": l.northLock, "serial": "AZN-LOCK-1", "kind": 2}},
			{body: map[string]any{"serial": "AZN-LOCK-9", "kind": 1, "groupId": l.north}}},
		"POST /base-info-app/blueLock/delete": {{body: map[string]any{"id": l.northLock}}},
		"POST /base-info-app/blueLock/bind": {{body: map[string]any{"lockId": l.northLock, "carId": l.eastCar, "compartment": 1, "device": 1}},
			{body: map[string]any{"lockId": l.eastLock, "carId": l.northCar, "compartment": 1, "device": 1}}},
		"POST /base-info-app/blueLock/unbind":           {{body: map[string]any{"lockId": l.northBound, "reason": "x"}}},
		"POST /base-info-app/blueLock/export":           {{body: g}, {body: map[string]any{"carId": l.northCar}}},
		"POST /base-info-app/blueLockBindRecord/page":   {{body: g}, {body: map[string]any{"lockId": l.northBound}}},
		"POST /base-info-app/blueLockBindRecord/export": {{body: g}, {body: map[string]any{"lockId": l.northBound}}},
		"POST /base-info-app/carBlacklist/page":         {{body: g}, {body: map[string]any{"carId": l.northCar}}},
		"POST /base-info-app/carBlacklist/add":          {{body: map[string]any{"carId": l.northCar, "reason": "x"}}},
		"POST /base-info-app/carBlacklist/lift":         {{body: map[string]any{"id": l.northEntry, "reason": "x"}}},
		"POST /base-info-app/carBlacklist/export":       {{body: g}, {body: map[string]any{"carId": l.northCar}}},
	}
}

// TestLocksAuthorization: the lock registry's routes refuse a missing token, a user without the
// route's code, and 华东's administrator naming 华北's records (403, nothing changed), while that
// administrator works on 华东's own.
func TestLocksAuthorization(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		f := setup(t, e)
		l := setupLocks(t, e, f)
		calls := locksCalls(l)
		mine := 0
		var refused []dbtest.Step
		for _, rt := range e.App.Routes() {
			if !strings.HasPrefix(rt.Path, "/base-info-app/blueLock") && !strings.HasPrefix(rt.Path, "/base-info-app/carBlacklist/") {
				continue
			}
			mine++
			pattern := rt.Pattern()
			if rt.Access.Kind != httpx.Code {
				t.Errorf("%s: not guarded by a code", pattern)
			}
			if r := e.Call(rt.Method, rt.Path, "", "{}"); r.Status != 401 {
				t.Errorf("%s without a token: %d", pattern, r.Status)
			}
			refused = append(refused, dbtest.Step{What: pattern + " without its code", Run: func() {
				if r := e.Call(rt.Method, rt.Path, f.nobodyTok, "{}"); r.Status != 403 || r.Message != "没有权限执行此操作" {
					t.Errorf("%s without its code: %d %s", pattern, r.Status, r.Body)
				}
			}})
			cs, ok := calls[pattern]
			if rt.Scoped != ok {
				t.Errorf("%s: scoped %v, out-of-scope requests %v", pattern, rt.Scoped, ok)
			}
			for i, c := range cs {
				what := fmt.Sprintf("%s foreign request %d", pattern, i)
				refused = append(refused, dbtest.Step{What: what, Run: func() {
					if r := e.Call(rt.Method, rt.Path, f.eastTok, c.body); r.Status != 403 || r.Message != "该记录不在您的数据范围内" {
						t.Errorf("%s: %d %s", what, r.Status, r.Body)
					}
				}})
			}
		}
		dbtest.Unchanged(t, e.DB, stateTables, refused...)
		if mine != 14 {
			t.Errorf("%d lock registry routes, want 14", mine)
		}
		// 华东's administrator on 华东's own
		e.MustOK("POST", "/base-info-app/blueLock/bind", f.eastTok, map[string]any{"lockId": l.eastLock, "carId": f.eastCar, "compartment": 1, "device": 0})
		e.MustOK("POST", "/base-info-app/blueLock/unbind", f.eastTok, map[string]any{"lockId": l.eastLock, "reason": "试装"})
		id := newID(e, f.eastTok, "/base-info-app/carBlacklist/add", map[string]any{"carId": f.eastCar, "reason": "矩阵"})
		e.MustOK("POST", "/base-info-app/carBlacklist/lift", f.eastTok, map[string]any{"id": id, "reason": "误操作"})
		var p httpx.Page[map[string]any]
		e.MustOK("POST", "/base-info-app/blueLock/page", f.eastTok, map[string]any{"serial": "AZ"}).Decode(&p)
		if p.Total != 1 {
			t.Errorf("华东 sees %d of the AZ locks, want its own 1", p.Total)
		}
	})
}
