package sim

import (
	"slices"
	"testing"
)

func TestGatewayAtIsAnOrderOfAll(t *testing.T) {
	for n := 1; n <= 5; n++ {
		for idx := range 200 {
			var seen []int
			for pos := range n {
				seen = append(seen, gatewayAt(idx, pos, n))
			}
			if seen[0] != idx%n {
				t.Fatalf("n=%d terminal %d starts on %d, want its home %d", n, idx, seen[0], idx%n)
			}
			slices.Sort(seen)
			for i, g := range seen {
				if g != i {
					t.Fatalf("n=%d terminal %d: order %v does not hold every address once", n, idx, seen)
				}
			}
			if gatewayAt(idx, n, n) != idx%n {
				t.Fatalf("n=%d terminal %d: after the last address it does not come home", n, idx)
			}
		}
	}
}

// The kill tests' case: every terminal has found its way to address 0 (the others did not listen yet);
// when 0 dies, its terminals must share the survivors, not all move to address 1.
func TestGatewayAtSpreadsALostNodesTerminals(t *testing.T) {
	for _, n := range []int{2, 3, 4} {
		const terminals = 3000
		next := make([]int, n)
		for idx := range terminals {
			pos := 0
			for gatewayAt(idx, pos, n) != 0 {
				pos++
			}
			next[gatewayAt(idx, pos+1, n)]++
		}
		if next[0] != 0 {
			t.Fatalf("n=%d: %d terminals stay on the lost address", n, next[0])
		}
		for g := 1; g < n; g++ {
			share := float64(next[g]) / terminals
			if want := 1 / float64(n-1); share < want*0.9 || share > want*1.1 {
				t.Errorf("n=%d: address %d takes %.0f%% of the lost node's terminals, want about %.0f%% (%v)", n, g, share*100, want*100, next)
			}
		}
	}
}
