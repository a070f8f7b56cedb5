package staff

import (
	"errors"
	"strings"
	"testing"
	"time"

	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
)

func msg(err error) string {
	var e *httpx.Error
	if errors.As(err, &e) {
		return i18n.T(i18n.ZhCN, e.Key, e.Args...)
	}
	if err == nil {
		return ""
	}
	return err.Error()
}

func TestValidIDCard(t *testing.T) {
	for _, c := range []struct {
		id   string
		want bool
	}{
		{"11010519491231002X", true}, // GB 11643's own example
		{"320106198506120048", true},
		{"11010519491231002x", false}, // not normalised
		{"110105194912310021", false}, // wrong check character
		{"11010519491331002X", false}, // month 13 (check recomputed below)
		{"1101051949123100", false},
		{"11010519491231002XX", false},
		{"A1010519491231002X", false},
		{"", false},
	} {
		if got := ValidIDCard(c.id); got != c.want {
			t.Errorf("%q: %v, want %v", c.id, got, c.want)
		}
	}
	// a right check character on a date that does not exist is still refused
	first := "11010519490230002"
	if ValidIDCard(first + string(IDCardCheck(first))) {
		t.Error("30 February accepted")
	}
	if got := NormIDCard(" 11010519491231002x "); got != "11010519491231002X" || !ValidIDCard(got) {
		t.Errorf("normalised to %q", got)
	}
}

func TestExpiryState(t *testing.T) {
	const today = 20260301
	for _, c := range []struct {
		exp  int
		want string
	}{
		{0, ExpiryNone},
		{20260228, ExpiryExpired},
		{20260301, ExpiringSoon}, // the last valid day
		{20260331, ExpiringSoon}, // 30 days on
		{20260401, ExpiryValid},
		{20270101, ExpiryValid},
	} {
		if got := ExpiryState(c.exp, today); got != c.want {
			t.Errorf("%d: %s, want %s", c.exp, got, c.want)
		}
	}
	if got := Earliest(0, 20260101); got != 20260101 {
		t.Errorf("earliest with none: %d", got)
	}
	if got := Earliest(20270101, 20260101); got != 20260101 {
		t.Errorf("earliest: %d", got)
	}
}

func TestDays(t *testing.T) {
	if got := DayOf(time.Date(2026, 2, 28, 16, 0, 0, 0, time.UTC)); got != 20260301 {
		t.Errorf("UTC 16:00 is the next day in Shanghai: %d", got)
	}
	if got := AddDays(20260220, 10); got != 20260302 {
		t.Errorf("AddDays across February: %d", got)
	}
	for in, want := range map[string]int{"2026-03-01": 20260301, "20260301": 20260301, "2026/03/01": 20260301, "": 0, "2026-03-01 10:00:00": 20260301} {
		if got, ok := ParseDay(in); !ok || got != want {
			t.Errorf("ParseDay(%q) = %d %v", in, got, ok)
		}
	}
	for _, bad := range []string{"2026-02-30", "2026-13-01", "abc", "2026-3-1"} {
		if _, ok := ParseDay(bad); ok {
			t.Errorf("ParseDay(%q) accepted", bad)
		}
	}
}

func TestOverlaps(t *testing.T) {
	for _, c := range []struct {
		a1, a2, b1, b2 int
		want           bool
	}{
		{1, 5, 6, 9, false},
		{1, 5, 5, 9, true}, // one shared day
		{3, 4, 1, 9, true},
		{1, 9, 3, 4, true},
		{6, 9, 1, 5, false},
	} {
		if got := Overlaps(c.a1, c.a2, c.b1, c.b2); got != c.want {
			t.Errorf("%+v: %v", c, got)
		}
	}
}

func TestIneligible(t *testing.T) {
	const day = 20260301
	ok := Person{Name: "张三", Roles: RoleDriver | RoleEscort, State: StateOnDuty, LicenceExp: 20280101, QualKind: QualDriver, QualExp: 20270101}
	with := func(f func(*Person)) Person { p := ok; f(&p); return p }
	for _, c := range []struct {
		name string
		p    Person
		role int
		want string
	}{
		{"valid driver", ok, RoleDriver, ""},
		{"valid escort", ok, RoleEscort, ""},
		{"qualification ends today", with(func(p *Person) { p.QualExp = day }), RoleDriver, ""},
		{"qualification ended yesterday", with(func(p *Person) { p.QualExp = day - 1 }), RoleDriver, "staff.crewQualExpired"},
		{"no qualification", with(func(p *Person) { p.QualKind, p.QualExp = 0, 0 }), RoleEscort, "staff.crewNoQual"},
		{"licence expired, driving", with(func(p *Person) { p.LicenceExp = 20250101 }), RoleDriver, "staff.crewLicenceExpired"},
		{"licence expired, escorting", with(func(p *Person) { p.LicenceExp = 20250101 }), RoleEscort, ""},
		{"on leave", with(func(p *Person) { p.OnLeave = true }), RoleDriver, "staff.crewOnLeave"},
		{"left", with(func(p *Person) { p.State = StateLeft }), RoleDriver, "staff.crewLeft"},
		{"loader as driver", with(func(p *Person) { p.Roles = RoleLoader }), RoleDriver, "staff.crewNotDriver"},
		{"driver as escort", with(func(p *Person) { p.Roles = RoleDriver }), RoleEscort, "staff.crewNotEscort"},
	} {
		if got := Ineligible(c.p, c.role, day); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

func TestInputClean(t *testing.T) {
	good := func() Input {
		return Input{Name: "张三", IDCard: "11010519491231002x", Phone: "13912345678", Roles: RoleDriver, LicenceClasses: "b2, a2",
			QualNo: "1301001", QualKind: QualDriver, QualExpiry: "2027-01-01"}
	}
	for _, c := range []struct {
		name string
		f    func(*Input)
		want string
	}{
		{"ok", func(*Input) {}, ""},
		{"no name", func(in *Input) { in.Name = " " }, "姓名不能为空"},
		{"long name", func(in *Input) { in.Name = strings.Repeat("张", 21) }, "姓名不能超过 20 个字符"},
		{"bad id", func(in *Input) { in.IDCard = "110105194912310021" }, "身份证号 110105194912310021 不正确（应为 18 位，出生日期与校验位有效）"},
		{"bad phone", func(in *Input) { in.Phone = "12345" }, "手机号 12345 不正确（应为 11 位手机号）"},
		{"no role", func(in *Input) { in.Roles = 0 }, "岗位不能为空"},
		{"role 16", func(in *Input) { in.Roles = 16 }, "岗位格式不正确"},
		{"unknown class", func(in *Input) { in.LicenceClasses = "A2,Z9" }, "未知的准驾车型：Z9"},
		{"driver without class", func(in *Input) { in.LicenceClasses = "" }, "驾驶员须填写准驾车型"},
		{"escort without class", func(in *Input) { in.Roles, in.LicenceClasses = RoleEscort, "" }, ""},
		{"bad date", func(in *Input) { in.QualExpiry = "2027-02-30" }, "资格证有效期至格式不正确"},
		{"half a qualification", func(in *Input) { in.QualNo = "" }, "从业资格证号、资格类别与有效期须一并填写"},
		{"no qualification at all", func(in *Input) { in.QualNo, in.QualKind, in.QualExpiry = "", 0, "" }, ""},
		{"state 3", func(in *Input) { in.State = 3 }, "在职状态格式不正确"},
	} {
		in := good()
		c.f(&in)
		if got := msg(in.Clean()); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
	in := good()
	_ = in.Clean()
	if in.IDCard != "11010519491231002X" || in.LicenceClasses != "A2,B2" || in.qualExp != 20270101 || in.State != StateOnDuty {
		t.Errorf("cleaned to %+v", in)
	}
}

func TestParseCells(t *testing.T) {
	if got := ParseRoles("驾驶员、押运员"); got != RoleDriver|RoleEscort {
		t.Errorf("roles: %d", got)
	}
	if got := ParseRoles("Driver, loader"); got != RoleDriver|RoleLoader {
		t.Errorf("English roles: %d", got)
	}
	if got := ParseRoles("厨师"); got != -1 {
		t.Errorf("unknown role: %d", got)
	}
	if got := ParseQualKind("危险货物道路运输押运员"); got != QualEscort {
		t.Errorf("kind: %d", got)
	}
	if got := photoType([]byte("\x89PNG\r\n\x1a\nrest")); got != "image/png" {
		t.Errorf("png: %q", got)
	}
	if got := photoType([]byte("<svg onload=alert(1)>")); got != "" {
		t.Errorf("svg accepted as %q", got)
	}
}

func TestDemoPeople(t *testing.T) {
	if n := len(demoPeople); n != 20 {
		t.Errorf("%d demo people", n)
	}
	seen := map[string]bool{}
	for i, p := range demoPeople {
		id := demoIDCard(p.region, i)
		if !ValidIDCard(id) || seen[id] {
			t.Errorf("%s: ID %s invalid or repeated", p.name, id)
		}
		seen[id] = true
	}
	if demoPeople[0].group != "华北分公司" {
		t.Error("华北's people must come first (the authorization matrix names id 1)")
	}
}
