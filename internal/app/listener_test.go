package app

import "testing"

func TestDefaultHTTPMaxConns(t *testing.T) {
	for _, c := range []struct {
		nofile uint64
		want   int
	}{
		{0, 4096},        // unknown limit
		{1024, 384},      // reserve 512 (the floor) less 128
		{20000, 3872},    // a fifth (4000) less 128
		{100000, 10000},  // a fifth is 20000: capped
		{1 << 20, 10000}, // the gateway's ceiling leaves far more; capped
		{600, 384},       // tiny limits keep the 512 reserve
		{10, 384},        // ...even when smaller than it (the gateway then keeps 16)
	} {
		if got := DefaultHTTPMaxConns(c.nofile); got != c.want {
			t.Errorf("DefaultHTTPMaxConns(%d) = %d, want %d", c.nofile, got, c.want)
		}
	}
}
