package jt808

import (
	"encoding/binary"
	"fmt"
)

// Batch types (0x0704).
const (
	BatchNormal    byte = 0
	BatchBlindArea byte = 1 // re-upload of positions stored while offline
)

// Batch is 0x0704, batch location upload (same layout in 2011/2013/2019):
// count WORD, type BYTE, then per item a length WORD and a 0x0200 body.
// Decoding allocates the Items slice; item values alias the body.
type Batch struct {
	Type  byte
	Items []Location
	// Cut is the last position, cut short by the device (its declared length, or the count, runs past
	// the body's end) and dropped; the positions before it are kept. A last additional item cut short
	// inside a whole position is that position's own Location.Cut.
	Cut Cut
}

func (m *Batch) MsgID() uint16 { return MsgBatch }

func (m *Batch) AppendBody(dst []byte, v Version) ([]byte, error) {
	start := len(dst)
	if len(m.Items) > 0xffff {
		return dst, fmt.Errorf("0x0704: %w: %d items", ErrRange, len(m.Items))
	}
	dst = binary.BigEndian.AppendUint16(dst, uint16(len(m.Items)))
	dst = append(dst, m.Type)
	for i := range m.Items {
		at := len(dst)
		dst = append(dst, 0, 0)
		var err error
		if dst, err = m.Items[i].AppendBody(dst, v); err != nil {
			return dst[:start], fmt.Errorf("0x0704 item %d: %w", i, err)
		}
		binary.BigEndian.PutUint16(dst[at:], uint16(len(dst)-at-2))
	}
	return dst, nil
}

// DecodeBody decodes a 0x0704 body. It fails when no position decodes; a last position cut short is
// dropped and recorded in m.Cut (see Cut).
func (m *Batch) DecodeBody(b []byte, v Version) error {
	r := reader{b: b}
	n := int(r.u16())
	m.Type = r.u8()
	m.Cut = Cut{}
	if r.err != nil {
		return r.done("0x0704")
	}
	// every item takes at least 2+28 bytes: do not trust the count for the allocation
	m.Items = make([]Location, 0, min(n, len(r.b)/(2+locationBaseLen)))
	for i := range n {
		if len(r.b) < 2 {
			m.Cut = Cut{Short: true, Index: i, Want: -1, Have: len(r.b)}
			break
		}
		l := int(r.u16())
		if len(r.b) < l {
			m.Cut = Cut{Short: true, Index: i, Want: l, Have: len(r.b)}
			break
		}
		m.Items = append(m.Items, Location{})
		if err := m.Items[i].DecodeBody(r.bytes(l), v); err != nil {
			return fmt.Errorf("0x0704 item %d: %w", i, err)
		}
	}
	if m.Cut.Short {
		if len(m.Items) == 0 {
			return m.Cut.Err("0x0704: no position")
		}
		return nil
	}
	return r.done("0x0704")
}
