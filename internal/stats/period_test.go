package stats

import (
	"testing"
	"time"

	"tankwatch/internal/platform/httpx"
)

func TestDayBoundaries(t *testing.T) {
	// 2026-11-25 16:00 UTC is 2026-11-26 00:00 in Shanghai
	at := time.Date(2026, 11, 25, 16, 0, 0, 0, time.UTC).UnixMilli()
	cases := []struct {
		t    int64
		want int
	}{
		{at, 20261126},
		{at - 1, 20261125},
		{time.Date(2026, 12, 31, 15, 59, 59, 0, time.UTC).UnixMilli(), 20261231},
		{time.Date(2026, 12, 31, 16, 0, 0, 0, time.UTC).UnixMilli(), 20270101},
	}
	for _, c := range cases {
		if got := Day(c.t); got != c.want {
			t.Errorf("Day(%d) = %d, want %d", c.t, got, c.want)
		}
	}
	if DayStart(20261126) != at {
		t.Errorf("DayStart = %d, want %d", DayStart(20261126), at)
	}
	if DayEnd(20261125) != at-1 {
		t.Errorf("DayEnd = %d, want %d", DayEnd(20261125), at-1)
	}
	if got := time.UnixMilli(DayStart(20270101)).In(httpx.Shanghai).Format("2006-01-02 15:04"); got != "2027-01-01 00:00" {
		t.Errorf("DayStart(20270101) = %s", got)
	}
}

func TestCalendar(t *testing.T) {
	cases := []struct {
		name      string
		got, want int
	}{
		{"next day over a month", NextDay(20260228), 20260301},
		{"next day over a year", NextDay(20261231), 20270101},
		{"leap day", NextDay(20280228), 20280229},
		{"back a week", int(AddDays(20260103, -7)), 20251227},
		{"month", Month(20261126), 202611},
		{"ISO week of a Thursday", Week(20261126), 202648},
		{"ISO week 1 starts in December", Week(20261229), 202653},
		{"ISO week of 2027-01-01 (Friday) is 2026's 53rd", Week(20270101), 202653},
		{"Monday of a Thursday's week", WeekStart(20261126), 20261123},
		{"a Monday is its own week start", WeekStart(20261123), 20261123},
		{"Sunday belongs to the week before", WeekStart(20261129), 20261123},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("%s: got %d, want %d", c.name, c.got, c.want)
		}
	}
	if d := Days(20261229, 20270102); len(d) != 5 || d[4] != 20270102 {
		t.Errorf("Days = %v", d)
	}
	if d := Days(20261229, 20261228); len(d) != 0 {
		t.Errorf("Days(to<from) = %v", d)
	}
}

// TestDeriveIgnoresTheOrder: the same figures added in two orders give the same Total once derived, on
// a sum that is exactly half a litre (shown as whole litres, it must not round two ways; D122).
func TestDeriveIgnoresTheOrder(t *testing.T) {
	vals := []float64{0.1, 0.2, 0.7, 1e7, 0.1, 0.4, 0.3, 0.2, 0.1, 0.4}
	var fwd, back Total
	for i := range vals {
		fwd.Add(Figures{Trips: 1, ShippedV20L: vals[i], LossL: vals[i] / 3})
		back.Add(Figures{Trips: 1, ShippedV20L: vals[len(vals)-1-i], LossL: vals[len(vals)-1-i] / 3})
	}
	if fwd.ShippedV20L == back.ShippedV20L {
		t.Fatal("the two orders sum to the same float: the case proves nothing")
	}
	fwd.Derive()
	back.Derive()
	if fwd != back || fwd.ShippedV20L != 10000002.5 {
		t.Errorf("derived %+v and %+v, want both 10000002.5 L", fwd, back)
	}
}
