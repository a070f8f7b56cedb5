package main

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"
)

func TestCommands(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TANKWATCH_DATA", dir)
	t.Setenv("TANKWATCH_DB", "")
	ctx := context.Background()
	exec := func(args ...string) (string, error) {
		var out, errb bytes.Buffer
		err := run(ctx, args, &out, &errb)
		return out.String() + errb.String(), err
	}
	if out, err := exec("version"); err != nil || !strings.HasPrefix(out, "tankwatch ") {
		t.Fatalf("version: %q %v", out, err)
	}
	if out, err := exec("migrate"); err != nil || !strings.Contains(out, "migrated the sqlite store") {
		t.Fatalf("migrate: %q %v", out, err)
	}
	if _, err := exec("admin", "create", "--name", "root", "--password", "rootpass"); err != nil {
		t.Fatalf("admin create: %v", err)
	}
	if _, err := exec("admin", "create", "--name", "root", "--password", "rootpass"); err == nil {
		t.Fatal("duplicate admin created")
	}
	if _, err := exec("admin", "create", "--name", "x2", "--password", "123"); err == nil {
		t.Fatal("short password accepted")
	}
	out, err := exec("admin", "reset-password", "--name", "root")
	if err != nil || !regexp.MustCompile(`new password for root: \S{12}`).MatchString(out) {
		t.Fatalf("reset: %q %v", out, err)
	}
	if _, err := exec("admin", "reset-password", "--name", "ghost", "--password", "whatever1"); err == nil {
		t.Fatal("reset of a missing user succeeded")
	}
	for _, bad := range [][]string{{}, {"frobnicate"}, {"admin"}, {"serve", "--theme", "pink"}, {"serve", "extra"}} {
		if _, err := exec(bad...); err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
}
