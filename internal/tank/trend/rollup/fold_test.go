package rollup

import (
	"reflect"
	"strings"
	"testing"
)

func TestFoldSpeed(t *testing.T) {
	type row struct{ car, t, v int64 }
	cases := []struct {
		name string
		rows []row
		five []any // the first five-minute slice's values
		rest int   // more five-minute slices
	}{
		{"one reading", []row{{1, 1000, 50}}, []any{int64(1), int64(0), int64(1), int64(1000), int64(1000), int64(50), int64(50), int64(50), int64(50)}, 0},
		{"out of order: first and last by time, min and max", []row{{1, 2000, 30}, {1, 1000, 70}, {1, 3000, 10}, {1, 2500, 90}},
			[]any{int64(1), int64(0), int64(4), int64(1000), int64(3000), int64(70), int64(10), int64(10), int64(90)}, 0},
		{"equal times: the first inserted is first, the last inserted last", []row{{1, 1000, 1}, {1, 1000, 2}, {1, 1000, 3}},
			[]any{int64(1), int64(0), int64(3), int64(1000), int64(1000), int64(1), int64(3), int64(1), int64(3)}, 0},
		{"slices apart, cars apart, in key order whatever came first", []row{{2, 10, 5}, {1, 300_000, 6}, {1, 10, 7}},
			[]any{int64(1), int64(0), int64(1), int64(10), int64(10), int64(7), int64(7), int64(7), int64(7)}, 2},
	}
	for _, c := range cases {
		var f Fold
		for _, r := range c.rows {
			f.AddSpeed(r.car, r.t, r.v)
		}
		tables := f.Take()
		if len(tables) != 2 || tables[0].Name != "speed_rollup" || tables[1].Name != "speed_rollup_h" {
			t.Fatalf("%s: tables %v", c.name, tables)
		}
		five := tables[0]
		if got := five.Args[:len(SpeedCols)]; !reflect.DeepEqual(got, c.five) {
			t.Errorf("%s: %v, want %v", c.name, got, c.five)
		}
		if five.Rows() != 1+c.rest {
			t.Errorf("%s: %d five-minute slices", c.name, five.Rows())
		}
		if !f.Empty() {
			t.Errorf("%s: not empty after Take", c.name)
		}
	}
}

func TestFoldLevelHour(t *testing.T) {
	var f Fold
	f.AddLevel(7, HourMS+5, 2, LevelValues{LevelMM: 900, TempDC: 200, VolumeL: 5000.5, V20L: 4990})
	f.AddLevel(7, HourMS+FiveMinMS+1, 2, LevelValues{LevelMM: 400, TempDC: 210, VolumeL: 2000, V20L: 1990})
	f.AddLevel(7, HourMS+2, 1, LevelValues{LevelMM: 100, TempDC: 190, VolumeL: 10, V20L: 9})
	tables := f.Take()
	if len(tables) != 2 || tables[0].Name != "level_rollup" || tables[0].Rows() != 3 || tables[1].Name != "level_rollup_h" || tables[1].Rows() != 2 {
		t.Fatalf("tables %+v", tables)
	}
	h := tables[1].Args[len(LevelCols):] // compartment 2's hour, after compartment 1's
	want := []any{int64(7), HourMS, int64(2), int64(2), HourMS + 5, HourMS + FiveMinMS + 1,
		int64(900), int64(400), int64(400), int64(900), 5000.5, 2000.0, 2000.0, 5000.5,
		4990.0, 1990.0, 1990.0, 4990.0, int64(200), int64(210), int64(200), int64(210)}
	if !reflect.DeepEqual(h, want) {
		t.Fatalf("hour %v\nwant %v", h, want)
	}
}

func TestUpsertSQL(t *testing.T) {
	pg := UpsertSQL(true, "level_rollup_h", 2)
	if !strings.Contains(pg, "($23,$24,") || !strings.Contains(pg, "ON CONFLICT (car_id, b, compartment)") ||
		!strings.Contains(pg, "tp1 = CASE WHEN excluded.t1 >= r.t1 THEN excluded.tp1 ELSE r.tp1 END") ||
		!strings.Contains(pg, "n = r.n + excluded.n") || strings.Contains(pg, "?") {
		t.Errorf("postgres: %s", pg)
	}
	lite := UpsertSQL(false, "speed_rollup", 1)
	if !strings.HasPrefix(lite, "INSERT INTO speed_rollup (car_id, b, n, t0, t1, sp0, sp1, splo, sphi) VALUES (?,?,?,?,?,?,?,?,?) ON CONFLICT (car_id, b)") ||
		!strings.Contains(lite, "sp0 = CASE WHEN excluded.t0 < t0 THEN excluded.sp0 ELSE sp0 END") || !strings.Contains(lite, "splo = min(splo, excluded.splo)") {
		t.Errorf("sqlite: %s", lite)
	}
}
