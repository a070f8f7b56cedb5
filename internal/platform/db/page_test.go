package db

import "testing"

func TestAtLeastShown(t *testing.T) {
	for _, c := range []struct {
		total, offset int64
		shown         int
		want          int64
	}{
		{0, 0, 1, 1},    // a row committed between the count and the list
		{5, 0, 5, 5},    // agreeing
		{12, 10, 2, 12}, // the last page
		{3, 20, 0, 3},   // past the end: the count stands
		{9, 10, 3, 13},  // a later page that saw three rows the count missed
	} {
		if got := atLeastShown(c.total, c.offset, c.shown); got != c.want {
			t.Errorf("atLeastShown(%d, %d, %d) = %d, want %d", c.total, c.offset, c.shown, got, c.want)
		}
	}
}
