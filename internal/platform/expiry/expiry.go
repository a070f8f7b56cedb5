// Package expiry judges dates that run out — an employee's licence and qualification (internal/staff),
// a device's warranty (internal/equipment) — on the business day in Asia/Shanghai: one warning window
// and one rule for both.
package expiry

import (
	"cmp"

	"tankwatch/internal/platform/httpx"
)

// Zone is the business day's time zone (DESIGN.md §4): a date ends at the end of its day there.
var Zone = httpx.Shanghai

// WarnDays is how long before its end a date counts as expiring: a month leaves time to renew a
// qualification or order a repair before it runs out.
const WarnDays = 30

// State is how a date stands on a day.
type State int

// States: no date recorded, valid beyond the warning window, ending within it (today included), ended
// (before today: the end day itself is still covered).
const (
	None     State = 0
	Valid    State = 1
	Expiring State = 2
	Expired  State = 3
)

// Of is the state of end on day today, warnUntil being the last day whose end counts as expiring
// (today + WarnDays); the zero value of D is "no date". Days are any ordered form that compares as the
// dates do (YYYYMMDD numbers, "YYYY-MM-DD" text).
func Of[D cmp.Ordered](end, today, warnUntil D) State {
	var none D
	switch {
	case end == none:
		return None
	case end < today:
		return Expired
	case end <= warnUntil:
		return Expiring
	}
	return Valid
}
