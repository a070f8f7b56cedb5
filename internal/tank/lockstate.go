package tank

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
