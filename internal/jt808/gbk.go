package jt808

import (
	"bytes"
	"fmt"
	"unicode/utf8"

	"golang.org/x/text/encoding/simplifiedchinese"
)

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// DecodeGBK converts GBK bytes (plates, names) to a UTF-8 string. Invalid
// sequences become U+FFFD. ASCII input takes a fast path.
func DecodeGBK(b []byte) string {
	if isASCII(b) {
		return string(b)
	}
	out, err := simplifiedchinese.GBK.NewDecoder().Bytes(b)
	if err != nil { // not expected: the decoder replaces invalid input
		return string(bytes.ToValidUTF8(b, []byte("\uFFFD")))
	}
	return string(out)
}

// AppendGBK appends s converted to GBK. A character GBK cannot represent is ErrEncoding.
func AppendGBK(dst []byte, s string) ([]byte, error) {
	if isASCII([]byte(s)) {
		return append(dst, s...), nil
	}
	out, err := simplifiedchinese.GBK.NewEncoder().String(s)
	if err != nil {
		return dst, fmt.Errorf("%w: %q", ErrEncoding, s)
	}
	return append(dst, out...), nil
}

// decodeFixed decodes a fixed-width GBK field padded with trailing 0x00.
func decodeFixed(b []byte) string {
	return DecodeGBK(bytes.TrimRight(b, "\x00"))
}

// appendFixed appends s as GBK padded with 0x00 to exactly n bytes.
func appendFixed(dst []byte, s string, n int, field string) ([]byte, error) {
	start := len(dst)
	dst, err := AppendGBK(dst, s)
	if err != nil {
		return dst[:start], fmt.Errorf("%s: %w", field, err)
	}
	if len(dst)-start > n {
		return dst[:start], fmt.Errorf("%w: %s is %d bytes, field holds %d", ErrRange, field, len(dst)-start, n)
	}
	for len(dst)-start < n {
		dst = append(dst, 0)
	}
	return dst, nil
}
