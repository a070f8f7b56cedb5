package expiry

import "testing"

func TestOf(t *testing.T) {
	for _, c := range []struct {
		end, today, until int
		want              State
	}{
		{0, 20261126, 20261226, None},
		{20261125, 20261126, 20261226, Expired},
		{20261126, 20261126, 20261226, Expiring},
		{20261226, 20261126, 20261226, Expiring},
		{20261227, 20261126, 20261226, Valid},
	} {
		if got := Of(c.end, c.today, c.until); got != c.want {
			t.Errorf("Of(%d, %d, %d) = %d, want %d", c.end, c.today, c.until, got, c.want)
		}
	}
	if got := Of("2026-11-25", "2026-11-26", "2026-12-26"); got != Expired {
		t.Errorf("text dates: %d", got)
	}
	if got := Of("", "2026-11-26", "2026-12-26"); got != None {
		t.Errorf("no date: %d", got)
	}
}
