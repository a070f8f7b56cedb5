package fleet

import "testing"

// TestDemoFleetPlatesValid: every generated demo vehicle passes the registry's plate rule and no plate,
// phone or SIM repeats, so --demo-vehicles N seeds N vehicles.
func TestDemoFleetPlatesValid(t *testing.T) {
	t.Parallel()
	cars := DemoFleet(2000)
	if len(cars) != 2000 {
		t.Fatalf("%d cars", len(cars))
	}
	seen := map[string]bool{}
	for i, d := range cars {
		if !plateRe.MatchString(d.Plate) {
			t.Fatalf("%d: plate %s is not valid", i, d.Plate)
		}
		for _, k := range []string{"p" + d.Plate, "t" + d.TerminalPhone, "i" + d.ICCID, "m" + d.MSISDN} {
			if seen[k] {
				t.Fatalf("%d: %s repeats", i, k)
			}
			seen[k] = true
		}
	}
}
