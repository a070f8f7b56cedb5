package app_test

import (
	"maps"
	"testing"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/lock"
	"tankwatch/internal/lock/events"
)

// lockEventsForeignCalls are the out-of-scope requests of blueLockRecord's routes (for the
// authorization matrix, TestAuthorizationMatrix: its foreignCalls takes them with one maps.Copy).
func lockEventsForeignCalls(f fixture) map[string][]call {
	foreign := []call{{body: map[string]any{"groupId": f.north}}, {body: map[string]any{"carId": f.northCar}}}
	return map[string][]call{
		"POST /lock-app/blueLockRecord/page":     foreign,
		"POST /lock-app/blueLockRecord/export":   foreign,
		"POST /lock-app/blueLockRecord/commands": foreign,
		"POST /lock-app/blueLockRecord/command":  {{body: map[string]any{"carId": f.northCar, "action": "unlock"}}},
	}
}

// TestLockEventsAuthorization: every route of blueLockRecord refuses no token, a user without its
// code, and 华东's administrator naming 华北's group or car (403, the store unchanged); 华东 sees its
// own events and never 华北's.
func TestLockEventsAuthorization(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		f := setup(t, e)
		calls := lockEventsForeignCalls(f)
		seen := map[string]bool{}
		for _, rt := range e.App.Routes() {
			cs, ok := calls[rt.Pattern()]
			if !ok {
				continue
			}
			seen[rt.Pattern()] = true
			if !rt.Scoped {
				t.Errorf("%s is not scoped", rt.Pattern())
			}
			if r := e.Call(rt.Method, rt.Path, "", "{}"); r.Status != 401 {
				t.Errorf("%s without a token: %d", rt.Pattern(), r.Status)
			}
			if r := e.Call(rt.Method, rt.Path, f.nobodyTok, "{}"); r.Status != 403 || r.Message != "没有权限执行此操作" {
				t.Errorf("%s without its code: %d %s", rt.Pattern(), r.Status, r.Body)
			}
			for i, c := range cs {
				before := snapshotLockEvents(t, e)
				if r := e.Call(rt.Method, rt.Path, f.eastTok, c.body); r.Status != 403 || r.Message != "该记录不在您的数据范围内" {
					t.Errorf("%s foreign request %d: %d %s", rt.Pattern(), i, r.Status, r.Body)
				}
				if after := snapshotLockEvents(t, e); !maps.Equal(before, after) {
					t.Errorf("%s foreign request %d changed the store", rt.Pattern(), i)
				}
			}
		}
		if len(seen) != len(calls) {
			t.Errorf("routes %v of %d", seen, len(calls))
		}
		// one event of each car: 华东 sees its own only
		now := e.Clock.Now().UnixMilli()
		for i, c := range [][2]int64{{f.north, f.northCar}, {f.east, f.eastCar}} {
			row := &lock.EventRow{Serial: "AUTHZ-" + string(rune('A'+i)), GroupID: c[0], CarID: c[1], Compartment: 1, Event: lock.EventOpened,
				T: now, RecordedAt: now, BatteryPct: -1}
			if _, err := e.DB.NewInsert().Model(row).Exec(t.Context()); err != nil {
				t.Fatal(err)
			}
		}
		var page events.Page
		e.MustOK("POST", "/lock-app/blueLockRecord/page", f.eastTok, map[string]any{"serial": "AUTHZ"}).Decode(&page)
		if page.Total != 1 || page.List[0].CarID != f.eastCar || page.Counts.Opened != 1 {
			t.Errorf("华东's page %+v", page)
		}
		e.MustOK("POST", "/lock-app/blueLockRecord/page", f.eastTok, map[string]any{"carId": f.eastCar, "groupId": f.east}).Decode(&page)
		if page.Total != 1 {
			t.Errorf("华东's own car: %d events", page.Total)
		}
		// the time range is the lock's time, both ends included
		for _, c := range []struct {
			from, to int64
			want     int
		}{{now, now, 1}, {now - 1000, now - 1, 0}, {now + 1, now + 1000, 0}} {
			e.MustOK("POST", "/lock-app/blueLockRecord/page", f.eastTok, map[string]any{"serial": "AUTHZ", "startTime": c.from, "endTime": c.to}).Decode(&page)
			if page.Total != c.want {
				t.Errorf("range %d–%d: %d events, want %d", c.from, c.to, page.Total, c.want)
			}
		}
		var cmds struct {
			Total int `json:"total"`
		}
		e.MustOK("POST", "/lock-app/blueLockRecord/commands", f.eastTok, map[string]any{"carId": f.eastCar, "startTime": now - 1000, "endTime": now}).Decode(&cmds)
	})
}

// snapshotLockEvents counts the rows a refused call must not touch.
func snapshotLockEvents(t *testing.T, e *apptest.Env) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, table := range []string{"lock_events", "commands", "locks", "stat_dirty"} {
		n, err := e.DB.NewSelect().Table(table).Count(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		out[table] = int(n)
	}
	return out
}
