package flv

import "errors"

// ADTS is one AAC frame from an ADTS stream.
type ADTS struct {
	Config []byte // AudioSpecificConfig (2 bytes)
	Raw    []byte // the frame without its ADTS header
}

// ErrADTS means the bytes are not an ADTS stream.
var ErrADTS = errors.New("flv: not an ADTS AAC frame")

// SplitADTS returns the AAC frames of an ADTS byte stream (several frames may share one 1078 frame).
func SplitADTS(b []byte) ([]ADTS, error) {
	var out []ADTS
	for len(b) > 0 {
		if len(b) < 7 || b[0] != 0xff || b[1]&0xf6 != 0xf0 {
			return out, ErrADTS
		}
		hl := 7
		if b[1]&1 == 0 { // protection absent = 0: a CRC follows
			hl = 9
		}
		n := int(b[3]&3)<<11 | int(b[4])<<3 | int(b[5])>>5
		if n < hl || n > len(b) {
			return out, ErrADTS
		}
		objType := b[2]>>6 + 1
		freq := b[2] >> 2 & 0x0f
		ch := (b[2]&1)<<2 | b[3]>>6
		if freq > 12 {
			return out, ErrADTS
		}
		cfg := []byte{objType<<3 | freq>>1, freq<<7 | ch<<3}
		out = append(out, ADTS{Config: cfg, Raw: b[hl:n]})
		b = b[n:]
	}
	return out, nil
}
