package lockstats

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/db/dbtest"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/stats"
)

// TestPerfYearOfTenThousandCars (TANKWATCH_PERF_LOCKSTATS=1, PostgreSQL): a year of lock rollup rows
// for 10,000 cars in 10 companies (a lock active on half the days: 1.8 million rows), then the pages'
// queries timed 20 times each. Figures in docs/PERFORMANCE.md.
func TestPerfYearOfTenThousandCars(t *testing.T) {
	if os.Getenv("TANKWATCH_PERF_LOCKSTATS") == "" || os.Getenv(dbtest.EnvPG) == "" {
		t.Skip("TANKWATCH_PERF_LOCKSTATS=1 and TANKWATCH_TEST_PG run the measure")
	}
	ctx := context.Background()
	d := dbtest.Open(t, db.Postgres)
	start := time.Now()
	for _, q := range []string{
		"INSERT INTO org_groups (id, name, path, created_at) VALUES (1, 'top', '/1/', 1)",
		"INSERT INTO org_groups (id, name, path, created_at) SELECT g, 'company ' || g, '/1/' || g || '/', 1 FROM generate_series(2, 11) AS g",
		"INSERT INTO cars (id, group_id, plate, compartments, created_at, updated_at) SELECT c, 2 + c % 10, 'P' || c, 3, 1, 1 FROM generate_series(1, 10000) AS c",
		`INSERT INTO stat_lock_daily (day, week, month, car_id, group_id, serial, opened_remote, opened_ble, opened_key, opened_inside, opened_outside,
			closed, tampered, low_battery, offline_events, offline_s, computed_at)
		 SELECT to_char(date '2025-12-01' + dd, 'YYYYMMDD')::int, to_char(date '2025-12-01' + dd, 'IYYYIW')::int, to_char(date '2025-12-01' + dd, 'YYYYMM')::int,
			c, 2 + c % 10, 'L' || c, (c + dd) % 3, (c + dd) % 2, (c * dd) % 2, (c + dd) % 3, (c * dd) % 2 + (c + dd) % 2, (c + dd) % 4, (c + dd) % 17 / 16,
			(c + dd) % 29 / 28, (c + dd) % 11 / 10, ((c + dd) % 11 / 10) * 3600, 1
		 FROM generate_series(0, 364) AS dd, generate_series(1, 10000) AS c WHERE (c + dd) % 2 = 0`,
		"ANALYZE",
	} {
		if _, err := d.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	var months []int
	for m := 202512; m <= 202611; m++ {
		if m%100 == 13 {
			m = m + 100 - 12
		}
		months = append(months, m)
	}
	if err := refreshMonths(ctx, d, KindLock, 0, months); err != nil {
		t.Fatal(err)
	}
	if err := refreshGroups(ctx, d, KindLock, nil, stats.Days(20251201, 20261130)); err != nil {
		t.Fatal(err)
	}
	if _, err := d.ExecContext(ctx, "ANALYZE"); err != nil {
		t.Fatal(err)
	}
	var n int
	_ = d.NewRaw("SELECT COUNT(*) FROM stat_lock_daily").Scan(ctx, &n)
	t.Logf("filled %d rows in %v", n, time.Since(start).Round(time.Second))
	conn, err := d.Conn(ctx) // one backend, so that its CPU time is the pages'
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var pid int
	if err := conn.NewRaw("SELECT pg_backend_pid()").Scan(ctx, &pid); err != nil {
		t.Fatal(err)
	}
	// no parallel workers: their CPU would not show in the backend's, and one core is the honest cost
	if _, err := conn.ExecContext(ctx, "SET max_parallel_workers_per_gather = 0"); err != nil {
		t.Fatal(err)
	}
	s := &Service{DB: conn}
	root := &httpx.Principal{GroupPath: "/1/"}
	year := Query{Start: httpx.Time(time.Date(2025, 12, 1, 0, 0, 0, 0, httpx.Shanghai).UnixMilli()), End: httpx.Time(time.Date(2026, 11, 30, 23, 59, 59, 0, httpx.Shanghai).UnixMilli())}
	month := Query{Start: httpx.Time(time.Date(2026, 11, 1, 0, 0, 0, 0, httpx.Shanghai).UnixMilli()), End: year.End}
	with := func(q Query, by string, sort string) Query {
		q.By, q.PageSize, q.SortField, q.SortOrder = by, 10, sort, "descend"
		return q
	}
	for _, c := range []struct {
		name string
		per  Period
		q    Query
		p    *httpx.Principal
	}{
		{"month page, per company, a year", PerMonth, with(year, "group", ""), root},
		{"month page, per car, a year, by openings", PerMonth, with(year, "car", "opened"), root},
		{"day page, per car, this month", PerDay, with(month, "car", ""), root},
		{"day page, one company's cars, this month", PerDay, with(month, "car", ""), &httpx.Principal{GroupPath: "/1/3/"}},
		{"week page, per company, a year", PerWeek, with(year, "group", ""), root},
		{"per lock, a year, by offline time", PerAll, with(year, "lock", "offlineS"), root},
		{"month page, one company's cars, a year", PerMonth, with(year, "car", ""), &httpx.Principal{GroupPath: "/1/3/"}},
		{"per car, 15 Dec – 20 Nov (days), by openings", PerAll, with(Query{Start: year.Start + 14*86_400_000, End: year.End - 10*86_400_000}, "car", "opened"), root},
	} {
		cpu0 := backendCPU(pid)
		var times []time.Duration
		for i := 0; i < 20; i++ {
			t0 := time.Now()
			if _, err := s.Page(ctx, c.p, KindLock, c.per, c.q); err != nil {
				t.Fatal(err)
			}
			times = append(times, time.Since(t0))
		}
		sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
		cpu := (backendCPU(pid) - cpu0) / 20
		fmt.Printf("PERF %-45s p50 %6v  p99 %6v  server CPU %4d ms a page\n", c.name, times[9].Round(time.Millisecond), times[19].Round(time.Millisecond), cpu.Milliseconds())
	}
	load, _ := os.ReadFile("/proc/loadavg")
	fmt.Printf("PERF load average %s\n", strings.TrimSpace(string(load)))
}

// backendCPU is the CPU time (user + system) the PostgreSQL backend pid has used so far, read from
// /proc (the server runs on this machine), as the trip statistics' perf test reads it.
func backendCPU(pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return -1
	}
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+2:]))
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(ut+st) * time.Second / 100 // USER_HZ
}
