package i18n

import (
	"strings"
	"testing"
)

func TestCatalogueComplete(t *testing.T) {
	for _, k := range Keys() {
		e := Entry(k)
		verbs := strings.Count(e[0], "%")
		for i, s := range e {
			if strings.TrimSpace(s) == "" {
				t.Errorf("%s: language %d empty", k, i)
			}
			if strings.Count(s, "%") != verbs {
				t.Errorf("%s: language %d has a different number of placeholders", k, i)
			}
		}
	}
}

func TestFromAcceptLanguage(t *testing.T) {
	for h, want := range map[string]Lang{
		"": ZhCN, "zh-CN": ZhCN, "zh": ZhCN, "zh-TW": ZhTW, "zh-HK,zh;q=0.9": ZhTW, "zh-Hant-TW": ZhTW,
		"en": EnUS, "en-GB,en;q=0.8": EnUS, "EN-us": EnUS, "fr-FR": ZhCN, "de,en;q=0.5": ZhCN,
	} {
		if got := FromAcceptLanguage(h); got != want {
			t.Errorf("%q: %v, want %v", h, got, want)
		}
	}
}

func TestValidationMessagesInThreeLanguages(t *testing.T) {
	cases := []struct {
		key  string
		args []any
		want [3]string
	}{
		{"field.required", []any{Field("account")}, [3]string{"账号不能为空", "帳號不能為空", "Account cannot be empty"}},
		{"field.invalid", []any{Field("phone")}, [3]string{"手机号格式不正确", "手機號碼格式不正確", "Mobile number is not valid"}},
		{"field.length", []any{Field("name"), 2, 32}, [3]string{"账号长度应为 2–32 个字符", "帳號長度應為 2–32 個字元", "Account must be 2–32 characters long"}},
		{"login.wrong", nil, [3]string{"用户名或密码错误", "用戶名或密碼錯誤", "Wrong user name or password"}},
		{"forbidden", nil, [3]string{"没有权限执行此操作", "沒有權限執行此操作", "You do not have permission for this action"}},
		{"scope", nil, [3]string{"该记录不在您的数据范围内", "該記錄不在您的資料範圍內", "This record is outside your data scope"}},
	}
	for _, c := range cases {
		for i, l := range []Lang{ZhCN, ZhTW, EnUS} {
			if got := T(l, c.key, c.args...); got != c.want[i] {
				t.Errorf("%s %v: %q, want %q", c.key, l, got, c.want[i])
			}
		}
	}
	if T(EnUS, "no.such.key") != "no.such.key" {
		t.Error("unknown key not echoed")
	}
}

func TestTexts(t *testing.T) {
	got := Texts(func(l Lang) string { return T(l, "help.type.1") })
	want := map[string]string{"zh-CN": "开锁", "zh-TW": "開鎖", "en-US": "unlock"}
	if len(got) != len(want) {
		t.Fatalf("Texts = %v", got)
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("Texts[%s] = %q, want %q", k, got[k], w)
		}
	}
}
