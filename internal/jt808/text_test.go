package jt808

import (
	"bytes"
	"errors"
	"reflect"
	"testing"
)

func TestTextVectors(t *testing.T) {
	cases := []struct {
		name string
		v    Version
		wire string
		want Text
	}{
		{"2013", V2013, `7e
			8300 000d 013800138000 002a  # text, body 13 bytes, serial 42
			0c                           # flag: display + TTS
			c7ebbcb0cab1d0b6bbf5 2121    # 请及时卸货!! (GBK)
			71 # check
			7e`, Text{Flag: TextDisplay | TextTTS, Text: "请及时卸货!!"}},
		{"2019", V2019, `7e
			8300 400e 01 00000000013800138000 002a  # text, 2019, body 14 bytes
			0f                                      # flag: notice + display + TTS
			01                                      # type: notice
			c7ebbcb0cab1d0b6bbf5 2121
			31 # check
			7e`, Text{Flag: TextNotice | TextDisplay | TextTTS, Type: TextTypeNotice, Text: "请及时卸货!!"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			wire := hx(t, tc.wire)
			f, _, err := DecodeFrame(nil, wire)
			if err != nil {
				t.Fatal(err)
			}
			if f.Header.MsgID != MsgText || f.Header.Version != tc.v || f.Header.Serial != 42 {
				t.Fatalf("header %+v", f.Header)
			}
			var got Text
			if err := got.DecodeBody(f.Body, f.Header.Version); err != nil || !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("decode %+v, %v", got, err)
			}
			h := Header{Version: tc.v, Phone: testPhone, Serial: 42}
			if tc.v == V2019 {
				h.ProtoVersion = 1
			}
			out, err := AppendMessage(nil, h, &tc.want)
			if err != nil || !bytes.Equal(out, wire) {
				t.Errorf("encode\n got % x, %v\nwant % x", out, err, wire)
			}
		})
	}
}

func TestTextEdges(t *testing.T) {
	var m Text
	if err := m.DecodeBody(nil, V2013); !errors.Is(err, ErrShort) {
		t.Errorf("empty body: %v", err)
	}
	if err := m.DecodeBody([]byte{0x04}, V2019); !errors.Is(err, ErrShort) {
		t.Errorf("2019 without type: %v", err)
	}
	if err := m.DecodeBody([]byte{0x04, 'h', 'i', 0}, V2013); err != nil || m.Text != "hi" || m.Flag != TextDisplay {
		t.Errorf("trailing NUL: %+v %v", m, err)
	}
	if _, err := (&Text{Text: "\U0001F600"}).AppendBody(nil, V2013); !errors.Is(err, ErrEncoding) {
		t.Errorf("emoji: %v", err)
	}
}
