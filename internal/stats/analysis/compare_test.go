package analysis

import "testing"

func TestPrevious(t *testing.T) {
	cases := []struct {
		name   string
		p      Period
		months int
		want   Period
	}{
		{"a whole 30-day month against the whole 31-day month before", Period{20261101, 20261130}, 1, Period{20261001, 20261031}},
		{"a whole 31-day month against a 28-day February", Period{20270301, 20270331}, 1, Period{20270201, 20270228}},
		{"against a leap February", Period{20280301, 20280331}, 1, Period{20280201, 20280229}},
		{"month to date: the same days", Period{20261101, 20261126}, 1, Period{20261001, 20261026}},
		{"the 30th against a 28-day February", Period{20270330, 20270330}, 1, Period{20270228, 20270228}},
		{"over the year boundary", Period{20270101, 20270131}, 1, Period{20261201, 20261231}},
		{"a mid-December range back into November", Period{20261210, 20261220}, 1, Period{20261110, 20261120}},
		{"year on year", Period{20261101, 20261126}, 12, Period{20251101, 20251126}},
		{"year on year from a leap day", Period{20280229, 20280229}, 12, Period{20270228, 20270228}},
		{"year on year over two years", Period{20261201, 20270131}, 12, Period{20251201, 20260131}},
	}
	for _, c := range cases {
		if got := c.p.Previous(c.months); got != c.want {
			t.Errorf("%s: %v back %d = %v, want %v", c.name, c.p, c.months, got, c.want)
		}
	}
}

func TestChange(t *testing.T) {
	if Change(5, 0) != nil || Change(0, 0) != nil {
		t.Error("an empty previous period must give no change (shown as —), not ∞")
	}
	cases := []struct{ cur, prev, want float64 }{
		{150, 100, 50}, {50, 100, -50}, {0, 100, -100}, {100, 300, -66.7}, {31, 28, 10.7}, {-5, -10, 50},
	}
	for _, c := range cases {
		if got := Change(c.cur, c.prev); got == nil || *got != c.want {
			t.Errorf("Change(%v, %v) = %v, want %v", c.cur, c.prev, got, c.want)
		}
	}
}

func TestBuckets(t *testing.T) {
	// 2026-11-26 is a Thursday; weeks start on Mondays 11-30 and 12-07
	w := Buckets(Period{20261126, 20261208}, GrainWeek)
	if len(w) != 3 || w[0] != (Period{20261126, 20261129}) || w[1] != (Period{20261130, 20261206}) || w[2] != (Period{20261207, 20261208}) {
		t.Errorf("weeks = %v", w)
	}
	m := Buckets(Period{20261215, 20270210}, GrainMonth)
	if len(m) != 3 || m[0] != (Period{20261215, 20261231}) || m[1] != (Period{20270101, 20270131}) || m[2] != (Period{20270201, 20270210}) {
		t.Errorf("months = %v", m)
	}
	if d := Buckets(Period{20270227, 20270302}, GrainDay); len(d) != 4 || d[2] != (Period{20270301, 20270301}) {
		t.Errorf("days = %v", d)
	}
}
