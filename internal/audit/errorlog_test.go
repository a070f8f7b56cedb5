package audit

import (
	"testing"
	"time"
)

func TestErrorReportLimiter(t *testing.T) {
	var l errLimiter
	now := time.Date(2026, 1, 1, 0, 0, 10, 0, time.UTC)
	for i := 0; i < errorsPerMinute; i++ {
		if !l.allow("10.0.0.1", now) {
			t.Fatalf("refused report %d", i)
		}
	}
	if l.allow("10.0.0.1", now) {
		t.Fatal("report over the limit accepted")
	}
	if !l.allow("10.0.0.2", now) {
		t.Fatal("another address limited")
	}
	if !l.allow("10.0.0.1", now.Add(time.Minute)) {
		t.Fatal("still limited in the next minute")
	}
}

func TestClip(t *testing.T) {
	s := clip(string(make([]byte, 5000)) + "\xff")
	if len(s) != maxErrorField {
		t.Fatalf("len %d", len(s))
	}
	if c := clip("界界界"); c != "界界界" {
		t.Fatal(c)
	}
}
