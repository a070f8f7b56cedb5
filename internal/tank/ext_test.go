package tank_test

import (
	"encoding/hex"
	"errors"
	"strings"
	"testing"

	"tankwatch/internal/tank"
)

// hx decodes hex with spaces for readability.
func hx(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	if err != nil {
		t.Fatalf("bad hex %q: %v", s, err)
	}
	return b
}

func twoCompartments() *tank.State {
	s := &tank.State{Compartments: 2, Seal: tank.SealSealed}
	s.Devices[0] = [tank.Kinds]byte{0x05, 0x05, 0x01, 0x03} // covers installed+locked, discharge installed, bottom open
	s.Devices[1] = [tank.Kinds]byte{0x05, 0x07, 0x00, 0x09} // manhole open+locked, no discharge valve, bottom fault
	return s
}

func TestStateItem(t *testing.T) {
	s := twoCompartments()
	want := hx(t, "E1 0B 01 02 05050103 05070009 01")
	got, err := s.AppendItem(nil)
	if err != nil || string(got) != string(want) {
		t.Fatalf("append: %X %v, want %X", got, err, want)
	}
	var d tank.State
	if err := d.Decode(want[2:]); err != nil || d != *s {
		t.Fatalf("decode: %+v %v", d, err)
	}
	for _, c := range []int{0, 9, -1} {
		if _, err := (&tank.State{Compartments: c}).AppendItem(nil); !errors.Is(err, tank.ErrItem) {
			t.Errorf("%d compartments: %v", c, err)
		}
	}
}

func TestLevelsItem(t *testing.T) {
	l := &tank.Levels{N: 2}
	l.Probes[0] = tank.Level{Compartment: 1, LevelMM: 1520, VolumeL: 18650, TempDeci: 235}
	l.Probes[1] = tank.Level{Compartment: 2, LevelMM: 40, VolumeL: 310, TempDeci: -52}
	want := hx(t, "E2 13 02  01 05F0 000048DA 00EB  02 0028 00000136 FFCC")
	got, err := l.AppendItem(nil)
	if err != nil || string(got) != string(want) {
		t.Fatalf("append: %X %v, want %X", got, err, want)
	}
	var d tank.Levels
	if err := d.Decode(want[2:]); err != nil || d != *l {
		t.Fatalf("decode: %+v %v", d, err)
	}
	empty, err := (&tank.Levels{}).AppendItem(nil)
	if err != nil || string(empty) != string(hx(t, "E2 01 00")) {
		t.Fatalf("no probes: %X %v", empty, err)
	}
	bad := &tank.Levels{N: 1}
	bad.Probes[0].Compartment = 9
	if _, err := bad.AppendItem(nil); !errors.Is(err, tank.ErrItem) {
		t.Errorf("compartment 9 encoded: %v", err)
	}
	if _, err := (&tank.Levels{N: 9}).AppendItem(nil); !errors.Is(err, tank.ErrItem) {
		t.Errorf("9 probes encoded: %v", err)
	}
}

func TestHelpAndLockCommandItems(t *testing.T) {
	h := &tank.Help{Type: tank.HelpUnlock, RequestID: 0x1234}
	if got := h.AppendItem(nil); string(got) != string(hx(t, "E3 03 01 1234")) {
		t.Fatalf("help: %X", got)
	}
	var dh tank.Help
	if err := dh.Decode(hx(t, "02 0007")); err != nil || dh != (tank.Help{Type: tank.HelpLock, RequestID: 7}) {
		t.Fatalf("help decode: %+v %v", dh, err)
	}
	c := &tank.LockCommand{Action: tank.HelpLock, Mask: 0x05, RequestID: 7}
	if got := c.AppendItem(nil); string(got) != string(hx(t, "E4 04 02 05 0007")) {
		t.Fatalf("lock command: %X", got)
	}
	var dc tank.LockCommand
	if err := dc.Decode(hx(t, "01 00 FFFF")); err != nil || dc != (tank.LockCommand{Action: tank.HelpUnlock, Mask: 0, RequestID: 0xFFFF}) {
		t.Fatalf("lock command decode: %+v %v", dc, err)
	}
}

func TestLocalPasswordItem(t *testing.T) {
	cases := []struct {
		name, pw string
		want     string // hex of the item; "" = refused
	}{
		{"digits", "123456", "E5 06 313233343536"},
		{"zeros", "000000", "E5 06 303030303030"},
		{"nines", "999999", "E5 06 393939393939"},
		{"empty", "", ""},
		{"five digits", "12345", ""},
		{"seven digits", "1234567", ""},
		{"letter", "12a456", ""},
		{"space", "12345 ", ""},
		{"full-width digit", "12345６", ""},
		{"sign", "-12345", ""},
	}
	for _, c := range cases {
		got, err := tank.LocalPassword(c.pw).AppendItem([]byte{0xAA})
		if c.want == "" {
			if !errors.Is(err, tank.ErrItem) || string(got) != "\xaa" {
				t.Errorf("%s: %X %v, want ErrItem and dst untouched", c.name, got, err)
			}
			if tank.ValidPassword(c.pw) {
				t.Errorf("%s: ValidPassword accepted %q", c.name, c.pw)
			}
			continue
		}
		if err != nil || string(got[1:]) != string(hx(t, c.want)) {
			t.Errorf("%s: %X %v, want %s", c.name, got, err, c.want)
		}
		var back tank.LocalPassword
		if err := back.Decode(got[3:]); err != nil || string(back) != c.pw {
			t.Errorf("%s: decoded %q %v", c.name, back, err)
		}
	}
}

func TestDecodeRejectsBadValues(t *testing.T) {
	cases := []struct {
		name string
		dec  func([]byte) error
		hex  string
		msg  string
	}{
		{"state empty", new(tank.State).Decode, "", "tank state of 0 bytes"},
		{"state version 2", new(tank.State).Decode, "02 01 00000000 00", "version 2"},
		{"state 0 compartments", new(tank.State).Decode, "01 00 00", "0 compartments"},
		{"state 9 compartments", new(tank.State).Decode, "01 09 00", "9 compartments"},
		{"state length mismatch", new(tank.State).Decode, "01 02 00000000 00", "2 compartments in 7 bytes"},
		{"state seal 4", new(tank.State).Decode, "01 01 00000000 04", "seal value 4"},
		{"levels empty", new(tank.Levels).Decode, "", "level item of 0 bytes"},
		{"levels 9 probes", new(tank.Levels).Decode, "09", "level item of 1 bytes"},
		{"levels short", new(tank.Levels).Decode, "01 01 05F0", "level item of 4 bytes"},
		{"levels compartment 0", new(tank.Levels).Decode, "01 00 05F0 000048DA 00EB", "compartment 0"},
		{"help short", new(tank.Help).Decode, "01 12", "help request of 2 bytes"},
		{"help type 3", new(tank.Help).Decode, "03 0001", "help request type 3"},
		{"lock command long", new(tank.LockCommand).Decode, "01 00 0001 00", "lock command of 5 bytes"},
		{"lock command action 0", new(tank.LockCommand).Decode, "00 00 0001", "lock command action 0"},
		{"password short", new(tank.LocalPassword).Decode, "3132333435", "local password of 5 bytes"},
		{"password long", new(tank.LocalPassword).Decode, "31323334353637", "local password of 7 bytes"},
		{"password empty", new(tank.LocalPassword).Decode, "", "local password of 0 bytes"},
		{"password letter", new(tank.LocalPassword).Decode, "313233343541", "non-digit"},
		{"password binary", new(tank.LocalPassword).Decode, "010203040506", "non-digit"},
	}
	for _, c := range cases {
		err := c.dec(hx(t, c.hex))
		if !errors.Is(err, tank.ErrItem) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: %v, want ErrItem with %q", c.name, err, c.msg)
		}
	}
}

func TestLockString(t *testing.T) {
	s := twoCompartments()
	// Worked example of docs/PROTOCOL.md: group by group, slot by compartment, installed/open/locked/fault.
	want := "1010" + "1010" + strings.Repeat("0000", 6) + // small manhole covers: c1 0x05, c2 0x05
		"1010" + "1110" + strings.Repeat("0000", 6) + // manhole covers: c1 0x05, c2 0x07
		"1000" + "0000" + strings.Repeat("0000", 6) + // discharge valves: c1 0x01, c2 none
		"1100" + "1001" + strings.Repeat("0000", 6) // bottom valves: c1 0x03, c2 0x09
	got := tank.LockString(s)
	if got != want || len(got) != tank.LockStateLen {
		t.Fatalf("LockString\n got %s\nwant %s", got, want)
	}
	back, ok := tank.ParseLockString(got, 2)
	if !ok || back.Compartments != 2 || back.Devices != s.Devices {
		t.Fatalf("round trip: %+v %v", back, ok)
	}
	if tank.LockString(nil) != "" {
		t.Fatal("nil state must give no string")
	}
	full := &tank.State{Compartments: 8}
	for c := range 8 {
		for k := range tank.Kinds {
			full.Devices[c][k] = byte(c+k) & 0x0F
		}
	}
	if back, ok := tank.ParseLockString(tank.LockString(full), 8); !ok || back.Devices != full.Devices {
		t.Fatalf("8 compartments round trip: %+v", back)
	}
	// The upper bits of a device byte are not part of the string.
	hi := &tank.State{Compartments: 1}
	hi.Devices[0][0] = 0xF9
	if got := tank.LockString(hi)[:4]; got != "1001" {
		t.Fatalf("upper bits leaked: %s", got)
	}
	for _, bad := range []struct {
		text string
		n    int
	}{
		{want[:127], 2}, {want + "0", 2}, {want, 0}, {want, 9},
		{strings.Replace(want, "0", "2", 1), 2},
		{want[:120] + "000x0000", 2}, // a bad character beyond the read compartments
	} {
		if _, ok := tank.ParseLockString(bad.text, bad.n); ok {
			t.Errorf("accepted %q n=%d", bad.text, bad.n)
		}
	}
}

func TestFromItemsAndPassThrough(t *testing.T) {
	h := tank.Help{Type: tank.HelpLock, RequestID: 9}
	list, _ := twoCompartments().AppendItem(nil)
	list = append(list, hx(t, "E2 0A 01 01 05F0 000048DA 00EB")...)
	list = h.AppendItem(list)
	list = append(list, hx(t, "F5 02 ABCD")...) // unknown vendor item: ignored
	e, err := tank.FromPassThrough(list)
	if err != nil || e.Tank == nil || *e.Tank != *twoCompartments() || e.Levels == nil || e.Levels.Probes[0].LevelMM != 1520 ||
		e.Help == nil || *e.Help != h || e.Empty() {
		t.Fatalf("pass-through: %+v %v", e, err)
	}

	items := [][2][]byte{{{0x01}, hx(t, "00000064")}, {{tank.ItemHelp}, hx(t, "01 0002")}, {{0x30}, {0x1F}}}
	e, err = tank.FromItems(len(items), func(i int) (byte, []byte) { return items[i][0][0], items[i][1] })
	if err != nil || e.Help == nil || e.Help.RequestID != 2 || e.Tank != nil || e.Levels != nil {
		t.Fatalf("items: %+v %v", e, err)
	}
	if e, err := tank.FromItems(1, func(int) (byte, []byte) { return 0x01, nil }); err != nil || !e.Empty() {
		t.Fatalf("no extension items: %+v %v", e, err)
	}
	if e, err := tank.FromItems(1, func(int) (byte, []byte) { return tank.ItemTank, hx(t, "01 01") }); !errors.Is(err, tank.ErrItem) || !e.Empty() {
		t.Fatalf("bad tank item accepted: %v", err)
	}
	if e, err := tank.FromPassThrough(nil); err != nil || !e.Empty() {
		t.Fatalf("empty content: %+v %v", e, err)
	}
	for _, bad := range []string{"E1", "E3 03 01 00", "E3 03 05 0001", "E2 00 E3"} {
		if _, err := tank.FromPassThrough(hx(t, bad)); !errors.Is(err, tank.ErrItem) {
			t.Errorf("%s: %v", bad, err)
		}
	}
}

// A malformed item of the extension drops that item, not the others (docs/PROTOCOL.md §1).
func TestMalformedItemDropsOnlyThatItem(t *testing.T) {
	state, _ := twoCompartments().AppendItem(nil)
	levels := hx(t, "E2 0A 01 01 05F0 000048DA 00EB")
	help := (&tank.Help{Type: tank.HelpUnlock, RequestID: 7}).AppendItem(nil)
	badState := hx(t, "E1 03 01 09 00")                  // nine compartments in three bytes
	badLevels := hx(t, "E2 0A 01 09 05F0 000048DA 00EB") // compartment 9
	badHelp := hx(t, "E3 03 05 0001")                    // type 5
	cat := func(items ...[]byte) [][]byte { return items }
	cases := []struct {
		name                 string
		items                [][]byte
		tank, levels, isHelp bool
		dropped              int
		msg                  string
	}{
		{"all good", cat(state, levels, help), true, true, true, 0, ""},
		{"bad state first", cat(badState, levels, help), false, true, true, 1, "item 0 (0xE1): tank: bad extension item: tank state with 9 compartments"},
		{"bad levels in the middle", cat(state, badLevels, help), true, false, true, 1, "item 1 (0xE2): tank: bad extension item: probe of compartment 9"},
		{"bad help last", cat(state, levels, badHelp), true, true, false, 1, "item 2 (0xE3): tank: bad extension item: help request type 5"},
		{"two bad", cat(badState, levels, badHelp), false, true, false, 2, "help request type 5"},
		{"all bad", cat(badState, badLevels, badHelp), false, false, false, 3, "probe of compartment 9"},
		// a later bad copy does not undo an earlier good one
		{"good then bad state", cat(state, badState), true, false, false, 1, "item 1 (0xE1)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			check := func(how string, e tank.Extract, err error) {
				t.Helper()
				if (e.Tank != nil) != tc.tank || (e.Levels != nil) != tc.levels || (e.Help != nil) != tc.isHelp {
					t.Errorf("%s: tank %v levels %v help %v", how, e.Tank != nil, e.Levels != nil, e.Help != nil)
				}
				if tc.tank && *e.Tank != *twoCompartments() || tc.levels && e.Levels.Probes[0].LevelMM != 1520 ||
					tc.isHelp && e.Help.RequestID != 7 {
					t.Errorf("%s: kept items changed: %+v", how, e)
				}
				if tank.Dropped(err) != tc.dropped || (err != nil) != (tc.dropped > 0) || err != nil && !errors.Is(err, tank.ErrItem) ||
					err != nil && !strings.Contains(err.Error(), tc.msg) {
					t.Errorf("%s: dropped %d, err %v; want %d with %q", how, tank.Dropped(err), err, tc.dropped, tc.msg)
				}
			}
			var ids []byte
			var vals [][]byte
			var list []byte
			for _, it := range tc.items {
				ids, vals, list = append(ids, it[0]), append(vals, it[2:]), append(list, it...)
			}
			e, err := tank.FromItems(len(ids), func(i int) (byte, []byte) { return ids[i], vals[i] })
			check("0x0200 items", e, err)
			e, err = tank.FromPassThrough(list)
			check("0x0900 list", e, err)
		})
	}
}

// A PassTank list whose last item is cut short keeps the items before it.
func TestPassThroughCutLastItem(t *testing.T) {
	state, _ := twoCompartments().AppendItem(nil)
	help := (&tank.Help{Type: tank.HelpLock, RequestID: 3}).AppendItem(nil)
	for _, tail := range []string{"E2 0A 01 01 05F0", "E2", "E2 0A"} {
		list := append(append(append([]byte{}, state...), help...), hx(t, tail)...)
		e, err := tank.FromPassThrough(list)
		if e.Tank == nil || e.Help == nil || e.Levels != nil || tank.Dropped(err) != 1 || !errors.Is(err, tank.ErrItem) ||
			!strings.Contains(err.Error(), "item 2 (0xE2) cut short") {
			t.Errorf("%s: %+v %v", tail, e, err)
		}
	}
	if tank.Dropped(nil) != 0 {
		t.Error("Dropped(nil)")
	}
}
