package notice_test

import (
	"strings"
	"testing"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/notice"
	"tankwatch/internal/org"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
	"tankwatch/internal/waybill"
)

const p = "/authority-app/noticeTemplate/"

func key(g int64, kind, lang string) map[string]any {
	return map[string]any{"groupId": g, "kind": kind, "lang": lang}
}

func input(g int64, kind, lang, body string) map[string]any {
	m := key(g, kind, lang)
	m["body"] = body
	return m
}

// TestTemplates: the platform administrator edits and resets the platform-wide templates; a
// subsidiary's administrator holding every code may not, but gives its own group a dispatch text that
// its cars (and its sub-groups' cars) get, which the terminal still reads; checks, the 403s and the
// operation log.
func TestTemplates(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		admin := e.Login("admin", "admin123")
		g := e.Groups(admin)
		role := e.MustOK("POST", "/authority-app/roleInfo/insert", admin, map[string]any{"name": "华东管理员", "groupId": g["华东分公司"], "resourceCodes": org.AllCodes()}).ID()
		e.MustOK("POST", "/authority-app/userInfo/insert", admin, map[string]any{"name": "eastadmin", "password": "secret1", "groupId": g["华东分公司"], "roleIds": []int64{role}})
		east := e.Login("eastadmin", "secret1")
		path := func(id int64) string {
			var s string
			if err := e.DB.NewSelect().Table("org_groups").Column("path").Where("id = ?", id).Scan(t.Context(), &s); err != nil {
				t.Fatal(err)
			}
			return s
		}
		svc := e.App.Notices()

		var page httpx.Page[notice.View]
		e.MustOK("POST", p+"page", admin, map[string]any{"pageSize": 50}).Decode(&page)
		builtin, demo := 0, 0
		for _, v := range page.List {
			if v.Builtin && v.GroupID == 0 && v.Body == v.Default {
				builtin++
			}
			if v.GroupID == g["华南分公司"] {
				demo++
			}
		}
		if builtin != 7 || demo != 1 || page.Total != 8 {
			t.Fatalf("seeded: %d built-in, %d demo, total %d: %+v", builtin, demo, page.Total, page.List)
		}

		// the preview shows the text with sample values and the check's verdict
		var pv notice.PreviewView
		e.MustOK("POST", p+"preview", admin, input(0, "alarmPush", "zh-CN", "{plate} {alarm}")).Decode(&pv)
		if pv.Text != "沪A12345 超速报警" || pv.Error != "" {
			t.Errorf("preview %+v", pv)
		}
		e.MustOK("POST", p+"preview", admin, input(0, "alarmPush", "zh-CN", "{plate} {driver}")).Decode(&pv)
		if !strings.Contains(pv.Error, "未知的占位符 {driver}") {
			t.Errorf("preview of an unknown placeholder %+v", pv)
		}

		// checks before saving, in the caller's language
		if r := e.Call("POST", p+"edit", admin, input(0, "alarmPush", "zh-CN", "{plate 报警")); r.Code != 0 || !strings.Contains(r.Message, "花括号不成对") {
			t.Errorf("unbalanced: %s", r.Body)
		}
		e.Lang = "en-US"
		if r := e.Call("POST", p+"edit", admin, input(0, "dispatch", "zh-CN", "{plate} 请装车")); r.Code != 0 || !strings.Contains(r.Message, "must contain") {
			t.Errorf("no route: %s", r.Body)
		}
		if r := e.Call("POST", p+"edit", admin, input(0, "dispatch", "en-US", notice.RouteCore)); r.Code != 0 || !strings.Contains(r.Message, "not offered") {
			t.Errorf("dispatch in English: %s", r.Body)
		}
		e.Lang = ""

		// the platform administrator edits a platform-wide push: every car gets it; reset restores it
		e.MustOK("POST", p+"edit", admin, input(0, "alarmPush", "zh-CN", "【报警】{time} {plate}：{alarm}（{level}级）"))
		texts := svc.Texts(t.Context(), "alarmPush", path(g["上海车队"]), func(l i18n.Lang) map[string]string {
			return map[string]string{"plate": "沪A1", "alarm": "超速", "level": "II", "time": "2026-03-01 16:00"}
		})
		if texts["zh-CN"] != "【报警】2026-03-01 16:00 沪A1：超速（II级）" || texts["en-US"] != "沪A1: Level II alarm, 超速" {
			t.Errorf("edited push %v", texts)
		}
		e.MustOK("POST", p+"reset", admin, key(0, "alarmPush", "zh-CN"))
		if v := svc.Body(t.Context(), "alarmPush", i18n.ZhCN, "/"); v != notice.Defaults["alarmPush"][i18n.ZhCN] {
			t.Errorf("reset left %q", v)
		}

		// a subsidiary's administrator: platform-wide ones are not theirs, another company's group neither
		for _, c := range []struct {
			path string
			body map[string]any
			msg  string
		}{
			{"edit", input(0, "alarmPush", "zh-CN", "x {plate}"), "只有平台管理员"},
			{"reset", key(0, "alarmPush", "zh-CN"), "只有平台管理员"},
			{"add", input(g["华北分公司"], "dispatch", "zh-CN", notice.RouteCore), "该记录不在您的数据范围内"},
			{"delete", key(g["华南分公司"], "dispatch", "zh-CN"), "该记录不在您的数据范围内"},
		} {
			if r := e.Call("POST", p+c.path, east, c.body); r.Status != 403 || !strings.Contains(r.Message, c.msg) {
				t.Errorf("east %s: %d %s", c.path, r.Status, r.Body)
			}
		}
		if r := e.Call("POST", p+"delete", admin, key(0, "alarmPush", "zh-CN")); r.Code != 0 || !strings.Contains(r.Message, "内置模板不能删除") {
			t.Errorf("delete built-in: %s", r.Body)
		}
		if r := e.Call("POST", p+"add", admin, input(g["中油运输集团"], "dispatch", "zh-CN", notice.RouteCore)); r.Code != 0 || !strings.Contains(r.Message, "全平台") {
			t.Errorf("add at the platform group: %s", r.Body)
		}

		// 华东's own dispatch text reaches 上海车队's cars and reads back; 华北 keeps the platform's
		own := "{plate} 请于 {time} 前装车：" + notice.RouteCore + "\n注意安全"
		e.MustOK("POST", p+"add", east, input(g["华东分公司"], "dispatch", "zh-CN", own))
		if r := e.Call("POST", p+"add", east, input(g["华东分公司"], "dispatch", "zh-CN", own)); r.Code != 0 || !strings.Contains(r.Message, "已有") {
			t.Errorf("second add: %s", r.Body)
		}
		route := waybill.DispatchText("YD1", "上海浦东油库", []string{"嘉兴站"})
		vars := map[string]string{"plate": "沪A1", "time": "2026-03-01 16:00"}
		text := svc.Dispatch(t.Context(), path(g["上海车队"]), route, vars)
		if no, depot, stops, ok := waybill.ParseDispatchText(text); text != "沪A1 请于 2026-03-01 16:00 前装车："+route+"\n注意安全" ||
			!ok || no != "YD1" || depot != "上海浦东油库" || len(stops) != 1 {
			t.Errorf("华东 dispatch %q", text)
		}
		if text := svc.Dispatch(t.Context(), path(g["华北分公司"]), route, vars); text != route {
			t.Errorf("华北 dispatch %q", text)
		}
		var eastPage httpx.Page[notice.View]
		e.MustOK("POST", p+"page", east, map[string]any{"kind": "dispatch"}).Decode(&eastPage)
		if eastPage.Total != 2 { // the platform's and its own; not 华南's
			t.Errorf("east sees %+v", eastPage.List)
		}
		e.MustOK("POST", p+"edit", east, input(g["华东分公司"], "dispatch", "zh-CN", notice.RouteCore+"\n谢谢"))
		e.MustOK("POST", p+"delete", east, key(g["华东分公司"], "dispatch", "zh-CN"))
		if text := svc.Dispatch(t.Context(), path(g["上海车队"]), route, vars); text != route {
			t.Errorf("after delete %q", text)
		}
		var n int
		if err := e.DB.NewSelect().Table("operation_logs").ColumnExpr("COUNT(*)").Where("module = ?", notice.Module).Scan(t.Context(), &n); err != nil || n != 5 {
			t.Errorf("operation log: %d %v", n, err)
		}
	})
}
