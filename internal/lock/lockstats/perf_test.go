package lockstats

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/db/dbtest"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/stats"
)

// TestPerfYearOfTenThousandCars (TANKWATCH_PERF_LOCKSTATS=1, PostgreSQL): a year of lock rollup rows
// for 10,000 cars in 10 companies (a lock active on half the days: 1.8 million rows), their monthly,
// month-to-date and group layers written by the rebuild's own statements, then the pages' queries timed
// 20 times each, with the PostgreSQL backend's CPU per page. TANKWATCH_PERF_SCHEMA=name keeps the
// filled store in that schema for the next run. Figures in docs/PERFORMANCE.md.
func TestPerfYearOfTenThousandCars(t *testing.T) {
	if os.Getenv("TANKWATCH_PERF_LOCKSTATS") == "" || os.Getenv(dbtest.EnvPG) == "" {
		t.Skip("TANKWATCH_PERF_LOCKSTATS=1 and TANKWATCH_TEST_PG run the measure")
	}
	ctx := context.Background()
	var d *db.DB
	if keep := os.Getenv("TANKWATCH_PERF_SCHEMA"); keep != "" {
		d = dbtest.Kept(t, keep)
	} else {
		d = dbtest.Open(t, db.Postgres)
	}
	exec := func(q string) {
		t.Helper()
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
	var filled, mtdMonths int
	_ = d.NewRaw("SELECT COUNT(*) FROM org_groups").Scan(ctx, &filled)
	start := time.Now()
	if filled == 0 {
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
			exec(q)
		}
		t.Logf("daily rows written in %v", time.Since(start).Round(time.Second))
	}
	_ = d.NewRaw("SELECT COUNT(DISTINCT day / 100) FROM stat_lock_mtd").Scan(ctx, &mtdMonths)
	if mtdMonths != len(months) { // a fresh fill, or a store kept from before the month-to-date layer
		t0 := time.Now()
		// the rebuild's month step: the monthly and month-to-date rows of every car, month by month,
		// then the group rows (whose months are added up from the cars' monthly rows)
		if err := refreshMonths(ctx, d, KindLock, 0, months); err != nil {
			t.Fatal(err)
		}
		t.Logf("monthly and month-to-date rows of the year written in %v", time.Since(t0).Round(time.Second))
		if err := refreshGroups(ctx, d, KindLock, nil, stats.Days(20251201, 20261130)); err != nil {
			t.Fatal(err)
		}
		exec("VACUUM ANALYZE")
	}
	var n, nm, nr int
	_ = d.NewRaw("SELECT COUNT(*) FROM stat_lock_daily").Scan(ctx, &n)
	_ = d.NewRaw("SELECT COUNT(*) FROM stat_lock_monthly").Scan(ctx, &nm)
	_ = d.NewRaw("SELECT COUNT(*) FROM stat_lock_mtd").Scan(ctx, &nr)
	t.Logf("%d daily, %d monthly, %d month-to-date rows (%v)", n, nm, nr, time.Since(start).Round(time.Second))
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
	before := &Service{DB: conn, daily: true} // every range that is not whole months from the daily rows
	root := &httpx.Principal{GroupPath: "/1/"}
	one := &httpx.Principal{GroupPath: "/1/3/"}
	at := func(y, m, d int) httpx.Time {
		return httpx.Time(time.Date(y, time.Month(m), d, 0, 0, 0, 0, httpx.Shanghai).UnixMilli())
	}
	year := Query{Start: at(2025, 12, 1), End: at(2026, 11, 30)}
	month := Query{Start: at(2026, 11, 1), End: year.End}
	odd := Query{Start: at(2025, 12, 15), End: at(2026, 11, 20)}
	march := Query{Start: at(2026, 3, 3), End: at(2026, 3, 17)}
	with := func(q Query, by string, sort string) Query {
		q.By, q.PageSize, q.SortField, q.SortOrder = by, 10, sort, "descend"
		return q
	}
	for _, c := range []struct {
		name string
		s    *Service
		per  Period
		q    Query
		p    *httpx.Principal
	}{
		{"month page, per company, a year", s, PerMonth, with(year, "group", ""), root},
		{"month page, per car, a year, by openings", s, PerMonth, with(year, "car", "opened"), root},
		{"day page, per car, this month", s, PerDay, with(month, "car", ""), root},
		{"day page, one company's cars, this month", s, PerDay, with(month, "car", ""), one},
		{"week page, per company, a year", s, PerWeek, with(year, "group", ""), root},
		{"per lock, a year, by offline time", s, PerAll, with(year, "lock", "offlineS"), root},
		{"per car, a year (all), by openings", s, PerAll, with(year, "car", "opened"), root},
		{"month page, one company's cars, a year", s, PerMonth, with(year, "car", ""), one},
		{"BEFORE per car, 15 Dec – 20 Nov, by openings", before, PerAll, with(odd, "car", "opened"), root},
		{"per car, 15 Dec – 20 Nov, by openings", s, PerAll, with(odd, "car", "opened"), root},
		{"BEFORE per lock, 15 Dec – 20 Nov, by offline", before, PerAll, with(odd, "lock", "offlineS"), root},
		{"per lock, 15 Dec – 20 Nov, by offline time", s, PerAll, with(odd, "lock", "offlineS"), root},
		{"BEFORE per car, 3 – 17 March, by openings", before, PerAll, with(march, "car", "opened"), root},
		{"per car, 3 – 17 March, by openings", s, PerAll, with(march, "car", "opened"), root},
		{"one company's cars, 15 Dec – 20 Nov", s, PerAll, with(odd, "car", ""), one},
	} {
		load, _ := os.ReadFile("/proc/loadavg")
		cpu0 := dbtest.BackendCPU(pid)
		var times []time.Duration
		for i := 0; i < 20; i++ {
			t0 := time.Now()
			if _, err := c.s.Page(ctx, c.p, KindLock, c.per, c.q); err != nil {
				t.Fatal(err)
			}
			times = append(times, time.Since(t0))
		}
		sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
		cpu := (dbtest.BackendCPU(pid) - cpu0) / 20
		fmt.Printf("PERF %-47s p50 %6v  p99 %6v  server CPU %4d ms a page  (load %s)\n", c.name, times[9].Round(time.Millisecond),
			times[19].Round(time.Millisecond), cpu.Milliseconds(), strings.Join(strings.Fields(string(load))[:3], " "))
	}
}
