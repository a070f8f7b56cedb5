package httpx

import (
	"sync/atomic"
	"time"
)

// zone is the platform's display time zone (system settings, D67): the zone JSON times and exports
// are written in and console times are read in. Day boundaries of the statistics stay on Shanghai.
var zone atomic.Pointer[time.Location]

// Zone is the platform's display time zone (Shanghai unless the system settings say otherwise).
func Zone() *time.Location {
	if z := zone.Load(); z != nil {
		return z
	}
	return Shanghai
}

// SetZone changes the display time zone at run time; nil goes back to Shanghai.
func SetZone(loc *time.Location) { zone.Store(loc) }
