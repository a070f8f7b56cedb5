package flv

import "errors"

// H.264 NAL unit types the muxer looks at.
const (
	nalNonIDR = 1
	nalIDR    = 5
	nalSEI    = 6
	nalSPS    = 7
	nalPPS    = 8
	nalAUD    = 9
)

// SplitAnnexB returns the NAL units of an Annex B byte stream (start codes 00 00 01 or 00 00 00 01),
// without their start codes. Bytes before the first start code are ignored.
func SplitAnnexB(b []byte) [][]byte {
	var out [][]byte
	start := -1
	i := 0
	for i+2 < len(b) {
		if b[i] == 0 && b[i+1] == 0 && b[i+2] == 1 {
			if start >= 0 {
				end := i
				if end > start && b[end-1] == 0 { // the 4-byte start code's leading zero
					end--
				}
				if end > start {
					out = append(out, b[start:end])
				}
			}
			i += 3
			start = i
			continue
		}
		i++
	}
	if start >= 0 && start < len(b) {
		out = append(out, b[start:])
	}
	return out
}

// nalType is the type of a NAL unit (its first byte's low five bits).
func nalType(n []byte) byte {
	if len(n) == 0 {
		return 0
	}
	return n[0] & 0x1f
}

// ErrNoConfig means an H.264 stream has not yet sent the SPS and PPS a decoder needs.
var ErrNoConfig = errors.New("flv: no SPS/PPS yet")

// AVCConfig is the AVCDecoderConfigurationRecord (ISO/IEC 14496-15) for one SPS and one PPS, the FLV
// sequence header's body.
func AVCConfig(sps, pps []byte) ([]byte, error) {
	if len(sps) < 4 || len(pps) < 1 || len(sps) > 0xffff || len(pps) > 0xffff {
		return nil, ErrNoConfig
	}
	b := []byte{1, sps[1], sps[2], sps[3], 0xff, 0xe1, byte(len(sps) >> 8), byte(len(sps))}
	b = append(b, sps...)
	b = append(b, 1, byte(len(pps)>>8), byte(len(pps)))
	return append(b, pps...), nil
}
