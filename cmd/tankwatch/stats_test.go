package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

func TestStatsRebuildCommand(t *testing.T) {
	t.Setenv("TANKWATCH_DATA", t.TempDir())
	t.Setenv("TANKWATCH_DB", "")
	exec := func(args ...string) (string, error) {
		var out, errb bytes.Buffer
		err := run(context.Background(), args, &out, &errb)
		return out.String() + errb.String(), err
	}
	if out, err := exec("stats", "rebuild", "--from", "2026-11-01", "--to", "2026-11-03"); err != nil || !strings.Contains(out, "rebuilt 0 car-days") || !strings.Contains(out, "rebuilt 0 lock and seal car-days") {
		t.Fatalf("rebuild: %q %v", out, err)
	}
	for _, bad := range [][]string{{"stats"}, {"stats", "rebuild"}, {"stats", "rebuild", "--from", "2026-11-01"},
		{"stats", "rebuild", "--from", "2026/11/01", "--to", "2026-11-02"}, {"stats", "rebuild", "--from", "2026-11-03", "--to", "2026-11-01"}} {
		if _, err := exec(bad...); err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
}
