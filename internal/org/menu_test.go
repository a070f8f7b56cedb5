package org

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

const smallMenu = `[
 {"name":"home","code":"01","title":"首页","path":"/home","children":[]},
 {"name":"manager","code":"04","title":"监控","path":"/manager","children":[
   {"name":"monitoring","code":"04-01","title":"实时","path":"/manager/monitoring","children":[]},
   {"name":"cockpit","code":"04-04","title":"驾驶舱","path":"/manager/cockpit","children":[]}]},
 {"name":"access","code":"06","title":"系统","path":"/access","children":[
   {"name":"userInfo","code":"06-08","title":"用户","path":"/access/userInfo","children":[
     {"name":"userInfo-add","code":"06-08-01","title":"新增"},
     {"name":"userInfo-delete","code":"06-08-03","title":"删除"}]}]}
]`

// shape renders a tree as "code(children)" for compact comparison.
func shape(ns []*MenuNode) string {
	var parts []string
	for _, n := range ns {
		s := n.Code
		if len(n.Children) > 0 {
			s += "(" + shape(n.Children) + ")"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " ")
}

func set(codes ...string) map[string]bool {
	m := map[string]bool{}
	for _, c := range codes {
		m[c] = true
	}
	return m
}

func TestFilterMenu(t *testing.T) {
	tree, err := ParseMenu([]byte(smallMenu))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name    string
		granted map[string]bool
		want    string
	}{
		{"nothing", set(), ""},
		{"module only keeps the module without pages", set("04"), "04"},
		{"a page keeps its module", set("04-01"), "04(04-01)"},
		{"page without buttons", set("06-08"), "06(06-08)"},
		{"buttons ride on their page", set("06-08", "06-08-03"), "06(06-08(06-08-03))"},
		{"a button without its page shows nothing", set("06-08-01"), ""},
		{"leaf module", set("01"), "01"},
		{"everything", nil, "01 04(04-01 04-04) 06(06-08(06-08-01 06-08-03))"},
		{"unknown codes are ignored", set("99", "04-99"), ""},
	}
	for _, c := range cases {
		got := FilterMenu(tree, c.granted)
		if shape(got) != c.want {
			t.Errorf("%s: %q, want %q", c.name, shape(got), c.want)
		}
		if got == nil {
			t.Errorf("%s: nil tree (must be an empty array)", c.name)
		}
	}
	// filtering never mutates the source tree
	FilterMenu(tree, set("04-01"))
	if len(tree[1].Children) != 2 {
		t.Fatal("source tree mutated")
	}
}

func TestParseMenuRules(t *testing.T) {
	bad := map[string]string{
		"module code not NN":      `[{"name":"a","code":"001","children":[]}]`,
		"page code over 5 chars":  `[{"name":"a","code":"01","children":[{"name":"b","code":"01-001"}]}]`,
		"page under wrong module": `[{"name":"a","code":"01","children":[{"name":"b","code":"02-01"}]}]`,
		"button of 5 chars":       `[{"name":"a","code":"01","children":[{"name":"b","code":"01-01","children":[{"name":"b-x","code":"01-02"}]}]}]`,
		"button not page-action":  `[{"name":"a","code":"01","children":[{"name":"b","code":"01-01","children":[{"name":"add","code":"01-01-01"}]}]}]`,
		"duplicate code":          `[{"name":"a","code":"01"},{"name":"b","code":"01"}]`,
		"duplicate name":          `[{"name":"a","code":"01"},{"name":"a","code":"02"}]`,
		"missing code":            `[{"name":"a"}]`,
		"not json":                `[`,
	}
	for name, js := range bad {
		if _, err := ParseMenu([]byte(js)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestEmbeddedMenu(t *testing.T) {
	codes := AllCodes()
	if len(codes) < 100 || !IsCode("06-08-04") || !IsCode("04-01") || IsCode("06-08-99") {
		t.Fatalf("menu codes: %d", len(codes))
	}
	for _, c := range codes {
		if IsButton(c) != (len(c) > 5) {
			t.Errorf("%s: button rule", c)
		}
	}
	if got := shape(FilterMenu(menuTree, EffectiveCodes([]string{"06-08-04"}))); got != "06(06-08(06-08-04))" {
		t.Errorf("effective codes of a button: %q", got)
	}
	eff := EffectiveCodes([]string{"04-01", "bogus"})
	if !reflect.DeepEqual(eff, set("04", "04-01")) {
		t.Errorf("effective: %v", eff)
	}
}

func TestDemoRoles(t *testing.T) {
	roles := DemoRoles()
	if len(roles[SuperAdminRole]) != len(AllCodes()) {
		t.Error("super administrator lacks codes")
	}
	for name, codes := range roles {
		for _, c := range codes {
			if !IsCode(c) {
				t.Errorf("%s: unknown code %s", name, c)
			}
		}
	}
	for _, c := range roles["客户"] {
		if strings.HasPrefix(c, "06") || strings.HasPrefix(c, "03") {
			t.Errorf("customer holds %s", c)
		}
	}
	for _, want := range []string{"01", "04-01", "04-45", "02-05"} {
		if !slices.Contains(roles["调度员"], want) {
			t.Errorf("dispatcher lacks %s", want)
		}
	}
	if slices.Contains(roles["调度员"], "06-08") {
		t.Error("dispatcher holds user administration")
	}
}

func TestResolveLook(t *testing.T) {
	top := Group{ID: 1, Path: "/1/"}
	mid := Group{ID: 3, Path: "/1/3/"}
	leaf := Group{ID: 7, Path: "/1/3/7/"}
	cfg := Config{Theme: "tankcar"}
	cases := []struct {
		name string
		path []Group
		cfg  Config
		want Look
	}{
		{"nothing set: server theme, no title, theme logo", []Group{top, mid, leaf}, cfg, Look{"tankcar", "", "/themes/tankcar/logo.svg"}},
		{"server title", []Group{top}, Config{Theme: "escort", Title: "平台"}, Look{"escort", "平台", "/themes/escort/logo.svg"}},
		{"top group overrides server", []Group{{ID: 1, Theme: "groundtank", Title: "集团"}, mid, leaf}, cfg,
			Look{"groundtank", "集团", "/themes/groundtank/logo.svg"}},
		{"nearest wins", []Group{{ID: 1, Theme: "groundtank", Title: "集团", LogoType: "image/png", LogoVersion: 2}, {ID: 3, Theme: "escort", Title: "华东"}, leaf}, cfg,
			Look{"escort", "华东", "/authority-app/groupInfo/logo/1?v=2"}},
		{"each field inherits separately", []Group{{ID: 1, Title: "集团"}, {ID: 3, LogoType: "image/png", LogoVersion: 1}, {ID: 7, Theme: "telecom"}}, cfg,
			Look{"telecom", "集团", "/authority-app/groupInfo/logo/3?v=1"}},
		{"empty server theme falls back to default", nil, Config{}, Look{DefaultTheme, "", "/themes/tankcar/logo.svg"}},
	}
	for _, c := range cases {
		if got := ResolveLook(c.path, c.cfg); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
}

func TestPathIDs(t *testing.T) {
	if got := PathIDs("/1/3/17/"); !reflect.DeepEqual(got, []int64{1, 3, 17}) {
		t.Fatal(got)
	}
	if PathIDs("") != nil {
		t.Fatal("empty path")
	}
}

func TestParseLogo(t *testing.T) {
	if ct, _, err := parseLogo("data:image/png;base64,iVBORw0KGgo="); err != nil || ct != "image/png" {
		t.Fatalf("png: %q %v", ct, err)
	}
	if ct, _, err := parseLogo("data:image/svg+xml;base64,PHN2Zy8+"); err != nil || ct != "image/svg+xml" {
		t.Fatalf("svg: %q %v", ct, err)
	}
	for _, bad := range []string{"http://x/logo.png", "data:image/gif;base64,R0lG", "data:image/png;base64,@@@", "data:image/png,abc",
		"data:image/png;base64," + strings.Repeat("A", 4*(MaxLogoBytes/3+10))} {
		if _, _, err := parseLogo(bad); err == nil {
			t.Errorf("%.40s accepted", bad)
		}
	}
}
