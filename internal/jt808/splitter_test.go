package jt808

import (
	"bytes"
	"errors"
	"io"
	"testing"
	"testing/iotest"
)

func collect(t *testing.T, r io.Reader, max int) (frames []string, errs []error) {
	t.Helper()
	s := NewSplitter(r, max)
	for range 1000 {
		f, err := s.Next()
		if err == io.EOF {
			return frames, errs
		}
		if err != nil {
			errs = append(errs, err)
			if !errors.Is(err, ErrTooLong) {
				return frames, errs
			}
			continue
		}
		frames = append(frames, string(f))
	}
	t.Fatal("splitter did not end")
	return
}

func TestSplitter(t *testing.T) {
	hb := hx(t, "7e 0002 0000 013800138000 0001 a9 7e")
	inner := string(hb[1 : len(hb)-1])
	var stream []byte
	stream = append(stream, "garbage"...)     // dropped before the first 0x7e
	stream = append(stream, hb...)            // 7e A 7e
	stream = append(stream, hb...)            // 7e A 7e (back to back)
	stream = append(stream, hb[1:]...)        // shared delimiter: A 7e
	stream = append(stream, 0x7e, 0x7e, 0x7e) // empty frames skipped
	stream = append(stream, "junk"...)        // junk frame between delimiters
	stream = append(stream, hb...)            // 7e A 7e
	for _, r := range []io.Reader{
		bytes.NewReader(stream),
		iotest.OneByteReader(bytes.NewReader(stream)),
		iotest.DataErrReader(bytes.NewReader(stream)),
	} {
		frames, errs := collect(t, r, 0)
		want := []string{inner, inner, inner, "junk", inner}
		if len(errs) != 0 || len(frames) != len(want) {
			t.Fatalf("frames %q errs %v", frames, errs)
		}
		for i := range want {
			if frames[i] != want[i] {
				t.Errorf("frame %d = %q, want %q", i, frames[i], want[i])
			}
		}
	}
}

func TestSplitterTooLong(t *testing.T) {
	hb := hx(t, "7e 0002 0000 013800138000 0001 a9 7e")
	var stream []byte
	stream = append(stream, 0x7e)
	stream = append(stream, bytes.Repeat([]byte{1}, 100)...) // no delimiter for 100 bytes
	stream = append(stream, hb...)
	stream = append(stream, 0x7e)
	stream = append(stream, bytes.Repeat([]byte{2}, 40)...) // 40-byte frame, over the cap of 32
	stream = append(stream, 0x7e)
	stream = append(stream, hb...)
	frames, errs := collect(t, iotest.HalfReader(bytes.NewReader(stream)), 32)
	if len(frames) != 2 || len(errs) < 2 {
		t.Fatalf("frames %d errs %v", len(frames), errs)
	}
	for _, f := range frames {
		if _, _, err := DecodeFrame(nil, []byte(f)); err != nil {
			t.Errorf("frame after resync: %v", err)
		}
	}
}

func TestSplitterTruncated(t *testing.T) {
	s := NewSplitter(bytes.NewReader(hx(t, "7e 0002 0000 0138")), 0)
	if _, err := s.Next(); err != io.ErrUnexpectedEOF {
		t.Fatalf("got %v, want unexpected EOF", err)
	}
	s = NewSplitter(iotest.ErrReader(io.ErrClosedPipe), 0)
	if _, err := s.Next(); err != io.ErrClosedPipe {
		t.Fatalf("got %v", err)
	}
}

// TestSplitterGrowsForLongFrames: the buffer starts small (one per connected terminal) and grows for a
// frame longer than it, read in small pieces; the frame comes out whole.
func TestSplitterGrowsForLongFrames(t *testing.T) {
	long := bytes.Repeat([]byte{0x55}, 3000)
	stream := append(append([]byte{0x7e}, long...), 0x7e, 0x7e, 1, 2, 0x7e)
	sp := NewSplitter(iotest.OneByteReader(bytes.NewReader(stream)), 0)
	f, err := sp.Next()
	if err != nil || !bytes.Equal(f, long) {
		t.Fatalf("long frame: %d bytes, %v", len(f), err)
	}
	if f, err := sp.Next(); err != nil || !bytes.Equal(f, []byte{1, 2}) {
		t.Fatalf("next frame: % x, %v", f, err)
	}
}

// TestSplitterRelease: a Splitter that gave its buffer back between reads (what the gateway does with
// an idle terminal's) cuts the same frames, also when a frame's closing 0x7e opens the next (shared
// delimiter) or a frame arrives in pieces; Release keeps bytes not yet cut.
func TestSplitterRelease(t *testing.T) {
	hb := hx(t, "7e 0002 0000 013800138000 0001 a9 7e")
	inner := string(hb[1 : len(hb)-1])
	chunks := [][]byte{hb, hb[1:], hb[:5], hb[5:], append(append([]byte{}, hb...), hb[1:4]...), hb[4:]}
	r, w := io.Pipe()
	go func() {
		for _, c := range chunks {
			_, _ = w.Write(c)
		}
		_ = w.Close()
	}()
	s := NewSplitter(r, 0)
	var got []string
	for {
		if s.Idle() {
			s.Release()
			if s.buf != nil {
				t.Fatal("an idle Splitter kept its buffer after Release")
			}
		}
		f, err := s.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(f))
		if !s.Idle() {
			held := s.end - s.start
			s.Release() // bytes of the next frame are held: nothing may be dropped
			if s.end-s.start != held {
				t.Fatal("Release dropped bytes not yet cut")
			}
		}
	}
	if len(got) != 5 {
		t.Fatalf("%d frames, want 5: %q", len(got), got)
	}
	for i, f := range got {
		if f != inner {
			t.Errorf("frame %d = %x", i, f)
		}
	}
}

// TestSplitterFilled: what the gateway does — while the Splitter is idle the caller reads into Space
// and reports with Filled (giving the buffer back with Release when the read found nothing), and the
// rest of a frame that came in pieces is read by the Splitter itself — cuts the same frames whatever
// the pieces; the end of the stream or an error comes after the frames before it.
func TestSplitterFilled(t *testing.T) {
	hb := hx(t, "7e 0002 0000 013800138000 0001 a9 7e")
	inner := string(hb[1 : len(hb)-1])
	two := append(append([]byte{}, hb...), hb...)
	var bytewise [][]byte
	for i := range hb {
		bytewise = append(bytewise, hb[i:i+1])
	}
	for _, tc := range []struct {
		name   string
		chunks [][]byte // nil: a read that found nothing (EAGAIN)
		end    error
		want   []string
		err    error
	}{
		{"one frame", [][]byte{hb}, io.EOF, []string{inner}, io.EOF},
		{"two frames in one read", [][]byte{two}, io.EOF, []string{inner, inner}, io.EOF},
		{"shared delimiter", [][]byte{hb, hb[1:]}, io.EOF, []string{inner, inner}, io.EOF},
		{"frame in many pieces", bytewise, io.EOF, []string{inner}, io.EOF},
		{"one and a half, then the rest", [][]byte{two[:len(hb)+5], two[len(hb)+5:]}, io.EOF, []string{inner, inner}, io.EOF},
		{"nothing yet, then frames", [][]byte{nil, nil, hb, nil, hb}, io.EOF, []string{inner, inner}, io.EOF},
		{"cut short", [][]byte{hb, hb[:6]}, io.EOF, []string{inner}, io.ErrUnexpectedEOF},
		{"read error after a frame", [][]byte{hb}, io.ErrClosedPipe, []string{inner}, io.ErrClosedPipe},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := &chunkReader{chunks: tc.chunks, end: tc.end}
			s := NewSplitter(q, 0)
			var got []string
			for {
				if s.Idle() {
					s.Release()
					for {
						room := s.Space()
						c, err := q.next()
						if c == nil && err == nil {
							s.Release()
							if s.buf != nil {
								t.Fatal("Release after a read that found nothing kept the buffer")
							}
							continue
						}
						s.Filled(copy(room, c), err)
						break
					}
				}
				f, err := s.Next()
				if err != nil {
					if !errors.Is(err, tc.err) {
						t.Fatalf("err %v, want %v", err, tc.err)
					}
					break
				}
				got = append(got, string(f))
			}
			if len(got) != len(tc.want) {
				t.Fatalf("frames %q, want %q", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("frame %d = %q, want %q", i, got[i], tc.want[i])
				}
			}
		})
	}
}

// chunkReader hands out one chunk per read, then end; nil chunks are reads that found nothing.
type chunkReader struct {
	chunks [][]byte
	end    error
}

func (r *chunkReader) next() ([]byte, error) {
	if len(r.chunks) == 0 {
		return nil, r.end
	}
	c := r.chunks[0]
	r.chunks = r.chunks[1:]
	return c, nil
}

func (r *chunkReader) Read(p []byte) (int, error) {
	for {
		c, err := r.next()
		if c == nil && err == nil {
			continue // the Splitter's own read waits, as a socket's does
		}
		return copy(p, c), err
	}
}

// TestSplitterPeek: Peek names what Next returns without reading, and says when Next would read: fed
// in any pieces, a stream cut by Peek-then-Next (never letting Next read) gives what Next alone gives.
func TestSplitterPeek(t *testing.T) {
	hb := hx(t, "7e 0002 0000 013800138000 0001 a9 7e")
	var stream []byte
	stream = append(stream, "garbage"...)
	stream = append(stream, hb...)
	stream = append(stream, hb...)
	stream = append(stream, hb[1:]...)
	stream = append(stream, 0x7e, 0x7e, 0x7e)
	stream = append(stream, "junk"...)
	stream = append(stream, 0x7e)
	stream = append(stream, bytes.Repeat([]byte{1}, 40)...) // over the maximum of 32 below
	stream = append(stream, hb...)
	stream = append(stream, bytes.Repeat([]byte{2}, 40)...) // over the maximum without a delimiter
	stream = append(stream, hb...)
	stream = append(stream, hb[:5]...) // cut short by the end
	want, wantErrs := collect(t, bytes.NewReader(stream), 32)
	for _, size := range []int{1, 2, 3, 7, 16, 64, len(stream)} {
		s := NewSplitter(mustNotRead{t}, 32)
		var got []string
		var errs []error
		fed := 0
		for range 10000 {
			f, whole := s.Peek()
			if !whole {
				if fed == len(stream) {
					s.Filled(0, io.EOF)
					continue
				}
				n := copy(s.Space(), stream[fed:min(fed+size, len(stream))])
				s.Filled(n, nil)
				fed += n
				continue
			}
			next, err := s.Next()
			if f != nil && (err != nil || !bytes.Equal(f, next)) {
				t.Fatalf("pieces of %d: Peek gave %q, Next %q, %v", size, f, next, err)
			}
			if f == nil && err == nil {
				t.Fatalf("pieces of %d: Peek said an error comes, Next gave %q", size, next)
			}
			if err == io.EOF {
				break
			}
			if err != nil {
				errs = append(errs, err)
				if !errors.Is(err, ErrTooLong) {
					break
				}
				continue
			}
			got = append(got, string(next))
		}
		if len(got) != len(want) || len(errs) != len(wantErrs) {
			t.Fatalf("pieces of %d: frames %q errs %v; Next alone: %q %v", size, got, errs, want, wantErrs)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("pieces of %d: frame %d = %q, want %q", size, i, got[i], want[i])
			}
		}
	}
}

// mustNotRead fails a test whose Splitter reads after Peek said it would not.
type mustNotRead struct{ t *testing.T }

func (r mustNotRead) Read([]byte) (int, error) {
	r.t.Fatal("Next read after Peek said the frame was whole")
	return 0, nil
}
