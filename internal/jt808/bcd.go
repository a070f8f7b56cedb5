package jt808

import (
	"fmt"
	"time"
)

// CST is the fixed GMT+8 zone used by JT/T 808 times (no tzdata needed).
var CST = time.FixedZone("CST", 8*3600)

// bcd2 decodes one packed BCD byte into 0..99.
func bcd2(b byte) (int, bool) {
	hi, lo := b>>4, b&0x0f
	if hi > 9 || lo > 9 {
		return 0, false
	}
	return int(hi)*10 + int(lo), true
}

func toBCD(v int) byte { return byte(v/10)<<4 | byte(v%10) }

// DecodeTime decodes BCD[6] YYMMDDhhmmss (GMT+8) into a UTC time.
// Six zero bytes decode to the zero time.Time (devices send it when they have no fix;
// JT/T 1078 uses it for "no limit"). It does not allocate.
func DecodeTime(b []byte) (time.Time, error) {
	if len(b) < 6 {
		return time.Time{}, ErrShort
	}
	if b[0]|b[1]|b[2]|b[3]|b[4]|b[5] == 0 {
		return time.Time{}, nil
	}
	var f [6]int
	for i := range 6 {
		v, ok := bcd2(b[i])
		if !ok {
			return time.Time{}, ErrBCD
		}
		f[i] = v
	}
	if f[1] < 1 || f[1] > 12 || f[2] < 1 || f[2] > 31 || f[3] > 23 || f[4] > 59 || f[5] > 59 {
		return time.Time{}, ErrTime
	}
	t := time.Date(2000+f[0], time.Month(f[1]), f[2], f[3], f[4], f[5], 0, CST)
	if t.Day() != f[2] { // 31 February and the like
		return time.Time{}, ErrTime
	}
	return t.UTC(), nil
}

// AppendTime appends t as BCD[6] YYMMDDhhmmss in GMT+8 (sub-second part dropped).
// The zero time encodes as six zero bytes. Years outside 2000–2099 are ErrRange.
func AppendTime(dst []byte, t time.Time) ([]byte, error) {
	if t.IsZero() {
		return append(dst, 0, 0, 0, 0, 0, 0), nil
	}
	t = t.In(CST)
	if t.Year() < 2000 || t.Year() > 2099 {
		return dst, fmt.Errorf("%w: year %d", ErrRange, t.Year())
	}
	return append(dst, toBCD(t.Year()-2000), toBCD(int(t.Month())), toBCD(t.Day()),
		toBCD(t.Hour()), toBCD(t.Minute()), toBCD(t.Second())), nil
}

// Phone is a terminal phone number (SIM) as BCD[10], right-aligned: 2011/2013
// headers carry the last 6 bytes (12 digits), 2019 headers all 10 (20 digits).
// It is comparable and usable as a map key.
type Phone [10]byte

// ParsePhone parses up to 20 decimal digits.
func ParsePhone(s string) (Phone, error) {
	var p Phone
	if len(s) == 0 || len(s) > 20 {
		return p, fmt.Errorf("%w: %q", ErrPhone, s)
	}
	for i := range len(s) {
		c := s[len(s)-1-i]
		if c < '0' || c > '9' {
			return p, fmt.Errorf("%w: %q", ErrPhone, s)
		}
		d := c - '0'
		j := 9 - i/2
		if i%2 == 0 {
			p[j] |= d
		} else {
			p[j] |= d << 4
		}
	}
	return p, nil
}

// MustPhone is ParsePhone for constants in tests and tools; it panics on bad input.
func MustPhone(s string) Phone {
	p, err := ParsePhone(s)
	if err != nil {
		panic(err)
	}
	return p
}

// String returns the digits without leading zeros ("0" for an all-zero number).
// Digits that are not valid BCD are shown as '?'.
func (p Phone) String() string {
	var buf [20]byte
	for i, b := range p {
		buf[2*i] = nib(b >> 4)
		buf[2*i+1] = nib(b & 0x0f)
	}
	s := buf[:]
	for len(s) > 1 && s[0] == '0' {
		s = s[1:]
	}
	return string(s)
}

func nib(n byte) byte {
	if n > 9 {
		return '?'
	}
	return '0' + n
}

// fits2013 reports whether the number fits a BCD[6] header (12 digits).
func (p Phone) fits2013() bool { return p[0]|p[1]|p[2]|p[3] == 0 }

func validBCD(b []byte) bool {
	for _, c := range b {
		if c>>4 > 9 || c&0x0f > 9 {
			return false
		}
	}
	return true
}

// MarshalText gives the digits (String), so that a Phone logged by slog's JSON handler or encoded in
// JSON reads as the number instead of an array of ten bytes.
func (p Phone) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// UnmarshalText is ParsePhone.
func (p *Phone) UnmarshalText(b []byte) error {
	v, err := ParsePhone(string(b))
	if err != nil {
		return err
	}
	*p = v
	return nil
}
