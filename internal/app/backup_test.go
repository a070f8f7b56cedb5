package app_test

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tankwatch/internal/app"
	"tankwatch/internal/platform/config"
	"tankwatch/internal/platform/db"
)

// TestBackupUnderIngest: `serve` on SQLite with simulated terminals reporting over TCP; a backup taken
// mid-ingest and restored into a fresh data folder holds every report acknowledged (0x8001) before the
// backup began; a restore over the store while serve runs is refused.
func TestBackupUnderIngest(t *testing.T) {
	if testing.Short() {
		t.Skip("serves and ingests")
	}
	t.Parallel()
	ctx := context.Background()
	dir, gw := t.TempDir(), freeAddr(t)
	s := startServe(t, config.Config{HTTP: "127.0.0.1:0", JT808: gw, Data: dir, Demo: true, DemoVehicles: 40,
		DemoSim: false, Theme: "tankcar", TerminalIdle: time.Minute, HistoryQueue: 50000})
	a := newAcked()
	f := drive(t, gw, 40, a)
	waitFor(t, "500 acknowledged reports", func() bool { return a.count() >= 500 })

	var out bytes.Buffer
	file := filepath.Join(t.TempDir(), "tankwatch-backup.db")
	before := a.snapshot() // acknowledged before the backup began
	if err := app.Backup(ctx, config.Config{Data: dir}, file, &out); err != nil {
		t.Fatalf("backup: %v", err)
	}
	during := a.count() - before.count()
	// the server keeps ingesting after the backup; a restore over its store is refused
	waitFor(t, "reports acknowledged after the backup", func() bool { return a.count() >= before.count()+during+200 })
	if err := app.Restore(ctx, config.Config{Data: dir}, file, &out); !errors.Is(err, db.ErrStoreInUse) {
		t.Fatalf("restore while serving: %v", err)
	}
	f.Stop()
	s.cancel()
	if err := <-s.done; err != nil {
		t.Fatalf("serve: %v\n%s", err, s.out.String())
	}

	fresh := filepath.Join(t.TempDir(), "restored")
	if err := app.Restore(ctx, config.Config{Data: fresh}, file, &out); err != nil {
		t.Fatalf("restore: %v", err)
	}
	if !strings.Contains(out.String(), "backed up ") || !strings.Contains(out.String(), "restored ") {
		t.Errorf("output:\n%s", out.String())
	}
	d, err := app.OpenStore(ctx, config.Config{Data: fresh})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	// the firmware packages came with the store (D136): the restored folder holds nothing else
	var pkgs, short int
	if err := d.NewRaw(`SELECT COUNT(*), COALESCE(SUM(CASE WHEN p.size = (SELECT COALESCE(SUM(length(c.data)), 0)
		FROM file_chunks AS c WHERE c.sha256 = p.sha256) THEN 0 ELSE 1 END), 0) FROM firmware_packages AS p`).Scan(ctx, &pkgs, &short); err != nil || pkgs == 0 || short > 0 {
		t.Fatalf("restored firmware packages: %d, of which %d lack bytes (%v)", pkgs, short, err)
	}
	if n, example := before.missing(t, d); n > 0 {
		t.Fatalf("%d of %d reports acknowledged before the backup are not in the restored store (e.g. %s)", n, before.count(), example)
	}
	t.Logf("%d reports acknowledged before the backup, %d while it ran, %d in all; all of the first in the restored store",
		before.count(), during, a.count())
}
