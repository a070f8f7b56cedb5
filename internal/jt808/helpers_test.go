package jt808

import (
	"encoding/hex"
	"strings"
	"testing"
)

// hx decodes hex written with spaces, newlines and '#' comments to end of line.
func hx(t testing.TB, s string) []byte {
	t.Helper()
	var sb strings.Builder
	for line := range strings.SplitSeq(s, "\n") {
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		sb.WriteString(strings.Join(strings.Fields(line), ""))
	}
	b, err := hex.DecodeString(sb.String())
	if err != nil {
		t.Fatalf("bad hex in test: %v", err)
	}
	return b
}

var testPhone = MustPhone("13800138000")
