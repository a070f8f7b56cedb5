package jt808

// Pass-through types seen in practice (0x0900 / 0x8900).
const (
	PassGNSSDetail byte = 0x00
	PassICCard     byte = 0x0B
	PassSerial1    byte = 0x41
	PassSerial2    byte = 0x42
	PassUserFirst  byte = 0xF0 // 0xF0–0xFF user-defined
)

// PassThrough is 0x0900 (uplink, terminal → platform) or 0x8900 (downlink):
// type BYTE, content. Same layout in all versions. Data aliases the body on decode.
type PassThrough struct {
	Down bool // true: 0x8900, false: 0x0900
	Type byte
	Data []byte
}

func (m *PassThrough) MsgID() uint16 {
	if m.Down {
		return MsgDownPassThrough
	}
	return MsgUplinkPassThrough
}

func (m *PassThrough) AppendBody(dst []byte, _ Version) ([]byte, error) {
	return append(append(dst, m.Type), m.Data...), nil
}

func (m *PassThrough) DecodeBody(b []byte, _ Version) error {
	r := reader{b: b}
	m.Type = r.u8()
	m.Data = r.rest()
	return r.done("pass-through")
}
