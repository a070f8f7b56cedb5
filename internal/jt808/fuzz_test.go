package jt808

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"testing"
)

// Seeds come from the hand-written vectors; testdata/fuzz holds the same as a
// committed corpus plus whatever fuzzing found.

func FuzzFrame(f *testing.F) {
	f.Add(hx(f, "7e 0002 0000 013800138000 0001 a9 7e"))
	f.Add(hx(f, "7e 8001 0005 013800138000 002c 007d02 0200 00 7d02 7e"))
	f.Add(hx(f, "7e 0002 4000 01 00000000013800138000 0001 e8 7e"))
	f.Add(hx(f, "7e 0900 6002 01 00000000013800138000 0005 0002 0002 41 7d02 fa 7e"))
	f.Fuzz(func(t *testing.T, in []byte) {
		fr, _, err := DecodeFrame(nil, in)
		if err != nil {
			return
		}
		out, err := AppendFrame(nil, fr.Header, fr.Body)
		if err != nil {
			if errors.Is(err, ErrUnknownVersion) {
				t.Fatal(err)
			}
			return
		}
		fr2, _, err := DecodeFrame(nil, out)
		if err != nil {
			t.Fatalf("re-decode: %v", err)
		}
		if fr2.Header != fr.Header || !bytes.Equal(fr2.Body, fr.Body) {
			t.Fatalf("round trip: %+v vs %+v", fr2.Header, fr.Header)
		}
	})
}

func FuzzSplitter(f *testing.F) {
	hb := hx(f, "7e 0002 0000 013800138000 0001 a9 7e")
	f.Add(append(append([]byte("junk"), hb...), hb[1:]...), 64)
	f.Add(hx(f, "7e7e7e 0102 7e 7d 7e"), 16)
	f.Fuzz(func(t *testing.T, in []byte, max int) {
		max = max%300 + 20 // keep sizes small so the cap is exercised
		if max < 1 {
			max = -max + 1
		}
		s := NewSplitter(bytes.NewReader(in), max)
		total := 0
		for range len(in) + 2 {
			fr, err := s.Next()
			if err != nil {
				if errors.Is(err, ErrTooLong) {
					continue
				}
				if err != io.EOF && err != io.ErrUnexpectedEOF {
					t.Fatalf("unexpected error %v", err)
				}
				return
			}
			if len(fr) == 0 || len(fr) > max || bytes.IndexByte(fr, 0x7e) >= 0 {
				t.Fatalf("bad frame % x (max %d)", fr, max)
			}
			total += len(fr)
			if total > len(in) {
				t.Fatal("more frame bytes than input")
			}
		}
		t.Fatal("splitter did not reach EOF")
	})
}

func FuzzLocation(f *testing.F) {
	f.Add(hx(f, locBody5))
	f.Add(hx(f, locBaseSW))
	f.Add(hx(f, locBaseSW+"30 01 1f e1 0b 01 02 0505")) // last item cut short
	f.Add(hx(f, locBaseSW+"30 01 1f 31"))               // last item header cut short
	f.Fuzz(func(t *testing.T, in []byte) {
		var l Location
		if err := l.DecodeBody(in, V2013); err != nil {
			return
		}
		l.Mileage()
		l.Analog()
		l.Overspeed()
		l.AreaRoute()
		l.RouteTime()
		out, err := l.AppendBody(nil, V2013)
		if err != nil {
			t.Fatalf("encode decoded: %v", err)
		}
		// a last item cut short is dropped: the encoding is the input without it
		kept := in
		if c := l.Cut; c.Short {
			tail := c.Have
			if c.Want >= 0 {
				tail += 2
			}
			if c.Have < 0 || tail > len(in)-locationBaseLen || c.Want > 255 || (c.Want >= 0 && c.Have >= c.Want) {
				t.Fatalf("impossible cut %+v of %d bytes", c, len(in))
			}
			kept = in[:len(in)-tail]
		}
		if l.Truncated == 0 && !bytes.Equal(out, kept) {
			t.Fatalf("encode(decode(x)) != x without its cut item\n% x\n% x", out, kept)
		}
		var l2 Location
		if err := l2.DecodeBody(out, V2013); err != nil || l2.Cut.Short {
			t.Fatalf("decode(encode(decode(x))): %v %+v", err, l2.Cut)
		}
		l.Cut = Cut{}
		if l.Truncated == 0 && !l2.Equal(&l) {
			t.Fatal("decode(encode(decode(x))) differs")
		}
	})
}

func FuzzRegister(f *testing.F) {
	for _, tc := range messageCases() {
		if _, ok := tc.want.(*Register); ok {
			f.Add(hx(f, tc.body), tc.v == V2019)
		}
	}
	f.Fuzz(func(t *testing.T, in []byte, v2019 bool) {
		v := V2013
		if v2019 {
			v = V2019
		}
		var r Register
		if err := r.DecodeBody(in, v); err != nil {
			return
		}
		out, err := r.AppendBody(nil, v)
		if err != nil {
			return // e.g. invalid GBK decoded to U+FFFD, or a long GBK run
		}
		var r2 Register
		if err := r2.DecodeBody(out, v); err != nil {
			t.Fatalf("re-decode: %v", err)
		}
		if r2.Version == r.Version && !reflect.DeepEqual(r2, r) {
			t.Fatalf("round trip\n%+v\n%+v", r2, r)
		}
	})
}

// FuzzMessages feeds every message decoder; whatever decodes must re-encode
// and decode to the same value.
func FuzzMessages(f *testing.F) {
	cases := messageCases()
	for i, tc := range cases {
		f.Add(uint8(i), hx(f, tc.body), tc.v == V2019)
		for _, body := range cutSeeds(tc.want) {
			f.Add(uint8(i), hx(f, body), tc.v == V2019)
		}
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
			return
		}
		m2 := tc.fresh()
		if err := m2.DecodeBody(out, v); err != nil {
			t.Fatalf("%s: re-decode: %v", tc.name, err)
		}
		if r, ok := m.(*Register); ok && r.Version != m2.(*Register).Version {
			return
		}
		out2, _ := m2.AppendBody(nil, v)
		if !bytes.Equal(out, out2) {
			t.Fatalf("%s: encode not stable\n% x\n% x", tc.name, out, out2)
		}
	})
}

// cutSeeds are bodies of m's type whose last entry is cut short (kept as the entries before it).
func cutSeeds(m Message) []string {
	switch m.(type) {
	case *ParamsReply:
		return []string{"000a 02 00000001 04 0000001e 00000029 04 00", "000a 02 00000001 04 0000001e 000000"}
	case *Batch:
		return []string{"0002 01 001f" + locBaseSW + "30 01 1f 0025" + locBaseSW, "0001 00 0021" + locBaseSW + "e1 0b 01 02 05"}
	}
	return nil
}
