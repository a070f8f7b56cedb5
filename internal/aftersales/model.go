// Package aftersales is the after-sales module (/faultRecord, D69): fault reports of a car or a device
// on it, their technician visits and parts, the resolution, the state with its allowed transitions, and
// the time to resolve. A fault may be raised from an offline record or a sensor-fault event and keeps
// the link to it.
package aftersales

import (
	"slices"
	"strings"
	"unicode/utf8"

	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/settings/codes"
)

// Code guards every route: a single-page module has no button codes, so its module code stands for
// reading and changing (D69).
const Code = "07"

// Fault states.
const (
	StateOpen         = "open"
	StateInProgress   = "inProgress"
	StateWaitingParts = "waitingParts"
	StateClosed       = "closed"
)

// States in the page's order.
var States = []string{StateOpen, StateInProgress, StateWaitingParts, StateClosed}

// transitions are the moves a fault may make; a closed fault may only be reopened (back in progress).
var transitions = map[string][]string{
	StateOpen:         {StateInProgress, StateWaitingParts, StateClosed},
	StateInProgress:   {StateWaitingParts, StateClosed},
	StateWaitingParts: {StateInProgress, StateClosed},
	StateClosed:       {StateInProgress},
}

// CanMove reports whether a fault may go from one state to another (staying is always allowed).
func CanMove(from, to string) bool {
	return from == to || slices.Contains(transitions[from], to)
}

// TypeList is the code list of fault types (D66); its seeded items are DefaultTypes.
const TypeList = "faultType"

// DefaultTypes are the fault types the code list starts with (built in: disabled, never deleted), and
// the list when the service has no code lists (Service.Codes nil).
var DefaultTypes = func() []string {
	var out []string
	for _, it := range codes.Defaults(TypeList) {
		out = append(out, it.Code)
	}
	return out
}()

// Source kinds a fault is raised from.
const (
	SourceOffline   = "offline"   // an offline record: source_id the car, source_at the silence's start
	SourceTankEvent = "tankEvent" // a sensor-fault event: source_id its car_tank_events id
)

// SensorFaultKinds are the tank event kinds a fault may be raised from.
var SensorFaultKinds = []string{"sensorStuck", "sensorJump", "sensorMissing"}

// Visit is a technician's visit.
type Visit struct {
	At         httpx.Time `json:"at"`
	Technician string     `json:"technician"`
	Work       string     `json:"work"`
}

// Part is a part used.
type Part struct {
	Name     string  `json:"name"`
	Quantity float64 `json:"quantity"`
}

// Limits of the text fields and lists.
const (
	maxText   = 500
	maxShort  = 64
	maxVisits = 50
	maxParts  = 50
)

// ResolveMS is the time to resolve at now: from the report to the close, or, while open, so far.
func ResolveMS(reportedAt, closedAt, now int64) int64 {
	end := closedAt
	if end == 0 {
		end = now
	}
	if end < reportedAt {
		return 0
	}
	return end - reportedAt
}

func text(v *string, field string, max int, required bool) error {
	*v = strings.TrimSpace(*v)
	if required && *v == "" {
		return httpx.Required(field)
	}
	if utf8.RuneCountInString(*v) > max {
		return httpx.Biz("field.maxLen", httpx.Field(field), max)
	}
	return nil
}

// cleanLists checks the visits and parts.
func cleanLists(visits []Visit, parts []Part, reportedAt, now int64) error {
	if len(visits) > maxVisits {
		return httpx.Biz("fault.tooMany", httpx.Field("fault.visits"), maxVisits)
	}
	if len(parts) > maxParts {
		return httpx.Biz("fault.tooMany", httpx.Field("fault.parts"), maxParts)
	}
	for i := range visits {
		v := &visits[i]
		if v.At <= 0 {
			return httpx.Biz("fault.visitRow", i+1, httpx.Field("fault.visitAt"))
		}
		if int64(v.At) < reportedAt || int64(v.At) > now {
			return httpx.Biz("fault.visitWhen", i+1)
		}
		if err := text(&v.Technician, "fault.visitTechnician", maxShort, true); err != nil {
			return httpx.Biz("fault.visitRow", i+1, httpx.Field("fault.visitTechnician"))
		}
		if err := text(&v.Work, "fault.visitWork", maxText, true); err != nil {
			return httpx.Biz("fault.visitRow", i+1, httpx.Field("fault.visitWork"))
		}
	}
	for i := range parts {
		p := &parts[i]
		if err := text(&p.Name, "fault.partName", maxShort, true); err != nil {
			return httpx.Biz("fault.partRow", i+1)
		}
		if !(p.Quantity > 0 && p.Quantity <= 10000) {
			return httpx.Biz("fault.partRow", i+1)
		}
	}
	return nil
}
