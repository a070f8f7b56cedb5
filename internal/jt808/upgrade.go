package jt808

import (
	"encoding/binary"
	"fmt"
)

// Firmware upgrade messages (docs/PROTOCOL.md, "Firmware upgrade").
const (
	MsgUpgradeResend uint16 = 0x0005 // terminal asks for missing sub-packages (2019; same body as 0x8003)
	MsgUpgradeResult uint16 = 0x0108
	MsgUpgrade       uint16 = 0x8108
)

// Upgrade types of 0x8108 and 0x0108 (decimal in the standard).
const (
	UpgradeTerminal   byte = 0
	UpgradeCardReader byte = 12
	UpgradeBeiDou     byte = 52
)

// Upgrade results of 0x0108.
const (
	UpgradeSuccess   byte = 0
	UpgradeFailure   byte = 1
	UpgradeCancelled byte = 2
)

// MaxUpgradeVersion is the longest version string a 0x8108 can carry (its length is a BYTE).
const MaxUpgradeVersion = 255

// UpgradeManufacturerLen is the width of 0x8108's manufacturer field: BYTE[5], BYTE[11] in 2019 (as in 0x0100).
func UpgradeManufacturerLen(v Version) int {
	if v == V2019 {
		return 11
	}
	return 5
}

// Upgrade is 0x8108: upgrade type BYTE, manufacturer BYTE[5] (BYTE[11] in 2019), version length BYTE,
// version STRING, package length DWORD, package. A real package never fits one frame: the body is sent
// sub-packaged (AppendPackets); the gateway streams it from disk with AppendUpgradeHeader instead of
// holding the package in a Message.
type Upgrade struct {
	Type         byte
	Manufacturer string
	Version      string
	Package      []byte
}

func (m *Upgrade) MsgID() uint16 { return MsgUpgrade }

func (m *Upgrade) AppendBody(dst []byte, v Version) ([]byte, error) {
	dst, err := AppendUpgradeHeader(dst, v, m.Type, m.Manufacturer, m.Version, int64(len(m.Package)))
	if err != nil {
		return dst, err
	}
	return append(dst, m.Package...), nil
}

// AppendUpgradeHeader appends the part of a 0x8108 body before the package bytes, for a package of
// size bytes that follows it.
func AppendUpgradeHeader(dst []byte, v Version, typ byte, manufacturer, version string, size int64) ([]byte, error) {
	start := len(dst)
	if size < 0 || size > 0xffffffff {
		return dst, fmt.Errorf("%w: package of %d bytes", ErrRange, size)
	}
	dst = append(dst, typ)
	dst, err := appendFixed(dst, manufacturer, UpgradeManufacturerLen(v), "manufacturer")
	if err != nil {
		return dst[:start], err
	}
	lenAt := len(dst)
	dst = append(dst, 0)
	if dst, err = AppendGBK(dst, version); err != nil {
		return dst[:start], fmt.Errorf("version: %w", err)
	}
	n := len(dst) - lenAt - 1
	if n > MaxUpgradeVersion {
		return dst[:start], fmt.Errorf("%w: version of %d bytes (max %d)", ErrRange, n, MaxUpgradeVersion)
	}
	dst[lenAt] = byte(n)
	return binary.BigEndian.AppendUint32(dst, uint32(size)), nil
}

func (m *Upgrade) DecodeBody(b []byte, v Version) error {
	r := reader{b: b}
	m.Type = r.u8()
	m.Manufacturer = decodeFixed(r.bytes(UpgradeManufacturerLen(v)))
	m.Version = DecodeGBK(r.bytes(int(r.u8())))
	n := r.u32()
	if r.err == nil && uint64(len(r.b)) != uint64(n) {
		return fmt.Errorf("%w: 0x8108 package length %d with %d bytes", ErrBodyLength, n, len(r.b))
	}
	m.Package = r.rest()
	return r.done("0x8108")
}

// UpgradeResult is 0x0108: upgrade type BYTE, result BYTE (UpgradeSuccess, UpgradeFailure, UpgradeCancelled).
type UpgradeResult struct {
	Type   byte
	Result byte
}

func (m *UpgradeResult) MsgID() uint16 { return MsgUpgradeResult }

func (m *UpgradeResult) AppendBody(dst []byte, _ Version) ([]byte, error) {
	return append(dst, m.Type, m.Result), nil
}

func (m *UpgradeResult) DecodeBody(b []byte, _ Version) error {
	if len(b) < 2 {
		return fmt.Errorf("%w: 0x0108 of %d bytes", ErrShort, len(b))
	}
	if len(b) > 2 {
		return fmt.Errorf("%w: 0x0108 of %d bytes", ErrTooLong, len(b))
	}
	m.Type, m.Result = b[0], b[1]
	return nil
}

// UpgradeResend is 0x0005, the terminal asking for sub-packages of a platform message again: the body of
// 0x8003 (original serial — the first packet's — count, packet indexes).
type UpgradeResend struct{ ResendRequest }

func (m *UpgradeResend) MsgID() uint16 { return MsgUpgradeResend }
