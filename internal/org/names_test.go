package org_test

import (
	"slices"
	"strings"
	"testing"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/org"
	"tankwatch/internal/platform/httpx"
)

// TestNameValidation: account names follow the account rule, nicknames and group names carry no
// control characters, line breaks or direction controls, a nickname is at most 32 characters, two
// groups of one name under one parent are refused — each refusal in the caller's language and with
// nothing stored (D29).
func TestNameValidation(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		admin := e.Login("admin", "admin123")
		g := e.Groups(admin)
		user := func(kv ...any) map[string]any {
			m := map[string]any{"name": "li.si", "nickName": "小李", "password": "secret1", "groupId": g["华东分公司"]}
			for i := 0; i < len(kv); i += 2 {
				m[kv[i].(string)] = kv[i+1]
			}
			return m
		}
		group := func(kv ...any) map[string]any {
			m := map[string]any{"parentId": g["华东分公司"], "name": "苏州车队"}
			for i := 0; i < len(kv); i += 2 {
				m[kv[i].(string)] = kv[i+1]
			}
			return m
		}
		account := [3]string{"账号只能包含字母、数字和 _ . - @，长度为 3–32 个字符", "帳號只能包含字母、數字和 _ . - @，長度為 3–32 個字元",
			"The account may contain only letters, digits and _ . - @, 3–32 characters"}
		hidden := func(zh, tw, en string) [3]string {
			return [3]string{zh + "不能包含控制字符、换行或文字方向控制符", tw + "不能包含控制字元、換行或文字方向控制字元",
				en + " cannot contain control characters, line breaks or text direction controls"}
		}
		nick, groupName := hidden("昵称", "暱稱", "Nickname"), hidden("组织名称", "組織名稱", "Group name")
		for _, c := range []struct {
			name, path string
			body       map[string]any
			msg        [3]string
		}{
			{"account of two characters", "/authority-app/userInfo/insert", user("name", "li"), account},
			{"account of 33 characters", "/authority-app/userInfo/insert", user("name", strings.Repeat("a", 33)), account},
			{"account with a space", "/authority-app/userInfo/insert", user("name", "li si"), account},
			{"account in Chinese", "/authority-app/userInfo/insert", user("name", "李四账号"), account},
			{"account with a slash", "/authority-app/userInfo/insert", user("name", "li/si"), account},
			{"account with a right-to-left override", "/authority-app/userInfo/insert", user("name", "adm\u202Enim"), account},
			{"nickname with a line break", "/authority-app/userInfo/insert", user("nickName", "小李\n管理员"), nick},
			{"nickname with a tab", "/authority-app/userInfo/insert", user("nickName", "小\t李"), nick},
			{"nickname with a right-to-left override", "/authority-app/userInfo/insert", user("nickName", "小李\u202E员理管"), nick},
			{"nickname with a left-to-right isolate", "/authority-app/userInfo/insert", user("nickName", "\u2066小李"), nick},
			{"nickname with a right-to-left mark", "/authority-app/userInfo/insert", user("nickName", "小\u200F李"), nick},
			{"nickname with a line separator", "/authority-app/userInfo/insert", user("nickName", "小\u2028李"), nick},
			{"nickname of 33 characters", "/authority-app/userInfo/insert", user("nickName", strings.Repeat("李", 33)),
				[3]string{"昵称不能超过 32 个字符", "暱稱不能超過 32 個字元", "Nickname cannot be longer than 32 characters"}},
			{"group name with a line break", "/authority-app/groupInfo/addChildren", group("name", "苏州\r\n车队"), groupName},
			{"group name with an embedding", "/authority-app/groupInfo/addChildren", group("name", "苏州\u202A车队"), groupName},
			{"group name with a pop isolate", "/authority-app/groupInfo/addChildren", group("name", "苏州车队\u2069"), groupName},
			{"group name with an escape sequence", "/authority-app/groupInfo/addChildren", group("name", "苏州\x1b[31m车队"), groupName},
			{"a second 上海车队 under 华东", "/authority-app/groupInfo/addChildren", group("name", "上海车队"),
				[3]string{"同一上级组织下已有名为“上海车队”的组织", "同一上級組織下已有名為「上海车队」的組織", "A group named “上海车队” already exists under the same parent"}},
			{"a second 华北分公司 at the top's level", "/authority-app/groupInfo/add", group("parentId", g[org.DemoTopGroup], "name", " 华北分公司 "),
				[3]string{"同一上级组织下已有名为“华北分公司”的组织", "同一上級組織下已有名為「华北分公司」的組織", "A group named “华北分公司” already exists under the same parent"}},
		} {
			for i, lang := range []string{"zh-CN", "zh-TW", "en-US"} {
				e.Lang = lang
				r := e.Call("POST", c.path, admin, c.body)
				if r.Status != 200 || r.Code != 0 || r.Message != c.msg[i] {
					t.Errorf("%s (%s): %d %s, want %q", c.name, lang, r.Status, r.Body, c.msg[i])
				}
			}
		}
		e.Lang = ""
		if n := len(e.Groups(admin)); n != len(g) {
			t.Fatalf("refused groups were stored: %d groups, was %d", n, len(g))
		}

		// what the rule allows
		for _, name := range []string{"li.si", "wang_wu-2", "ops@example.com", strings.Repeat("a", 32), "abc"} {
			e.MustOK("POST", "/authority-app/userInfo/insert", admin, user("name", name, "nickName", strings.Repeat("李", 32)))
		}
		sz := e.MustOK("POST", "/authority-app/groupInfo/addChildren", admin, group()).ID()
		// the same name under another parent is fine, and so is editing a group without renaming it
		e.MustOK("POST", "/authority-app/groupInfo/addChildren", admin, group("parentId", g["华北分公司"]))
		e.MustOK("POST", "/authority-app/groupInfo/edit", admin, map[string]any{"id": sz, "name": "苏州车队", "contact": "周"})
		// renaming onto a sibling's name or moving next to a namesake is refused
		if r := e.Call("POST", "/authority-app/groupInfo/edit", admin, map[string]any{"id": sz, "name": "上海车队"}); r.Code != 0 || !strings.Contains(r.Message, "上海车队") {
			t.Errorf("rename onto a sibling: %d %s", r.Status, r.Body)
		}
		if r := e.Call("POST", "/authority-app/groupInfo/edit", admin, map[string]any{"id": sz, "name": "苏州车队", "parentId": g["华北分公司"]}); r.Code != 0 || !strings.Contains(r.Message, "苏州车队") {
			t.Errorf("move next to a namesake: %d %s", r.Status, r.Body)
		}

		// an account created before the rule keeps its name when other fields are edited, and cannot be
		// renamed to another name that breaks it
		id := e.MustOK("POST", "/authority-app/userInfo/insert", admin, user("name", "legacy")).ID()
		if _, err := e.DB.NewUpdate().TableExpr("users").Set("name = ?", "老账号").Where("id = ?", id).Exec(t.Context()); err != nil {
			t.Fatal(err)
		}
		e.MustOK("POST", "/authority-app/userInfo/update", admin, map[string]any{"id": id, "name": "老账号", "nickName": "老张", "groupId": g["华东分公司"]})
		if r := e.Call("POST", "/authority-app/userInfo/update", admin, map[string]any{"id": id, "name": "新账号", "groupId": g["华东分公司"]}); r.Message != account[0] {
			t.Errorf("renamed to a name breaking the rule: %s", r.Body)
		}

		// the 下级组织 table of a group lists its sub-groups, not the group itself
		var page httpx.Page[org.GroupView]
		e.MustOK("POST", "/authority-app/groupInfo/findAllChildrenPage", admin, map[string]any{"id": g["华东分公司"]}).Decode(&page)
		var names []string
		for _, v := range page.List {
			names = append(names, v.Name)
		}
		slices.Sort(names)
		if !slices.Equal(names, []string{"上海车队", "苏州车队"}) || page.Total != 2 {
			t.Errorf("下级组织 of 华东分公司: %v (total %d)", names, page.Total)
		}
	})
}
