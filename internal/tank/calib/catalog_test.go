package calib

import (
	"encoding/json"
	"testing"

	"tankwatch/internal/jt808"
)

func TestCheck(t *testing.T) {
	num := func(n int64) Value { return Value{Num: n} }
	str := func(s string) Value { return Value{IsStr: true, Str: s} }
	for _, tc := range []struct {
		id     uint32
		v      Value
		reason string
	}{
		{0x0001, num(30), ""},
		{0x0001, num(0), "range"},
		{0x0001, num(3601), "range"},
		{0x0001, str("30"), "type"},
		{0x0013, str("gw.example.com"), ""},
		{0x0013, str("a.b"), "length"},
		{0x0013, str("host;evil"), "chars"},
		{0x0013, num(5), "type"},
		{0x0018, num(65535), ""},
		{0x0018, num(65536), "range"},
		{ProbeID(1, FieldOffset), num(-500), ""},
		{ProbeID(1, FieldOffset), num(-501), "range"},
		{ProbeID(8, FieldTemp), num(100), ""},
		{ProbeID(8, FieldTemp), num(101), "range"},
		{ProbeID(9, FieldTemp), num(1), "unknown"},
		{ProbeID(1, 6), num(1), "unknown"},
		{0x0099, num(1), "unknown"},
	} {
		got := ""
		if p := Check(tc.id, tc.v); p != nil {
			got = p.Reason
		}
		if got != tc.reason {
			t.Errorf("Check(0x%04X, %v) = %q, want %q", tc.id, tc.v, got, tc.reason)
		}
	}
}

func TestEncodeDecodeSigned(t *testing.T) {
	id := ProbeID(2, FieldOffset)
	p := Encode(id, Value{Num: -12})
	if len(p.Value) != 4 || p.Value[0] != 0xFF {
		t.Fatalf("encoded % X", p.Value)
	}
	v, err := Decode(p)
	if err != nil || v.Num != -12 {
		t.Fatalf("decoded %v %v", v, err)
	}
	// the gateway logs the DWORD unsigned; ParseReply signs it again by the catalogue
	got := ParseReply("0x0001=30; 0xf021=4294967284; 0x0013=gw.example.com; 0x9999=abc")
	if got[0x0001].Num != 30 || got[id].Num != -12 || got[0x0013].Str != "gw.example.com" || got[0x9999].Str != "abc" {
		t.Errorf("ParseReply: %v", got)
	}
	if _, err := Decode(jt808.Param{ID: id, Value: []byte{1, 2, 3}}); err == nil {
		t.Error("a 3-byte DWORD decoded")
	}
}

func TestValueJSON(t *testing.T) {
	for in, want := range map[string]Value{`12`: {Num: 12}, `-3`: {Num: -3}, `"x"`: {IsStr: true, Str: "x"}, `1.5`: {IsStr: true, Str: "1.5"}} {
		var v Value
		if err := json.Unmarshal([]byte(in), &v); err != nil || v != want {
			t.Errorf("%s → %+v %v", in, v, err)
		}
	}
	b, _ := json.Marshal([]Value{{Num: -1}, {IsStr: true, Str: "a"}})
	if string(b) != `[-1,"a"]` {
		t.Errorf("marshal %s", b)
	}
}

func TestDefs(t *testing.T) {
	if n := len(Defs(3)); n != 7+15 {
		t.Errorf("Defs(3) = %d", n)
	}
	if n := len(Defs(99)); n != 7+40 {
		t.Errorf("Defs(99) = %d", n)
	}
	seen := map[uint32]bool{}
	for _, d := range Defs(8) {
		if seen[d.ID] || d.ID >= 0xF000 && d.ID > 0xF085 {
			t.Errorf("ID 0x%04X", d.ID)
		}
		seen[d.ID] = true
	}
}
