package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// runner runs a command line and returns its output (stdout, then stderr) and error.
func runner() func(args ...string) (string, error) {
	return func(args ...string) (string, error) {
		var out, errb bytes.Buffer
		err := run(context.Background(), args, &out, &errb)
		return out.String() + errb.String(), err
	}
}

func TestCommands(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TANKWATCH_DATA", dir)
	t.Setenv("TANKWATCH_DB", "")
	exec := runner()
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

// TestBackupCommands: admin backup and restore through the command line, flags before or after the
// file; on PostgreSQL they print the pg_dump recipe (password left out) and fail, having written nothing.
func TestBackupCommands(t *testing.T) {
	dir, tmp := t.TempDir(), t.TempDir()
	t.Setenv("TANKWATCH_DB", "")
	exec := runner()
	if out, err := exec("migrate", "--data", dir); err != nil {
		t.Fatalf("migrate: %q %v", out, err)
	}
	file := filepath.Join(tmp, "b.db")
	if out, err := exec("admin", "backup", file, "--data", dir); err != nil || !strings.Contains(out, "backed up ") {
		t.Fatalf("backup: %q %v", out, err)
	}
	if out, err := exec("admin", "restore", "--data", filepath.Join(tmp, "fresh"), file); err != nil || !strings.Contains(out, "restored ") {
		t.Fatalf("restore: %q %v", out, err)
	}
	out, err := exec("admin", "restore", "--data", dir, file)
	if err != nil || !strings.Contains(out, "tankwatch.db.before-restore-") {
		t.Fatalf("restore over a store: %q %v", out, err)
	}
	for _, bad := range [][]string{{"admin", "backup"}, {"admin", "restore", "--data", dir}, {"admin", "backup", file, "extra"},
		{"admin", "backup", "--db", "mysql://x", filepath.Join(tmp, "c.db")}} {
		if out, err := exec(bad...); err == nil {
			t.Errorf("%v accepted: %q", bad, out)
		}
	}
	pg := filepath.Join(tmp, "pg.dump")
	out, err = exec("admin", "backup", "--db", "postgres://tw:secret@db.example:5432/tankwatch", pg)
	if err == nil || !strings.Contains(out, "pg_dump --format=custom --file="+pg+" 'postgres://tw@db.example:5432/tankwatch'") ||
		strings.Contains(out, "secret") || !strings.Contains(out, "recovery_target_time") {
		t.Fatalf("postgres backup: %v\n%s", err, out)
	}
	if _, err := os.Stat(pg); err == nil {
		t.Fatal("a file was written for the PostgreSQL store")
	}
}
