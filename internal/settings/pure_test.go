package settings_test

import (
	"testing"

	"tankwatch/internal/org"
	"tankwatch/internal/settings/codes"
	"tankwatch/internal/settings/system"
	"tankwatch/internal/settings/tiles"
)

func ip(v int) *int       { return &v }
func sp(v string) *string { return &v }

func TestSystemMergeValidates(t *testing.T) {
	cur := system.Values{TimeZone: "Asia/Shanghai", OfflineMinutes: 10, ParkingMinutes: 120, RawRetentionDays: 30, MapProvider: "gaode"}
	for _, c := range []struct {
		name string
		in   system.Input
		ok   bool
	}{
		{"zone", system.Input{TimeZone: sp("Europe/Berlin")}, true},
		{"zone unknown", system.Input{TimeZone: sp("Mars/Base")}, false},
		{"zone Local", system.Input{TimeZone: sp("Local")}, false},
		{"zone empty", system.Input{TimeZone: sp("")}, false},
		{"offline 1", system.Input{OfflineMinutes: ip(1)}, true},
		{"offline 0", system.Input{OfflineMinutes: ip(0)}, false},
		{"offline 1441", system.Input{OfflineMinutes: ip(1441)}, false},
		{"parking 4", system.Input{ParkingMinutes: ip(4)}, false},
		{"parking week", system.Input{ParkingMinutes: ip(10080)}, true},
		{"raw forever", system.Input{RawRetentionDays: ip(0)}, true},
		{"raw negative", system.Input{RawRetentionDays: ip(-1)}, false},
		{"positions 3 days", system.Input{PositionRetentionDays: ip(3)}, false},
		{"positions 90 days", system.Input{PositionRetentionDays: ip(90)}, true},
		{"provider osm", system.Input{MapProvider: sp("osm")}, true},
		{"provider bing", system.Input{MapProvider: sp("bing")}, false},
		{"offline without file", system.Input{MapProvider: sp("offline")}, false},
		{"offline with file", system.Input{MapProvider: sp("offline"), OfflineTiles: sp("city.mbtiles")}, true},
		{"file with path", system.Input{OfflineTiles: sp("../etc/passwd.mbtiles")}, false},
		{"file not mbtiles", system.Input{OfflineTiles: sp("city.db")}, false},
		{"key", system.Input{AMapKey: sp("0123456789abcdef0123456789abcdef")}, true},
		{"key cleared", system.Input{AMapKey: sp("")}, true},
		{"key with space", system.Input{AMapKey: sp("abc def ghi")}, false},
		{"fault silence off", system.Input{FaultSilentHours: ip(0)}, true},
		{"fault silence month", system.Input{FaultSilentHours: ip(720)}, true},
		{"fault silence too long", system.Input{FaultSilentHours: ip(721)}, false},
		{"fault silence negative", system.Input{FaultSilentHours: ip(-1)}, false},
		{"fault sensor on", system.Input{FaultSensor: new(true)}, true},
	} {
		next, err := system.Merge(cur, c.in)
		if (err == nil) != c.ok {
			t.Errorf("%s: err %v, want ok %v", c.name, err, c.ok)
		}
		if err != nil && next != cur {
			t.Errorf("%s: a refused change altered the values", c.name)
		}
	}
}

func TestMask(t *testing.T) {
	for in, want := range map[string]string{"": "", "abc": "***", "0123456789abcdef": "01************ef"} {
		if got := system.Mask(in); got != want {
			t.Errorf("Mask(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestTMSRowFlipsY(t *testing.T) {
	for _, c := range []struct{ z, y, want int }{{0, 0, 0}, {1, 0, 1}, {1, 1, 0}, {3, 2, 5}, {14, 0, 16383}} {
		if got := tiles.TMSRow(c.z, c.y); got != c.want {
			t.Errorf("TMSRow(%d, %d) = %d, want %d", c.z, c.y, got, c.want)
		}
	}
	for _, c := range []struct {
		z, x, y int
		ok      bool
	}{{0, 0, 0, true}, {1, 2, 0, false}, {2, 3, 3, true}, {-1, 0, 0, false}, {25, 0, 0, false}, {3, 0, -1, false}} {
		if got := tiles.ValidXYZ(c.z, c.x, c.y); got != c.ok {
			t.Errorf("ValidXYZ(%d,%d,%d) = %v", c.z, c.x, c.y, got)
		}
	}
}

func TestCodeInputValidate(t *testing.T) {
	for _, c := range []struct {
		in codes.Input
		ok bool
	}{
		{codes.Input{Type: "faultType", Code: "brake", LabelZh: "制动故障"}, true},
		{codes.Input{Type: "nope", Code: "x", LabelZh: "x"}, false},
		{codes.Input{Type: "faultType", Code: "", LabelZh: "x"}, false},
		{codes.Input{Type: "faultType", Code: "a b", LabelZh: "x"}, false},
		{codes.Input{Type: "faultType", Code: "abcdefghijklmnopqrstuvwxyz0123456", LabelZh: "x"}, false},
		{codes.Input{Type: "faultType", Code: "x", LabelZh: "  "}, false},
		{codes.Input{Type: "faultType", Code: "x", LabelZh: "x", Sort: ip(-1)}, false},
	} {
		if err := c.in.Validate(); (err == nil) != c.ok {
			t.Errorf("%+v: %v, want ok %v", c.in, err, c.ok)
		}
	}
}

func TestPrefsValidate(t *testing.T) {
	for _, c := range []struct {
		p  org.Prefs
		ok bool
	}{{org.Prefs{}, true}, {org.Prefs{Theme: "dark", MapLayer: "satellite", PageSize: 50}, true},
		{org.Prefs{Theme: "pink"}, false}, {org.Prefs{MapLayer: "3d"}, false}, {org.Prefs{PageSize: 33}, false}} {
		if err := c.p.Validate(); (err == nil) != c.ok {
			t.Errorf("%+v: %v", c.p, err)
		}
	}
	if got := org.ParsePrefs(`{"theme":"pink"}`); got != (org.Prefs{}) {
		t.Errorf("invalid stored prefs read as %+v", got)
	}
}
