package jt808

import (
	"encoding/binary"
	"fmt"
)

// Param is one terminal parameter: ID DWORD, length BYTE, value. Value is raw
// (DWORD/WORD/BYTE big-endian or a GBK STRING depending on the ID).
type Param struct {
	ID    uint32
	Value []byte
}

// Some parameter IDs.
const (
	ParamHeartbeatInterval uint32 = 0x0001 // DWORD seconds
	ParamMainServer        uint32 = 0x0013 // STRING
	ParamReportInterval    uint32 = 0x0029 // DWORD seconds, default report interval
	ParamMaxSpeed          uint32 = 0x0055 // DWORD km/h
)

// Uint returns a 1-, 2- or 4-byte big-endian value.
func (p Param) Uint() (uint32, bool) {
	switch len(p.Value) {
	case 1:
		return uint32(p.Value[0]), true
	case 2:
		return uint32(binary.BigEndian.Uint16(p.Value)), true
	case 4:
		return binary.BigEndian.Uint32(p.Value), true
	}
	return 0, false
}

// Uint32Param builds a DWORD parameter.
func Uint32Param(id, v uint32) Param {
	return Param{ID: id, Value: binary.BigEndian.AppendUint32(nil, v)}
}

func appendParams(dst []byte, ps []Param, what string) ([]byte, error) {
	if len(ps) > 255 {
		return dst, fmt.Errorf("%s: %w: %d parameters (max 255; split the message)", what, ErrRange, len(ps))
	}
	dst = append(dst, byte(len(ps)))
	for _, p := range ps {
		if len(p.Value) > 255 {
			return dst, fmt.Errorf("%s: %w: parameter 0x%04x of %d bytes", what, ErrRange, p.ID, len(p.Value))
		}
		dst = binary.BigEndian.AppendUint32(dst, p.ID)
		dst = append(dst, byte(len(p.Value)))
		dst = append(dst, p.Value...)
	}
	return dst, nil
}

// decodeParams reads count BYTE and the parameters. A last entry cut short (or a count running past
// the body's end) ends the list: the entries before it are returned with the Cut.
func decodeParams(r *reader) ([]Param, Cut) {
	n := int(r.u8())
	if r.err != nil || n == 0 {
		return nil, Cut{}
	}
	ps := make([]Param, 0, min(n, len(r.b)/5))
	for i := range n {
		if len(r.b) < 5 {
			c := Cut{Short: true, Index: i, Want: -1, Have: len(r.b)}
			if len(r.b) >= 4 {
				c.ID = binary.BigEndian.Uint32(r.b)
			}
			r.b = nil
			return ps, c
		}
		id := r.u32()
		l := int(r.u8())
		if len(r.b) < l {
			c := Cut{Short: true, Index: i, ID: id, Want: l, Have: len(r.b)}
			r.b = nil
			return ps, c
		}
		ps = append(ps, Param{ID: id, Value: r.bytes(l)})
	}
	return ps, Cut{}
}

// SetParams is 0x8103: count BYTE, parameters (2013/2019 layout, also used for 2011).
type SetParams struct {
	Params []Param
}

func (m *SetParams) MsgID() uint16 { return MsgSetParams }

func (m *SetParams) AppendBody(dst []byte, _ Version) ([]byte, error) {
	start := len(dst)
	dst, err := appendParams(dst, m.Params, "0x8103")
	if err != nil {
		return dst[:start], err
	}
	return dst, nil
}

// DecodeBody is strict: the platform's own command has no excuse for a short entry.
func (m *SetParams) DecodeBody(b []byte, _ Version) error {
	r := reader{b: b}
	var cut Cut
	m.Params, cut = decodeParams(&r)
	if err := cut.Err("0x8103"); err != nil {
		return err
	}
	return r.done("0x8103")
}

// ParamsReply is 0x0104: reply serial WORD, count BYTE, parameters. The query
// 0x8104 has an empty body: use Empty{ID: MsgQueryParams}.
type ParamsReply struct {
	Serial uint16
	Params []Param
	Cut    Cut // the last parameter, cut short by the terminal and dropped; the others are kept
}

func (m *ParamsReply) MsgID() uint16 { return MsgParamsReply }

func (m *ParamsReply) AppendBody(dst []byte, _ Version) ([]byte, error) {
	start := len(dst)
	dst = binary.BigEndian.AppendUint16(dst, m.Serial)
	dst, err := appendParams(dst, m.Params, "0x0104")
	if err != nil {
		return dst[:start], err
	}
	return dst, nil
}

// DecodeBody keeps the parameters before a last entry cut short and records it in m.Cut (see Cut).
// The reply serial must be whole: without it the reply answers nothing.
func (m *ParamsReply) DecodeBody(b []byte, _ Version) error {
	r := reader{b: b}
	m.Serial = r.u16()
	if r.err != nil {
		return r.done("0x0104")
	}
	m.Params, m.Cut = decodeParams(&r)
	return r.done("0x0104")
}
