package jt1078

import (
	"bytes"
	"errors"
)

// maxPacket is the largest packet: a 2019 video header and the largest body.
var maxPacket = HeaderLen(Edition2019, VideoI) + MaxBody

// Splitter cuts a media connection's byte stream into packets. It learns the header edition from the
// stream (a packet is believed when the next packet's magic follows it), keeps it while packets keep
// decoding, and resynchronises on the magic after garbage, a lying length or a change of edition.
// Bodies of returned packets alias the splitter's buffer: they are valid until the next Write.
type Splitter struct {
	buf     []byte
	off     int
	edition Edition
	// Skipped counts bytes thrown away while resynchronising; Resyncs the times it happened.
	Skipped, Resyncs int64
}

// Edition is the header edition learnt so far (0 before the first packet is confirmed).
func (s *Splitter) Edition() Edition { return s.edition }

// Write adds bytes read from the connection.
func (s *Splitter) Write(b []byte) {
	if s.off > 0 {
		n := copy(s.buf, s.buf[s.off:])
		s.buf = s.buf[:n]
		s.off = 0
	}
	s.buf = append(s.buf, b...)
}

// Buffered is the number of bytes waiting for the rest of a packet.
func (s *Splitter) Buffered() int { return len(s.buf) - s.off }

// Next returns the next whole packet, or false when more bytes are needed.
func (s *Splitter) Next() (Packet, bool) { return s.next(false) }

// Flush is Next at the end of the stream: the end of the input confirms a last packet that no magic
// follows.
func (s *Splitter) Flush() (Packet, bool) { return s.next(true) }

func (s *Splitter) next(final bool) (Packet, bool) {
	for {
		b := s.buf[s.off:]
		if len(b) < 4 {
			return Packet{}, false
		}
		if [4]byte(b[:4]) != Magic {
			s.resync(b)
			continue
		}
		if s.edition != 0 {
			p, err := Decode(b, s.edition)
			if errors.Is(err, ErrShort) {
				return Packet{}, false
			}
			// a known edition is trusted until a packet fails to decode or the bytes after it are not a
			// packet's start; then the edition is learnt again
			if err == nil && followed(b, p.Consumed) != wrong {
				s.off += p.Consumed
				return p, true
			}
			s.edition = 0
		}
		p, e, state := s.detect(b, final)
		switch state {
		case found:
			s.edition = e
			s.off += p.Consumed
			return p, true
		case pending:
			if len(b) <= 2*maxPacket {
				return Packet{}, false
			}
		}
		// not a packet at this magic: look for the next one
		s.Skipped++
		s.off++
	}
}

type verdict int

const (
	wrong verdict = iota
	pending
	found
)

// followed tells whether the packet of n bytes at the start of b is followed by a magic (found), by too
// few bytes to tell (pending) or by something else (wrong).
func followed(b []byte, n int) verdict {
	rest := b[n:]
	if len(rest) < 4 {
		if bytes.HasPrefix(Magic[:], rest) {
			return pending
		}
		return wrong
	}
	if [4]byte(rest[:4]) == Magic {
		return found
	}
	return wrong
}

// detect decodes b in both editions and keeps the one the next magic confirms.
func (s *Splitter) detect(b []byte, final bool) (Packet, Edition, verdict) {
	best, bestE, bestV := Packet{}, Edition(0), wrong
	for _, e := range [...]Edition{Edition2016, Edition2019} {
		p, err := Decode(b, e)
		v := wrong
		switch {
		case errors.Is(err, ErrShort):
			v = pending
		case err == nil:
			v = followed(b, p.Consumed)
			if v == pending && final && len(b) == p.Consumed {
				v = found
			}
		}
		if v > bestV {
			best, bestE, bestV = p, e, v
		}
	}
	if bestV == pending && final {
		bestV = wrong
	}
	return best, bestE, bestV
}

// resync drops bytes up to the next magic (keeping a tail that may be the start of one).
func (s *Splitter) resync(b []byte) {
	s.Resyncs++
	if i := bytes.Index(b[1:], Magic[:]); i >= 0 {
		s.Skipped += int64(i + 1)
		s.off += i + 1
		return
	}
	keep := 3
	for ; keep > 0; keep-- {
		if bytes.HasPrefix(Magic[:], b[len(b)-keep:]) {
			break
		}
	}
	drop := len(b) - keep
	s.Skipped += int64(drop)
	s.off += drop
}
