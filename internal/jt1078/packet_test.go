package jt1078

import (
	"bytes"
	"errors"
	"reflect"
	"testing"

	"tankwatch/internal/jt808"
)

func TestHeaderLen(t *testing.T) {
	for _, c := range []struct {
		e    Edition
		t    DataType
		want int
	}{
		{Edition2016, VideoI, 30}, {Edition2016, VideoP, 30}, {Edition2016, Audio, 26}, {Edition2016, PassThrough, 18},
		{Edition2019, VideoB, 34}, {Edition2019, Audio, 30}, {Edition2019, PassThrough, 22},
	} {
		if got := HeaderLen(c.e, c.t); got != c.want {
			t.Errorf("%s %d: %d, want %d", c.e, c.t, got, c.want)
		}
	}
}

func TestRoundTrip(t *testing.T) {
	sim := jt808.MustPhone("13800138000")
	for _, e := range []Edition{Edition2016, Edition2019} {
		for _, ty := range []DataType{VideoI, VideoP, VideoB, Audio, PassThrough} {
			p := Packet{Edition: e, Marker: true, PT: PTH264, Seq: 65535, SIM: sim, Channel: 3, Type: ty, Sub: SubMiddle,
				LastI: 120, LastF: 40, Body: []byte{1, 2, 3, 4, 5}}
			if ty != PassThrough {
				p.Time = 1764140000123
			}
			if !ty.IsVideo() {
				p.LastI, p.LastF = 0, 0
			}
			b, err := Append([]byte{9}, p)
			if err != nil {
				t.Fatal(err)
			}
			if b[0] != 9 || len(b) != 1+HeaderLen(e, ty)+5 {
				t.Fatalf("%s type %d: %d bytes", e, ty, len(b))
			}
			got, err := Decode(b[1:], e)
			if err != nil {
				t.Fatalf("%s type %d: %v", e, ty, err)
			}
			p.Consumed = len(b) - 1
			if got.SIM.String() != "13800138000" || !bytes.Equal(got.Body, p.Body) {
				t.Errorf("%s type %d: %+v", e, ty, got)
			}
			got.Body, p.Body = nil, nil
			if !reflect.DeepEqual(got, p) {
				t.Errorf("%s type %d:\n got %+v\nwant %+v", e, ty, got, p)
			}
		}
	}
}

func TestDecodeRefuses(t *testing.T) {
	good, _ := Append(nil, Packet{PT: PTG711A, Type: Audio, SIM: jt808.MustPhone("1"), Body: []byte{1}})
	mut := func(i int, v byte) []byte {
		b := bytes.Clone(good)
		b[i] = v
		return b
	}
	for _, c := range []struct {
		name string
		b    []byte
		want error
	}{
		{"empty", nil, ErrShort},
		{"half magic", good[:2], ErrShort},
		{"no magic", mut(0, 0x31), ErrMagic},
		{"version 1", mut(4, 0x41), ErrField},
		{"SIM not BCD", mut(8, 0xA0), ErrField},
		{"data type 5", mut(15, 0x50), ErrField},
		{"sub-package flag 4", mut(15, 0x34), ErrField},
		{"body too long", append(bytes.Clone(good[:24]), 0xFF, 0xFF), ErrField},
		{"body cut", good[:len(good)-1], ErrShort},
		{"header cut", good[:20], ErrShort},
	} {
		if _, err := Decode(c.b, Edition2016); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
	if _, err := Append(nil, Packet{SIM: jt808.MustPhone("12345678901234"), Type: Audio}); !errors.Is(err, ErrField) {
		t.Errorf("a 14-digit SIM in a 2016 header: %v", err)
	}
	if _, err := Append(nil, Packet{Type: Audio, Body: make([]byte, MaxBody+1)}); !errors.Is(err, ErrField) {
		t.Errorf("oversize body: %v", err)
	}
}
