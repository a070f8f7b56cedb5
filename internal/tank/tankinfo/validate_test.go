package tankinfo

import (
	"errors"
	"math"
	"reflect"
	"testing"

	"tankwatch/internal/platform/i18n"
	"tankwatch/internal/tank"
)

func rows(pairs ...float64) tank.Strap {
	var s tank.Strap
	for i := 0; i+1 < len(pairs); i += 2 {
		s = append(s, tank.StrapRow{HeightMM: pairs[i], VolumeL: pairs[i+1]})
	}
	return s
}

// CheckRows reports every wrong row, and its first error is always the one Validate gives.
func TestCheckRowsAgreesWithValidate(t *testing.T) {
	cases := []struct {
		name string
		s    tank.Strap
		want []RowError
	}{
		{"ok", rows(0, 0, 100, 50, 200, 120), nil},
		{"one row", rows(0, 0), []RowError{{Reason: "tooFew"}}},
		{"not rising", rows(0, 0, 100, 50, 100, 60, 300, 200), []RowError{{Row: 3, Reason: "notRising"}}},
		{"falling and later negative", rows(0, 0, 100, 50, 200, 40, 300, -1), []RowError{{Row: 3, Reason: "falling"}, {Row: 4, Reason: "negative"}}},
		{"too high", rows(0, 0, 20001, 5), []RowError{{Row: 2, Reason: "tooHigh"}}},
		{"too large", rows(0, 0, 100, 1e8), []RowError{{Row: 2, Reason: "tooLarge"}}},
		{"nan", rows(0, 0, math.NaN(), 5), []RowError{{Row: 2, Reason: "badRow"}}},
		{"equal volumes allowed", rows(0, 0, 100, 0, 200, 10), nil},
	}
	for _, c := range cases {
		got := CheckRows(c.s)
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: got %+v, want %+v", c.name, got, c.want)
		}
		err := c.s.Validate()
		var se *tank.StrapError
		switch {
		case len(got) == 0 && err != nil:
			t.Errorf("%s: Validate says %v, CheckRows nothing", c.name, err)
		case len(got) > 0 && (!errors.As(err, &se) || se.Row != got[0].Row || se.Reason != got[0].Reason):
			t.Errorf("%s: Validate %v, CheckRows first %+v", c.name, err, got[0])
		}
	}
}

func TestParseSheet(t *testing.T) {
	cases := []struct {
		name     string
		cells    [][]string
		wantRows int
		want     []RowError
	}{
		{"header and rows", [][]string{{"高度(mm)", "容积(L)"}, {"0", "0"}, {"10", "5.5"}, {"20", "12"}}, 3, []RowError{}},
		{"no header", [][]string{{"0", "0"}, {"10", "5"}}, 2, []RowError{}},
		{"blank rows skipped, extra columns ignored", [][]string{{"Height", "Volume"}, {}, {"0", "0", "note"}, {"", ""}, {" 10 ", "5"}}, 2, []RowError{}},
		{"text in a row: its sheet row", [][]string{{"高度", "容积"}, {"0", "0"}, {"abc", "5"}, {"20", "x"}}, 0,
			[]RowError{{Row: 3, Reason: "badRow"}, {Row: 4, Reason: "badRow"}}},
		{"missing volume", [][]string{{"0", "0"}, {"10"}}, 0, []RowError{{Row: 2, Reason: "badRow"}}},
		{"order error counts sheet rows (blank row skipped)", [][]string{{"h", "v"}, {"0", "0"}, {}, {"10", "5"}, {"10", "6"}}, 0,
			[]RowError{{Row: 5, Reason: "notRising"}}},
		{"empty", [][]string{{"h", "v"}}, 0, []RowError{{Reason: "tooFew"}}},
	}
	for _, c := range cases {
		res := ParseSheet(c.cells)
		if len(res.Rows) != c.wantRows || !reflect.DeepEqual(res.Errors, c.want) {
			t.Errorf("%s: rows %d errors %+v, want %d %+v", c.name, len(res.Rows), res.Errors, c.wantRows, c.want)
		}
	}
}

func TestRowMessages(t *testing.T) {
	errs := Localise([]RowError{{Row: 3, Reason: "notRising"}, {Reason: "tooFew"}}, i18n.ZhCN)
	if errs[0].Message != "第3行：高度必须严格递增" || errs[1].Message != "容积表：至少需要 2 行" {
		t.Fatalf("zh-CN: %+v", errs)
	}
	en := Localise([]RowError{{Row: 3, Reason: "falling"}}, i18n.EnUS)
	if en[0].Message != "Row 3: volume cannot be less than the row before" {
		t.Fatalf("en-US: %+v", en)
	}
	for _, r := range []string{"tooFew", "tooMany", "badRow", "negative", "tooHigh", "tooLarge", "notRising", "falling"} {
		if !i18n.Has("field.strapReason." + r) {
			t.Errorf("reason %s has no text", r)
		}
	}
}

func TestValidHost(t *testing.T) {
	good := []string{"192.168.1.20", "10.0.0.1", "::1", "fe80::1", "2001:db8::8", "gauge-1.station.example", "atg01", "localhost"}
	bad := []string{"", "300.1.2.3", "1.2.3", "-gauge", "gauge-", "a..b", "gauge_1", "host name", "http://x", "1.2.3.4:10001",
		string(make([]byte, 260))}
	for _, h := range good {
		if !ValidHost(h) {
			t.Errorf("%q refused", h)
		}
	}
	for _, h := range bad {
		if ValidHost(h) {
			t.Errorf("%q accepted", h)
		}
	}
}

func TestCapacityWarning(t *testing.T) {
	for _, c := range []struct {
		top     float64
		nominal int
		want    bool
	}{{10000, 10000, false}, {10200, 10000, false}, {10201, 10000, true}, {9799, 10000, true}, {0, 10000, false}, {5000, 0, false}} {
		if got := CapacityWarning(c.top, c.nominal); got != c.want {
			t.Errorf("%v vs %d: %v", c.top, c.nominal, got)
		}
	}
}

func TestSaveCarClean(t *testing.T) {
	good := CompInput{No: 1, Product: 1, Capacity: 10000, Height: 1800, ProbeType: " 雷达 ", Strap: rows(0, 0, 900, 5000, 1800, 10000)}
	cases := []struct {
		name string
		in   []CompInput
		key  string
	}{
		{"ok", []CompInput{good}, ""},
		{"number above count", []CompInput{func() CompInput { c := good; c.No = 4; return c }()}, "tankInfo.compNo"},
		{"number zero", []CompInput{func() CompInput { c := good; c.No = 0; return c }()}, "tankInfo.compNo"},
		{"duplicate", []CompInput{good, good}, "tankInfo.compDup"},
		{"product", []CompInput{func() CompInput { c := good; c.Product = 5; return c }()}, "tankInfo.comp.field.invalid"},
		{"offset", []CompInput{func() CompInput { c := good; c.ProbeOffset = -501; return c }()}, "tankInfo.comp.field.range"},
		{"density", []CompInput{func() CompInput { c := good; c.Density20 = 450; return c }()}, "tankInfo.comp.tankInfo.densityRange"},
		{"table", []CompInput{func() CompInput { c := good; c.Strap = rows(0, 0, 900, 5000, 800, 10000); return c }()}, "tankInfo.compStrapRow"},
		{"no table is fine", []CompInput{func() CompInput { c := good; c.Strap = nil; return c }()}, ""},
	}
	for _, c := range cases {
		in := SaveCarInput{CarID: 7, Compartments: c.in}
		comps, err := in.clean(3)
		if c.key == "" {
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
			} else if comps[0].ProbeType != "雷达" || comps[0].CarID != 7 {
				t.Errorf("%s: %+v", c.name, comps[0])
			}
			continue
		}
		if err == nil || bizKey(err) != c.key {
			t.Errorf("%s: got %q (%v), want key %s", c.name, bizKey(err), err, c.key)
		}
	}
}
