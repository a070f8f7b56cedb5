// Package jt808 is a pure codec for JT/T 808 (2011, 2013, 2019) terminal
// messages and the JT/T 1078 video signalling commands carried over them.
//
// It does no networking. The layers are:
//
//   - Splitter cuts a byte stream into escaped frames between 0x7e delimiters.
//   - Unescape / DecodeFrame turn one escaped frame into a Frame (Header + Body),
//     checking the XOR checksum; AppendFrame / AppendMessage build frames.
//   - Reassembler joins sub-packaged messages and reports missing packets for 0x8003.
//   - One type per message with DecodeBody / AppendBody (the Message interface).
//
// Decoders never panic on any input; they return errors wrapping the sentinel
// errors below. Decoded byte slices (Frame.Body, Item.Value, PassThrough.Data…)
// alias the input buffer: copy them if the buffer is reused.
package jt808

import (
	"errors"
	"fmt"
)

// Sentinel errors. Returned errors wrap one of these with context; test with errors.Is.
var (
	ErrShort          = errors.New("jt808: data too short")
	ErrTooLong        = errors.New("jt808: too long")
	ErrChecksum       = errors.New("jt808: checksum mismatch")
	ErrEscape         = errors.New("jt808: bad escape sequence")
	ErrBodyLength     = errors.New("jt808: body length does not match header")
	ErrUnknownVersion = errors.New("jt808: unknown protocol version")
	ErrBCD            = errors.New("jt808: invalid BCD")
	ErrTime           = errors.New("jt808: invalid time")
	ErrPhone          = errors.New("jt808: invalid terminal phone number")
	ErrRange          = errors.New("jt808: value out of range")
	ErrSubpackage     = errors.New("jt808: invalid sub-package")
	ErrUnsupported    = errors.New("jt808: unsupported content")
	ErrEncoding       = errors.New("jt808: string not representable in GBK")
)

// Cut records the last entry of a list that the device cut short: the body ends inside its header or
// before the value length its header declares. Real terminals do this (a fixed buffer, a firmware that
// counts an item it then leaves out). The lenient lists — additional items of 0x0200 (also inside
// 0x0704 and 0x0500), positions of 0x0704 and parameters of 0x0104 — keep every entry before it, drop
// it and record it here instead of failing: a position is not lost for a broken last item. Callers log
// and count a Cut (Err describes it).
type Cut struct {
	Short bool   // an entry was cut short and dropped; the other fields are zero otherwise
	Index int    // its place in the list: the number of entries decoded before it
	ID    uint32 // its item or parameter ID, when that much of it arrived
	Want  int    // value length its header declared; -1 when the header itself was cut short
	Have  int    // bytes of it that arrived
}

// Err returns nil for no cut, else an error wrapping ErrShort that names the dropped entry.
func (c Cut) Err(what string) error {
	switch {
	case !c.Short:
		return nil
	case c.Want < 0:
		return fmt.Errorf("%s: %w: entry %d cut short in its header (%d bytes); dropped, the entries before it kept",
			what, ErrShort, c.Index, c.Have)
	}
	id := ""
	if c.ID != 0 { // 0 is no item or parameter of the standard: a 0x0704 position has no ID
		id = fmt.Sprintf(" (ID 0x%02x)", c.ID)
	}
	return fmt.Errorf("%s: %w: entry %d%s declares %d bytes, %d arrived; dropped, the entries before it kept",
		what, ErrShort, c.Index, id, c.Want, c.Have)
}
