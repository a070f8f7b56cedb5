package jt808

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// The lists that devices cut short: the entries before the cut are kept, the cut one is dropped and
// recorded. Item values in the base location are from locBody5.

func TestLocationCutLastItem(t *testing.T) {
	base := loc5()
	cases := []struct {
		name  string
		tail  string // after the 28-byte base of locBody5
		ids   []byte // items kept
		cut   Cut
		trunc int
	}{
		{"whole items", "01 04 00000d80  30 01 1f", []byte{0x01, 0x30}, Cut{}, 0},
		{"no items", "", nil, Cut{}, 0},
		{"last value short", "01 04 00000d80  30 01 1f  e1 0b 01 02 0505", []byte{0x01, 0x30},
			Cut{Short: true, Index: 2, ID: 0xe1, Want: 11, Have: 4}, 0},
		{"last value empty", "01 04 00000d80  e2 13", []byte{0x01}, Cut{Short: true, Index: 1, ID: 0xe2, Want: 19}, 0},
		{"last header cut", "01 04 00000d80  31", []byte{0x01}, Cut{Short: true, Index: 1, ID: 0x31, Want: -1, Have: 1}, 0},
		{"only item cut", "01 04 0000", nil, Cut{Short: true, ID: 0x01, Want: 4, Have: 2}, 0},
		{"cut after MaxItems", strings.Repeat("30 01 1f ", MaxItems+2) + "31 05 00", bytesOf(0x30, MaxItems),
			Cut{Short: true, Index: MaxItems + 2, ID: 0x31, Want: 5, Have: 1}, 2},
	}
	baseHex := locBody5[:strings.Index(locBody5, "01 04 00000d80")]
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var l Location
			if err := l.DecodeBody(hx(t, baseHex+tc.tail), V2013); err != nil {
				t.Fatalf("a whole base must decode: %v", err)
			}
			if l.Lat != base.Lat || l.Lon != base.Lon || !l.Time.Equal(base.Time) || l.Status != base.Status || l.Speed != base.Speed {
				t.Errorf("base position %+v", l)
			}
			var ids []byte
			for _, it := range l.Items[:l.NItems] {
				ids = append(ids, it.ID)
			}
			if string(ids) != string(tc.ids) || l.Cut != tc.cut || l.Truncated != tc.trunc {
				t.Errorf("items % x truncated %d cut %+v, want % x %d %+v", ids, l.Truncated, l.Cut, tc.ids, tc.trunc, tc.cut)
			}
			if m, ok := l.Mileage(); len(tc.ids) > 0 && tc.ids[0] == ItemMileage && (!ok || m != 3456) {
				t.Errorf("mileage before the cut: %d %v", m, ok)
			}
			if err := l.Cut.Err("0x0200"); (err != nil) != tc.cut.Short || (err != nil && !errors.Is(err, ErrShort)) {
				t.Errorf("Cut.Err = %v", err)
			}
		})
	}
	// the base itself is not negotiable
	var l Location
	if err := l.DecodeBody(hx(t, baseHex)[:27], V2013); !errors.Is(err, ErrShort) {
		t.Errorf("27-byte base: %v", err)
	}
	// a reused Location forgets the previous cut
	if err := l.DecodeBody(hx(t, baseHex+"01 04 0000"), V2013); err != nil || !l.Cut.Short {
		t.Fatalf("cut: %v %+v", err, l.Cut)
	}
	if err := l.DecodeBody(hx(t, baseHex), V2013); err != nil || l.Cut.Short {
		t.Errorf("cut kept from the previous body: %+v", l.Cut)
	}
}

func bytesOf(b byte, n int) []byte { return []byte(strings.Repeat(string([]byte{b}), n)) }

// entry is a 0x0704 position: length WORD + body.
func entry(t *testing.T, body string) string {
	b := hx(t, body)
	return fmt.Sprintf("%04x %x", len(b), b)
}

func TestBatchCut(t *testing.T) {
	whole := locBaseSW + "30 01 1f"
	cutItem := locBaseSW + "30 01 1f  e1 0b 01 02"
	cases := []struct {
		name    string
		body    func(t *testing.T) string
		n       int
		cut     Cut
		itemCut []bool // per kept position: its last item was cut
		err     error
	}{
		{"whole", func(t *testing.T) string { return "0002 01" + entry(t, whole) + entry(t, whole) }, 2, Cut{}, []bool{false, false}, nil},
		// the entry's declared length is honest; the 0x0200 inside it is cut: like a lone 0x0200
		{"last item cut inside an entry", func(t *testing.T) string { return "0002 01" + entry(t, whole) + entry(t, cutItem) },
			2, Cut{}, []bool{false, true}, nil},
		{"last entry runs past the body", func(t *testing.T) string { return "0002 01" + entry(t, whole) + "0025" + locBaseSW },
			1, Cut{Short: true, Index: 1, Want: 0x25, Have: 28}, []bool{false}, nil},
		{"last entry length cut", func(t *testing.T) string { return "0002 01" + entry(t, whole) + "00" },
			1, Cut{Short: true, Index: 1, Want: -1, Have: 1}, []bool{false}, nil},
		{"count beyond the body", func(t *testing.T) string { return "0003 01" + entry(t, whole) + entry(t, whole) },
			2, Cut{Short: true, Index: 2, Want: -1}, []bool{false, false}, nil},
		{"no whole position", func(t *testing.T) string { return "ffff 00 001c 00000000" }, 0, Cut{}, nil, ErrShort},
		{"bad position is not a cut", func(t *testing.T) string { return "0002 01" + entry(t, whole) + "0004 00000000" }, 0, Cut{}, nil, ErrShort},
		{"trailing bytes", func(t *testing.T) string { return "0001 01" + entry(t, whole) + "00" }, 0, Cut{}, nil, ErrTooLong},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var b Batch
			err := b.DecodeBody(hx(t, tc.body(t)), V2013)
			if tc.err != nil {
				if !errors.Is(err, tc.err) {
					t.Fatalf("got %v, want %v", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(b.Items) != tc.n || b.Cut != tc.cut || b.Type != 1 {
				t.Fatalf("%d positions, cut %+v", len(b.Items), b.Cut)
			}
			for i, l := range b.Items {
				if l.Lat != locSW.Lat || l.NItems < 1 || l.Items[0].ID != ItemSignal || l.Cut.Short != tc.itemCut[i] {
					t.Errorf("position %d: %+v", i, l)
				}
			}
		})
	}
}

func TestParamsReplyCut(t *testing.T) {
	cases := []struct {
		name string
		body string
		ids  []uint32
		cut  Cut
		err  error
	}{
		{"whole", "000a 02 00000001 04 0000001e 00000029 04 0000000a", []uint32{1, 0x29}, Cut{}, nil},
		{"last value short", "000a 03 00000001 04 0000001e 00000029 04 0000000a 00000013 0a 313233", []uint32{1, 0x29},
			Cut{Short: true, Index: 2, ID: 0x13, Want: 10, Have: 3}, nil},
		{"last header short", "000a 02 00000001 04 0000001e 000000", []uint32{1}, Cut{Short: true, Index: 1, Want: -1, Have: 3}, nil},
		{"last length byte missing", "000a 02 00000001 04 0000001e 00000029", []uint32{1}, Cut{Short: true, Index: 1, ID: 0x29, Want: -1, Have: 4}, nil},
		{"count beyond the body", "000a 03 00000001 04 0000001e", []uint32{1}, Cut{Short: true, Index: 1, Want: -1}, nil},
		{"first entry cut", "000a 01 00000001 04 00", nil, Cut{Short: true, ID: 1, Want: 4, Have: 1}, nil},
		{"no serial", "00", nil, Cut{}, ErrShort},
		{"trailing bytes", "000a 01 00000001 01 05 ff", nil, Cut{}, ErrTooLong},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var p ParamsReply
			err := p.DecodeBody(hx(t, tc.body), V2013)
			if tc.err != nil {
				if !errors.Is(err, tc.err) {
					t.Fatalf("got %v, want %v", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var ids []uint32
			for _, q := range p.Params {
				ids = append(ids, q.ID)
			}
			if p.Serial != 10 || fmt.Sprint(ids) != fmt.Sprint(tc.ids) || p.Cut != tc.cut {
				t.Errorf("serial %d ids %v cut %+v, want %v %+v", p.Serial, ids, p.Cut, tc.ids, tc.cut)
			}
			if len(p.Params) > 0 {
				if n, ok := p.Params[0].Uint(); !ok || n != 30 {
					t.Errorf("first parameter %d %v", n, ok)
				}
			}
		})
	}
	// 0x8103 is the platform's own message: a short entry stays an error
	var s SetParams
	if err := s.DecodeBody(hx(t, "02 00000001 04 0000001e 00000029 04 00"), V2013); !errors.Is(err, ErrShort) {
		t.Errorf("0x8103 with a short entry: %v", err)
	}
}

func TestCutErrText(t *testing.T) {
	if err := (Cut{}).Err("0x0200"); err != nil {
		t.Errorf("no cut: %v", err)
	}
	for _, tc := range []struct {
		c    Cut
		want string
	}{
		{Cut{Short: true, Index: 2, ID: 0xe1, Want: 11, Have: 4}, "0x0200: jt808: data too short: entry 2 (ID 0xe1) declares 11 bytes, 4 arrived; dropped, the entries before it kept"},
		{Cut{Short: true, Index: 1, Want: 48, Have: 28}, "0x0200: jt808: data too short: entry 1 declares 48 bytes, 28 arrived; dropped, the entries before it kept"},
		{Cut{Short: true, Index: 1, ID: 0x31, Want: -1, Have: 1}, "0x0200: jt808: data too short: entry 1 cut short in its header (1 bytes); dropped, the entries before it kept"},
	} {
		if got := tc.c.Err("0x0200").Error(); got != tc.want {
			t.Errorf("got  %s\nwant %s", got, tc.want)
		}
	}
}

// Error texts and logs show the terminal phone as its digits, never as a dump of the [10]byte.
func TestPhoneShownAsDigits(t *testing.T) {
	_, _, err := ParseHeader(hx(t, "0002 0000 01380013800a 0001"))
	if !errors.Is(err, ErrPhone) || !strings.Contains(err.Error(), "phone 01380013800A is not BCD") {
		t.Errorf("2013: %v", err)
	}
	_, _, err = ParseHeader(hx(t, "0002 4000 01 0000000001380013800f 0001"))
	if !errors.Is(err, ErrPhone) || !strings.Contains(err.Error(), "phone 0000000001380013800F is not BCD") {
		t.Errorf("2019: %v", err)
	}
	if _, err := AppendFrame(nil, Header{Version: V2013, Phone: MustPhone("12345678901234")}, nil); err == nil ||
		!strings.Contains(err.Error(), "12345678901234 has more than 12 digits") {
		t.Errorf("long phone in 2013: %v", err)
	}
	b, err := json.Marshal(struct{ Phone Phone }{testPhone})
	if err != nil || string(b) != `{"Phone":"13800138000"}` {
		t.Errorf("JSON %s %v", b, err)
	}
	var back struct{ Phone Phone }
	if err := json.Unmarshal(b, &back); err != nil || back.Phone != testPhone {
		t.Errorf("JSON back %v %v", back.Phone, err)
	}
	if err := json.Unmarshal([]byte(`{"Phone":"13a"}`), &back); !errors.Is(err, ErrPhone) {
		t.Errorf("non-digit phone: %v", err)
	}
}
