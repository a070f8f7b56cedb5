package jt1078

import (
	"bytes"

	"tankwatch/internal/jt808"
)

// Frame is one whole audio or video frame (or pass-through block) of a channel.
type Frame struct {
	SIM     jt808.Phone
	Channel uint8
	Type    DataType
	PT      uint8
	Time    uint64 // the device's milliseconds
	Data    []byte // owned by the frame: H.264/H.265 Annex B, or audio without a Hisilicon prefix
	// Gap: frames of this kind were lost before this one (a sequence gap, a frame without its start, or
	// an oversize frame). A video viewer must wait for the next I-frame.
	Gap bool
}

// Key reports an I-frame.
func (f Frame) Key() bool { return f.Type == VideoI }

// DefaultMaxFrame bounds a frame being assembled: a device that never sends a last sub-package cannot
// make the assembler grow without end.
const DefaultMaxFrame = 2 << 20

// Assembler joins sub-packages into frames. The sub-package flags alone are not trusted (devices get
// them wrong): a frame also ends when the timestamp, payload type or data type changes, and a frame
// whose packets are not consecutive in sequence is dropped. One assembler serves one stream
// (connection); audio, video and pass-through of each channel are assembled apart.
type Assembler struct {
	MaxFrame int // 0: DefaultMaxFrame
	// Dropped counts frames thrown away (gap, missing start, oversize).
	Dropped int64

	parts map[partKey]*partial
	last  map[uint8]uint16 // last sequence number per channel, any kind (devices with one counter)
}

type kind uint8

const (
	kindVideo kind = iota
	kindAudio
	kindData
)

func kindOf(t DataType) kind {
	switch {
	case t.IsVideo():
		return kindVideo
	case t == Audio:
		return kindAudio
	}
	return kindData
}

type partKey struct {
	channel uint8
	kind    kind
}

type partial struct {
	open    bool // a frame is being assembled
	broken  bool // it lost a packet: drop it when it ends
	gap     bool // the next delivered frame follows lost ones
	haveSeq bool
	seq     uint16 // last sequence number of this kind
	f       Frame
}

// Push takes a packet and appends the frames it completes to dst.
func (a *Assembler) Push(dst []Frame, p Packet) []Frame {
	if a.parts == nil {
		a.parts = map[partKey]*partial{}
		a.last = map[uint8]uint16{}
	}
	k := partKey{p.Channel, kindOf(p.Type)}
	st := a.parts[k]
	if st == nil {
		st = &partial{}
		a.parts[k] = st
	}
	// consecutive under either counting: one counter per kind, or one for the whole channel
	lastAny, seenAny := a.last[p.Channel]
	consecutive := !st.haveSeq || p.Seq == st.seq+1 || (seenAny && p.Seq == lastAny+1)
	st.seq, st.haveSeq = p.Seq, true
	a.last[p.Channel] = p.Seq

	// a gap is checked first: the packets lost may be the end of the open frame (its last sub-package),
	// and a frame closed by the next one's timestamp must not go out without them
	if !consecutive {
		if st.open {
			st.broken = true
		} else {
			st.gap = true
		}
	}
	if st.open && (p.Time != st.f.Time || p.PT != st.f.PT || p.Type != st.f.Type) {
		dst = a.close(dst, st) // a new frame began without the flags saying so
	}
	switch p.Sub {
	case SubAtomic, SubFirst:
		if st.open {
			dst = a.close(dst, st)
		}
		a.start(st, p)
	default: // middle or last
		if !st.open {
			// the start was lost, unless the flags lie and this is a start: video data that opens with an
			// Annex B start code is one
			a.start(st, p)
			if k.kind == kindVideo && !annexB(p.Body) {
				st.broken = true
			}
		} else {
			st.f.Data = append(st.f.Data, p.Body...)
		}
	}
	if len(st.f.Data) > a.maxFrame() {
		st.broken = true
		st.f.Data = st.f.Data[:0]
	}
	if p.Sub == SubAtomic || p.Sub == SubLast {
		dst = a.close(dst, st)
	}
	return dst
}

func (a *Assembler) maxFrame() int {
	if a.MaxFrame > 0 {
		return a.MaxFrame
	}
	return DefaultMaxFrame
}

func (a *Assembler) start(st *partial, p Packet) {
	st.open = true
	st.f = Frame{SIM: p.SIM, Channel: p.Channel, Type: p.Type, PT: p.PT, Time: p.Time,
		Data: append(make([]byte, 0, max(len(p.Body), 1024)), p.Body...)}
}

// close ends the frame being assembled: delivered, or dropped when it lost a packet.
func (a *Assembler) close(dst []Frame, st *partial) []Frame {
	if !st.open {
		return dst
	}
	st.open = false
	if st.broken || len(st.f.Data) == 0 {
		st.broken = false
		st.gap = true
		a.Dropped++
		return dst
	}
	f := st.f
	f.Gap, st.gap = st.gap, false
	if f.Type == Audio {
		f.Data = stripHisi(f.Data)
	}
	return append(dst, f)
}

func annexB(b []byte) bool {
	return bytes.HasPrefix(b, []byte{0, 0, 0, 1}) || bytes.HasPrefix(b, []byte{0, 0, 1})
}

// stripHisi removes the 4-byte Hisilicon audio prefix 00 01 LL 00, LL being the payload's length in
// 16-bit words, that some devices put before each audio frame.
func stripHisi(b []byte) []byte {
	if len(b) >= 4 && b[0] == 0 && b[1] == 1 && b[3] == 0 && int(b[2])*2 == len(b)-4 {
		return b[4:]
	}
	return b
}

// Packetize splits a frame into packets of at most size body bytes (950 when 0), with sequence
// numbers from seq on (the next one is returned). For the simulator and tests.
func Packetize(dst []Packet, f Frame, e Edition, seq uint16, size int, lastI, lastF uint16) ([]Packet, uint16) {
	if size <= 0 || size > MaxBody {
		size = 950
	}
	data := f.Data
	n := (len(data) + size - 1) / size
	if n == 0 {
		n = 1
	}
	for i := range n {
		body := data[min(i*size, len(data)):min((i+1)*size, len(data))]
		sub := SubMiddle
		switch {
		case n == 1:
			sub = SubAtomic
		case i == 0:
			sub = SubFirst
		case i == n-1:
			sub = SubLast
		}
		dst = append(dst, Packet{Edition: e, Marker: i == n-1, PT: f.PT, Seq: seq, SIM: f.SIM, Channel: f.Channel,
			Type: f.Type, Sub: sub, Time: f.Time, LastI: lastI, LastF: lastF, Body: body})
		seq++
	}
	return dst, seq
}
