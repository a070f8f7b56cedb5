package jt808

import (
	"encoding/binary"
	"fmt"
)

// 2013 control flag bits (0x8500).
const (
	ControlLockDoors byte = 1 << 0 // bit 0: 1 lock doors, 0 unlock
)

// 2019 control types (0x8500).
const (
	ControlTypeDoor uint16 = 0x0001 // parameter BYTE: 0 lock doors, 1 open doors
)

// ControlParamLen gives the parameter length of 2019 control types whose
// length the standard fixes. Decoding an unlisted type takes the rest of the
// body, so it must be the last entry. Vendor types (0xF001–0xFFFF) can be added
// at init time.
var ControlParamLen = map[uint16]int{ControlTypeDoor: 1}

// ControlEntry is one 2019 vehicle control entry.
type ControlEntry struct {
	ID    uint16
	Param []byte
}

// VehicleControl is 0x8500.
//
//	2011/2013: control flag BYTE (bit 0: 1 lock doors, 0 unlock)
//	2019:      count WORD, entries (type ID WORD + parameter)
type VehicleControl struct {
	Flag    byte           // 2011/2013
	Entries []ControlEntry // 2019
}

func (m *VehicleControl) MsgID() uint16 { return MsgVehicleControl }

func (m *VehicleControl) AppendBody(dst []byte, v Version) ([]byte, error) {
	if v != V2019 {
		return append(dst, m.Flag), nil
	}
	if len(m.Entries) > 0xffff {
		return dst, fmt.Errorf("0x8500: %w: %d entries", ErrRange, len(m.Entries))
	}
	start := len(dst)
	dst = binary.BigEndian.AppendUint16(dst, uint16(len(m.Entries)))
	for i, e := range m.Entries {
		if n, ok := ControlParamLen[e.ID]; ok && n != len(e.Param) {
			return dst[:start], fmt.Errorf("0x8500 entry %d: %w: type 0x%04x takes %d bytes, have %d", i, ErrRange, e.ID, n, len(e.Param))
		}
		dst = binary.BigEndian.AppendUint16(dst, e.ID)
		dst = append(dst, e.Param...)
	}
	return dst, nil
}

func (m *VehicleControl) DecodeBody(b []byte, v Version) error {
	*m = VehicleControl{}
	r := reader{b: b}
	if v != V2019 {
		m.Flag = r.u8()
		return r.done("0x8500")
	}
	n := int(r.u16())
	if r.err == nil && n*2 > len(r.b) {
		return fmt.Errorf("0x8500: %w: %d entries in %d bytes", ErrShort, n, len(r.b))
	}
	for i := range n {
		id := r.u16()
		l, ok := ControlParamLen[id]
		var p []byte
		switch {
		case ok:
			p = r.bytes(l)
		case i == n-1:
			p = r.rest()
		default:
			return fmt.Errorf("0x8500: %w: control type 0x%04x of unknown length before the last entry", ErrUnsupported, id)
		}
		if r.err != nil {
			break
		}
		m.Entries = append(m.Entries, ControlEntry{ID: id, Param: p})
	}
	return r.done("0x8500")
}

// ControlReply is 0x0500: reply serial WORD and a 0x0200 body (all versions).
type ControlReply struct {
	Serial   uint16
	Location Location
}

func (m *ControlReply) MsgID() uint16 { return MsgControlReply }

func (m *ControlReply) AppendBody(dst []byte, v Version) ([]byte, error) {
	start := len(dst)
	dst = binary.BigEndian.AppendUint16(dst, m.Serial)
	dst, err := m.Location.AppendBody(dst, v)
	if err != nil {
		return dst[:start], fmt.Errorf("0x0500: %w", err)
	}
	return dst, nil
}

func (m *ControlReply) DecodeBody(b []byte, v Version) error {
	if len(b) < 2 {
		return fmt.Errorf("0x0500: %w", ErrShort)
	}
	m.Serial = binary.BigEndian.Uint16(b)
	if err := m.Location.DecodeBody(b[2:], v); err != nil {
		return fmt.Errorf("0x0500: %w", err)
	}
	return nil
}
