package staff_test

import (
	"strings"
	"testing"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/staff"
)

// TestLicenceClassesFromCodeList (D66): the licence classes are the code list's (seeded with
// staff.LicenceClasses): an added class is accepted, a disabled one is refused for a new employee but
// stays valid on the employee who holds it, and a class someone holds is not deleted.
func TestLicenceClassesFromCodeList(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		admin := e.Login("admin", "admin123")
		items, err := e.App.SettingsCodes().Items(t.Context(), staff.LicenceList)
		if err != nil || len(items) != len(staff.LicenceClasses) {
			t.Fatalf("seeded %d %v", len(items), err)
		}
		groups := e.Groups(admin)
		q := e.MustOK("POST", "/base-info-app/baseType/add", admin, map[string]any{"type": staff.LicenceList, "code": "Q", "labelZh": "Q 危货专用",
			"labelTw": "Q 危貨專用", "labelEn": "Q dangerous goods", "sort": 500}).ID() // after P: the list's order is the stored order
		in := map[string]any{"name": "代码司机", "idCard": "11010519491231002x", "phone": "13712340001", "roles": staff.RoleDriver,
			"licenceClasses": "q, a2", "licenceExpiry": "2030-01-01", "groupId": groups["华东分公司"]}
		var v staff.View
		e.MustOK("POST", empP+"save", admin, in).Decode(&v)
		if v.LicenceClasses != "A2,Q" {
			t.Fatalf("classes %q", v.LicenceClasses)
		}
		if r := e.Call("POST", "/base-info-app/baseType/delete", admin, map[string]any{"id": q}); r.Code != 0 || !strings.Contains(r.Message, "1 条记录") {
			t.Errorf("delete in use: %s", r.Body)
		}
		e.MustOK("POST", "/base-info-app/baseType/edit", admin, map[string]any{"id": q, "labelZh": "Q 危货专用", "enabled": false})
		in["id"], in["remark"] = v.ID, "改了备注"
		e.MustOK("POST", empP+"save", admin, in) // holds Q: still valid
		other := map[string]any{"name": "新司机", "idCard": "110105198001010016", "phone": "13712340002", "roles": staff.RoleDriver,
			"licenceClasses": "Q", "licenceExpiry": "2030-01-01", "groupId": groups["华东分公司"]}
		if r := e.Call("POST", empP+"save", admin, other); r.Code != 0 || !strings.Contains(r.Message, "未知的准驾车型：Q") {
			t.Errorf("disabled class for a new employee: %s", r.Body)
		}
	})
}
