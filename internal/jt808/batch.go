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

func (m *Batch) DecodeBody(b []byte, v Version) error {
	r := reader{b: b}
	n := int(r.u16())
	m.Type = r.u8()
	if r.err != nil {
		return r.done("0x0704")
	}
	// every item takes at least 2+28 bytes: do not trust the count for the allocation
	if n*(2+locationBaseLen) > len(r.b) {
		return fmt.Errorf("0x0704: %w: %d items in %d bytes", ErrShort, n, len(r.b))
	}
	m.Items = make([]Location, n)
	for i := range n {
		l := int(r.u16())
		body := r.bytes(l)
		if r.err != nil {
			return fmt.Errorf("0x0704 item %d: %w", i, r.err)
		}
		if err := m.Items[i].DecodeBody(body, v); err != nil {
			return fmt.Errorf("0x0704 item %d: %w", i, err)
		}
	}
	return r.done("0x0704")
}
