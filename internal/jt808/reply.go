package jt808

import (
	"encoding/binary"
	"fmt"
	"time"
)

// Message IDs.
const (
	MsgTerminalReply     uint16 = 0x0001
	MsgHeartbeat         uint16 = 0x0002
	MsgLogout            uint16 = 0x0003
	MsgRegister          uint16 = 0x0100
	MsgAuth              uint16 = 0x0102
	MsgParamsReply       uint16 = 0x0104
	MsgLocation          uint16 = 0x0200
	MsgControlReply      uint16 = 0x0500
	MsgBatch             uint16 = 0x0704
	MsgUplinkPassThrough uint16 = 0x0900
	MsgResourceList      uint16 = 0x1205
	MsgPlatformReply     uint16 = 0x8001
	MsgResendRequest     uint16 = 0x8003
	MsgRegisterReply     uint16 = 0x8100
	MsgSetParams         uint16 = 0x8103
	MsgQueryParams       uint16 = 0x8104
	MsgVehicleControl    uint16 = 0x8500
	MsgDownPassThrough   uint16 = 0x8900
	MsgLiveStart         uint16 = 0x9101
	MsgLiveControl       uint16 = 0x9102
	MsgLiveStatus        uint16 = 0x9105
	MsgPlaybackStart     uint16 = 0x9201
	MsgPlaybackControl   uint16 = 0x9202
	MsgQueryResources    uint16 = 0x9205
)

// General reply results (0x0001 / 0x8001).
const (
	ResultOK           byte = 0
	ResultFailure      byte = 1
	ResultBadMessage   byte = 2
	ResultNotSupported byte = 3
	ResultAlarmAck     byte = 4 // 0x8001 only
)

// GeneralReply is the body shared by 0x0001 (terminal general reply) and
// 0x8001 (platform general reply): reply serial WORD, reply ID WORD, result BYTE.
// Same layout in all versions.
type GeneralReply struct {
	Platform bool // true: 0x8001, false: 0x0001
	Serial   uint16
	ReplyID  uint16
	Result   byte
}

func (m *GeneralReply) MsgID() uint16 {
	if m.Platform {
		return MsgPlatformReply
	}
	return MsgTerminalReply
}

func (m *GeneralReply) AppendBody(dst []byte, _ Version) ([]byte, error) {
	dst = binary.BigEndian.AppendUint16(dst, m.Serial)
	dst = binary.BigEndian.AppendUint16(dst, m.ReplyID)
	return append(dst, m.Result), nil
}

func (m *GeneralReply) DecodeBody(b []byte, _ Version) error {
	if len(b) < 5 {
		return fmt.Errorf("%w: general reply of %d bytes", ErrShort, len(b))
	}
	if len(b) > 5 {
		return fmt.Errorf("%w: general reply of %d bytes", ErrTooLong, len(b))
	}
	m.Serial = binary.BigEndian.Uint16(b)
	m.ReplyID = binary.BigEndian.Uint16(b[2:])
	m.Result = b[4]
	return nil
}

// Empty is a message without a body: 0x0002 heartbeat, 0x0003 logout,
// 0x8104 query parameters.
type Empty struct{ ID uint16 }

func (m *Empty) MsgID() uint16                                    { return m.ID }
func (m *Empty) AppendBody(dst []byte, _ Version) ([]byte, error) { return dst, nil }
func (m *Empty) DecodeBody(b []byte, _ Version) error {
	if len(b) != 0 {
		return fmt.Errorf("%w: message 0x%04x should have no body, has %d bytes", ErrTooLong, m.ID, len(b))
	}
	return nil
}

// ResendRequest is 0x8003, the platform asking for missing sub-packages:
// original serial WORD, count (BYTE in 2011/2013, WORD in 2019), indexes WORD each.
type ResendRequest struct {
	OrigSerial uint16
	Indexes    []uint16
}

func (m *ResendRequest) MsgID() uint16 { return MsgResendRequest }

func (m *ResendRequest) AppendBody(dst []byte, v Version) ([]byte, error) {
	dst = binary.BigEndian.AppendUint16(dst, m.OrigSerial)
	if v == V2019 {
		if len(m.Indexes) > 0xffff {
			return dst, fmt.Errorf("%w: %d indexes", ErrRange, len(m.Indexes))
		}
		dst = binary.BigEndian.AppendUint16(dst, uint16(len(m.Indexes)))
	} else {
		if len(m.Indexes) > 0xff {
			return dst, fmt.Errorf("%w: %d indexes (max 255 before 2019)", ErrRange, len(m.Indexes))
		}
		dst = append(dst, byte(len(m.Indexes)))
	}
	for _, i := range m.Indexes {
		dst = binary.BigEndian.AppendUint16(dst, i)
	}
	return dst, nil
}

func (m *ResendRequest) DecodeBody(b []byte, v Version) error {
	r := reader{b: b}
	m.OrigSerial = r.u16()
	var n int
	if v == V2019 {
		n = int(r.u16())
	} else {
		n = int(r.u8())
	}
	if r.err == nil && len(r.b) != 2*n {
		return fmt.Errorf("%w: 0x8003 count %d with %d bytes of indexes", ErrBodyLength, n, len(r.b))
	}
	m.Indexes = nil
	if n > 0 {
		m.Indexes = make([]uint16, 0, n)
	}
	for range n {
		m.Indexes = append(m.Indexes, r.u16())
	}
	return r.done("0x8003")
}

// reader is a bounds-checked big-endian cursor; after the first short read
// every method returns zero and err is set.
type reader struct {
	b   []byte
	err error
}

func (r *reader) need(n int) bool {
	if r.err != nil {
		return false
	}
	if len(r.b) < n {
		r.err = ErrShort
		r.b = nil
		return false
	}
	return true
}

func (r *reader) u8() byte {
	if !r.need(1) {
		return 0
	}
	v := r.b[0]
	r.b = r.b[1:]
	return v
}

func (r *reader) u16() uint16 {
	if !r.need(2) {
		return 0
	}
	v := binary.BigEndian.Uint16(r.b)
	r.b = r.b[2:]
	return v
}

func (r *reader) u32() uint32 {
	if !r.need(4) {
		return 0
	}
	v := binary.BigEndian.Uint32(r.b)
	r.b = r.b[4:]
	return v
}

func (r *reader) u64() uint64 {
	if !r.need(8) {
		return 0
	}
	v := binary.BigEndian.Uint64(r.b)
	r.b = r.b[8:]
	return v
}

func (r *reader) bytes(n int) []byte {
	if n < 0 || !r.need(n) {
		return nil
	}
	v := r.b[:n:n]
	r.b = r.b[n:]
	return v
}

func (r *reader) rest() []byte {
	v := r.b
	r.b = nil
	return v
}

func (r *reader) time() time.Time {
	b := r.bytes(6)
	if b == nil {
		return time.Time{}
	}
	t, err := DecodeTime(b)
	if err != nil {
		r.err = err
	}
	return t
}

// done reports a short read, or trailing bytes, with the message name.
func (r *reader) done(what string) error {
	if r.err != nil {
		return fmt.Errorf("%s: %w", what, r.err)
	}
	if len(r.b) != 0 {
		return fmt.Errorf("%s: %w: %d trailing bytes", what, ErrTooLong, len(r.b))
	}
	return nil
}
