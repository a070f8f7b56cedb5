package dbtest

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"tankwatch/internal/platform/db"
)

// Kept opens the TANKWATCH_TEST_PG database with its search_path set to schema (created when missing,
// migrated, never dropped): the perf tests keep a filled store there between runs
// (TANKWATCH_PERF_SCHEMA). Closed at cleanup.
func Kept(t testing.TB, schema string) *db.DB {
	t.Helper()
	ctx := context.Background()
	u, err := url.Parse(os.Getenv(EnvPG))
	if err != nil {
		t.Fatal(err)
	}
	admin, err := db.Open(ctx, u.String(), "")
	if err != nil {
		t.Fatal(err)
	}
	_, err = admin.ExecContext(ctx, "CREATE SCHEMA IF NOT EXISTS "+schema)
	_ = admin.Close()
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	d, err := db.Open(ctx, u.String(), "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = d.Close() })
	if err := d.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	return d
}

// BackendCPU is the CPU time (user + system) the PostgreSQL backend pid has used so far, read from
// /proc (the server runs on this machine): what a query costs whatever the machine's load, which the
// perf tests report beside the wall times.
func BackendCPU(pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return -1
	}
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+2:]))
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(ut+st) * time.Second / 100 // USER_HZ
}
