package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"tankwatch/internal/app"
	"tankwatch/internal/lock"
	"tankwatch/internal/platform/config"
	"tankwatch/internal/platform/httpx"
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

// TestStatsRebuildCommandRebuildsLockStats: a lock opening filed without its rollup rows; the command
// writes the day's row, the month's and the month-to-date rows from that day to the month's end (D80).
func TestStatsRebuildCommandRebuildsLockStats(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TANKWATCH_DATA", dir)
	t.Setenv("TANKWATCH_DB", "")
	ctx := context.Background()
	d, err := app.OpenStore(ctx, config.Config{Data: dir})
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 2, 9, 0, 0, 0, httpx.Shanghai).UnixMilli()
	for _, q := range []string{"INSERT INTO org_groups (id, name, path, created_at) VALUES (1, '集团', '/1/', 1)",
		"INSERT INTO cars (id, group_id, plate, compartments, created_at, updated_at) VALUES (1, 1, '沪A00001', 2, 1, 1)"} {
		if _, err := d.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	ev := lock.EventRow{Serial: "L1", CarID: 1, GroupID: 1, Event: lock.EventOpened, Method: lock.MethodBLE, T: at, RecordedAt: at, BatteryPct: -1}
	if _, err := d.NewInsert().Model(&ev).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	_ = d.Close()
	var out, errb bytes.Buffer
	if err := run(ctx, []string{"stats", "rebuild", "--from", "2026-11-01", "--to", "2026-11-03"}, &out, &errb); err != nil ||
		!strings.Contains(out.String(), "rebuilt 1 lock and seal car-days") {
		t.Fatalf("rebuild: %q %q %v", out.String(), errb.String(), err)
	}
	if d, err = app.OpenStore(ctx, config.Config{Data: dir}); err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	var daily, monthly, mtd, other int
	for q, v := range map[string]*int{"SELECT COUNT(*) FROM stat_lock_daily WHERE day = 20261102 AND opened_ble = 1": &daily,
		"SELECT COUNT(*) FROM stat_lock_monthly WHERE month = 202611 AND opened_ble = 1":                    &monthly,
		"SELECT COUNT(*) FROM stat_lock_mtd WHERE day BETWEEN 20261102 AND 20261130 AND opened_ble = 1":     &mtd,
		"SELECT COUNT(*) FROM stat_lock_mtd WHERE day NOT BETWEEN 20261102 AND 20261130 OR opened_ble <> 1": &other} {
		if err := d.NewRaw(q).Scan(ctx, v); err != nil {
			t.Fatal(err)
		}
	}
	if daily != 1 || monthly != 1 || mtd != 29 || other != 0 {
		t.Fatalf("daily %d, monthly %d, month-to-date %d (want 1, 1, 29), other running rows %d", daily, monthly, mtd, other)
	}
}
