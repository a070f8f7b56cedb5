package jt808

import (
	"bytes"
	"encoding/binary"
	"fmt"
)

// Version is the protocol revision of a message layout.
// 2011 and 2013 share the header; they differ in a few bodies (0x0100).
type Version uint8

const (
	V2013 Version = iota // zero value: the most common revision
	V2011
	V2019
)

func (v Version) String() string {
	switch v {
	case V2011:
		return "2011"
	case V2013:
		return "2013"
	case V2019:
		return "2019"
	}
	return fmt.Sprintf("Version(%d)", uint8(v))
}

const (
	// MaxBodyLen is the largest body one packet can carry (10-bit length field).
	MaxBodyLen = 0x3ff

	attrLenMask     = 0x03ff
	attrEncShift    = 10
	attrEncMask     = 0x07 << attrEncShift
	attrSubpackaged = 1 << 13
	attrV2019       = 1 << 14
	attrReserved    = 1 << 15

	// EncryptRSA is Header.Encryption for an RSA-encrypted body.
	EncryptRSA = 1
)

// Header is a decoded JT/T 808 message header.
type Header struct {
	MsgID        uint16
	Encryption   uint8   // body attribute bits 10–12; 0 = none, 1 = RSA
	Reserved     bool    // body attribute bit 15, kept for round trips
	Version      Version // V2019 when attribute bit 14 is set, otherwise V2013 (also 2011)
	ProtoVersion byte    // 2019 protocol version byte (1 for JT/T 808-2019)
	Phone        Phone
	Serial       uint16
	Subpackaged  bool
	Total        uint16 // sub-packages: total count (≥ 1)
	Index        uint16 // sub-packages: this packet's index, from 1
	BodyLen      int    // body length from the attributes (set on decode; ignored on encode)
}

// Len returns the encoded header length: 12, 16, 17 or 21.
func (h *Header) Len() int {
	n := 12
	if h.Version == V2019 {
		n = 17
	}
	if h.Subpackaged {
		n += 4
	}
	return n
}

// Frame is one unescaped, checksum-verified packet.
type Frame struct {
	Header Header
	Body   []byte // aliases the buffer the frame was parsed from
}

// Checksum returns the XOR of b.
func Checksum(b []byte) byte {
	var c byte
	for _, x := range b {
		c ^= x
	}
	return c
}

// Unescape appends the unescaped form of src (the bytes between two 0x7e
// delimiters, delimiters excluded) to dst. A raw 0x7e or a 0x7d not followed by
// 0x01/0x02 is ErrEscape. It allocates only if dst lacks capacity.
func Unescape(dst, src []byte) ([]byte, error) {
	for len(src) > 0 {
		i := bytes.IndexByte(src, 0x7d)
		if i < 0 {
			if bytes.IndexByte(src, 0x7e) >= 0 {
				return dst, fmt.Errorf("%w: raw 0x7e inside frame", ErrEscape)
			}
			return append(dst, src...), nil
		}
		if bytes.IndexByte(src[:i], 0x7e) >= 0 {
			return dst, fmt.Errorf("%w: raw 0x7e inside frame", ErrEscape)
		}
		dst = append(dst, src[:i]...)
		if i+1 >= len(src) {
			return dst, fmt.Errorf("%w: 0x7d at end of frame", ErrEscape)
		}
		switch src[i+1] {
		case 0x01:
			dst = append(dst, 0x7d)
		case 0x02:
			dst = append(dst, 0x7e)
		default:
			return dst, fmt.Errorf("%w: 0x7d 0x%02x", ErrEscape, src[i+1])
		}
		src = src[i+2:]
	}
	return dst, nil
}

// Escape appends src with 0x7e → 0x7d 0x02 and 0x7d → 0x7d 0x01 to dst
// (no delimiters are added).
func Escape(dst, src []byte) []byte {
	for _, b := range src {
		dst = appendEsc(dst, b)
	}
	return dst
}

func appendEsc(dst []byte, b byte) []byte {
	switch b {
	case 0x7e:
		return append(dst, 0x7d, 0x02)
	case 0x7d:
		return append(dst, 0x7d, 0x01)
	}
	return append(dst, b)
}

// ParseHeader parses the header at the start of b (unescaped) and returns it
// with the header length.
func ParseHeader(b []byte) (Header, int, error) {
	var h Header
	if len(b) < 12 {
		return h, 0, fmt.Errorf("%w: header needs 12 bytes, have %d", ErrShort, len(b))
	}
	h.MsgID = binary.BigEndian.Uint16(b)
	attr := binary.BigEndian.Uint16(b[2:])
	h.BodyLen = int(attr & attrLenMask)
	h.Encryption = uint8((attr & attrEncMask) >> attrEncShift)
	h.Subpackaged = attr&attrSubpackaged != 0
	h.Reserved = attr&attrReserved != 0
	n := 4
	if attr&attrV2019 != 0 {
		h.Version = V2019
		if len(b) < 17 {
			return h, 0, fmt.Errorf("%w: 2019 header needs 17 bytes, have %d", ErrShort, len(b))
		}
		h.ProtoVersion = b[4]
		copy(h.Phone[:], b[5:15])
		n = 15
	} else {
		copy(h.Phone[4:], b[4:10])
		n = 10
	}
	wirePhone := b[4:n] // 2013: BCD[6]; 2019: version BYTE, BCD[10]
	if n == 15 {
		wirePhone = b[5:n]
	}
	if !validBCD(h.Phone[:]) {
		// The number as the header carries it (12 or 20 digits): the nibble that is not a digit shows as
		// A–F where it stands, instead of a dump of the 10-byte array.
		return h, 0, fmt.Errorf("%w: phone %X is not BCD", ErrPhone, wirePhone)
	}
	h.Serial = binary.BigEndian.Uint16(b[n:])
	n += 2
	if h.Subpackaged {
		if len(b) < n+4 {
			return h, 0, fmt.Errorf("%w: sub-package fields", ErrShort)
		}
		h.Total = binary.BigEndian.Uint16(b[n:])
		h.Index = binary.BigEndian.Uint16(b[n+2:])
		n += 4
		if h.Total == 0 || h.Index == 0 || h.Index > h.Total {
			return h, 0, fmt.Errorf("%w: packet %d of %d", ErrSubpackage, h.Index, h.Total)
		}
	}
	return h, n, nil
}

// ParseFrame parses an unescaped frame (header, body and check byte; no
// delimiters), verifying the checksum and the body length. Body aliases b.
func ParseFrame(b []byte) (Frame, error) {
	var f Frame
	if len(b) < 13 {
		return f, fmt.Errorf("%w: frame of %d bytes", ErrShort, len(b))
	}
	if c := Checksum(b[:len(b)-1]); c != b[len(b)-1] {
		return f, fmt.Errorf("%w: computed 0x%02x, frame has 0x%02x", ErrChecksum, c, b[len(b)-1])
	}
	h, n, err := ParseHeader(b[:len(b)-1])
	if err != nil {
		return f, err
	}
	if body := len(b) - 1 - n; body != h.BodyLen {
		return f, fmt.Errorf("%w: message 0x%04x header says %d, frame has %d", ErrBodyLength, h.MsgID, h.BodyLen, body)
	}
	f.Header = h
	f.Body = b[n : len(b)-1]
	return f, nil
}

// DecodeFrame unescapes one escaped frame (with or without its 0x7e delimiters)
// into dst (append style) and parses it. It returns the frame, whose Body
// aliases the returned buffer, and the grown dst for reuse.
func DecodeFrame(dst, escaped []byte) (Frame, []byte, error) {
	if len(escaped) > 0 && escaped[0] == 0x7e {
		escaped = escaped[1:]
	}
	if len(escaped) > 0 && escaped[len(escaped)-1] == 0x7e {
		escaped = escaped[:len(escaped)-1]
	}
	start := len(dst)
	dst, err := Unescape(dst, escaped)
	if err != nil {
		return Frame{}, dst[:start], err
	}
	f, err := ParseFrame(dst[start:])
	return f, dst, err
}

// appendHeader appends the unescaped header for a body of bodyLen bytes.
func appendHeader(dst []byte, h *Header, bodyLen int) ([]byte, error) {
	if bodyLen > MaxBodyLen {
		return dst, fmt.Errorf("%w: body of %d bytes (max %d; sub-package it)", ErrTooLong, bodyLen, MaxBodyLen)
	}
	if h.Encryption > 7 {
		return dst, fmt.Errorf("%w: encryption %d", ErrRange, h.Encryption)
	}
	attr := uint16(bodyLen) | uint16(h.Encryption)<<attrEncShift
	if h.Subpackaged {
		attr |= attrSubpackaged
	}
	if h.Reserved {
		attr |= attrReserved
	}
	switch h.Version {
	case V2019:
		attr |= attrV2019
	case V2011, V2013:
		if !h.Phone.fits2013() {
			return dst, fmt.Errorf("%w: %s has more than 12 digits for a 2013 header", ErrPhone, h.Phone)
		}
	default:
		return dst, fmt.Errorf("%w: %v", ErrUnknownVersion, h.Version)
	}
	dst = binary.BigEndian.AppendUint16(dst, h.MsgID)
	dst = binary.BigEndian.AppendUint16(dst, attr)
	if h.Version == V2019 {
		dst = append(dst, h.ProtoVersion)
		dst = append(dst, h.Phone[:]...)
	} else {
		dst = append(dst, h.Phone[4:]...)
	}
	dst = binary.BigEndian.AppendUint16(dst, h.Serial)
	if h.Subpackaged {
		dst = binary.BigEndian.AppendUint16(dst, h.Total)
		dst = binary.BigEndian.AppendUint16(dst, h.Index)
	}
	return dst, nil
}

// AppendFrame appends a complete escaped frame (0x7e … 0x7e) for h and body to
// dst. The body length in the attributes is taken from len(body); h.BodyLen is
// ignored. It allocates only if dst lacks capacity.
func AppendFrame(dst []byte, h Header, body []byte) ([]byte, error) {
	var hb [21]byte
	head, err := appendHeader(hb[:0], &h, len(body))
	if err != nil {
		return dst, err
	}
	dst = append(dst, 0x7e)
	var c byte
	for _, b := range head {
		c ^= b
		dst = appendEsc(dst, b)
	}
	for _, b := range body {
		c ^= b
		dst = appendEsc(dst, b)
	}
	dst = appendEsc(dst, c)
	return append(dst, 0x7e), nil
}

// Message is implemented by every message type of this package.
type Message interface {
	MsgID() uint16
	// AppendBody appends the body in the layout of version v.
	AppendBody(dst []byte, v Version) ([]byte, error)
	// DecodeBody decodes a body in the layout of version v. Slices in the
	// result may alias body.
	DecodeBody(body []byte, v Version) error
}

// AppendMessage encodes m's body for h.Version and appends the escaped frame to
// dst. h.MsgID is set from m. Allocation-free when dst has room for the body and
// the frame.
func AppendMessage(dst []byte, h Header, m Message) ([]byte, error) {
	h.MsgID = m.MsgID()
	start := len(dst)
	dst, err := m.AppendBody(dst, h.Version)
	if err != nil {
		return dst[:start], err
	}
	body := dst[start:]
	n := len(body)
	dst, err = AppendFrame(dst, h, body) // body may alias old storage; it is only read
	if err != nil {
		return dst[:start], err
	}
	copy(dst[start:], dst[start+n:])
	return dst[:len(dst)-n], nil
}

// AppendPackets appends body as one frame, or, when it is longer than
// maxPart (≤ MaxBodyLen; 0 means 1000), as sub-packaged frames with serial
// numbers h.Serial, h.Serial+1, … It returns dst and the next free serial.
func AppendPackets(dst []byte, h Header, body []byte, maxPart int) ([]byte, uint16, error) {
	if maxPart <= 0 {
		maxPart = 1000
	}
	if maxPart > MaxBodyLen {
		maxPart = MaxBodyLen
	}
	if len(body) <= maxPart {
		h.Subpackaged, h.Total, h.Index = false, 0, 0
		dst, err := AppendFrame(dst, h, body)
		return dst, h.Serial + 1, err
	}
	total := (len(body) + maxPart - 1) / maxPart
	if total > 0xffff {
		return dst, h.Serial, fmt.Errorf("%w: %d packets", ErrTooLong, total)
	}
	h.Subpackaged, h.Total = true, uint16(total)
	for i := range total {
		part := body[i*maxPart : min(len(body), (i+1)*maxPart)]
		h.Index = uint16(i + 1)
		var err error
		if dst, err = AppendFrame(dst, h, part); err != nil {
			return dst, h.Serial, err
		}
		h.Serial++
	}
	return dst, h.Serial, nil
}
