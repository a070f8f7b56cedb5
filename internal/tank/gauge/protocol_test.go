package gauge

import (
	"context"
	"errors"
	"math"
	"net"
	"testing"
	"time"
)

// The answers below are written by hand from the layout in docs/PROTOCOL.md ("Station tank gauges"):
// the floats are IEEE-754 single precision as 8 hex digits (463B8000 = 12000.0, 449A5000 = 1234.5,
// 41940000 = 18.5 …) and the checksums the 16-bit two's complement of the byte sum from SOH through
// "&&". They do not come from the simulator's encoder.
const (
	inv201 = "\x01i201002611260905" +
		"011000007" + "463B8000" + "463AB800" + "468CA000" + "449A5000" + "41400000" + "41940000" + "42200000" +
		"022000007" + "45FA0400" + "45F9B000" + "46ABE000" + "446D9000" + "00000000" + "41A80000" + "00000000" +
		"&&E20B\x03"
	// the same first tank with CR/LF and spaces inside, as some serial-to-TCP adapters send it
	inv201Spaces = "\x01i201002611260905\r\n01 1 0000 07 463B8000463AB800468CA000449A500041400000419400004220000\r\n0&&EE91\x03"
	// nine fields: two unknown ones past the map (10.0 and 1.0)
	inv201Extra = "\x01i201002611260905011000009463B8000463AB800468CA000449A5000414000004194000042200000412000003F800000&&EC15\x03"
	del202      = "\x01i20200261126090501101261126081026112608350A459C4000459BF0000000000041A00000466A60004669980000000000419800004416000044BB8000&&E6D2\x03"
	alarms205   = "\x01i205002611260905010202040200&&FA08\x03"
	leak203     = "\x01i20300261126090501126112603000340C000003F4CCCCD00000000&&F457\x03"
)

var cst = time.FixedZone("CST", 8*3600)

func TestChecksum(t *testing.T) {
	if got := Checksum([]byte("\x01i20100&&")); got != 0xFE57 {
		t.Fatalf("checksum %04X, want FE57", got)
	}
	// sum + checksum ≡ 0 mod 65536
	var s uint16
	for _, b := range []byte("\x01i20100&&") {
		s += uint16(b)
	}
	if s+0xFE57 != 0 {
		t.Fatal("sum + checksum is not 0")
	}
}

func TestRequest(t *testing.T) {
	if got := string(Request("201", 0)); got != "\x01i20100" {
		t.Fatalf("%q", got)
	}
	if got := string(Request("205", 3)); got != "\x01i20503" {
		t.Fatalf("%q", got)
	}
}

func TestParseInventory(t *testing.T) {
	at, tanks, err := ParseInventory([]byte(inv201), 0, nil, cst)
	if err != nil {
		t.Fatal(err)
	}
	if want := time.Date(2026, 11, 26, 9, 5, 0, 0, cst); !at.Equal(want) {
		t.Fatalf("time %v", at)
	}
	if len(tanks) != 2 {
		t.Fatalf("%d tanks", len(tanks))
	}
	a, b := tanks[0], tanks[1]
	if a.Tank != 1 || a.Product != '1' || a.Status != 0 || a.Volume != 12000 || a.TCVolume != 11950 || a.Ullage != 18000 ||
		a.Height != 1234.5 || a.Water != 12 || a.Temp != 18.5 || a.WaterVolume != 40 {
		t.Fatalf("tank 1 %+v", a)
	}
	if b.Tank != 2 || b.Product != '2' || b.Volume != 8000.5 || b.Height != 950.25 || b.Temp != 21 {
		t.Fatalf("tank 2 %+v", b)
	}
}

func TestParseInventoryTolerant(t *testing.T) {
	_, tanks, err := ParseInventory([]byte(inv201Spaces), 0, nil, cst)
	if err != nil {
		t.Fatal(err)
	}
	if len(tanks) != 1 || tanks[0].Volume != 12000 || tanks[0].WaterVolume != 40 {
		t.Fatalf("%+v", tanks)
	}
	_, tanks, err = ParseInventory([]byte(inv201Extra), 0, nil, cst)
	if err != nil {
		t.Fatal(err)
	}
	if len(tanks) != 1 || len(tanks[0].Extra) != 2 || tanks[0].Extra[0] != 10 || tanks[0].Extra[1] != 1 || tanks[0].Temp != 18.5 {
		t.Fatalf("%+v", tanks)
	}
	// another model's order: the same floats read as height first
	_, tanks, err = ParseInventory([]byte(inv201), 0, Models["height-first"], cst)
	if err != nil {
		t.Fatal(err)
	}
	if tanks[0].Height != 12000 || tanks[0].Volume != 11950 || tanks[0].Has[FUllage] {
		t.Fatalf("%+v", tanks[0])
	}
	// leading CR/LF before SOH
	if _, _, err := ParseInventory([]byte("\r\n"+inv201), 0, nil, cst); err != nil {
		t.Fatal(err)
	}
}

func TestParseErrors(t *testing.T) {
	cases := []struct {
		name, in string
		want     error
	}{
		{"empty", "", ErrTruncated},
		{"garbage", "HELLO WORLD\x03", ErrGarbage},
		{"bytes before SOH", "xx" + inv201, ErrGarbage},
		{"bad checksum", inv201[:len(inv201)-5] + "E20C\x03", ErrChecksum},
		{"flipped digit", inv201[:30] + "9" + inv201[31:], ErrChecksum},
		{"cut in the body", inv201[:60], ErrTruncated},
		{"cut after &&", inv201[:len(inv201)-3], ErrTruncated},
		{"no ETX", inv201[:len(inv201)-1] + "X", ErrGarbage},
		{"checksum not hex", inv201[:len(inv201)-5] + "ZZZZ\x03", ErrGarbage},
		{"wrong echo", del202, ErrEcho},
		{"not understood", "\x019999FF1B\x03", ErrUnsupported},
		// a field count of 07 with one float short, checksum right: FE?? computed below
		{"field count beyond the body", "\x01i201002611260905011000007463B8000&&" + sum("\x01i201002611260905011000007463B8000&&") + "\x03", ErrTruncated},
		{"bad float digits", "\x01i2010026112609050110000014G3B8000&&" + sum("\x01i2010026112609050110000014G3B8000&&") + "\x03", ErrGarbage},
		{"NaN", "\x01i2010026112609050110000017FC00000&&" + sum("\x01i2010026112609050110000017FC00000&&") + "\x03", ErrGarbage},
		{"bad time", "\x01i201002613260905&&" + sum("\x01i201002613260905&&") + "\x03", ErrGarbage},
		{"no fields", "\x01i201002611260905011000000&&" + sum("\x01i201002611260905011000000&&") + "\x03", ErrGarbage},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := ParseInventory([]byte(c.in), 0, nil, cst)
			if !errors.Is(err, c.want) {
				t.Fatalf("err %v, want %v", err, c.want)
			}
			if !IsProtocol(err) {
				t.Fatal("not a protocol error")
			}
		})
	}
}

// sum is the checksum as 4 hex digits, for the error cases whose point is not the checksum.
func sum(s string) string {
	const hexd = "0123456789ABCDEF"
	c := Checksum([]byte(s))
	return string([]byte{hexd[c>>12], hexd[c>>8&15], hexd[c>>4&15], hexd[c&15]})
}

func TestParseDeliveries(t *testing.T) {
	_, ds, err := ParseDeliveries([]byte(del202), 0, cst)
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != 1 {
		t.Fatalf("%d deliveries", len(ds))
	}
	d := ds[0]
	if d.Tank != 1 || !d.Start.Equal(time.Date(2026, 11, 26, 8, 10, 0, 0, cst)) || !d.End.Equal(time.Date(2026, 11, 26, 8, 35, 0, 0, cst)) ||
		d.StartVolume != 5000 || d.StartTC != 4990 || d.StartTemp != 20 || d.EndVolume != 15000 || d.EndTC != 14950 ||
		d.EndTemp != 19 || d.StartHeight != 600 || d.EndHeight != 1500 {
		t.Fatalf("%+v", d)
	}
}

func TestParseAlarmsAndLeak(t *testing.T) {
	_, as, err := ParseAlarms([]byte(alarms205), 0, cst)
	if err != nil {
		t.Fatal(err)
	}
	if len(as) != 2 || as[0].Tank != 1 || len(as[0].Types) != 2 || as[0].Types[0] != 2 || as[0].Types[1] != 4 || as[1].Tank != 2 || len(as[1].Types) != 0 {
		t.Fatalf("%+v", as)
	}
	_, ls, err := ParseLeakTests([]byte(leak203), 0, cst)
	if err != nil {
		t.Fatal(err)
	}
	if len(ls) != 1 || ls[0].Hours != 6 || math.Abs(ls[0].RateLph-0.8) > 1e-6 || !ls[0].Passed || !ls[0].At.Equal(time.Date(2026, 11, 26, 3, 0, 0, 0, cst)) {
		t.Fatalf("%+v", ls)
	}
}

// serve runs a one-connection-at-a-time TCP listener answering each connection with fn.
func serve(t *testing.T, fn func(c net.Conn)) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				fn(c)
			}()
		}
	}()
	return ln.Addr().String()
}

func readReq(c net.Conn) string {
	b := make([]byte, 7)
	_ = c.SetReadDeadline(time.Now().Add(2 * time.Second))
	n, _ := c.Read(b)
	return string(b[:n])
}

func TestClientExchange(t *testing.T) {
	got := make(chan string, 1)
	addr := serve(t, func(c net.Conn) {
		got <- readReq(c)
		_, _ = c.Write([]byte(inv201[:20])) // in two pieces
		time.Sleep(10 * time.Millisecond)
		_, _ = c.Write([]byte(inv201[20:]))
	})
	cl := &Client{Addr: addr, Loc: cst, ReadTimeout: 2 * time.Second}
	_, tanks, err := cl.Inventory(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if r := <-got; r != "\x01i20100" {
		t.Fatalf("request %q", r)
	}
	if len(tanks) != 2 {
		t.Fatal(len(tanks))
	}
}

func TestClientTimeouts(t *testing.T) {
	silent := serve(t, func(c net.Conn) {
		readReq(c)
		time.Sleep(time.Second)
	})
	half := serve(t, func(c net.Conn) {
		readReq(c)
		_, _ = c.Write([]byte(inv201[:40]))
		time.Sleep(time.Second)
	})
	halfClose := serve(t, func(c net.Conn) {
		readReq(c)
		_, _ = c.Write([]byte(inv201[:40]))
	})
	garbage := serve(t, func(c net.Conn) {
		readReq(c)
		_, _ = c.Write([]byte("\x00\xff\xfegarbage\x03"))
	})
	ctx := context.Background()
	for _, c := range []struct {
		name, addr string
		check      func(error) bool
	}{
		{"never answers", silent, func(err error) bool { return errors.Is(err, ErrTimeout) && !IsProtocol(err) }},
		{"answers half", half, func(err error) bool { return errors.Is(err, ErrTimeout) }},
		{"half then closes", halfClose, func(err error) bool { return errors.Is(err, ErrTruncated) }},
		{"garbage", garbage, func(err error) bool { return errors.Is(err, ErrGarbage) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			cl := &Client{Addr: c.addr, Loc: cst, ReadTimeout: 200 * time.Millisecond}
			start := time.Now()
			_, _, err := cl.Inventory(ctx)
			if !c.check(err) {
				t.Fatalf("err %v", err)
			}
			if time.Since(start) > 900*time.Millisecond {
				t.Fatal("timeout not kept")
			}
		})
	}
	// nobody listening: a network error, not a protocol one
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := ln.Addr().String()
	_ = ln.Close()
	_, _, err := (&Client{Addr: addr}).Inventory(ctx)
	if err == nil || IsProtocol(err) {
		t.Fatalf("refused: %v", err)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{inv201, inv201Spaces, inv201Extra, del202, alarms205, leak203, "", "\x01", "\x01i20100&&FE57\x03"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		_, inv, err := ParseInventory(b, 0, nil, time.UTC)
		if err == nil {
			for _, x := range inv {
				if math.IsNaN(x.Volume) || math.IsInf(x.Height, 0) {
					t.Fatal("non-finite figure accepted")
				}
			}
		} else if !IsProtocol(err) {
			t.Fatalf("untyped error %v", err)
		}
		if _, _, err := ParseDeliveries(b, 0, time.UTC); err != nil && !IsProtocol(err) {
			t.Fatalf("untyped error %v", err)
		}
		if _, _, err := ParseAlarms(b, 0, time.UTC); err != nil && !IsProtocol(err) {
			t.Fatalf("untyped error %v", err)
		}
		if _, _, err := ParseLeakTests(b, 0, time.UTC); err != nil && !IsProtocol(err) {
			t.Fatalf("untyped error %v", err)
		}
	})
}
