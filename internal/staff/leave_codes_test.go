package staff_test

import (
	"context"
	"strings"
	"testing"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/platform/db/dbtest"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/staff"
)

// TestLeaveKindsFromCodeList (D90): leave kinds are the leaveKind code list's: the demo's records hold
// the seeded codes, an added kind is accepted and filtered on, a disabled one is refused for a new
// request but stays valid on the request holding it, an unknown one is refused in three languages with
// nothing stored, and a kind in use is not deleted.
func TestLeaveKindsFromCodeList(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		admin := e.Login("admin", "admin123")
		var all httpx.Page[staff.LeaveView]
		e.MustOK("POST", leaveP+"page", admin, map[string]any{"pageSize": 50}).Decode(&all)
		kinds := map[string]int{}
		for _, l := range all.List {
			kinds[l.Kind]++
		}
		if kinds[staff.LeaveAnnual] == 0 || kinds[staff.LeavePersonal] == 0 || kinds[staff.LeaveSick] == 0 {
			t.Fatalf("demo kinds %v", kinds)
		}
		drv := findEmp(t, e, admin, "陈志明")
		in := map[string]any{"employeeId": drv.ID, "kind": "study", "from": "2026-04-01", "to": "2026-04-02"}
		for lang, want := range map[string]string{"": "请假类型格式不正确", "zh-TW": "請假類型格式不正確", "en-US": "Leave type is not valid"} {
			e.Lang = lang
			if r := e.Call("POST", leaveP+"save", admin, in); r.Code != 0 || r.Message != want {
				t.Errorf("unknown kind %q: %s", lang, r.Body)
			}
		}
		e.Lang = ""
		var n httpx.Page[staff.LeaveView]
		e.MustOK("POST", leaveP+"page", admin, map[string]any{"kind": "study"}).Decode(&n)
		if n.Total != 0 {
			t.Fatalf("refused request stored: %+v", n.List)
		}

		study := e.MustOK("POST", "/base-info-app/baseType/add", admin, map[string]any{"type": staff.LeaveKindList, "code": "study",
			"labelZh": "学习假", "labelTw": "學習假", "labelEn": "Study leave"}).ID()
		var l staff.LeaveView
		e.MustOK("POST", leaveP+"save", admin, in).Decode(&l)
		if l.Kind != "study" {
			t.Fatalf("saved %+v", l)
		}
		e.MustOK("POST", leaveP+"page", admin, map[string]any{"kind": "study"}).Decode(&n)
		if n.Total != 1 || n.List[0].ID != l.ID {
			t.Fatalf("filter by kind: %+v", n)
		}
		if r := e.Call("POST", "/base-info-app/baseType/delete", admin, map[string]any{"id": study}); r.Code != 0 || !strings.Contains(r.Message, "1 条记录") {
			t.Errorf("delete in use: %s", r.Body)
		}
		e.MustOK("POST", "/base-info-app/baseType/edit", admin, map[string]any{"id": study, "labelZh": "学习假", "labelTw": "學習假", "labelEn": "Study leave", "enabled": false})
		in["id"], in["reason"] = l.ID, "改了事由"
		e.MustOK("POST", leaveP+"save", admin, in) // holds study: still valid
		other := map[string]any{"employeeId": drv.ID, "kind": "study", "from": "2026-05-01", "to": "2026-05-01"}
		if r := e.Call("POST", leaveP+"save", admin, other); r.Code != 0 || r.Message != "请假类型格式不正确" {
			t.Errorf("disabled kind for a new request: %s", r.Body)
		}
		if r := e.Call("POST", leaveP+"save", admin, map[string]any{"employeeId": drv.ID, "kind": 2, "from": "2026-05-01", "to": "2026-05-01"}); r.Code != 0 {
			t.Errorf("a number as kind: %s", r.Body)
		}

		// the export names the kind by the list's label in the reader's language
		e.MustOK("POST", leaveP+"approve", admin, map[string]any{"id": l.ID, "approve": true})
		e.Lang = "en-US"
		x := e.Call("POST", leaveP+"export", admin, map[string]any{"kind": "study"})
		e.Lang = ""
		if x.Status != 200 || !strings.Contains(apptest.SheetText(t, x.Body), "Study leave") {
			t.Errorf("export %d: %s", x.Status, apptest.SheetText(t, x.Body))
		}

		// a user with a zone of their own gets the export's times in it (D90): the request's creation
		// approval time, 16:00 in Shanghai (the test clock), is 17:00 in Tokyo
		created := "2026-03-01 16:00:00"
		if !strings.Contains(apptest.SheetText(t, x.Body), created) {
			t.Fatalf("platform zone: %s", apptest.SheetText(t, x.Body))
		}
		e.MustOK("POST", "/base-info-app/userSetting/edit", admin, map[string]any{"timezone": "Asia/Tokyo"})
		x = e.Call("POST", leaveP+"export", admin, map[string]any{"kind": "study"})
		if got := apptest.SheetText(t, x.Body); !strings.Contains(got, "2026-03-01 17:00:00") || strings.Contains(got, created) {
			t.Errorf("user zone: %s", got)
		}
	})
}

// TestLeaveKindMigration runs migration 00040 over leave records holding the former numbers 1–4: each
// becomes the seeded code of the same meaning.
func TestLeaveKindMigration(t *testing.T) {
	t.Parallel()
	for _, dialect := range dbtest.Dialects() {
		t.Run(dialect, func(t *testing.T) {
			ctx := context.Background()
			d, up := dbtest.BeforeMigration(t, dialect, "_code_kinds_terminal_attrs.sql")
			for _, q := range []string{
				"INSERT INTO org_groups (id, name, code, path, created_at) VALUES (1, 'g', 'G', '/1/', 0)",
				"INSERT INTO employees (id, group_id, name, id_card, created_at, updated_at) VALUES (1, 1, '张三', '11010519491231002X', 0, 0)",
				"INSERT INTO leave_records (group_id, employee_id, kind, start_day, end_day, created_at, updated_at) VALUES (1, 1, 3, 20260101, 20260101, 0, 0)",
				"INSERT INTO leave_records (group_id, employee_id, kind, start_day, end_day, created_at, updated_at) VALUES (1, 1, 1, 20260102, 20260102, 0, 0)",
				"INSERT INTO leave_records (group_id, employee_id, kind, start_day, end_day, created_at, updated_at) VALUES (1, 1, 4, 20260103, 20260103, 0, 0)",
				"INSERT INTO leave_records (group_id, employee_id, kind, start_day, end_day, created_at, updated_at) VALUES (1, 1, 2, 20260104, 20260104, 0, 0)",
			} {
				if _, err := d.ExecContext(ctx, q); err != nil {
					t.Fatalf("%s: %v", q, err)
				}
			}
			if err := up(); err != nil {
				t.Fatalf("migrate: %v", err)
			}
			var kinds []string
			if err := d.NewSelect().TableExpr("leave_records").Column("kind").OrderExpr("start_day").Scan(ctx, &kinds); err != nil {
				t.Fatal(err)
			}
			if strings.Join(kinds, ",") != "personal,annual,other,sick" {
				t.Fatalf("kinds %v", kinds)
			}
		})
	}
}
