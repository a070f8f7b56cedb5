package httpx

import "testing"

func TestTimeThrough(t *testing.T) {
	sec, _ := ParseTime("2026-11-24 00:24:15")
	for _, c := range []struct {
		in   Time
		want int64
	}{
		{sec, int64(sec) + 999},       // to the second: the whole second
		{sec + 600, int64(sec) + 600}, // with milliseconds: as given
		{0, 0},                        // no bound stays no bound
	} {
		if got := c.in.Through(); got != c.want {
			t.Errorf("%d.Through() = %d, want %d", c.in, got, c.want)
		}
	}
}
