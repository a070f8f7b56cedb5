// Package jt1078 is the JT/T 1078 media stream: the packet codec (both header editions), a stream
// splitter that resynchronises on the magic, and the frame assembler that turns sub-packages into
// whole audio and video frames. It is pure: no sockets, no clocks (DESIGN.md §3; the facts it follows
// are in ../shared/reference/jt1078-facts.md).
package jt1078

import (
	"encoding/binary"
	"errors"
	"fmt"

	"tankwatch/internal/jt808"
)

// Magic opens every packet.
var Magic = [4]byte{0x30, 0x31, 0x63, 0x64}

// Edition is the header layout: the 2016 edition carries the SIM as BCD[6], the 2019 edition as BCD[10].
type Edition uint8

const (
	Edition2016 Edition = 1
	Edition2019 Edition = 2
)

func (e Edition) String() string {
	switch e {
	case Edition2016:
		return "2016"
	case Edition2019:
		return "2019"
	}
	return "unknown"
}

func (e Edition) simLen() int {
	if e == Edition2019 {
		return 10
	}
	return 6
}

// DataType is the packet's media kind (high nibble of byte 15/19).
type DataType uint8

const (
	VideoI      DataType = 0
	VideoP      DataType = 1
	VideoB      DataType = 2
	Audio       DataType = 3
	PassThrough DataType = 4
)

// IsVideo reports an I, P or B frame.
func (d DataType) IsVideo() bool { return d <= VideoB }

// Sub-package flags (low nibble of the same byte).
const (
	SubAtomic uint8 = 0
	SubFirst  uint8 = 1
	SubLast   uint8 = 2
	SubMiddle uint8 = 3
)

// Payload types (the PT field).
const (
	PTG711A uint8 = 6
	PTG711U uint8 = 7
	PTG726  uint8 = 8
	PTAAC   uint8 = 19
	PTMP3   uint8 = 25
	PTH264  uint8 = 98
	PTH265  uint8 = 99
)

// MaxBody is the largest body a packet may declare. The standard says 950 bytes; devices are seen
// sending up to about 1 KiB, so anything up to 1400 (one Ethernet payload) is accepted and larger is a
// framing error, which bounds what a lying length can make the splitter wait for.
const MaxBody = 1400

// Packet is one JT/T 1078 RTP packet. Body aliases the input buffer when decoded.
type Packet struct {
	Edition  Edition
	Marker   bool  // M: the last packet of a frame (not trusted on its own)
	PT       uint8 // payload type
	Seq      uint16
	SIM      jt808.Phone
	Channel  uint8
	Type     DataType
	Sub      uint8  // sub-package flag
	Time     uint64 // milliseconds, the device's clock; absent (0) for pass-through
	LastI    uint16 // ms since the last I-frame (video only)
	LastF    uint16 // ms since the last frame (video only)
	Body     []byte
	Consumed int // bytes the packet took in the input (header + body)
}

// Errors of Decode. ErrShort means more bytes are needed; the others mean the bytes at this position
// are not a packet (the splitter resynchronises).
var (
	ErrShort = errors.New("jt1078: short packet")
	ErrMagic = errors.New("jt1078: no magic")
	ErrField = errors.New("jt1078: invalid header field")
)

// HeaderLen is the header size of a packet of data type t in edition e.
func HeaderLen(e Edition, t DataType) int {
	n := 4 + 1 + 1 + 2 + e.simLen() + 1 + 1 // magic, V/P/X/CC, M/PT, seq, SIM, channel, type+sub
	if t != PassThrough {
		n += 8 // timestamp
	}
	if t.IsVideo() {
		n += 4 // last-I and last-frame intervals
	}
	return n + 2 // body length
}

// Decode reads one packet of edition e at the start of b.
func Decode(b []byte, e Edition) (Packet, error) {
	var p Packet
	sl := e.simLen()
	if len(b) < 4 {
		return p, ErrShort
	}
	if [4]byte(b[:4]) != Magic {
		return p, ErrMagic
	}
	if len(b) < 8+sl+2 {
		return p, ErrShort
	}
	if b[4]>>6 != 2 { // RTP version 2
		return p, fmt.Errorf("%w: version %d", ErrField, b[4]>>6)
	}
	p.Edition = e
	p.Marker = b[5]&0x80 != 0
	p.PT = b[5] & 0x7f
	p.Seq = binary.BigEndian.Uint16(b[6:8])
	sim := b[8 : 8+sl]
	for _, c := range sim {
		if c>>4 > 9 || c&0x0f > 9 {
			return p, fmt.Errorf("%w: SIM %X is not BCD", ErrField, sim)
		}
	}
	copy(p.SIM[10-sl:], sim)
	i := 8 + sl
	p.Channel = b[i]
	p.Type = DataType(b[i+1] >> 4)
	p.Sub = b[i+1] & 0x0f
	if p.Type > PassThrough || p.Sub > SubMiddle {
		return p, fmt.Errorf("%w: data type %d, sub-package flag %d", ErrField, p.Type, p.Sub)
	}
	hl := HeaderLen(e, p.Type)
	if len(b) < hl {
		return p, ErrShort
	}
	i += 2
	if p.Type != PassThrough {
		p.Time = binary.BigEndian.Uint64(b[i:])
		i += 8
	}
	if p.Type.IsVideo() {
		p.LastI = binary.BigEndian.Uint16(b[i:])
		p.LastF = binary.BigEndian.Uint16(b[i+2:])
		i += 4
	}
	n := int(binary.BigEndian.Uint16(b[i:]))
	if n > MaxBody {
		return p, fmt.Errorf("%w: body of %d bytes", ErrField, n)
	}
	if len(b) < hl+n {
		return p, ErrShort
	}
	p.Body = b[hl : hl+n]
	p.Consumed = hl + n
	return p, nil
}

// Append encodes p (in p.Edition, 2016 when unset) after dst.
func Append(dst []byte, p Packet) ([]byte, error) {
	e := p.Edition
	if e == 0 {
		e = Edition2016
	}
	if len(p.Body) > MaxBody {
		return dst, fmt.Errorf("%w: body of %d bytes", ErrField, len(p.Body))
	}
	if p.Type > PassThrough || p.Sub > SubMiddle || p.PT > 0x7f {
		return dst, fmt.Errorf("%w: data type %d, sub-package flag %d, payload type %d", ErrField, p.Type, p.Sub, p.PT)
	}
	sl := e.simLen()
	if e == Edition2016 && p.SIM[0]|p.SIM[1]|p.SIM[2]|p.SIM[3] != 0 {
		return dst, fmt.Errorf("%w: SIM %s has more than 12 digits for a 2016 header", ErrField, p.SIM)
	}
	m := p.PT
	if p.Marker {
		m |= 0x80
	}
	dst = append(dst, Magic[:]...)
	dst = append(dst, 0x81, m) // V=2, P=0, X=0, CC=1
	dst = binary.BigEndian.AppendUint16(dst, p.Seq)
	dst = append(dst, p.SIM[10-sl:]...)
	dst = append(dst, p.Channel, byte(p.Type)<<4|p.Sub)
	if p.Type != PassThrough {
		dst = binary.BigEndian.AppendUint64(dst, p.Time)
	}
	if p.Type.IsVideo() {
		dst = binary.BigEndian.AppendUint16(dst, p.LastI)
		dst = binary.BigEndian.AppendUint16(dst, p.LastF)
	}
	dst = binary.BigEndian.AppendUint16(dst, uint16(len(p.Body)))
	return append(dst, p.Body...), nil
}
