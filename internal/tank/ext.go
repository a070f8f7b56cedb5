// Package tank is TankWatch's tank extension of JT/T 808 (docs/PROTOCOL.md): per-compartment covers,
// valves and locks, seals, level probes and help requests, carried as vendor additional items of 0x0200
// (and 0x0704) or as TLVs in 0x0900 / 0x8900 pass-through of type PassTank. It also holds the sensor
// registry that maps a vendor's peripheral IDs to decoders.
package tank

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// Vendor additional item IDs of the extension.
const (
	ItemTank        byte = 0xE1 // tank state: version, compartments, 4 device bytes per compartment, seal
	ItemLevels      byte = 0xE2 // level probes
	ItemHelp        byte = 0xE3 // help request from the driver (unlock / lock)
	ItemLockCommand byte = 0xE4 // downlink: unlock / lock compartments (0x8900 type PassTank)
	ItemPassword    byte = 0xE5 // downlink: set the locks' local (offline) unlock password
	PassTank        byte = 0xF1 // 0x0900 / 0x8900 pass-through type whose content is a list of items
)

// MaxCompartments is the number of compartment slots of the lock-state string.
const MaxCompartments = 8

// Device kinds, in the order of the lock-state string's four groups.
const (
	SmallManholeCover = iota
	ManholeCover
	DischargeValve
	BottomValve
	Kinds
)

// Device state bits (one byte per compartment and kind).
const (
	DevInstalled byte = 1 << 0
	DevOpen      byte = 1 << 1
	DevLocked    byte = 1 << 2
	DevFault     byte = 1 << 3
)

// Seal is the lead / electronic seal state of the tank.
type Seal byte

const (
	SealNone     Seal = 0 // no seal fitted or state unknown
	SealSealed   Seal = 1
	SealBroken   Seal = 2 // opened without authorisation
	SealUnsealed Seal = 3 // opened by an authorised unseal (unblock)
)

// Help request types (spec §9: 1 unlock, 2 lock).
const (
	HelpUnlock byte = 1
	HelpLock   byte = 2
)

// ErrItem is wrapped by every decoding error of this package.
var ErrItem = errors.New("tank: bad extension item")

// State is item 0xE1: version BYTE (1), compartments BYTE (1–8), per compartment four device bytes
// (small manhole cover, manhole cover, discharge valve, bottom valve), seal BYTE. Length 3 + 4n.
type State struct {
	Compartments int
	Devices      [MaxCompartments][Kinds]byte
	Seal         Seal
}

// Level is one level probe reading.
type Level struct {
	Compartment uint8  // 1–8
	LevelMM     uint16 // liquid height, mm
	VolumeL     uint32 // litres at the probe's calibration
	TempDeci    int16  // 0.1 °C
}

// Levels is item 0xE2: count BYTE (0–8), then per probe compartment BYTE, level WORD, volume DWORD,
// temperature INT16. Length 1 + 9n.
type Levels struct {
	N      int
	Probes [MaxCompartments]Level
}

// Help is item 0xE3: type BYTE (1 unlock, 2 lock), request ID WORD. Length 3.
type Help struct {
	Type      byte
	RequestID uint16
}

// LockCommand is item 0xE4 (downlink): action BYTE (1 unlock, 2 lock), compartment mask BYTE (bit i =
// compartment i+1, 0 = all), request ID WORD. Length 4.
type LockCommand struct {
	Action    byte
	Mask      byte
	RequestID uint16
}

// PasswordLen is the number of digits of a local unlock password (item 0xE5).
const PasswordLen = 6

// LocalPassword is item 0xE5 (downlink): the offline unlock password the driver types on the lock
// keypad when the vehicle has no signal, as PasswordLen ASCII digits '0'–'9'. Length 6.
type LocalPassword string

// ValidPassword reports whether s is exactly PasswordLen ASCII digits (a keypad has nothing else).
func ValidPassword(s string) bool {
	if len(s) != PasswordLen {
		return false
	}
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func header(dst []byte, id byte, n int) []byte { return append(dst, id, byte(n)) }

// AppendItem appends s as item 0xE1 (ID, length, value).
func (s *State) AppendItem(dst []byte) ([]byte, error) {
	if s.Compartments < 1 || s.Compartments > MaxCompartments {
		return dst, fmt.Errorf("%w: %d compartments", ErrItem, s.Compartments)
	}
	dst = header(dst, ItemTank, 3+4*s.Compartments)
	dst = append(dst, 1, byte(s.Compartments))
	for i := range s.Compartments {
		dst = append(dst, s.Devices[i][:]...)
	}
	return append(dst, byte(s.Seal)), nil
}

// Decode reads the value of item 0xE1.
func (s *State) Decode(v []byte) error {
	if len(v) < 3 {
		return fmt.Errorf("%w: tank state of %d bytes", ErrItem, len(v))
	}
	if v[0] != 1 {
		return fmt.Errorf("%w: tank state version %d", ErrItem, v[0])
	}
	n := int(v[1])
	if n < 1 || n > MaxCompartments || len(v) != 3+4*n {
		return fmt.Errorf("%w: tank state with %d compartments in %d bytes", ErrItem, n, len(v))
	}
	// An unknown seal value would be shown as a seal state nobody defined.
	if seal := Seal(v[2+4*n]); seal > SealUnsealed {
		return fmt.Errorf("%w: seal value %d", ErrItem, seal)
	}
	*s = State{Compartments: n}
	for i := range n {
		copy(s.Devices[i][:], v[2+4*i:6+4*i])
	}
	s.Seal = Seal(v[2+4*n])
	return nil
}

// AppendItem appends l as item 0xE2.
func (l *Levels) AppendItem(dst []byte) ([]byte, error) {
	if l.N < 0 || l.N > MaxCompartments {
		return dst, fmt.Errorf("%w: %d probes", ErrItem, l.N)
	}
	for _, p := range l.Probes[:l.N] {
		if p.Compartment < 1 || p.Compartment > MaxCompartments {
			return dst, fmt.Errorf("%w: probe of compartment %d", ErrItem, p.Compartment)
		}
	}
	dst = header(dst, ItemLevels, 1+9*l.N)
	dst = append(dst, byte(l.N))
	for _, p := range l.Probes[:l.N] {
		dst = append(dst, p.Compartment)
		dst = binary.BigEndian.AppendUint16(dst, p.LevelMM)
		dst = binary.BigEndian.AppendUint32(dst, p.VolumeL)
		dst = binary.BigEndian.AppendUint16(dst, uint16(p.TempDeci))
	}
	return dst, nil
}

// Decode reads the value of item 0xE2.
func (l *Levels) Decode(v []byte) error {
	if len(v) < 1 || int(v[0]) > MaxCompartments || len(v) != 1+9*int(v[0]) {
		return fmt.Errorf("%w: level item of %d bytes", ErrItem, len(v))
	}
	*l = Levels{N: int(v[0])}
	for i := range l.N {
		b := v[1+9*i:]
		// Consumers index compartments from 1; compartment 0 or 9+ would land outside the tank.
		if b[0] < 1 || b[0] > MaxCompartments {
			return fmt.Errorf("%w: probe of compartment %d", ErrItem, b[0])
		}
		l.Probes[i] = Level{Compartment: b[0], LevelMM: binary.BigEndian.Uint16(b[1:]),
			VolumeL: binary.BigEndian.Uint32(b[3:]), TempDeci: int16(binary.BigEndian.Uint16(b[7:]))}
	}
	return nil
}

// AppendItem appends h as item 0xE3.
func (h *Help) AppendItem(dst []byte) []byte {
	dst = header(dst, ItemHelp, 3)
	return binary.BigEndian.AppendUint16(append(dst, h.Type), h.RequestID)
}

// Decode reads the value of item 0xE3.
func (h *Help) Decode(v []byte) error {
	if len(v) != 3 {
		return fmt.Errorf("%w: help request of %d bytes", ErrItem, len(v))
	}
	if v[0] != HelpUnlock && v[0] != HelpLock {
		return fmt.Errorf("%w: help request type %d", ErrItem, v[0])
	}
	*h = Help{Type: v[0], RequestID: binary.BigEndian.Uint16(v[1:])}
	return nil
}

// AppendItem appends c as item 0xE4.
func (c *LockCommand) AppendItem(dst []byte) []byte {
	dst = header(dst, ItemLockCommand, 4)
	return binary.BigEndian.AppendUint16(append(dst, c.Action, c.Mask), c.RequestID)
}

// Decode reads the value of item 0xE4.
func (c *LockCommand) Decode(v []byte) error {
	if len(v) != 4 {
		return fmt.Errorf("%w: lock command of %d bytes", ErrItem, len(v))
	}
	if v[0] != HelpUnlock && v[0] != HelpLock {
		return fmt.Errorf("%w: lock command action %d", ErrItem, v[0])
	}
	*c = LockCommand{Action: v[0], Mask: v[1], RequestID: binary.BigEndian.Uint16(v[2:])}
	return nil
}

// AppendItem appends p as item 0xE5; a password that is not six digits is refused rather than sent
// to a lock that could never be opened with it.
func (p LocalPassword) AppendItem(dst []byte) ([]byte, error) {
	if !ValidPassword(string(p)) {
		return dst, fmt.Errorf("%w: local password of %d characters or not all digits", ErrItem, len(p))
	}
	return append(header(dst, ItemPassword, PasswordLen), p...), nil
}

// Decode reads the value of item 0xE5.
func (p *LocalPassword) Decode(v []byte) error {
	if len(v) != PasswordLen {
		return fmt.Errorf("%w: local password of %d bytes", ErrItem, len(v))
	}
	if !ValidPassword(string(v)) {
		return fmt.Errorf("%w: local password with a non-digit", ErrItem)
	}
	*p = LocalPassword(v)
	return nil
}

// Items walks a pass-through content of type PassTank (ID BYTE, length BYTE, value)* and calls fn for
// each item; a truncated list is an error. It is strict (for terminals reading the platform's
// downlink); FromPassThrough keeps what decoded of a broken uplink list.
func Items(content []byte, fn func(id byte, value []byte) error) error {
	for len(content) > 0 {
		if len(content) < 2 || len(content) < 2+int(content[1]) {
			return fmt.Errorf("%w: truncated item list", ErrItem)
		}
		if err := fn(content[0], content[2:2+int(content[1])]); err != nil {
			return err
		}
		content = content[2+int(content[1]):]
	}
	return nil
}

// Extract is what one message carried of the extension.
type Extract struct {
	Tank   *State
	Levels *Levels
	Help   *Help
	Locks  []LockEvent // items 0xE6, in the order sent (a message may carry several)
}

// Empty reports whether nothing of the extension was found.
func (e *Extract) Empty() bool {
	return e.Tank == nil && e.Levels == nil && e.Help == nil && len(e.Locks) == 0
}

// Add decodes one item into e; IDs outside the extension are ignored.
func (e *Extract) Add(id byte, v []byte) error {
	switch id {
	case ItemTank:
		s := new(State)
		if err := s.Decode(v); err != nil {
			return err
		}
		e.Tank = s
	case ItemLevels:
		l := new(Levels)
		if err := l.Decode(v); err != nil {
			return err
		}
		e.Levels = l
	case ItemHelp:
		h := new(Help)
		if err := h.Decode(v); err != nil {
			return err
		}
		e.Help = h
	case ItemLockEvent:
		var l LockEvent
		if err := l.Decode(v); err != nil {
			return err
		}
		e.Locks = append(e.Locks, l)
	}
	return nil
}

// FromItems collects the extension from additional items given as (id, value) pairs, e.g. the items
// of a decoded 0x0200 (jt808.Location.Items[:NItems]). A malformed item of the extension drops that
// item only: e holds every item that decoded, and err (nil when none was dropped) joins one error
// wrapping ErrItem per dropped item (Dropped counts them). A report is not robbed of its levels or its
// help request because its tank state was broken, nor the other way round.
func FromItems(n int, item func(i int) (id byte, value []byte)) (e Extract, err error) {
	var errs []error
	for i := range n {
		id, v := item(i)
		if err := e.Add(id, v); err != nil {
			errs = append(errs, fmt.Errorf("item %d (0x%02X): %w", i, id, err))
		}
	}
	return e, errors.Join(errs...)
}

// FromPassThrough collects the extension from a 0x0900 content of type PassTank, with FromItems' rule:
// a malformed item, or a last item cut short, is dropped and reported in err; e holds the others.
// Other types are decoded by the sensor registry.
func FromPassThrough(content []byte) (e Extract, err error) {
	var errs []error
	for i := 0; len(content) > 0; i++ {
		if len(content) < 2 || len(content) < 2+int(content[1]) {
			errs = append(errs, fmt.Errorf("%w: item %d (0x%02X) cut short: %d bytes left", ErrItem, i, content[0], len(content)))
			break
		}
		id, v := content[0], content[2:2+int(content[1])]
		if err := e.Add(id, v); err != nil {
			errs = append(errs, fmt.Errorf("item %d (0x%02X): %w", i, id, err))
		}
		content = content[2+len(v):]
	}
	return e, errors.Join(errs...)
}

// Dropped is the number of items an error of FromItems or FromPassThrough dropped (0 for nil).
func Dropped(err error) int {
	if err == nil {
		return 0
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return len(j.Unwrap())
	}
	return 1
}
