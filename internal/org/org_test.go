package org_test

import (
	"encoding/base64"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/org"
	"tankwatch/internal/platform/config"
	"tankwatch/internal/platform/httpx"
)

func groupIDs(t *testing.T, e *apptest.Env, tok string) map[string]int64 {
	t.Helper()
	return e.Groups(tok)
}

func expectFail(t *testing.T, r *apptest.Resp, msg string) {
	t.Helper()
	if r.Status != 200 || r.Code != 0 || r.Message != msg {
		t.Fatalf("got %d %s, want code 0 %q", r.Status, r.Body, msg)
	}
}

func TestLogin(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		for _, a := range org.DemoAccounts {
			e.Login("  "+a.Name+" ", a.Password) // account is trimmed
		}
		admin := e.Login("admin", "admin123")
		g := groupIDs(t, e, admin)
		login := func(name, pw string) *apptest.Resp {
			return e.Call("POST", "/authority-app/logIn", "", map[string]any{"account": name, "password": pw, "type": 0})
		}
		expectFail(t, login("admin", "nope"), "用户名或密码错误")
		expectFail(t, login("ghost", "nope"), "用户名或密码错误")
		expectFail(t, login("", "x"), "账号不能为空")
		e.Lang = "en-US"
		expectFail(t, login("admin", "nope"), "Wrong user name or password")
		e.Lang = "zh-TW"
		expectFail(t, login("admin", "nope"), "用戶名或密碼錯誤")
		e.Lang = ""

		// disabled and expired accounts
		id := e.MustOK("POST", "/authority-app/userInfo/insert", admin, map[string]any{"name": "temp", "password": "secret1", "groupId": g["华南分公司"]}).ID()
		tok := e.Login("temp", "secret1")
		e.MustOK("POST", "/authority-app/userInfo/updateStatus", admin, map[string]any{"id": id, "status": 0})
		expectFail(t, login("temp", "secret1"), "账号已停用，请联系管理员")
		if r := e.Call("GET", "/authority-app/userInfo/current", tok, nil); r.Status != 401 {
			t.Fatalf("disabled user's token still valid: %d", r.Status)
		}
		past := e.Clock.Now().Add(-time.Hour).In(httpx.Shanghai).Format(httpx.TimeLayout)
		e.MustOK("POST", "/authority-app/userInfo/update", admin, map[string]any{"id": id, "name": "temp", "groupId": g["华南分公司"], "status": 1, "expireAt": past})
		expectFail(t, login("temp", "secret1"), "账号已过期，请联系管理员")

		// rate limit: 5 failures lock the account for 15 minutes from this address, even with the right
		// password (other addresses: internal/app TestLoginLockoutIsPerAddress)
		for i := 0; i < 5; i++ {
			expectFail(t, login("dispatcher", "wrong"), "用户名或密码错误")
		}
		expectFail(t, login("dispatcher", "dispatch123"), "密码错误次数过多，此账号已在本地址锁定 15 分钟，请稍后再试或联系管理员解锁")
		e.Clock.Advance(15*time.Minute + time.Second)
		e.Login("dispatcher", "dispatch123")

		// logins and logouts are in the operation log
		e.MustOK("GET", "/authority-app/logOut", tok2(e), nil)
		var page httpx.Page[map[string]any]
		e.MustOK("POST", "/authority-app/operationLog/page", admin, map[string]any{"module": "auth", "pageSize": 100}).Decode(&page)
		actions := map[string]int{}
		for _, row := range page.List {
			actions[row["action"].(string)]++
		}
		if actions["login"] < 4 || actions["logout"] != 1 {
			t.Fatalf("auth log: %v", actions)
		}
	})
}

func tok2(e *apptest.Env) string { return e.Login("customer", "customer123") }

func TestUsers(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		admin := e.Login("admin", "admin123")
		g := groupIDs(t, e, admin)
		var roles []org.RoleView
		e.MustOK("POST", "/authority-app/roleInfo/list", admin, map[string]any{}).Decode(&roles)
		roleID := map[string]int64{}
		for _, r := range roles {
			roleID[r.Name] = r.ID
		}
		ins := func(body map[string]any) *apptest.Resp {
			return e.Call("POST", "/authority-app/userInfo/insert", admin, body)
		}
		base := func(kv ...any) map[string]any {
			m := map[string]any{"name": "wang", "nickName": "小王", "password": "secret1", "phone": "13800138000",
				"email": "wang@example.com", "groupId": g["华东分公司"], "roleIds": []int64{roleID["客户"]}}
			for i := 0; i < len(kv); i += 2 {
				m[kv[i].(string)] = kv[i+1]
			}
			return m
		}
		expectFail(t, ins(base("name", " ")), "账号不能为空")
		expectFail(t, ins(base("name", "wa")), "账号只能包含字母、数字和 _ . - @，长度为 3–32 个字符")
		expectFail(t, ins(base("password", "")), "密码不能为空")
		expectFail(t, ins(base("password", "12345")), "密码长度应为 6–64 个字符")
		expectFail(t, ins(base("phone", "12345")), "手机号格式不正确")
		expectFail(t, ins(base("email", "nope")), "邮箱格式不正确")
		expectFail(t, ins(base("groupId", 0)), "组织不能为空")
		expectFail(t, ins(base("name", "admin")), "账号已存在")
		e.Lang = "en-US"
		expectFail(t, ins(base("phone", "12345")), "Mobile number is not valid")
		expectFail(t, ins(base("name", "admin")), "The account already exists")
		e.Lang = ""
		if r := ins(base("groupId", "x")); r.Status != 400 || !strings.Contains(r.Message, "groupId") {
			t.Fatalf("wrong type: %d %s", r.Status, r.Body)
		}

		var u org.UserView
		e.MustOK("POST", "/authority-app/userInfo/insert", admin, base()).Decode(&u)
		if u.GroupName != "华东分公司" || !slices.Equal(u.RoleNames, []string{"客户"}) || u.Status != 1 {
			t.Fatalf("inserted: %+v", u)
		}
		wang := e.Login("wang", "secret1")

		// page: filters, subtree, sorting
		var page httpx.Page[org.UserView]
		e.MustOK("POST", "/authority-app/userInfo/page", admin, map[string]any{"groupId": g["华东分公司"], "sortField": "name", "sortOrder": "descend"}).Decode(&page)
		if page.Total != 2 || page.List[0].Name != "wang" || page.List[1].Name != "customer" {
			t.Fatalf("subtree page: %+v", page)
		}
		e.MustOK("POST", "/authority-app/userInfo/page", admin, map[string]any{"nickName": "王", "pageSize": 1}).Decode(&page)
		if page.Total != 2 || len(page.List) != 1 || page.PageSize != 1 {
			t.Fatalf("nickName page: %+v", page)
		}
		expectFail(t, e.Call("POST", "/authority-app/userInfo/page", admin, map[string]any{"sortField": "password_hash"}), "排序字段格式不正确")

		// update (password untouched), detail
		e.MustOK("POST", "/authority-app/userInfo/update", admin, map[string]any{"id": u.ID, "name": "wang", "nickName": "王师傅",
			"groupId": g["上海车队"], "roleIds": []int64{roleID["调度员"]}})
		var d org.UserView
		e.MustOK("GET", fmt.Sprintf("/authority-app/userInfo/detail?id=%d", u.ID), admin, nil).Decode(&d)
		if d.NickName != "王师傅" || d.GroupName != "上海车队" || !slices.Equal(d.RoleNames, []string{"调度员"}) {
			t.Fatalf("updated: %+v", d)
		}
		e.Login("wang", "secret1")

		// reset password: new one works, old tokens revoked
		var pw struct{ Password string }
		e.MustOK("GET", fmt.Sprintf("/authority-app/userInfo/resetPassword?id=%d", u.ID), admin, nil).Decode(&pw)
		if len(pw.Password) != 10 {
			t.Fatalf("reset password %q", pw.Password)
		}
		if r := e.Call("GET", "/authority-app/userInfo/current", wang, nil); r.Status != 401 {
			t.Fatal("token survived a password reset")
		}
		wang = e.Login("wang", pw.Password)

		// own password change
		pwc := func(oldPw, newPw string) *apptest.Resp {
			return e.Call("POST", "/authority-app/userInfo/passwordUpdate", wang, map[string]any{"oldPassword": oldPw, "newPassword": newPw})
		}
		expectFail(t, pwc("wrong", "newsecret"), "原密码错误")
		expectFail(t, pwc(pw.Password, "123"), "新密码长度至少6位")
		if r := pwc(pw.Password, "newsecret"); r.Code != 1 || r.Message != "密码修改成功" {
			t.Fatalf("password change: %s", r.Body)
		}
		e.MustOK("GET", "/authority-app/userInfo/current", wang, nil) // the current token stays valid
		e.Login("wang", "newsecret")

		// the caller cannot delete or disable themselves
		var me org.Session
		e.MustOK("GET", "/authority-app/userInfo/current", admin, nil).Decode(&me)
		expectFail(t, e.Call("POST", "/authority-app/userInfo/deleteByIds", admin, map[string]any{"ids": []int64{me.UserID}}), "不能删除自己")
		expectFail(t, e.Call("POST", "/authority-app/userInfo/updateStatus", admin, map[string]any{"id": me.UserID, "status": 0}), "不能停用自己")

		// delete: tokens go with the user
		var n int
		e.MustOK("POST", "/authority-app/userInfo/deleteByIds", admin, map[string]any{"ids": []int64{u.ID}}).Decode(&n)
		if n != 1 {
			t.Fatalf("deleted %d", n)
		}
		if r := e.Call("GET", "/authority-app/userInfo/current", wang, nil); r.Status != 401 {
			t.Fatal("deleted user's token still valid")
		}
		expectFail(t, e.Call("GET", fmt.Sprintf("/authority-app/userInfo/detail?id=%d", u.ID), admin, nil), "记录不存在")

		// every mutation is in the operation log with its target
		var log httpx.Page[map[string]any]
		e.MustOK("POST", "/authority-app/operationLog/page", admin, map[string]any{"module": "user", "target": "wang", "pageSize": 50}).Decode(&log)
		got := map[string]bool{}
		for _, row := range log.List {
			got[row["action"].(string)] = true
			if row["targetId"].(float64) != float64(u.ID) || row["ip"] == "" {
				t.Errorf("log row %v", row)
			}
		}
		for _, a := range []string{"insert", "update", "resetPassword", "passwordUpdate", "delete"} {
			if !got[a] {
				t.Errorf("no %s entry: %v", a, got)
			}
		}
	})
}

func TestRolesAndGrants(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		admin := e.Login("admin", "admin123")
		g := groupIDs(t, e, admin)
		codes := []string{"01", "06-07", "06-07-01", "06-07-02", "06-07-03", "06-08", "06-08-01", "06-04"}
		ra := e.MustOK("POST", "/authority-app/roleInfo/insert", admin, map[string]any{"name": "角色管理员", "groupId": g["华东分公司"], "resourceCodes": codes}).ID()
		expectFail(t, e.Call("POST", "/authority-app/roleInfo/insert", admin, map[string]any{"name": "角色管理员", "groupId": g["华东分公司"]}), "该组织下已有同名角色")
		expectFail(t, e.Call("POST", "/authority-app/roleInfo/insert", admin, map[string]any{"name": "x", "resourceCodes": []string{"99-99"}}), "权限编码 99-99 不存在")
		expectFail(t, e.Call("POST", "/authority-app/roleInfo/insert", admin, map[string]any{"name": ""}), "角色名称不能为空")
		e.MustOK("POST", "/authority-app/userInfo/insert", admin, map[string]any{"name": "roleadmin", "password": "secret1", "groupId": g["华东分公司"], "roleIds": []int64{ra}})
		tok := e.Login("roleadmin", "secret1")

		// may only grant held codes
		expectFail(t, e.Call("POST", "/authority-app/roleInfo/insert", tok, map[string]any{"name": "更多", "resourceCodes": []string{"06-08-03"}}), "不能授予您没有的权限")
		small := e.MustOK("POST", "/authority-app/roleInfo/insert", tok, map[string]any{"name": "只读", "resourceCodes": []string{"01", "06-07"}}).ID()
		// cannot assign a role granting codes beyond their own (the super administrator role is out of scope anyway)
		var all []org.RoleView
		e.MustOK("POST", "/authority-app/roleInfo/list", tok, map[string]any{}).Decode(&all)
		if len(all) != 2 {
			t.Fatalf("visible roles: %+v", all)
		}
		// findTrees shows only what the caller may grant
		var tree []*org.MenuNode
		e.MustOK("GET", "/authority-app/resourceInfo/findTrees", tok, nil).Decode(&tree)
		if len(tree) != 2 || tree[0].Code != "01" || tree[1].Code != "06" || len(tree[1].Children) != 3 {
			t.Fatalf("grantable tree: %+v", tree)
		}
		// update keeps codes the caller lacks but cannot add more
		e.MustOK("POST", "/authority-app/roleInfo/update", tok, map[string]any{"id": small, "name": "只读2", "resourceCodes": []string{"01"}})
		var rv org.RoleView
		e.MustOK("GET", fmt.Sprintf("/authority-app/roleInfo/detail?id=%d", small), tok, nil).Decode(&rv)
		if rv.Name != "只读2" || !slices.Equal(rv.ResourceCodes, []string{"01"}) {
			t.Fatalf("updated role: %+v", rv)
		}
		// delete refused while assigned
		expectFail(t, e.Call("POST", "/authority-app/roleInfo/deleteByIds", admin, map[string]any{"ids": []int64{ra}}), "该角色已分配给用户，不能删除")
		e.MustOK("POST", "/authority-app/roleInfo/deleteByIds", tok, map[string]any{"ids": []int64{small}})
		var page httpx.Page[org.RoleView]
		e.MustOK("POST", "/authority-app/roleInfo/page", tok, map[string]any{}).Decode(&page)
		if page.Total != 1 || page.List[0].UserCount != 1 {
			t.Fatalf("role page: %+v", page)
		}
	})
}

func TestMenusOfDemoAccounts(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		modules := func(name, pw string) []string {
			tok := e.Login(name, pw)
			var me org.Session
			e.MustOK("GET", "/authority-app/userInfo/current", tok, nil).Decode(&me)
			var tree []*org.MenuNode
			e.MustOK("GET", fmt.Sprintf("/authority-app/resourceInfo/findTreesForLogin?userId=%d", me.UserID), tok, nil).Decode(&tree)
			var out []string
			for _, m := range tree {
				out = append(out, m.Code)
			}
			return out
		}
		if got := modules("admin", "admin123"); len(got) != 8 {
			t.Errorf("admin modules %v", got)
		}
		if got := modules("dispatcher", "dispatch123"); !slices.Equal(got, []string{"01", "04", "02", "03"}) {
			t.Errorf("dispatcher modules %v", got)
		}
		if got := modules("customer", "customer123"); !slices.Equal(got, []string{"01", "04"}) {
			t.Errorf("customer modules %v", got)
		}
	})
}

func TestGroups(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		admin := e.Login("admin", "admin123")
		g := groupIDs(t, e, admin)
		var top org.GroupView
		e.MustOK("POST", "/authority-app/groupInfo/add", admin, map[string]any{"name": "第二集团", "id": 999}).Decode(&top)
		if top.ParentID != nil || top.Code != fmt.Sprintf("G%04d", top.ID) || top.ID == 999 {
			t.Fatalf("top group: %+v", top)
		}
		expectFail(t, e.Call("POST", "/authority-app/groupInfo/add", admin, map[string]any{"parentId": g["华北分公司"], "name": "x", "code": "G0001"}), "组织编码已存在")
		expectFail(t, e.Call("POST", "/authority-app/groupInfo/addChildren", admin, map[string]any{"name": "x"}), "上级组织不能为空")
		expectFail(t, e.Call("POST", "/authority-app/groupInfo/add", admin, map[string]any{"parentId": g["华北分公司"], "name": " "}), "组织名称不能为空")
		tj := e.MustOK("POST", "/authority-app/groupInfo/addChildren", admin, map[string]any{"parentId": g["华北分公司"], "name": "天津车队", "code": "TJ-01"}).ID()
		bh := e.MustOK("POST", "/authority-app/groupInfo/addChildren", admin, map[string]any{"parentId": tj, "name": "滨海班组"}).ID()

		var parents []int64
		e.MustOK("GET", fmt.Sprintf("/authority-app/groupInfo/findParents?id=%d", bh), admin, nil).Decode(&parents)
		if !slices.Equal(parents, []int64{g["中油运输集团"], g["华北分公司"], tj}) {
			t.Fatalf("parents %v", parents)
		}
		// move 天津车队 (with its child) under 华东分公司
		expectFail(t, e.Call("POST", "/authority-app/groupInfo/edit", admin, map[string]any{"id": tj, "name": "天津车队", "parentId": bh}), "不能把组织移动到它自己或它的下级组织下")
		e.MustOK("POST", "/authority-app/groupInfo/edit", admin, map[string]any{"id": tj, "name": "天津车队", "parentId": g["华东分公司"], "contact": "李"})
		var sub []org.GroupView
		e.MustOK("POST", "/authority-app/groupInfo/findAllChildren", admin, map[string]any{"id": g["华东分公司"]}).Decode(&sub)
		names := []string{}
		for _, s := range sub {
			names = append(names, s.Name)
		}
		if !slices.Contains(names, "滨海班组") || !slices.Contains(names, "天津车队") || len(sub) != 4 {
			t.Fatalf("华东 subtree after move: %v", names)
		}
		// the customer in 华东 now sees the moved groups
		cust := e.Login("customer", "customer123")
		_ = cust
		var page httpx.Page[org.GroupView]
		e.MustOK("POST", "/authority-app/groupInfo/findAllChildrenPage", admin, map[string]any{"id": g["华东分公司"], "name": "车队", "pageSize": 1}).Decode(&page)
		if page.Total != 2 || len(page.List) != 1 {
			t.Fatalf("children page %+v", page)
		}
		// search tree keeps ancestors
		var tree []*org.GroupView
		e.MustOK("POST", "/authority-app/groupInfo/findTrees", admin, map[string]any{"name": "滨海"}).Decode(&tree)
		if len(tree) != 1 || tree[0].Children[0].Name != "华东分公司" || tree[0].Children[0].Children[0].Children[0].Name != "滨海班组" {
			t.Fatalf("search tree")
		}
		// delete rules
		expectFail(t, e.Call("POST", "/authority-app/groupInfo/delete", admin, map[string]any{"id": tj}), "请先删除下级组织")
		expectFail(t, e.Call("POST", "/authority-app/groupInfo/delete", admin, map[string]any{"id": g["华东分公司"]}), "请先删除下级组织")
		expectFail(t, e.Call("POST", "/authority-app/groupInfo/delete", admin, map[string]any{"id": g["中油运输集团"]}), "不能删除自己所在的组织")
		e.MustOK("POST", "/authority-app/userInfo/insert", admin, map[string]any{"name": "binhai", "password": "secret1", "groupId": bh})
		expectFail(t, e.Call("POST", "/authority-app/groupInfo/delete", admin, map[string]any{"id": bh}), "该组织下还有用户")
		// 华南分公司 holds demo vehicles, SIM cards and terminals: refused until they are gone
		expectFail(t, e.Call("POST", "/authority-app/groupInfo/delete", admin, map[string]any{"id": g["华南分公司"]}), "该组织下还有车辆、SIM 卡或终端")
		for _, table := range []string{"terminal_bindings", "terminals", "sims", "car_video_channels", "car_blacklist", "locks", "cars"} {
			if _, err := e.DB.NewDelete().TableExpr(table).Where("1 = 1").Exec(t.Context()); err != nil {
				t.Fatal(err)
			}
		}
		// and one holding stations
		expectFail(t, e.Call("POST", "/authority-app/groupInfo/delete", admin, map[string]any{"id": g["华南分公司"]}), "该组织下还有站点或疑似站点")
		if _, err := e.DB.NewDelete().TableExpr("stations").Where("1 = 1").Exec(t.Context()); err != nil {
			t.Fatal(err)
		}
		// and one holding the waybill chain's products and customers
		expectFail(t, e.Call("POST", "/authority-app/groupInfo/delete", admin, map[string]any{"id": g["华南分公司"]}), "该组织下还有油品、客户、运单或运输计划")
		for _, table := range []string{"customer_cars", "customer_stations", "customers", "products"} {
			if _, err := e.DB.NewDelete().TableExpr(table).Where("1 = 1").Exec(t.Context()); err != nil {
				t.Fatal(err)
			}
		}
		// and one holding staff or equipment (issue 18)
		expectFail(t, e.Call("POST", "/authority-app/groupInfo/delete", admin, map[string]any{"id": g["华南分公司"]}), "该组织下还有员工、岗位、请假记录、操作流程、设备或售后记录")
		for _, table := range []string{"leave_records", "duty_holders", "employee_photos", "employees", "op_flow_steps", "op_flow_stations", "op_flow_products", "op_flows", "duties", "equipment", "faults"} {
			if _, err := e.DB.NewDelete().TableExpr(table).Where("1 = 1").Exec(t.Context()); err != nil {
				t.Fatal(err)
			}
		}
		// and so is a group holding sensors
		sensor := e.MustOK("POST", "/base-info-app/sensor/add", admin, map[string]any{"groupId": g["华南分公司"], "name": "液位探杆",
			"identification": "A1", "decoder": "level"}).ID()
		expectFail(t, e.Call("POST", "/authority-app/groupInfo/delete", admin, map[string]any{"id": g["华南分公司"]}), "该组织下还有传感器")
		e.MustOK("POST", "/base-info-app/sensor/delete", admin, map[string]any{"id": sensor})
		e.MustOK("POST", "/authority-app/groupInfo/delete", admin, map[string]any{"id": g["华南分公司"]})
		if _, ok := groupIDs(t, e, admin)["华南分公司"]; ok {
			t.Fatal("group not deleted")
		}
	})
}

func TestThemeTitleLogoInheritance(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		admin := e.Login("admin", "admin123")
		cust := e.Login("customer", "customer123")
		g := groupIDs(t, e, admin)
		current := func(tok string) org.Session {
			var s org.Session
			e.MustOK("GET", "/authority-app/userInfo/current", tok, nil).Decode(&s)
			return s
		}
		if s := current(cust); s.Theme != "tankcar" || s.IndexTitle != "" || s.IndexLogo != "/themes/tankcar/logo.svg" || s.TopGroupID != g["中油运输集团"] {
			t.Fatalf("default look: %+v", s)
		}
		e.MustOK("POST", "/authority-app/groupInfo/editImgAndTittle", admin, map[string]any{"id": g["中油运输集团"], "title": "中油监控平台", "theme": "groundtank"})
		if s := current(cust); s.Theme != "groundtank" || s.IndexTitle != "中油监控平台" || s.IndexLogo != "/themes/groundtank/logo.svg" {
			t.Fatalf("inherited from top: %+v", s)
		}
		png := "data:image/png;base64," + base64.StdEncoding.EncodeToString([]byte("\x89PNG\r\n\x1a\nfake"))
		e.MustOK("POST", "/authority-app/groupInfo/editImgAndTittle", admin, map[string]any{"id": g["华东分公司"], "title": "华东平台", "logo": png, "theme": "escort"})
		s := current(cust)
		if s.Theme != "escort" || s.IndexTitle != "华东平台" || !strings.HasPrefix(s.IndexLogo, fmt.Sprintf("/authority-app/groupInfo/logo/%d?v=", g["华东分公司"])) {
			t.Fatalf("nearest group wins: %+v", s)
		}
		if a := current(admin); a.IndexTitle != "中油监控平台" || a.Theme != "groundtank" {
			t.Fatalf("admin's look changed by a subsidiary: %+v", a)
		}
		// the group lists (which leave the logo bytes out) still report the custom logo
		var tree []struct {
			ID       int64  `json:"id"`
			Logo     string `json:"logo"`
			Children []struct {
				ID   int64  `json:"id"`
				Logo string `json:"logo"`
			} `json:"children"`
		}
		e.MustOK("POST", "/authority-app/groupInfo/findTrees", admin, map[string]any{}).Decode(&tree)
		listed := ""
		for _, c := range tree[0].Children {
			if c.ID == g["华东分公司"] {
				listed = c.Logo
			}
		}
		if listed != s.IndexLogo {
			t.Fatalf("findTrees logo %q, session logo %q", listed, s.IndexLogo)
		}
		r := e.Call("GET", s.IndexLogo, "", nil)
		if r.Status != 200 || r.Header.Get("Content-Type") != "image/png" || !strings.HasPrefix(string(r.Body), "\x89PNG") {
			t.Fatalf("logo: %d %v", r.Status, r.Header)
		}
		expectFail(t, e.Call("POST", "/authority-app/groupInfo/editImgAndTittle", admin, map[string]any{"id": g["华东分公司"], "theme": "pink"}), "主题格式不正确")
		expectFail(t, e.Call("POST", "/authority-app/groupInfo/editImgAndTittle", admin, map[string]any{"id": g["华东分公司"], "logo": "data:text/html;base64,PGgxPg=="}), "标志必须是 PNG、JPEG 或 SVG 图片的 data URL")
		// clearing falls back to the parent again
		e.MustOK("POST", "/authority-app/groupInfo/editImgAndTittle", admin, map[string]any{"id": g["华东分公司"], "title": "", "logo": "", "theme": ""})
		if s := current(cust); s.Theme != "groundtank" || s.IndexTitle != "中油监控平台" {
			t.Fatalf("cleared: %+v", s)
		}
		if r := e.Call("GET", fmt.Sprintf("/authority-app/groupInfo/logo/%d", g["华东分公司"]), "", nil); r.Status != 404 {
			t.Fatalf("cleared logo served: %d", r.Status)
		}
		// updateLogo (06-13-01) edits the caller's own group; the platform group's look (what every tenant
		// inherits) only a platform administrator changes (D29)
		role := e.MustOK("POST", "/authority-app/roleInfo/insert", admin, map[string]any{"name": "标志", "groupId": g["华东分公司"], "resourceCodes": []string{"06-13", "06-13-01"}}).ID()
		e.MustOK("POST", "/authority-app/userInfo/insert", admin, map[string]any{"name": "logoman", "password": "secret1", "groupId": g["华东分公司"], "roleIds": []int64{role}})
		lm := e.Login("logoman", "secret1")
		for lang, msg := range map[string]string{"": "这是全平台的设置，只有平台管理员可以修改", "zh-TW": "這是全平台的設定，只有平台管理員可以修改",
			"en-US": "This is a platform-wide setting; only a platform administrator can change it"} {
			e.Lang = lang
			if r := e.Call("POST", "/authority-app/groupInfo/editImgAndTittle", lm, map[string]any{"id": g["中油运输集团"], "title": "新标题"}); r.Status != 403 || r.Message != msg {
				t.Fatalf("a subsidiary's updateLogo edited the platform group (%s): %d %s", lang, r.Status, r.Body)
			}
		}
		e.Lang = ""
		if a := current(admin); a.IndexTitle != "中油监控平台" {
			t.Fatalf("platform title changed by a subsidiary: %+v", a)
		}
		e.MustOK("POST", "/authority-app/groupInfo/editImgAndTittle", lm, map[string]any{"id": g["华东分公司"], "title": "华东标题"})
		if s := current(cust); s.IndexTitle != "华东标题" {
			t.Fatalf("own group's title: %+v", s)
		}
		if r := e.Call("POST", "/authority-app/groupInfo/editImgAndTittle", lm, map[string]any{"id": g["上海车队"], "title": "x"}); r.Status != 403 {
			t.Fatalf("updateLogo edited another group than the caller's own: %d", r.Status)
		}
		e.MustOK("POST", "/authority-app/groupInfo/editImgAndTittle", admin, map[string]any{"id": g["中油运输集团"], "title": "新标题"})
		if a := current(admin); a.IndexTitle != "新标题" {
			t.Fatalf("platform administrator's title: %+v", a)
		}
	})
}

func TestPlatformInfoAndErrorLog(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		var info org.PlatformInfo
		e.MustOK("GET", "/authority-app/platformInfo", "", nil).Decode(&info)
		if info.Theme != "tankcar" || info.IndexLogo != "/themes/tankcar/logo.svg" || info.IndexTitle != "" || info.MapTiles != "gaode" {
			t.Fatalf("platform info %+v", info)
		}
		var raw map[string]any
		apptest.New(t, "sqlite", config.Config{MapTiles: "none"}).MustOK("GET", "/authority-app/platformInfo", "", nil).Decode(&raw)
		if raw["mapTiles"] != "none" {
			t.Fatalf("platform info with --map-tiles none: %v", raw)
		}
		for _, th := range org.Themes {
			r := e.Call("GET", "/themes/"+th+"/logo.svg", "", nil)
			if r.Status != 200 || r.Header.Get("Content-Type") != "image/svg+xml" || !strings.Contains(string(r.Body), "<svg") {
				t.Fatalf("theme logo %s: %d", th, r.Status)
			}
		}
		if r := e.Call("GET", "/themes/nope/logo.svg", "", nil); r.Status != 404 {
			t.Fatal("unknown theme logo served")
		}
		cust := e.Login("customer", "customer123")
		e.MustOK("POST", "/authority-app/errorLog/add", cust, map[string]any{"type": "script", "code": 0, "message": "x is undefined", "url": "/#/home"})
		e.MustOK("POST", "/authority-app/errorLog/add", "", map[string]any{"type": "http", "code": "500", "message": strings.Repeat("界", 5000)})
		var rows []struct {
			UserID  *int64
			Message string
		}
		if err := e.DB.NewSelect().TableExpr("error_logs").Column("user_id", "message").Order("id").Scan(t.Context(), &rows); err != nil {
			t.Fatal(err)
		}
		if len(rows) != 2 || rows[0].UserID == nil || rows[1].UserID != nil || len(rows[1].Message) > 2000 {
			t.Fatalf("error log rows: %d", len(rows))
		}
		// oversized and malformed bodies
		big := `{"message":"` + strings.Repeat("x", httpx.MaxBody) + `"}`
		if r := e.Call("POST", "/authority-app/errorLog/add", "", big); r.Status != 413 || r.Code != 0 {
			t.Fatalf("oversized: %d %s", r.Status, r.Body)
		}
		if r := e.Call("POST", "/authority-app/logIn", "", `{"account":`); r.Status != 400 || r.Code != 0 {
			t.Fatalf("malformed: %d %s", r.Status, r.Body)
		}
	})
}

func TestSettingsAndExport(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		admin := e.Login("admin", "admin123")
		var set struct {
			Language string `json:"language"`
			Timezone string `json:"timezone"`
		}
		e.MustOK("POST", "/base-info-app/userSetting/edit", admin, map[string]any{"language": "en-US", "timezone": "Asia/Shanghai"}).Decode(&set)
		if set.Language != "en-US" || set.Timezone != "Asia/Shanghai" {
			t.Fatalf("settings %v", set)
		}
		expectFail(t, e.Call("POST", "/base-info-app/userSetting/edit", admin, map[string]any{"timezone": "Mars/Base"}), "时区格式不正确")
		r := e.Call("POST", "/authority-app/operationLog/export", admin, map[string]any{})
		cd := r.Header.Get("Content-Disposition")
		if r.Status != 200 || !strings.Contains(cd, "filename*=UTF-8''%E6%93%8D%E4%BD%9C%E6%97%A5%E5%BF%97-") || !strings.Contains(cd, `filename="operation-log-`) ||
			!strings.HasPrefix(string(r.Body), "PK") {
			t.Fatalf("export: %d %q", r.Status, cd)
		}
		// the customer sees only log entries of users in their scope
		cust := e.Login("customer", "customer123")
		_ = cust
		role := e.MustOK("POST", "/authority-app/roleInfo/insert", admin, map[string]any{"name": "审计", "resourceCodes": []string{"06-03"}}).ID()
		id := e.MustOK("POST", "/authority-app/userInfo/insert", admin, map[string]any{"name": "eastaudit", "password": "secret1", "groupId": 3, "roleIds": []int64{role}}).ID()
		_ = id
		aud := e.Login("eastaudit", "secret1")
		var page httpx.Page[map[string]any]
		e.MustOK("POST", "/authority-app/operationLog/page", aud, map[string]any{"pageSize": 500}).Decode(&page)
		for _, row := range page.List {
			if row["userName"] == "admin" {
				t.Fatal("entry of a user outside the scope shown")
			}
		}
		if page.Total < 2 {
			t.Fatalf("own-scope entries missing: %d", page.Total)
		}
	})
}

func TestBatchLimits(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		admin := e.Login("admin", "admin123")
		ids := make([]int64, org.MaxBatch+1)
		for i := range ids {
			ids[i] = int64(i + 1)
		}
		expectFail(t, e.Call("POST", "/authority-app/userInfo/deleteByIds", admin, map[string]any{"ids": ids}), "ID 列表应在 1 到 1000 之间")
		expectFail(t, e.Call("POST", "/authority-app/roleInfo/deleteByIds", admin, map[string]any{"ids": ids}), "ID 列表应在 1 到 1000 之间")
		expectFail(t, e.Call("POST", "/authority-app/userInfo/insert", admin, map[string]any{"name": "many", "password": "secret1", "groupId": 1, "roleIds": ids}), "角色应在 0 到 1000 之间")
		expectFail(t, e.Call("POST", "/authority-app/userInfo/deleteByIds", admin, map[string]any{"ids": []int64{}}), "ID 列表不能为空")
	})
}

// TestGroupTreeForEveryPage: the organisation pickers of pages outside system settings (vehicles,
// offline records…) load the caller's subtree; a user of one subsidiary sees only that subsidiary.
func TestGroupTreeForEveryPage(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		dispatcher := groupIDs(t, e, e.Login("dispatcher", "dispatch123")) // holds no system-settings page
		if _, ok := dispatcher["华北分公司"]; !ok {
			t.Errorf("dispatcher's tree: %v", dispatcher)
		}
		customer := groupIDs(t, e, tok2(e))
		if _, ok := customer["华东分公司"]; !ok || len(customer) == 0 {
			t.Errorf("customer's tree: %v", customer)
		}
		for _, other := range []string{"华北分公司", "华南分公司", "中油运输集团"} {
			if _, ok := customer[other]; ok {
				t.Errorf("customer sees %s", other)
			}
		}
	})
}
