package audit_test

import (
	"context"
	"testing"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/audit"
	"tankwatch/internal/platform/httpx"
)

// The operation log reads in the caller's language: a row written now (user disabled) and a row
// written before the texts were keyed (free English) both render in zh-CN, zh-TW and en-US.
func TestOperationLogInTheCallersLanguage(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		admin := e.Login("admin", "admin123")
		g := e.Groups(admin)
		id := e.MustOK("POST", "/authority-app/userInfo/insert", admin, map[string]any{"name": "oplogtemp", "password": "secret1", "groupId": g["华南分公司"]}).ID()
		e.MustOK("POST", "/authority-app/userInfo/updateStatus", admin, map[string]any{"id": id, "status": 0})
		var path string // the admin's own group path, so the row is in the admin's scope
		if err := e.DB.NewSelect().Table("operation_logs").Column("group_path").Where("user_name = 'admin'").Limit(1).Scan(context.Background(), &path); err != nil {
			t.Fatal(err)
		}
		legacy := &audit.OpLog{UserName: "admin", GroupID: 1, GroupPath: path, Module: "alarm", Action: "deal", Target: "2 alarms",
			Detail: "state 1: checked", CreatedAt: httpx.TimeOf(e.Clock.Now())}
		if _, err := e.DB.NewInsert().Model(legacy).Exec(context.Background()); err != nil {
			t.Fatal(err)
		}
		want := map[string][2][4]string{ // language → {status row, legacy row} → module, action, target, detail
			"zh-CN": {{"用户管理", "启用/停用", "oplogtemp", "停用"}, {"报警管理", "报警处理", "2 条报警", "处理状态：已处理；备注：checked"}},
			"zh-TW": {{"用戶管理", "啟用/停用", "oplogtemp", "停用"}, {"報警管理", "報警處理", "2 條報警", "處理狀態：已處理；備註：checked"}},
			"en-US": {{"Users", "Enable/disable", "oplogtemp", "disabled"}, {"Alarm management", "Alarm processing", "2 alarms", "State: Processed; remark: checked"}},
		}
		for lang, rows := range want {
			e.Lang = lang
			for i, f := range []map[string]any{{"module": "user", "action": "status", "target": "oplogtemp"}, {"module": "alarm", "action": "deal"}} {
				var page httpx.Page[map[string]any]
				e.MustOK("POST", "/authority-app/operationLog/page", admin, f).Decode(&page)
				if len(page.List) == 0 {
					t.Fatalf("%s: no row for %v", lang, f)
				}
				r := page.List[0]
				got := [4]string{r["moduleName"].(string), r["actionName"].(string), r["targetText"].(string), r["detailText"].(string)}
				if got != rows[i] {
					t.Errorf("%s row %d: got %q, want %q", lang, i, got, rows[i])
				}
				if r["module"] != f["module"] || r["action"] != f["action"] {
					t.Errorf("%s: codes for the filters changed: %v", lang, r)
				}
			}
		}
	})
}
