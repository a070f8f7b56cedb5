package jt808

import (
	"bytes"
	"errors"
	"reflect"
	"testing"
)

func upgradeCases() []msgCase {
	return []msgCase{
		{"0x8108 upgrade 2013", V2013, `
			00             # terminal
			3730313131     # manufacturer "70111"
			03 312e32      # version "1.2"
			00000003 aabbcc # package`,
			&Upgrade{Type: UpgradeTerminal, Manufacturer: "70111", Version: "1.2", Package: []byte{0xaa, 0xbb, 0xcc}},
			func() Message { return &Upgrade{} }},
		{"0x8108 upgrade 2019 short manufacturer", V2019, `
			34                          # BeiDou module (52)
			4142430000000000000000      # manufacturer "ABC" padded to 11
			00                          # empty version
			00000001 7e`,
			&Upgrade{Type: UpgradeBeiDou, Manufacturer: "ABC", Package: []byte{0x7e}},
			func() Message { return &Upgrade{} }},
		{"0x0108 result", V2013, "0c 01", &UpgradeResult{Type: UpgradeCardReader, Result: UpgradeFailure}, func() Message { return &UpgradeResult{} }},
		{"0x0005 resend 2013", V2013, "0010 02 0002 0004",
			&UpgradeResend{ResendRequest{OrigSerial: 0x10, Indexes: []uint16{2, 4}}}, func() Message { return &UpgradeResend{} }},
		{"0x0005 resend 2019", V2019, "0010 0001 0003",
			&UpgradeResend{ResendRequest{OrigSerial: 0x10, Indexes: []uint16{3}}}, func() Message { return &UpgradeResend{} }},
	}
}

func TestUpgradeMessages(t *testing.T) {
	for _, tc := range upgradeCases() {
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

func TestUpgradeBad(t *testing.T) {
	cases := []struct {
		name string
		v    Version
		body string
		m    Message
		want error
	}{
		{"package length beyond body", V2013, "00 3730313131 00 00000004 aabbcc", &Upgrade{}, ErrBodyLength},
		{"package length short of body", V2013, "00 3730313131 00 00000001 aabb", &Upgrade{}, ErrBodyLength},
		{"version cut", V2013, "00 3730313131 05 3132", &Upgrade{}, ErrShort},
		{"2019 manufacturer cut", V2019, "00 3730313131 00 00000000", &Upgrade{}, ErrShort},
		{"result short", V2013, "00", &UpgradeResult{}, ErrShort},
		{"result long", V2013, "00 00 00", &UpgradeResult{}, ErrTooLong},
		{"resend count beyond body", V2013, "0010 03 0002 0004", &UpgradeResend{}, ErrBodyLength},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.m.DecodeBody(hx(t, tc.body), tc.v); !errors.Is(err, tc.want) {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
		})
	}
}

func TestUpgradeHeaderLimits(t *testing.T) {
	if _, err := AppendUpgradeHeader(nil, V2013, 0, "123456", "1", 0); !errors.Is(err, ErrRange) {
		t.Fatalf("6-byte manufacturer in 2013: %v", err)
	}
	if _, err := AppendUpgradeHeader(nil, V2019, 0, "12345678901", "1", 0); err != nil {
		t.Fatalf("11-byte manufacturer in 2019: %v", err)
	}
	if _, err := AppendUpgradeHeader(nil, V2013, 0, "1", string(make([]byte, 256)), 0); !errors.Is(err, ErrRange) {
		t.Fatalf("256-byte version: %v", err)
	}
	if _, err := AppendUpgradeHeader(nil, V2013, 0, "1", "1", 1<<32); !errors.Is(err, ErrRange) {
		t.Fatalf("4 GiB package: %v", err)
	}
	// the header and the package appended apart are the message's body
	h, err := AppendUpgradeHeader(nil, V2013, UpgradeTerminal, "70111", "固件2", 2)
	if err != nil {
		t.Fatal(err)
	}
	whole, _ := (&Upgrade{Manufacturer: "70111", Version: "固件2", Package: []byte{1, 2}}).AppendBody(nil, V2013)
	if !bytes.Equal(append(h, 1, 2), whole) {
		t.Fatalf("header + package % x, message % x", append(h, 1, 2), whole)
	}
}

// FuzzUpgrade feeds the firmware messages' decoders; whatever decodes must re-encode stably.
func FuzzUpgrade(f *testing.F) {
	cases := upgradeCases()
	for i, tc := range cases {
		f.Add(uint8(i), hx(f, tc.body), tc.v == V2019)
	}
	f.Add(uint8(0), hx(f, "00 3730313131 05 3132"), false)
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
