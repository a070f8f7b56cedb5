package tank

import (
	"strings"

	"tankwatch/internal/platform/i18n"
)

// LockStateLen is the length of the lock-state string: 4 groups (device kinds) × 8 compartments × 4.
const LockStateLen = Kinds * MaxCompartments * 4

// LockString derives the spec's lock-state string from s: four groups of 32 characters (small manhole
// covers, manhole covers, discharge valves, bottom valves); in each group one 4-character slot per
// compartment giving installed, open, locked and fault as '1' or '0'. Compartments beyond
// s.Compartments read "0000". A nil state gives "" (no tank data).
func LockString(s *State) string {
	if s == nil {
		return ""
	}
	var b [LockStateLen]byte
	for i := range b {
		b[i] = '0'
	}
	for k := range Kinds {
		for c := range min(s.Compartments, MaxCompartments) {
			d := s.Devices[c][k]
			slot := b[k*MaxCompartments*4+c*4:]
			for j, bit := range [4]byte{DevInstalled, DevOpen, DevLocked, DevFault} {
				if d&bit != 0 {
					slot[j] = '1'
				}
			}
		}
	}
	return string(b[:])
}

// ParseLockString is the inverse of LockString for the first n compartments; it reports false when
// the text is not a lock-state string.
func ParseLockString(text string, n int) (State, bool) {
	if len(text) != LockStateLen || n < 1 || n > MaxCompartments {
		return State{}, false
	}
	// Slots beyond n are not read, but a character other than 0/1 anywhere means this is not a
	// lock-state string at all.
	for i := range len(text) {
		if text[i] != '0' && text[i] != '1' {
			return State{}, false
		}
	}
	s := State{Compartments: n}
	for k := range Kinds {
		for c := range n {
			slot := text[k*MaxCompartments*4+c*4:]
			for j, bit := range [4]byte{DevInstalled, DevOpen, DevLocked, DevFault} {
				if slot[j] == '1' {
					s.Devices[c][k] |= bit
				}
			}
		}
	}
	return s, true
}

// LockText is the lock-state string as the sensor record page shows it (web/src/features/manager/
// sensorRecord/LockSummary.tsx): for each compartment with a device fitted, its most urgent state
// (fault, else open, else all locked, else closed) and its device counts, e.g.
// "1 号仓 已上锁（打开 0 · 关闭 4 · 上锁 4 · 故障 0）". "" stays ""; a string that is not a lock state is
// returned as is; a tank without devices reads "no devices fitted".
func LockText(l i18n.Lang, text string) string {
	if text == "" {
		return ""
	}
	s, ok := ParseLockString(text, MaxCompartments)
	if !ok {
		return text
	}
	var parts []string
	for c := range MaxCompartments {
		var installed, open, locked, fault int
		for _, d := range s.Devices[c] {
			if d&DevInstalled == 0 {
				continue
			}
			installed++
			if d&DevOpen != 0 {
				open++
			}
			if d&DevLocked != 0 {
				locked++
			}
			if d&DevFault != 0 {
				fault++
			}
		}
		if installed == 0 {
			continue
		}
		status := "closed"
		switch {
		case fault > 0:
			status = "fault"
		case open > 0:
			status = "open"
		case locked == installed:
			status = "locked"
		}
		parts = append(parts, i18n.T(l, "tank.lockText.compartment", c+1, i18n.T(l, "tank.lockText."+status),
			open, installed-open, locked, fault))
	}
	if len(parts) == 0 {
		return i18n.T(l, "tank.lockText.none")
	}
	return strings.Join(parts, i18n.T(l, "tank.lockText.separator"))
}
