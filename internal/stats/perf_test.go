package stats

import (
	"context"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/db/dbtest"
)

// TestPerfYearOf10000Cars fills PostgreSQL with a year of the rollup for 10,000 cars (one trip a car
// a day, one product row each: 7.3 million daily rows) and times the statistics pages' sums over the
// year. Run it with
//
//	TANKWATCH_PERF_STATS=1 TANKWATCH_TEST_PG=postgres://postgres@127.0.0.1:5432/test?sslmode=disable \
//	  go test ./internal/stats -run PerfYear -v -timeout 30m
//
// figures in docs/PERFORMANCE.md.
func TestPerfYearOf10000Cars(t *testing.T) {
	if os.Getenv("TANKWATCH_PERF_STATS") != "1" || os.Getenv("TANKWATCH_TEST_PG") == "" {
		t.Skip("set TANKWATCH_PERF_STATS=1 and TANKWATCH_TEST_PG")
	}
	ctx := context.Background()
	var d *db.DB
	// TANKWATCH_PERF_SCHEMA=name keeps the filled store in that schema for the next run
	if keep := os.Getenv("TANKWATCH_PERF_SCHEMA"); keep != "" {
		d = dbtest.Kept(t, keep)
	} else {
		d = dbtest.Open(t, "postgres")
	}
	var filled int
	_ = d.NewRaw("SELECT COUNT(*) FROM org_groups").Scan(ctx, &filled)
	start := time.Now()
	if filled == 0 {
		fill(t, d)
	}
	var mtdMonths int
	_ = d.NewRaw("SELECT COUNT(DISTINCT day / 100) FROM stat_trip_mtd").Scan(ctx, &mtdMonths)
	if mtdMonths != 12 { // a store kept from before the month-to-date layer (D70), or a fill cut short
		fillMTD(t, d)
	}
	var daily, monthly int
	_ = d.NewRaw("SELECT COUNT(*) FROM stat_trip_daily").Scan(ctx, &daily)
	_ = d.NewRaw("SELECT COUNT(*) FROM stat_trip_monthly").Scan(ctx, &monthly)
	var load []byte
	load, _ = os.ReadFile("/proc/loadavg")
	t.Logf("%d daily and %d monthly rows (filled in %s); load average %s", daily, monthly, time.Since(start).Round(time.Second), strings.TrimSpace(string(load)))
	measure(t, d)
}

func fill(t *testing.T, d *db.DB) {
	ctx := context.Background()
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := d.ExecContext(ctx, q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	// a top group, 20 carriers under it, 4 sales companies
	exec("INSERT INTO org_groups (id, name, path, created_at) VALUES (1, 'top', '/1/', 1)")
	exec(`INSERT INTO org_groups (id, name, path, created_at) SELECT g, 'g' || g, '/1/' || g || '/', 1 FROM generate_series(2, 25) AS g`)
	exec("SELECT setval(pg_get_serial_sequence('org_groups', 'id'), 100)")
	// carriers 2..21, sales companies 22..25; car c belongs to carrier 2 + c % 20
	exec(`INSERT INTO stat_trip_daily (day, car_id, group_id, sales_group_id, product_id, trips, shipped_vt_l, shipped_v20_l, shipped_t,
		received_v20_l, loss_l, km, ton_km, timed_trips, out_to_arrival_min, abnormal_openings, over_allowance)
		SELECT to_char(DATE '2025-01-01' + d, 'YYYYMMDD')::int, c, 2 + c % 20, CASE WHEN c % 3 = 0 THEN 22 + c % 4 ELSE 0 END, p,
			1, 10100, 10000, 7.4, 9980 - (c % 7), 20 + (c % 7), 120, 888, 1, 95, CASE WHEN c % 50 = 0 THEN 1 ELSE 0 END,
			CASE WHEN c % 11 = 0 THEN 1 ELSE 0 END
		FROM generate_series(1, 10000) AS c, generate_series(0, 364) AS d, (VALUES (0), (1)) AS pp(k),
			LATERAL (SELECT CASE WHEN pp.k = 0 THEN 0 ELSE 1 + (c + d) % 3 END AS p) AS x`)
	// the layers above the days, as Rebuild adds them up
	if err := regroupDays(ctx, d, 20250101, 20251231, 0); err != nil {
		t.Fatal(err)
	}
	for m := 202501; m <= 202512; m++ {
		if err := rebuildMonth(ctx, d, "", m); err != nil {
			t.Fatal(err)
		}
		if err := regroupMonth(ctx, d, m, 0); err != nil {
			t.Fatal(err)
		}
	}
	// what autovacuum does to a table this size soon after it is written (statistics, visibility map)
	for _, tb := range []string{"org_groups", "stat_trip_daily", "stat_trip_monthly", "stat_trip_group_daily", "stat_trip_group_monthly", "stat_trip_mtd"} {
		exec("VACUUM ANALYZE " + tb)
	}
}

// fillMTD writes the month-to-date layer as Rebuild does (rebuildMonth's first step), every car at once.
func fillMTD(t *testing.T, d *db.DB) {
	ctx := context.Background()
	start := time.Now()
	for m := 202501; m <= 202512; m++ {
		if err := rebuildMTD(ctx, d, "", m); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := d.ExecContext(ctx, "VACUUM ANALYZE stat_trip_mtd"); err != nil {
		t.Fatal(err)
	}
	t.Logf("month-to-date layer of the year written in %s", time.Since(start).Round(time.Second))
}

func measure(t *testing.T, d *db.DB) {
	ctx := context.Background()
	conn, err := d.Conn(ctx) // one backend, so that its CPU time is the queries'
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
	year := Filter{From: 20250101, To: 20251231}
	cases := []struct {
		name string
		f    Filter
		by   By
	}{
		{"year by car, whole fleet", Filter{Under: "/1/"}, ByCar},
		{"year total, whole fleet", Filter{Under: "/1/"}, ByTotal},
		{"year by carrier", Filter{Under: "/1/"}, ByGroup},
		{"year by product", Filter{Under: "/1/", Products: true}, ByProduct},
		{"year by car, one carrier", Filter{Under: "/1/5/"}, ByCar},
		{"year by car, sales view", Filter{Under: "/1/", SalesView: true}, ByCar},
		{"year by month", Filter{Under: "/1/"}, ByMonth},
		{"15 Jan – 20 Nov by car (edge days)", Filter{Under: "/1/", From: 20250115, To: 20251120}, ByCar},
		{"15 Jan – 20 Nov total (edge days)", Filter{Under: "/1/", From: 20250115, To: 20251120}, ByTotal},
		{"3 – 17 Mar by car (inside a month)", Filter{Under: "/1/", From: 20250303, To: 20250317}, ByCar},
		{"15 Jan – 20 Nov by car, sales view", Filter{Under: "/1/", SalesView: true, From: 20250115, To: 20251120}, ByCar},
		{"15 Jan – 20 Nov by car, one product", Filter{Under: "/1/", Products: true, ProductID: 2, From: 20250115, To: 20251120}, ByCar},
	}
	var all, cpus []time.Duration
	for _, c := range cases {
		f := c.f
		if f.From == 0 {
			f.From, f.To = year.From, year.To
		}
		var times []time.Duration
		cpu0 := dbtest.BackendCPU(pid)
		const runs = 12
		for i := 0; i < runs; i++ {
			s := time.Now()
			rows, err := Sum(ctx, conn, f, c.by)
			if err != nil {
				t.Fatal(err)
			}
			if len(rows) == 0 {
				t.Fatalf("%s: no rows", c.name)
			}
			times = append(times, time.Since(s))
		}
		cpu := (dbtest.BackendCPU(pid) - cpu0) / runs
		cpus = append(cpus, cpu)
		sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
		all = append(all, times...)
		t.Logf("%-40s median %4d ms, max %4d ms; server CPU %4d ms a query", c.name, times[len(times)/2].Milliseconds(),
			times[len(times)-1].Milliseconds(), cpu.Milliseconds())
	}
	sort.Slice(all, func(i, j int) bool { return all[i] < all[j] })
	p99 := all[(len(all)*99+99)/100-1]
	sort.Slice(cpus, func(i, j int) bool { return cpus[i] < cpus[j] })
	load, _ := os.ReadFile("/proc/loadavg")
	t.Logf("all %d sums: p50 %d ms, p99 %d ms (wall, load average %s); the costliest kind uses %d ms of server CPU", len(all),
		all[len(all)/2].Milliseconds(), p99.Milliseconds(), strings.TrimSpace(string(load)), cpus[len(cpus)-1].Milliseconds())
	s := time.Now()
	if _, err := sum(ctx, conn, Filter{Under: "/1/", From: year.From, To: year.To}, ByCar, false); err != nil {
		t.Fatal(err)
	}
	t.Logf("for comparison, the year by car from the daily rows only: %d ms", time.Since(s).Milliseconds())
	if p99 > 300*time.Millisecond {
		t.Errorf("p99 %s over 300 ms", p99)
	}
}
