package jt808

import (
	"bytes"
	"fmt"
	"io"
	"sync"
)

// DefaultMaxFrame caps one escaped frame (delimiters excluded): a 1023-byte body
// with a 21-byte header, all escaped, fits in 2 KiB; 4 KiB leaves room for
// sloppy devices.
const DefaultMaxFrame = 4096

// Splitter cuts a byte stream into escaped frames between 0x7e delimiters.
//
// Every 0x7e is a boundary, so both "7e A 7e 7e B 7e" and the shared-delimiter
// form "7e A 7e B 7e" work. Bytes before the first 0x7e are dropped; garbage
// between frames comes out as a candidate frame that fails DecodeFrame, after
// which the stream is in step again. A run longer than the maximum without a
// 0x7e yields an error wrapping ErrTooLong and is skipped up to the next 0x7e;
// Next can be called again after it.
type Splitter struct {
	r      io.Reader
	buf    []byte
	pooled *[]byte // buf's handle in splitBufs, kept so that Release does not allocate one
	cursor
	max     int
	err     error
	Dropped int64 // bytes discarded outside frames or in over-long runs
}

// cursor is where a Splitter stands in its buffer; Peek cuts on a copy of it.
type cursor struct {
	start int  // first byte of the current frame (or of unscanned data)
	scan  int  // bytes before scan are known not to be 0x7e
	end   int  // end of valid data
	open  bool // a 0x7e was seen and start is just after it
	skip  bool // dropping an over-long run until the next 0x7e
}

// NewSplitter returns a Splitter reading from r with the given maximum
// escaped frame size (≤ 0 means DefaultMaxFrame).
func NewSplitter(r io.Reader, maxFrame int) *Splitter {
	if maxFrame <= 0 {
		maxFrame = DefaultMaxFrame
	}
	return &Splitter{r: r, max: maxFrame}
}

// initialBuffer is where a Splitter's buffer starts: most frames are well under 512 bytes, and a
// gateway holds one Splitter per connected terminal, so the buffer grows (to maxFrame + 4 KiB) only
// for the terminals that need it.
const initialBuffer = 512

// splitBufs holds the buffers of Splitters that had nothing left to cut (Release): a gateway's
// thousands of terminals are idle most of the time, and an idle one need not keep a buffer.
var splitBufs = sync.Pool{New: func() any { b := make([]byte, initialBuffer); return &b }}

// Idle reports whether the Splitter holds no bytes that were read and not yet cut into frames.
func (s *Splitter) Idle() bool { return s.start == s.end }

// Release gives an idle Splitter's buffer back (to a pool shared by all Splitters) so that nothing is
// held while the caller waits for the next bytes; Next takes a buffer again when it must read. It does
// nothing when the Splitter is not Idle. The last frame returned by Next is invalid after it.
func (s *Splitter) Release() {
	if s.start != s.end || s.buf == nil {
		return
	}
	if s.pooled != nil {
		splitBufs.Put(s.pooled)
	} // a grown buffer is left to the collector: rare, and the pool's buffers stay one size
	s.buf, s.pooled, s.start, s.scan, s.end = nil, nil, 0, 0, 0
}

// Next returns the next escaped frame without its delimiters. The slice is
// valid until the next call. At the end of the stream it returns io.EOF, or
// io.ErrUnexpectedEOF if a frame was cut short; read errors are returned as is.
func (s *Splitter) Next() ([]byte, error) {
	for {
		frame, more, err := s.cut(s.buf, s.max, &s.Dropped)
		if !more {
			return frame, err
		}
		if s.err != nil {
			err := s.err
			if err == io.EOF && s.open && s.end > s.start {
				err = io.ErrUnexpectedEOF
			}
			s.start, s.scan, s.end = 0, 0, 0
			s.open = false
			return nil, err
		}
		s.fill()
	}
}

// Peek returns the frame Next would return next, without cutting it, and whether Next would return
// without reading: whole and a frame, that frame; whole and nil, an error (a frame over the maximum, or
// the end or error of the stream); not whole, Next would read first. The gateway's reactor loop serves a
// session only as long as no read may wait (gateway.session.serveInline).
func (s *Splitter) Peek() (frame []byte, whole bool) {
	c := s.cursor
	var dropped int64
	frame, more, err := c.cut(s.buf, s.max, &dropped)
	switch {
	case more:
		return nil, s.err != nil
	case err != nil:
		return nil, true
	}
	return frame, true
}

// cut moves c to the next frame in buf and returns it, or an error wrapping ErrTooLong; more when
// buf holds no more of either (the bytes before are dropped, counted in dropped, when outside a frame).
func (c *cursor) cut(buf []byte, max int, dropped *int64) (frame []byte, more bool, err error) {
	for {
		if c.skip {
			if i := bytes.IndexByte(buf[c.start:c.end], 0x7e); i >= 0 {
				*dropped += int64(i)
				c.start += i + 1
				c.scan = c.start
				c.skip = false
				c.open = true
				continue
			}
			*dropped += int64(c.end - c.start)
			c.start, c.scan, c.end = 0, 0, 0
		} else if !c.open {
			if i := bytes.IndexByte(buf[c.start:c.end], 0x7e); i >= 0 {
				*dropped += int64(i)
				c.start += i + 1
				c.scan = c.start
				c.open = true
				continue
			}
			*dropped += int64(c.end - c.start)
			c.start, c.scan, c.end = 0, 0, 0
		} else {
			if i := bytes.IndexByte(buf[c.scan:c.end], 0x7e); i >= 0 {
				frame := buf[c.start : c.scan+i]
				c.start = c.scan + i + 1
				c.scan = c.start
				if len(frame) == 0 {
					continue // "7e 7e": end of one frame, start of the next
				}
				if len(frame) > max {
					*dropped += int64(len(frame))
					return nil, false, fmt.Errorf("%w: frame of %d bytes (max %d)", ErrTooLong, len(frame), max)
				}
				return frame, false, nil
			}
			c.scan = c.end
			if c.end-c.start > max {
				*dropped += int64(c.end - c.start)
				c.start, c.scan, c.end = 0, 0, 0
				c.open, c.skip = false, true
				return nil, false, fmt.Errorf("%w: no delimiter within %d bytes", ErrTooLong, max)
			}
		}
		return nil, true, nil
	}
}

// Space returns the free room at the end of the Splitter's buffer, taking a buffer from the pool when it
// has none, for a caller that reads the next bytes itself and reports them with Filled. The gateway
// reads inside the socket's readiness callback: one read system call per frame instead of a wait for
// readiness followed by a read, and still no buffer held while it waits (Release after a read that
// found nothing).
func (s *Splitter) Space() []byte {
	s.prepare()
	return s.buf[s.end:]
}

// Filled records n bytes read into the slice Space returned, and err (io.EOF at the end of the
// stream, or a read error), which Next returns once the bytes before it are cut.
func (s *Splitter) Filled(n int, err error) {
	if n < 0 || n > len(s.buf)-s.end {
		s.err = fmt.Errorf("jt808: reader returned invalid count %d", n)
		return
	}
	s.end += n
	if err != nil {
		s.err = err
	}
}

// fill compacts the buffer and reads more data.
func (s *Splitter) fill() {
	s.prepare()
	for range 100 {
		n, err := s.r.Read(s.buf[s.end:])
		s.Filled(n, err)
		if s.err != nil || n > 0 {
			return
		}
	}
	s.err = io.ErrNoProgress
}

// prepare makes room after end: a buffer from the pool, the bytes not yet cut moved to its start, and
// a bigger buffer when a frame fills it.
func (s *Splitter) prepare() {
	if s.buf == nil {
		s.pooled = splitBufs.Get().(*[]byte)
		s.buf = *s.pooled
	}
	if s.start > 0 {
		n := copy(s.buf, s.buf[s.start:s.end])
		s.scan -= s.start
		s.end = n
		s.start = 0
	}
	if limit := s.max + 4096; s.end == len(s.buf) && len(s.buf) < limit {
		grown := make([]byte, min(2*len(s.buf), limit))
		copy(grown, s.buf[:s.end])
		s.buf, s.pooled = grown, nil
	}
}
