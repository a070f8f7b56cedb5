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

func decodeParams(r *reader) []Param {
	n := int(r.u8())
	if r.err != nil || n == 0 {
		return nil
	}
	ps := make([]Param, 0, min(n, len(r.b)/5))
	for range n {
		id := r.u32()
		l := r.u8()
		v := r.bytes(int(l))
		if r.err != nil {
			return ps
		}
		ps = append(ps, Param{ID: id, Value: v})
	}
	return ps
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

func (m *SetParams) DecodeBody(b []byte, _ Version) error {
	r := reader{b: b}
	m.Params = decodeParams(&r)
	return r.done("0x8103")
}

// ParamsReply is 0x0104: reply serial WORD, count BYTE, parameters. The query
// 0x8104 has an empty body: use Empty{ID: MsgQueryParams}.
type ParamsReply struct {
	Serial uint16
	Params []Param
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

func (m *ParamsReply) DecodeBody(b []byte, _ Version) error {
	r := reader{b: b}
	m.Serial = r.u16()
	m.Params = decodeParams(&r)
	return r.done("0x0104")
}
