package product

import (
	"errors"
	"strings"
	"testing"

	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
	"tankwatch/internal/tank"
)

func ip(v int) *int         { return &v }
func fp(v float64) *float64 { return &v }
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

func TestClean(t *testing.T) {
	for _, c := range []struct {
		name string
		in   Input
		want string // zh-CN message, "" = valid
	}{
		{"ok", Input{Name: " 0# 柴油 ", Code: "CY0", Product: ip(0)}, ""},
		{"no name", Input{Code: "CY0", Product: ip(0)}, "油品名称不能为空"},
		{"no code", Input{Name: "x", Product: ip(0)}, "油品编码不能为空"},
		{"bad code", Input{Name: "x", Code: "a b", Product: ip(0)}, "油品编码格式不正确"},
		{"no product", Input{Name: "x", Code: "c"}, "油品类型不能为空"},
		{"product out of range", Input{Name: "x", Code: "c", Product: ip(5)}, "油品类型格式不正确"},
		{"family out of range", Input{Name: "x", Code: "c", Product: ip(0), Family: ip(4)}, "油品类别（V20）格式不正确"},
		{"density low", Input{Name: "x", Code: "c", Product: ip(1), Density20: 400}, "标准密度（20 ℃）应在 500 到 1100 之间"},
		{"density high", Input{Name: "x", Code: "c", Product: ip(1), Density20: 1200}, "标准密度（20 ℃）应在 500 到 1100 之间"},
		{"gas without density", Input{Name: "LNG", Code: "g", Product: ip(tank.ProductGas)}, ""},
		{"gas with a V20 family needs a density", Input{Name: "x", Code: "g", Product: ip(tank.ProductGas), Family: ip(1)}, "标准密度（20 ℃）不能为空"},
		{"k0 alone", Input{Name: "x", Code: "c", Product: ip(0), K0: fp(186)}, "K0 与 K1 须同时填写或同时留空"},
		{"k1 alone", Input{Name: "x", Code: "c", Product: ip(0), K1: fp(0.4)}, "K0 与 K1 须同时填写或同时留空"},
		{"k pair", Input{Name: "x", Code: "c", Product: ip(0), K0: fp(186.9696), K1: fp(0.4862)}, ""},
		{"k0 zero", Input{Name: "x", Code: "c", Product: ip(0), K0: fp(0), K1: fp(0.4)}, "K0 系数应在 0 到 2000 之间"},
		{"k1 negative", Input{Name: "x", Code: "c", Product: ip(0), K0: fp(1), K1: fp(-1)}, "K1 系数应在 0 到 10 之间"},
		{"long name", Input{Name: strings.Repeat("油", 65), Code: "c", Product: ip(0)}, "油品名称不能超过 64 个字符"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := msg(c.in.Clean()); got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
	in := Input{Name: "x", Code: "c", Product: ip(tank.ProductGasoline95)}
	if err := in.Clean(); err != nil || *in.Family != int(tank.FamilyGasoline) || in.Density20 != 740 {
		t.Errorf("defaults: %v family %d density %v", err, *in.Family, in.Density20)
	}
}
