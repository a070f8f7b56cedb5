package equipment

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/settings/codes"
)

func TestWarrantyOn(t *testing.T) {
	t.Parallel()
	today := "2026-03-01"
	for _, c := range []struct {
		end  string
		want Warranty
	}{
		{"", WarrantyNone},
		{"2026-02-28", WarrantyExpired},
		{"2025-01-01", WarrantyExpired},
		{"2026-03-01", WarrantyExpiring}, // the end day is still covered
		{"2026-03-31", WarrantyExpiring}, // the 30th day
		{"2026-04-01", WarrantyValid},
		{"2028-01-01", WarrantyValid},
	} {
		if got := WarrantyOn(c.end, today); got != c.want {
			t.Errorf("WarrantyOn(%q): %d, want %d", c.end, got, c.want)
		}
	}
}

func TestTodayIsShanghaisDay(t *testing.T) {
	t.Parallel()
	// 17:00 UTC is already the next day in Shanghai
	if got := Today(time.Date(2026, 2, 28, 17, 0, 0, 0, time.UTC)); got != "2026-03-01" {
		t.Errorf("Today: %s", got)
	}
	if got := WarnUntil("2026-12-15"); got != "2027-01-14" {
		t.Errorf("WarnUntil across the year: %s", got)
	}
}

func TestDecide(t *testing.T) {
	t.Parallel()
	tw808T := Model{Name: "TW-808T", Kind: KindTerminal, VideoChannels: 4, ChannelNames: []string{"前方", "驾驶室"}, Probes: 4, Lock4G: true, CAN: true}
	tw808L := Model{Name: "TW-808L", Kind: KindTerminal, Probes: 4, ValveSensors: 2}
	cam := Model{Name: "HK-C6", Kind: KindCamera, VideoChannels: 1, ChannelNames: []string{"罐顶"}}
	probe := Model{Name: "YW-300", Kind: KindProbe, Probes: 1}
	ble := Model{Name: "TW-BL120", Kind: KindLock, LockBLE: true}
	for _, c := range []struct {
		name              string
		models            []Model
		locks             int
		known, video, lck bool
		channels, probes  int
		names             []string
	}{
		{"no model known: show everything", nil, 0, false, true, true, 0, 0, []string{}},
		{"no model, locks bound", nil, 2, false, true, true, 0, 0, []string{}},
		{"video terminal", []Model{tw808T}, 0, true, true, true, 4, 4, []string{"前方", "驾驶室", "", ""}},
		{"economy terminal, no locks", []Model{tw808L}, 0, true, false, false, 0, 4, []string{}},
		{"economy terminal, a lock bound", []Model{tw808L}, 1, true, false, true, 0, 4, []string{}},
		{"economy terminal, lock model", []Model{tw808L, ble}, 0, true, false, true, 0, 4, []string{}},
		{"economy terminal with a camera fitted", []Model{tw808L, cam}, 0, true, true, false, 1, 4, []string{"罐顶"}},
		{"camera on a video terminal is one of its channels", []Model{tw808T, cam}, 0, true, true, true, 4, 4, []string{"前方", "驾驶室", "", ""}},
		{"two cameras without a terminal model", []Model{cam, cam}, 0, true, true, false, 2, 0, []string{"罐顶", "罐顶"}},
		{"probes fitted beyond the terminal's", []Model{tw808L, probe, probe, probe, probe, probe}, 0, true, false, false, 0, 5, []string{}},
	} {
		f := Decide(7, c.models, c.locks)
		if f.Known != c.known || f.ShowVideo != c.video || f.ShowLocks != c.lck || f.VideoChannels != c.channels || f.Probes != c.probes ||
			!slices.Equal(f.ChannelNames, c.names) || f.CarID != 7 || f.Locks != c.locks {
			t.Errorf("%s: %+v", c.name, f)
		}
	}
	if f := Decide(1, []Model{tw808T, tw808T}, 0); len(f.Models) != 1 {
		t.Errorf("a model named twice: %v", f.Models)
	}
}

func TestInputClean(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		in   Input
		err  string // the catalogue key, "" none
	}{
		{"ok", Input{Kind: KindCamera, Serial: " hk-01 ", InstallDate: "2025-01-02", WarrantyEnd: "2027-01-02"}, ""},
		{"no kind", Input{Serial: "A1"}, "field.required"},
		{"blank kind", Input{Kind: "  ", Serial: "A1"}, "field.required"},
		{"kind longer than a code", Input{Kind: Kind(strings.Repeat("k", 33)), Serial: "A1"}, "field.invalid"},
		{"no serial", Input{Kind: KindProbe, Serial: "  "}, "field.required"},
		{"serial with spaces", Input{Kind: KindProbe, Serial: "A 1"}, "equipment.serialFormat"},
		{"serial too long", Input{Kind: KindProbe, Serial: string(make([]byte, 65))}, "field.maxLen"},
		{"bad date", Input{Kind: KindProbe, Serial: "A1", InstallDate: "2025-13-01"}, "equipment.dateFormat"},
		{"date not a date", Input{Kind: KindProbe, Serial: "A1", WarrantyEnd: "soon"}, "equipment.dateFormat"},
		{"warranty before install", Input{Kind: KindProbe, Serial: "A1", InstallDate: "2025-02-01", WarrantyEnd: "2025-01-01"}, "equipment.warrantyBeforeInstall"},
		{"bad state", Input{Kind: KindProbe, Serial: "A1", State: 4}, "field.invalid"},
		{"two places", Input{Kind: KindCamera, Serial: "A1", CarID: 1, StationID: 2}, "equipment.onePlace"},
		{"negative id", Input{Kind: KindCamera, Serial: "A1", CarID: -1}, "field.invalid"},
		{"notes too long", Input{Kind: KindCamera, Serial: "A1", Notes: string(make([]rune, 256))}, "field.maxLen"},
	} {
		in := c.in
		err := in.Clean()
		got := ""
		if err != nil {
			got = keyOfErr(err)
		}
		if got != c.err {
			t.Errorf("%s: %q (%v), want %q", c.name, got, err, c.err)
		}
	}
	in := Input{Kind: KindCamera, Serial: " hk-01 "}
	if in.Clean() != nil || in.Serial != "HK-01" {
		t.Errorf("a camera's serial is stored upper case: %q", in.Serial)
	}
	lock := Input{Kind: KindGauge, Serial: " tls.local:10001 "}
	if lock.Clean() != nil || lock.Serial != "tls.local:10001" {
		t.Errorf("a mirrored serial is its register's: %q", lock.Serial)
	}
}

func TestModelClean(t *testing.T) {
	t.Parallel()
	m := Model{Name: " X1 ", Kind: KindTerminal, VideoChannels: 2, ChannelNames: []string{"前\n方", "", ""}}
	if err := m.clean(); err != nil || m.Name != "X1" || m.ChannelText != "前 方" || len(m.ChannelNames) != 1 {
		t.Errorf("clean: %v %+v", err, m)
	}
	for _, bad := range []Model{
		{Kind: KindTerminal},
		{Name: "X", Kind: ""},
		{Name: "X", Kind: " "},
		{Name: "X", Kind: KindTerminal, VideoChannels: 33},
		{Name: "X", Kind: KindTerminal, Probes: -1},
		{Name: "X", Kind: KindTerminal, VideoChannels: 1, ChannelNames: []string{"a", "b"}},
	} {
		if err := bad.clean(); err == nil {
			t.Errorf("accepted %+v", bad)
		}
	}
}

type fakeCodes []codes.Item

func (f fakeCodes) Items(context.Context, string) ([]codes.Item, error) { return f, nil }

// TestCheckKind: a save takes an enabled kind of the list or the one the record holds; the mirrored
// kinds are taken whatever the list says (their devices are in their registers); anything else is
// refused by name.
func TestCheckKind(t *testing.T) {
	t.Parallel()
	s := &Service{Codes: fakeCodes{{Code: "camera", Enabled: true}, {Code: "probe", Enabled: false}, {Code: "dashcam", Enabled: true}}}
	for _, c := range []struct {
		k, held Kind
		err     string
	}{
		{"camera", "", ""},
		{"dashcam", "", ""},
		{"probe", "", "equipment.kindUnknown"},
		{"probe", "probe", ""},
		{"probe", "camera", "equipment.kindUnknown"},
		{"terminal", "", ""}, // not in this list at all: still a register's kind
		{"lock", "", ""},
		{"gauge", "", ""},
		{"4", "", "equipment.kindUnknown"},
		{"", "", "field.required"},
		{Kind(strings.Repeat("x", 40)), "", "field.invalid"},
	} {
		got := ""
		if err := s.checkKind(context.Background(), c.k, c.held); err != nil {
			got = keyOfErr(err)
		}
		if got != c.err {
			t.Errorf("%q held %q: %q, want %q", c.k, c.held, got, c.err)
		}
	}
	// without a code list service the seeds are the list
	plain := &Service{}
	if err := plain.checkKind(context.Background(), KindOther, ""); err != nil {
		t.Errorf("seeded other: %v", err)
	}
	if err := plain.checkKind(context.Background(), "dashcam", ""); err == nil {
		t.Error("dashcam accepted without the list having it")
	}
}

func keyOfErr(err error) string {
	if e, ok := err.(*httpx.Error); ok {
		return e.Key
	}
	return err.Error()
}
