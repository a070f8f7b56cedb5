package app_test

import (
	"fmt"
	"strings"
	"testing"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/platform/db/dbtest"
)

// staffNorth is the id of the first demo employee, duty, leave record and procedure: the staff demo
// seeds 华北's first (internal/staff/demo.go), so id 1 of each table is 华北's on a fresh demo store
// (TestStaffAuthorization checks it).
const staffNorth = 1

// staffCalls are the staff part's out-of-scope requests for the authorization matrix (TestAuthorizationMatrix
// takes them with maps.Copy(calls, staffCalls(f))): for every scoped route, a request naming another
// company's records.
func staffCalls(f fixture) map[string][]call {
	g := map[string]any{"groupId": f.north}
	emp := func(extra map[string]any) map[string]any {
		in := map[string]any{"name": "越权", "idCard": "11010519491231002X", "phone": "13712349999", "roles": 2}
		for k, v := range extra {
			in[k] = v
		}
		return in
	}
	steps := []map[string]any{{"text": "越权"}}
	const e, d, l, o = "POST /base-info-app/employees/", "POST /base-info-app/jobDuty/", "POST /base-info-app/leaveRecord/", "POST /base-info-app/operateFlow/"
	idq := "?id=1"
	return map[string][]call{
		e + "page":                           {{body: g}},
		e + "summary":                        {{body: g}},
		e + "save":                           {{body: emp(map[string]any{"id": staffNorth})}, {body: emp(g)}},
		e + "delete":                         {{body: map[string]any{"id": staffNorth}}},
		e + "export":                         {{body: g}},
		e + "photo":                          {{query: idq, body: "\x89PNG\r\n\x1a\n0000"}},
		"GET /base-info-app/employees/photo": {{query: idq}},
		e + "crew":                           {{body: map[string]any{"carId": f.northCar, "role": 1}}},
		d + "page":                           {{body: g}},
		d + "save": {{body: map[string]any{"id": staffNorth, "name": "越权"}}, {body: map[string]any{"name": "越权", "groupId": f.north}},
			{body: map[string]any{"name": "越权", "holderIds": []int64{staffNorth}}}},
		d + "delete": {{body: map[string]any{"id": staffNorth}}},
		l + "page":   {{body: g}, {body: map[string]any{"employeeId": staffNorth}}},
		l + "save": {{body: map[string]any{"employeeId": staffNorth, "kind": "annual", "from": "2026-05-01", "to": "2026-05-02"}},
			{body: map[string]any{"id": staffNorth, "employeeId": staffNorth, "kind": "annual", "from": "2026-05-01", "to": "2026-05-02"}}},
		l + "approve": {{body: map[string]any{"id": staffNorth, "approve": true}}},
		l + "delete":  {{body: map[string]any{"id": staffNorth}}},
		l + "export":  {{body: g}},
		o + "page":    {{body: g}, {body: map[string]any{"stationId": f.northStation}}, {body: map[string]any{"productId": f.northProduct}}},
		o + "save": {{body: map[string]any{"id": staffNorth, "name": "越权", "kind": 1, "steps": steps}},
			{body: map[string]any{"name": "越权", "kind": 1, "steps": steps, "groupId": f.north}},
			{body: map[string]any{"name": "越权", "kind": 1, "steps": steps, "stationIds": []int64{f.northStation}}},
			{body: map[string]any{"name": "越权", "kind": 1, "steps": steps, "productIds": []int64{f.northProduct}}},
			{body: map[string]any{"name": "越权", "kind": 1, "steps": []map[string]any{{"text": "越权", "dutyId": staffNorth}}}}},
		o + "delete": {{body: map[string]any{"id": staffNorth}}},
	}
}

// staffTables are the part's tables, compared before and after every refused call.
var staffTables = []string{"employees", "employee_photos", "duties", "duty_holders", "leave_records", "op_flows", "op_flow_steps",
	"op_flow_stations", "op_flow_products"}

// TestStaffAuthorization runs the staff part's rows of the matrix alone (quicker than the whole matrix):
// id 1 of each table is 华北's, every foreign request is refused with the scope message and changes
// nothing, and every scoped staff route has a row.
func TestStaffAuthorization(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		f := setup(t, e)
		for _, tb := range []string{"employees", "duties", "leave_records", "op_flows"} {
			var g int64
			q := "SELECT group_id FROM " + tb + " WHERE id = ?"
			if err := e.DB.NewRaw(q, staffNorth).Scan(t.Context(), &g); err != nil || g != f.north {
				t.Fatalf("%s id %d is not 华北's (group %d): %v", tb, staffNorth, g, err)
			}
		}
		calls := staffCalls(f)
		var refused []dbtest.Step
		for _, rt := range e.App.Routes() {
			pattern := rt.Pattern()
			cs, ok := calls[pattern]
			if !ok {
				if rt.Scoped && (strings.Contains(rt.Path, "/employees/") || strings.Contains(rt.Path, "/jobDuty/") || strings.Contains(rt.Path, "/leaveRecord/") || strings.Contains(rt.Path, "/operateFlow/")) {
					t.Errorf("%s has no row", pattern)
				}
				continue
			}
			for i, c := range cs {
				what := fmt.Sprintf("%s foreign request %d", pattern, i)
				refused = append(refused, dbtest.Step{What: what, Run: func() {
					if r := e.Call(rt.Method, rt.Path+c.query, f.eastTok, c.body); r.Status != 403 || r.Message != "该记录不在您的数据范围内" {
						t.Errorf("%s: %d %s", what, r.Status, r.Body)
					}
				}})
			}
		}
		dbtest.Unchanged(t, e.DB, staffTables, refused...)
		// the same caller works inside its own scope
		e.MustOK("POST", "/base-info-app/employees/page", f.eastTok, map[string]any{"groupId": f.east})
		e.MustOK("POST", "/base-info-app/leaveRecord/page", f.eastTok, map[string]any{})
	})
}
