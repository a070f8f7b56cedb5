package jt1078

import (
	"testing"
)

// FuzzStream feeds arbitrary bytes through the splitter and the assembler in uneven reads: nothing
// panics, the splitter's buffer stays bounded, and every packet it returns re-encodes to its own size.
func FuzzStream(f *testing.F) {
	f.Add(stream(f, Edition2016, testFrames("13912345678", 2)), uint8(7))
	f.Add(stream(f, Edition2019, testFrames("13912345678", 2)), uint8(200))
	f.Add([]byte("0100cd\x30\x31\x63\x64\x81\x62\x00\x01"), uint8(1))
	f.Fuzz(func(t *testing.T, b []byte, step uint8) {
		var s Splitter
		var a Assembler
		var frames []Frame
		n := int(step) + 1
		for len(b) > 0 {
			k := min(n, len(b))
			s.Write(b[:k])
			b = b[k:]
			for {
				p, ok := s.Next()
				if !ok {
					break
				}
				enc, err := Append(nil, p)
				if err != nil || len(enc) != p.Consumed {
					t.Fatalf("packet of %d bytes re-encodes to %d (%v)", p.Consumed, len(enc), err)
				}
				frames = a.Push(frames[:0], p)
			}
			if s.Buffered() > 3*maxPacket+n {
				t.Fatalf("splitter holds %d bytes", s.Buffered())
			}
		}
		for {
			p, ok := s.Flush()
			if !ok {
				break
			}
			frames = a.Push(frames[:0], p)
		}
	})
}
