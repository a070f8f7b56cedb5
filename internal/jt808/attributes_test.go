package jt808

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"
)

func attributeCases() []msgCase {
	return []msgCase{
		{"0x0107 attributes 2013", V2013, `
			0042                                     # dangerous goods + video
			3730313131                               # manufacturer "70111" BYTE[5]
			54572d3830385400000000000000000000000000 # model "TW-808T" BYTE[20]
			54303030303031                           # terminal ID "T000001" BYTE[7]
			89860412345678901234                     # ICCID BCD[10]
			04 48312e30                              # hardware "H1.0"
			05 322e312e30                            # firmware "2.1.0"
			03 20                                    # GPS + BeiDou, TD-LTE`,
			&Attributes{Type: 0x42, Manufacturer: "70111", Model: "TW-808T", TerminalID: "T000001", ICCID: "89860412345678901234",
				Hardware: "H1.0", Firmware: "2.1.0", GNSS: 3, Comm: 0x20},
			func() Message { return &Attributes{} }},
		{"0x0107 attributes 2019, GBK hardware, F-filled ICCID, no firmware", V2019, `
			0002
			3730313131000000000000                                       # BYTE[11]
			54572d383038540000000000000000000000000000000000000000000000 # BYTE[30]
			543030303030310000000000000000000000000000000000000000000000 # BYTE[30]
			0898604123456789012f                                         # ICCID, filler F
			06 d3b2bcfe5632                                              # hardware "硬件V2"
			00                                                           # firmware ""
			02 01`,
			&Attributes{Type: 2, Manufacturer: "70111", Model: "TW-808T", TerminalID: "T000001", ICCID: "0898604123456789012F",
				Hardware: "硬件V2", GNSS: 2, Comm: 1},
			func() Message { return &Attributes{} }},
		{"0x8107 query attributes", V2013, "", &Empty{ID: MsgQueryAttributes}, func() Message { return &Empty{ID: MsgQueryAttributes} }},
	}
}

func TestAttributeMessages(t *testing.T) {
	for _, tc := range attributeCases() {
		t.Run(tc.name, func(t *testing.T) {
			body := hx(t, tc.body)
			got := tc.fresh()
			if err := got.DecodeBody(body, tc.v); err != nil {
				t.Fatalf("decode: %v", err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("decoded\n%+v\nwant\n%+v", got, tc.want)
			}
			out, err := tc.want.AppendBody(nil, tc.v)
			if err != nil {
				t.Fatalf("encode: %v", err)
			}
			if !bytes.Equal(out, body) {
				t.Fatalf("encoded\n% x\nwant\n% x", out, body)
			}
		})
	}
}

// TestAttributesBad: a body cut anywhere, or longer than its fields, is an error (never a panic, never a
// half-filled answer taken as whole).
func TestAttributesBad(t *testing.T) {
	whole := hx(t, attributeCases()[0].body)
	for n := range len(whole) {
		if err := new(Attributes).DecodeBody(whole[:n], V2013); !errors.Is(err, ErrShort) {
			t.Errorf("cut at %d: %v", n, err)
		}
	}
	if err := new(Attributes).DecodeBody(append(whole, 0), V2013); !errors.Is(err, ErrTooLong) {
		t.Errorf("trailing byte: %v", err)
	}
	// a 2013 body read as 2019 runs out inside the wider fields
	if err := new(Attributes).DecodeBody(whole, V2019); !errors.Is(err, ErrShort) {
		t.Errorf("2013 body as 2019: %v", err)
	}
	// a hardware length beyond the body
	bad := hx(t, "0000 3730313131 54572d3830385400000000000000000000000000 54303030303031 89860412345678901234 ff 4831")
	if err := new(Attributes).DecodeBody(bad, V2013); !errors.Is(err, ErrShort) {
		t.Errorf("hardware length beyond body: %v", err)
	}
}

func TestAttributesEncodeLimits(t *testing.T) {
	for _, c := range []struct {
		name string
		m    Attributes
		v    Version
		want error
	}{
		{"manufacturer over 5 bytes (2013)", Attributes{Manufacturer: "701112"}, V2013, ErrRange},
		{"manufacturer of 11 bytes (2019)", Attributes{Manufacturer: "70111234567"}, V2019, nil},
		{"model over 20 bytes", Attributes{Model: strings.Repeat("M", 21)}, V2013, ErrRange},
		{"terminal ID over 30 bytes (2019)", Attributes{TerminalID: strings.Repeat("T", 31)}, V2019, ErrRange},
		{"ICCID of 21 digits", Attributes{ICCID: strings.Repeat("1", 21)}, V2013, ErrRange},
		{"ICCID with a letter", Attributes{ICCID: "8986X"}, V2013, ErrBCD},
		{"firmware over 255 bytes", Attributes{Firmware: strings.Repeat("v", 256)}, V2013, ErrRange},
		{"hardware not GBK", Attributes{Hardware: "🚚"}, V2013, ErrEncoding},
	} {
		out, err := c.m.AppendBody([]byte{9}, c.v)
		if !errors.Is(err, c.want) || (err != nil && !bytes.Equal(out, []byte{9})) {
			t.Errorf("%s: %v (% x)", c.name, err, out)
		}
	}
}

// FuzzAttributes feeds 0x0107's decoder; whatever decodes must re-encode stably.
func FuzzAttributes(f *testing.F) {
	cases := attributeCases()
	for i, tc := range cases {
		f.Add(uint8(i), hx(f, tc.body), tc.v == V2019)
	}
	f.Fuzz(func(t *testing.T, which uint8, in []byte, v2019 bool) {
		tc := cases[int(which)%len(cases)]
		v := V2013
		if v2019 {
			v = V2019
		}
		m := tc.fresh()
		if err := m.DecodeBody(in, v); err != nil {
			return
		}
		out, err := m.AppendBody(nil, v)
		if err != nil {
			return // e.g. a version that is not valid GBK
		}
		m2 := tc.fresh()
		if err := m2.DecodeBody(out, v); err != nil {
			t.Fatalf("%s: re-decode: %v", tc.name, err)
		}
		out2, _ := m2.AppendBody(nil, v)
		if !bytes.Equal(out, out2) {
			t.Fatalf("%s: encode not stable\n% x\n% x", tc.name, out, out2)
		}
	})
}
