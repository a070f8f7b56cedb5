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

import "errors"

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
