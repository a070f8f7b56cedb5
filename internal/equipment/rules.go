// Package equipment is the devices on cars and at stations (basedata/equipment, menu 03-17) and the
// device models with the functions each offers (access/equipmentFun, 06-09) — issue 18, D62–D63.
// Terminals, locks and station gauges keep their own registers; this package shows them in one list
// and adds what they lack in its own table keyed by kind + serial (D62). A car's functions, read from
// its devices' models, tell the console what to show for it (D63).
package equipment

import (
	"slices"
	"time"

	"tankwatch/internal/platform/expiry"
)

// Kind is a device kind: a code of the equipmentKind code list (D95). The six built-in kinds are the
// list's seeds (devices held them as numbers 1–6 before migration 00041); an administrator may add more.
type Kind string

// KindList is the code list of device kinds.
const KindList = "equipmentKind"

// The built-in kinds. Terminals, locks and gauges are mirrored from their registers (pinned in the list:
// never deleted or disabled); the others live here.
const (
	KindTerminal Kind = "terminal"
	KindProbe    Kind = "probe"
	KindLock     Kind = "lock"
	KindCamera   Kind = "camera"
	KindGauge    Kind = "gauge"
	KindOther    Kind = "other"
)

// MirroredKinds are the kinds whose devices are registered elsewhere (terminalVXE, blueLock, the
// stations' tank gauges): they cannot be added or removed here, only given the extra fields.
var MirroredKinds = []string{string(KindTerminal), string(KindLock), string(KindGauge)}

// Mirrored reports whether devices of kind k are registered elsewhere (MirroredKinds).
func (k Kind) Mirrored() bool { return k == KindTerminal || k == KindLock || k == KindGauge }

// State is a device's service state.
type State int

// Device states.
const (
	StateInService State = 1
	StateInRepair  State = 2
	StateRetired   State = 3
)

// Warranty is a device's warranty state on a day.
type Warranty int

// Warranty states: no end date recorded, valid beyond the warning window, ending within it, ended
// (expiry.State's values).
const (
	WarrantyNone     = Warranty(expiry.None)
	WarrantyValid    = Warranty(expiry.Valid)
	WarrantyExpiring = Warranty(expiry.Expiring)
	WarrantyExpired  = Warranty(expiry.Expired)
)

// WarnDays is how long before its end a warranty counts as expiring (expiry.WarnDays).
const WarnDays = expiry.WarnDays

// DateLayout is how install and warranty dates are written and stored (” = not recorded). Text in
// this layout sorts and compares as the dates do, on both dialects.
const DateLayout = "2006-01-02"

// Zone is the business day's time zone (expiry.Zone): a warranty ends at the end of its day there.
var Zone = expiry.Zone

// Today is the business day of t.
func Today(t time.Time) string { return t.In(Zone).Format(DateLayout) }

// WarnUntil is the last day whose warranty end counts as expiring on day today.
func WarnUntil(today string) string {
	d, err := time.ParseInLocation(DateLayout, today, Zone)
	if err != nil {
		return today
	}
	return d.AddDate(0, 0, WarnDays).Format(DateLayout)
}

// WarrantyOn is the warranty state of end (” or a date) on day today: the end day itself is still
// covered.
func WarrantyOn(end, today string) Warranty {
	return Warranty(expiry.Of(end, today, WarnUntil(today)))
}

// Functions is what a car's devices offer, and what the console shows for it.
type Functions struct {
	CarID int64 `json:"carId"`
	// Known: at least one device of the car has a model. Unknown cars keep every action (today's
	// behaviour): hiding a working camera because nobody recorded its model would be worse.
	Known         bool     `json:"known"`
	Models        []string `json:"models"`
	VideoChannels int      `json:"videoChannels"`
	ChannelNames  []string `json:"channelNames"`
	Probes        int      `json:"probes"`
	LockBLE       bool     `json:"lockBle"`
	Lock4G        bool     `json:"lock4g"`
	Locks         int      `json:"locks"` // locks bound to the car in the lock registry
	ValveSensors  int      `json:"valveSensors"`
	CAN           bool     `json:"can"`
	ShowVideo     bool     `json:"showVideo"`
	ShowLocks     bool     `json:"showLocks"`
}

// Decide adds up the functions of a car's device models (retired devices excluded by the caller) and
// decides what to show: video when a model has channels, lock actions when a lock is bound or a model
// drives locks; everything when no model is known. Channel and probe counts are the larger of the
// terminals' (the inputs their model has) and the separately registered devices' (cameras and probes
// fitted): a camera entered here is one of the terminal's channels, not one more.
func Decide(carID int64, models []Model, locks int) Functions {
	f := Functions{CarID: carID, Known: len(models) > 0, Models: []string{}, ChannelNames: []string{}, Locks: locks}
	var term, fitted struct {
		video, probes int
		names         []string
	}
	for _, m := range models {
		if !slices.Contains(f.Models, m.Name) {
			f.Models = append(f.Models, m.Name)
		}
		c := &fitted
		if m.Kind == KindTerminal {
			c = &term
		}
		// channels of two devices are numbered on after each other, as the terminal numbers its inputs
		for i := range m.VideoChannels {
			name := ""
			if i < len(m.ChannelNames) {
				name = m.ChannelNames[i]
			}
			c.names = append(c.names, name)
		}
		c.video += m.VideoChannels
		c.probes += m.Probes
		f.LockBLE = f.LockBLE || m.LockBLE
		f.Lock4G = f.Lock4G || m.Lock4G
		f.ValveSensors += m.ValveSensors
		f.CAN = f.CAN || m.CAN
	}
	f.VideoChannels, f.ChannelNames = term.video, term.names
	if fitted.video > term.video {
		f.VideoChannels, f.ChannelNames = fitted.video, fitted.names
	}
	if f.ChannelNames == nil {
		f.ChannelNames = []string{}
	}
	f.Probes = max(term.probes, fitted.probes)
	f.ShowVideo = !f.Known || f.VideoChannels > 0
	f.ShowLocks = !f.Known || locks > 0 || f.LockBLE || f.Lock4G
	return f
}
