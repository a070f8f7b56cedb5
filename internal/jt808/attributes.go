package jt808

import (
	"fmt"
	"strings"
)

// Terminal attribute messages (JT/T 808-2013 §8.x; 2019 widens the identity fields).
const (
	MsgQueryAttributes uint16 = 0x8107 // empty body: use Empty{ID: MsgQueryAttributes}
	MsgAttributes      uint16 = 0x0107
)

// MaxAttributeVersion is the longest hardware or firmware version a 0x0107 can carry (a BYTE length).
const MaxAttributeVersion = 255

// attributeWidths are 0x0107's manufacturer, model and terminal ID widths: BYTE[5], BYTE[20], BYTE[7],
// and BYTE[11], BYTE[30], BYTE[30] in 2019.
func attributeWidths(v Version) (maker, model, id int) {
	if v == V2019 {
		return 11, 30, 30
	}
	return 5, 20, 7
}

// Attributes is 0x0107, the answer to 0x8107: terminal type WORD, manufacturer, model, terminal ID
// (fixed widths, attributeWidths), ICCID BCD[10], hardware version (length BYTE + GBK), firmware
// version (length BYTE + GBK), GNSS module attributes BYTE, communication module attributes BYTE.
type Attributes struct {
	Type         uint16 // bit 0 passenger, 1 dangerous goods, 2 ordinary freight, 3 taxi, 6 video, 7 split unit
	Manufacturer string
	Model        string
	TerminalID   string
	ICCID        string // the 20 nibbles as sent (BCD[10]), leading zeros kept; a filler F some terminals send stays F
	Hardware     string
	Firmware     string
	GNSS         byte // bit 0 GPS, 1 BeiDou, 2 GLONASS, 3 Galileo
	Comm         byte // bit 0 GPRS, 1 CDMA, 2 TD-SCDMA, 3 WCDMA, 4 CDMA2000, 5 TD-LTE, 7 other
}

func (m *Attributes) MsgID() uint16 { return MsgAttributes }

func (m *Attributes) AppendBody(dst []byte, v Version) ([]byte, error) {
	start := len(dst)
	fail := func(err error) ([]byte, error) { return dst[:start], err }
	maker, model, id := attributeWidths(v)
	dst = append(dst, byte(m.Type>>8), byte(m.Type))
	var err error
	if dst, err = appendFixed(dst, m.Manufacturer, maker, "manufacturer"); err != nil {
		return fail(err)
	}
	if dst, err = appendFixed(dst, m.Model, model, "model"); err != nil {
		return fail(err)
	}
	if dst, err = appendFixed(dst, m.TerminalID, id, "terminal ID"); err != nil {
		return fail(err)
	}
	if dst, err = appendICCID(dst, m.ICCID); err != nil {
		return fail(err)
	}
	for _, f := range []struct{ name, s string }{{"hardware version", m.Hardware}, {"firmware version", m.Firmware}} {
		at := len(dst)
		dst = append(dst, 0)
		if dst, err = AppendGBK(dst, f.s); err != nil {
			return fail(fmt.Errorf("%s: %w", f.name, err))
		}
		n := len(dst) - at - 1
		if n > MaxAttributeVersion {
			return fail(fmt.Errorf("%w: %s of %d bytes (max %d)", ErrRange, f.name, n, MaxAttributeVersion))
		}
		dst[at] = byte(n)
	}
	return append(dst, m.GNSS, m.Comm), nil
}

func (m *Attributes) DecodeBody(b []byte, v Version) error {
	maker, model, id := attributeWidths(v)
	r := reader{b: b}
	m.Type = r.u16()
	m.Manufacturer = decodeFixed(r.bytes(maker))
	m.Model = decodeFixed(r.bytes(model))
	m.TerminalID = decodeFixed(r.bytes(id))
	m.ICCID = nibbles(r.bytes(10))
	m.Hardware = DecodeGBK(r.bytes(int(r.u8())))
	m.Firmware = DecodeGBK(r.bytes(int(r.u8())))
	m.GNSS = r.u8()
	m.Comm = r.u8()
	return r.done("0x0107")
}

// appendICCID appends up to 20 hex digits (decimal, and the F filler some terminals use) as BCD[10],
// right-aligned (zeros in front).
func appendICCID(dst []byte, s string) ([]byte, error) {
	if len(s) > 20 {
		return dst, fmt.Errorf("%w: ICCID of %d digits", ErrRange, len(s))
	}
	var b [10]byte
	for i := range len(s) {
		n := strings.IndexByte(hexDigits, s[len(s)-1-i])
		if n < 0 {
			return dst, fmt.Errorf("%w: ICCID %q", ErrBCD, s)
		}
		if i%2 == 0 {
			b[9-i/2] |= byte(n)
		} else {
			b[9-i/2] |= byte(n) << 4
		}
	}
	return append(dst, b[:]...), nil
}

const hexDigits = "0123456789ABCDEF"

// nibbles is b's nibbles as upper-case hex digits ("" for none).
func nibbles(b []byte) string {
	out := make([]byte, 0, 2*len(b))
	for _, c := range b {
		out = append(out, hexDigits[c>>4], hexDigits[c&0x0f])
	}
	return string(out)
}
