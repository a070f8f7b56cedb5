package jt808

import (
	"bytes"
	"errors"
	"testing"
)

func TestFrameVectors(t *testing.T) {
	tests := []struct {
		name string
		hex  string
		hdr  Header
		body string
	}{
		{
			name: "2013 heartbeat",
			hex: `7e
				0002          # msg id heartbeat
				0000          # attributes: body length 0
				013800138000  # phone BCD[6]
				0001          # serial
				a9            # check
				7e`,
			hdr: Header{MsgID: 0x0002, Phone: testPhone, Serial: 1},
		},
		{
			name: "2013 0x8001 with 0x7e in body and as check byte",
			hex: `7e
				8001 0005 013800138000 002c
				007d02        # reply serial 0x007e (0x7e escaped)
				0200          # reply msg id
				00            # result
				7d02          # check 0x7e escaped
				7e`,
			hdr:  Header{MsgID: 0x8001, Phone: testPhone, Serial: 0x2c, BodyLen: 5},
			body: "007e020000",
		},
		{
			name: "2019 heartbeat",
			hex: `7e
				0002
				4000                  # attributes: bit 14 = 2019
				01                    # protocol version
				00000000013800138000  # phone BCD[10]
				0001
				e8
				7e`,
			hdr: Header{MsgID: 0x0002, Version: V2019, ProtoVersion: 1, Phone: testPhone, Serial: 1},
		},
		{
			name: "2013 sub-packaged with 0x7d in body",
			hex: `7e
				0900
				2002          # bit 13 sub-packaged, length 2
				013800138000
				0005          # serial
				0002 0001     # total 2, index 1
				41 7d01       # body 41 7d
				bb
				7e`,
			hdr:  Header{MsgID: 0x0900, Phone: testPhone, Serial: 5, Subpackaged: true, Total: 2, Index: 1, BodyLen: 2},
			body: "417d",
		},
		{
			name: "2019 sub-packaged with 0x7e in body",
			hex: `7e
				0900 6002 01 00000000013800138000 0005
				0002 0002     # total 2, index 2
				41 7d02
				fa
				7e`,
			hdr:  Header{MsgID: 0x0900, Version: V2019, ProtoVersion: 1, Phone: testPhone, Serial: 5, Subpackaged: true, Total: 2, Index: 2, BodyLen: 2},
			body: "417e",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			wire := hx(t, tc.hex)
			f, _, err := DecodeFrame(nil, wire)
			if err != nil {
				t.Fatal(err)
			}
			if f.Header != tc.hdr {
				t.Errorf("header\n got %+v\nwant %+v", f.Header, tc.hdr)
			}
			if !bytes.Equal(f.Body, hx(t, tc.body)) {
				t.Errorf("body % x, want %s", f.Body, tc.body)
			}
			out, err := AppendFrame(nil, f.Header, f.Body)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(out, wire) {
				t.Errorf("re-encoded\n got % x\nwant % x", out, wire)
			}
		})
	}
}

func TestFrameErrors(t *testing.T) {
	tests := []struct {
		name string
		hex  string
		want error
	}{
		{"bad checksum", "7e 0002 0000 013800138000 0001 aa 7e", ErrChecksum},
		{"short", "7e 0002 0000 0138 7e", ErrShort},
		{"bad escape", "7e 0002 0000 013800138000 7d03 01 a9 7e", ErrEscape},
		{"escape at end", "7e 0002 0000 013800138000 0001 7d 7e", ErrEscape},
		{"raw 7e inside", "0002 0000 7e 013800138000 0001 a9", ErrEscape},
		// length field says 1, no body: check recomputed so only the length is wrong
		{"length mismatch", "7e 0002 0001 013800138000 0001 a8 7e", ErrBodyLength},
		{"phone not BCD", "7e 0002 0000 0138001380a0 0001 09 7e", ErrPhone},
		// sub-packaged, index 3 of 2
		{"bad index", "7e 0900 2000 013800138000 0005 0002 0003 87 7e", ErrSubpackage},
		{"2019 short", "7e 0002 4000 01 0000000001 01 7e", ErrShort},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := DecodeFrame(nil, hx(t, tc.hex))
			if !errors.Is(err, tc.want) {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
		})
	}
}

func TestEscapeRoundTrip(t *testing.T) {
	raw := []byte{0x30, 0x7e, 0x08, 0x7d, 0x55, 0x7d, 0x02, 0x7e}
	esc := Escape(nil, raw)
	want := []byte{0x30, 0x7d, 0x02, 0x08, 0x7d, 0x01, 0x55, 0x7d, 0x01, 0x02, 0x7d, 0x02}
	if !bytes.Equal(esc, want) {
		t.Fatalf("escape % x, want % x", esc, want)
	}
	got, err := Unescape([]byte{0xaa}, esc)
	if err != nil || !bytes.Equal(got, append([]byte{0xaa}, raw...)) {
		t.Fatalf("unescape % x, %v", got, err)
	}
}

func TestAppendFrameErrors(t *testing.T) {
	if _, err := AppendFrame(nil, Header{Phone: MustPhone("12345678901234")}, nil); !errors.Is(err, ErrPhone) {
		t.Errorf("14-digit phone in 2013 header: %v", err)
	}
	if _, err := AppendFrame(nil, Header{Version: 9}, nil); !errors.Is(err, ErrUnknownVersion) {
		t.Errorf("version 9: %v", err)
	}
	if _, err := AppendFrame(nil, Header{}, make([]byte, 1024)); !errors.Is(err, ErrTooLong) {
		t.Errorf("1024-byte body: %v", err)
	}
}

func TestAppendPackets(t *testing.T) {
	body := bytes.Repeat([]byte{1, 2, 3, 0x7e}, 600) // 2400 bytes → 3 packets of ≤1000
	h := Header{MsgID: 0x1205, Phone: testPhone, Serial: 0xfffe}
	wire, next, err := AppendPackets(nil, h, body, 0)
	if err != nil {
		t.Fatal(err)
	}
	if next != 1 {
		t.Errorf("next serial %d, want 1 (wrapped)", next)
	}
	var got []byte
	for i, part := range bytes.Split(bytes.Trim(wire, "\x7e"), []byte{0x7e, 0x7e}) {
		f, _, err := DecodeFrame(nil, part)
		if err != nil {
			t.Fatal(err)
		}
		if !f.Header.Subpackaged || f.Header.Total != 3 || f.Header.Index != uint16(i+1) || f.Header.Serial != 0xfffe+uint16(i) {
			t.Errorf("packet %d header %+v", i, f.Header)
		}
		got = append(got, f.Body...)
	}
	if !bytes.Equal(got, body) {
		t.Error("joined bodies differ")
	}
}

func TestPhone(t *testing.T) {
	p := MustPhone("013800138000")
	if p != testPhone || p.String() != "13800138000" {
		t.Errorf("phone %x %s", p[:], p)
	}
	long := MustPhone("12345678901234567890")
	if long.String() != "12345678901234567890" {
		t.Errorf("20 digits: %s", long)
	}
	for _, bad := range []string{"", "12a", "123456789012345678901"} {
		if _, err := ParsePhone(bad); !errors.Is(err, ErrPhone) {
			t.Errorf("ParsePhone(%q) = %v", bad, err)
		}
	}
}
