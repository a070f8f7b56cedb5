package customer

import (
	"errors"
	"testing"

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

func TestCarClean(t *testing.T) {
	for _, c := range []struct {
		name string
		in   CarInput
		want string
	}{
		{"ok", CarInput{CustomerID: 1, Plate: "沪d k8801", Compartments: 3, CapacityL: 30000}, ""},
		{"no customer", CarInput{Plate: "沪D·K8801"}, "所属客户不能为空"},
		{"no plate", CarInput{CustomerID: 1}, "车牌号不能为空"},
		{"bad plate", CarInput{CustomerID: 1, Plate: "ABC123"}, "车牌号格式不正确"},
		{"trailer", CarInput{CustomerID: 1, Plate: "沪D1234挂"}, ""},
		{"too many compartments", CarInput{CustomerID: 1, Plate: "沪D·K8801", Compartments: 9}, "仓数应在 1 到 8 之间"},
		{"capacity", CarInput{CustomerID: 1, Plate: "沪D·K8801", CapacityL: -1}, "核定容积（升）应在 0 到 100000 之间"},
		{"phone", CarInput{CustomerID: 1, Plate: "沪D·K8801", DriverPhone: "123"}, "司机电话格式不正确"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := msg(c.in.Clean()); got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
	in := CarInput{CustomerID: 1, Plate: "沪d k8801"}
	if err := in.Clean(); err != nil || in.Plate != "沪D·K8801" || in.Compartments != 1 {
		t.Errorf("cleaned %+v %v", in, err)
	}
}

func TestCustomerClean(t *testing.T) {
	for _, c := range []struct {
		name string
		in   Input
		want string
	}{
		{"ok", Input{Name: "华东石化", StationIDs: []int64{3, 1, 3}}, ""},
		{"no name", Input{Name: " "}, "客户名称不能为空"},
		{"bad code", Input{Name: "x", Code: "客户1"}, "客户编码格式不正确"},
		{"bad phone", Input{Name: "x", Phone: "abc"}, "联系电话格式不正确"},
		{"bad station", Input{Name: "x", StationIDs: []int64{0}}, "所属加油站格式不正确"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := msg(c.in.Clean()); got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
	in := Input{Name: "x", StationIDs: []int64{3, 1, 3}}
	_ = in.Clean()
	if len(in.StationIDs) != 2 || in.StationIDs[0] != 1 {
		t.Errorf("station ids %v", in.StationIDs)
	}
}
