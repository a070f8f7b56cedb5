package jt808

import (
	"testing"
)

func BenchmarkDecodeLocation(b *testing.B) {
	body := hx(b, locBody5)
	var l Location
	b.ReportAllocs()
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		if err := l.DecodeBody(body, V2013); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeLocationFrame(b *testing.B) {
	wire, _ := AppendMessage(nil, Header{Phone: testPhone}, func() *Location { l := loc5(); return &l }())
	buf := make([]byte, 0, 256)
	var l Location
	b.ReportAllocs()
	for b.Loop() {
		f, _, err := DecodeFrame(buf[:0], wire)
		if err != nil {
			b.Fatal(err)
		}
		if err := l.DecodeBody(f.Body, f.Header.Version); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkUnescape(b *testing.B) {
	wire, _ := AppendMessage(nil, Header{Phone: testPhone}, func() *Location { l := loc5(); return &l }())
	in := wire[1 : len(wire)-1]
	buf := make([]byte, 0, 256)
	b.ReportAllocs()
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		var err error
		if buf, err = Unescape(buf[:0], in); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEncodeReply(b *testing.B) {
	h := Header{Phone: testPhone, Serial: 1}
	m := &GeneralReply{Platform: true, Serial: 0x7e, ReplyID: MsgLocation}
	buf := make([]byte, 0, 64)
	b.ReportAllocs()
	for b.Loop() {
		var err error
		if buf, err = AppendMessage(buf[:0], h, m); err != nil {
			b.Fatal(err)
		}
	}
}

func TestDecodeLocationAllocs(t *testing.T) {
	body := hx(t, locBody5)
	wire, _ := AppendMessage(nil, Header{Phone: testPhone}, func() *Location { l := loc5(); return &l }())
	buf := make([]byte, 0, 256)
	var l Location
	n := testing.AllocsPerRun(100, func() {
		if err := l.DecodeBody(body, V2013); err != nil {
			t.Fatal(err)
		}
		f, _, err := DecodeFrame(buf[:0], wire)
		if err != nil {
			t.Fatal(err)
		}
		if err := l.DecodeBody(f.Body, f.Header.Version); err != nil {
			t.Fatal(err)
		}
		if _, ok := l.Mileage(); !ok {
			t.Fatal("no mileage")
		}
	})
	if n != 0 {
		t.Errorf("decoding a location frame allocates %v times, want 0", n)
	}
	reply := &GeneralReply{Platform: true, Serial: 1, ReplyID: MsgLocation}
	out := make([]byte, 0, 64)
	if n := testing.AllocsPerRun(100, func() { out, _ = AppendMessage(out[:0], Header{Phone: testPhone}, reply) }); n != 0 {
		t.Errorf("encoding 0x8001 allocates %v times, want 0", n)
	}
}
