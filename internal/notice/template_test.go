package notice

import (
	"strings"
	"testing"

	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
	"tankwatch/internal/waybill"
)

func errKey(err error) string {
	if e, ok := err.(*httpx.Error); ok {
		return e.Key
	}
	if err != nil {
		return err.Error()
	}
	return ""
}

func TestCheck(t *testing.T) {
	long := strings.Repeat("长", 90)
	for _, c := range []struct {
		name, kind, body, want string
	}{
		{"default dispatch", KindDispatch, RouteCore, ""},
		{"text around the route", KindDispatch, "【调度】{plate} 请于 {time} 前装车：" + RouteCore + "\n注意安全", ""},
		{"no route core", KindDispatch, "{plate} 请装车 {waybillNo}", "notice.routeCore"},
		{"route twice", KindDispatch, RouteCore + "\n" + RouteCore, "notice.routeCore"},
		{"text after the route on its line", KindDispatch, RouteCore + "，注意安全", "notice.routeLine"},
		{"unknown placeholder", KindDispatch, "{driver} " + RouteCore, "notice.unknownPlaceholder"},
		{"alarm placeholder in dispatch", KindDispatch, "{alarm} " + RouteCore, "notice.unknownPlaceholder"},
		{"unclosed brace", KindAlarmPush, "{plate 报警", "notice.unbalanced"},
		{"stray closing brace", KindAlarmPush, "plate} 报警", "notice.unbalanced"},
		{"nested brace", KindAlarmPush, "{pl{ate}} 报警", "notice.unbalanced"},
		{"empty placeholder", KindAlarmPush, "{} 报警", "notice.emptyPlaceholder"},
		{"escaped braces", KindAlarmPush, "{{重要}} {plate} {alarm}", ""},
		{"empty", KindAlarmPush, "  ", "field.required"},
		{"unknown kind", "sms", "x", "field.invalid"},
		{"too long around the route", KindDispatch, long + RouteCore, "notice.tooLongAround"},
		{"too long after expansion", KindHelpPush, strings.Repeat("{place}", 4), "notice.tooLong"},
		{"fits after expansion", KindHelpPush, strings.Repeat("{place}", 3), ""},
		{"default alarm push", KindAlarmPush, Defaults[KindAlarmPush][i18n.EnUS], ""},
	} {
		if got := errKey(Check(c.kind, c.body)); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
	for kind, byLang := range Defaults {
		for l, body := range byLang {
			if err := Check(kind, body); err != nil {
				t.Errorf("default %s %s: %v", kind, l, err)
			}
		}
	}
}

func TestExpand(t *testing.T) {
	vars := map[string]string{"plate": "沪A12345", "level": "II", "alarm": "超速报警"}
	for _, c := range []struct{ body, want string }{
		{Defaults[KindAlarmPush][i18n.ZhCN], "沪A12345 发生 II级报警：超速报警"},
		{"{{{plate}}}", "{沪A12345}"},
		{"{time}{plate}", "沪A12345"}, // a value not given is empty
		{"{plate", "{plate"},         // never checked: sent as written
	} {
		if got := Expand(KindAlarmPush, c.body, vars); got != c.want {
			t.Errorf("%q: %q, want %q", c.body, got, c.want)
		}
	}
}

// TestDispatchTextRoundTrip: whatever a valid template puts around the route, the terminal reads the
// waybill, depot and stops back, and a long route is cut so that the text after it survives.
func TestDispatchTextRoundTrip(t *testing.T) {
	vars := map[string]string{"plate": "沪A12345", "time": "2026-11-26 09:30"}
	stops := []string{"嘉兴站", "桐乡站"}
	route := waybill.DispatchText("YD0001", "华东油库", stops)
	for _, body := range []string{RouteCore, "【调度】{plate} {time} 前装车。" + RouteCore + "\n注意安全"} {
		if err := Check(KindDispatch, body); err != nil {
			t.Fatal(err)
		}
		text := DispatchText(body, route, vars)
		no, depot, got, ok := waybill.ParseDispatchText(text)
		if !ok || no != "YD0001" || depot != "华东油库" || strings.Join(got, ",") != "嘉兴站,桐乡站" {
			t.Errorf("%q → %q: %q %q %q %v", body, text, no, depot, got, ok)
		}
	}
	if got := DispatchText(RouteCore, route, nil); got != "运单 YD0001：华东油库→嘉兴站→桐乡站" {
		t.Errorf("default changed the text: %q", got)
	}
	many := make([]string, 40)
	for i := range many {
		many[i] = "很长的加油站名称"
	}
	text := DispatchText("请装车："+RouteCore+"\n注意安全", waybill.DispatchText("YD0002", "华东油库", many), nil)
	if n := len([]rune(text)); n != TextLimit || !strings.HasSuffix(text, "\n注意安全") {
		t.Errorf("long route: %d %q", n, text)
	}
}
