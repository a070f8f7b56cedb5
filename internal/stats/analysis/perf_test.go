package analysis

import (
	"context"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	"tankwatch/internal/platform/db/dbtest"
	"tankwatch/internal/stats"
)

// TestPerfYearOf10000Cars (TANKWATCH_PERF=1 and TANKWATCH_TEST_PG): a year of rollup rows for 10,000
// cars in 10 companies — a finished-trip day every other day per car, two products, 20 depots and 200
// stations — written straight into the rollup tables, then the analysis answers over the whole year
// and the whole fleet, timed perfRuns times each (docs/PERFORMANCE.md).
func TestPerfYearOf10000Cars(t *testing.T) {
	if os.Getenv("TANKWATCH_PERF") == "" {
		t.Skip("TANKWATCH_PERF not set")
	}
	d := dbtest.Open(t, "postgres")
	ctx := context.Background()
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := d.NewRaw(q, args...).Exec(ctx); err != nil {
			t.Fatal(err)
		}
	}
	start := time.Now()
	exec("INSERT INTO org_groups (id, name, path, created_at) VALUES (1, '集团', '/1/', 1)")
	exec("INSERT INTO org_groups (id, name, path, created_at) SELECT g, '公司' || g, '/1/' || g || '/', 1 FROM generate_series(2, 11) AS g")
	// day index 0..364 from 2026-01-01 as YYYYMMDD, car c in company 2 + c % 10, every other day (c + i even)
	const days = `(SELECT i, CAST(to_char(DATE '2026-01-01' + i, 'YYYYMMDD') AS INTEGER) AS day FROM generate_series(0, 364) AS i) AS d`
	exec(`INSERT INTO stat_route_daily (day, car_id, group_id, depot_id, station_id, trips, shipped_vt_l, shipped_v20_l, shipped_t,
		received_v20_l, loss_l, km, ton_km, timed_trips, out_to_arrival_min, out_to_arrival_sq, out_to_arrival_lo, out_to_arrival_hi, abnormal_openings, over_allowance)
		SELECT d.day, c, 2 + c % 10, 1000 + c % 20, 2000 + (c * 7 + d.i) % 200, 2, 40400, 40000, 29.6, 39960, 40, 160, 2368, 2, 180, 16500, 60, 120,
		(c + d.i) % 7 / 6, (c + d.i) % 11 / 10 FROM generate_series(1, 10000) AS c CROSS JOIN ` + days + ` WHERE (c + d.i) % 2 = 0`)
	exec(`INSERT INTO stat_trip_daily (day, car_id, group_id, product_id, trips, shipped_vt_l, shipped_v20_l, shipped_t, received_v20_l, loss_l,
		km, ton_km, timed_trips, out_to_arrival_min, abnormal_openings, over_allowance)
		SELECT day, car_id, group_id, p, CASE WHEN p = 0 THEN 2 ELSE 1 END, shipped_vt_l / (CASE WHEN p = 0 THEN 1 ELSE 2 END),
		shipped_v20_l / (CASE WHEN p = 0 THEN 1 ELSE 2 END), shipped_t / (CASE WHEN p = 0 THEN 1 ELSE 2 END), received_v20_l / (CASE WHEN p = 0 THEN 1 ELSE 2 END),
		loss_l / (CASE WHEN p = 0 THEN 1 ELSE 2 END), km, ton_km / (CASE WHEN p = 0 THEN 1 ELSE 2 END), timed_trips, out_to_arrival_min, abnormal_openings, over_allowance
		FROM stat_route_daily CROSS JOIN generate_series(0, 2) AS p`)
	exec(`INSERT INTO lock_events (group_id, car_id, event, t, recorded_at)
		SELECT 2 + c % 10, c, 3, ?::bigint + c * 3155, 1 FROM generate_series(1, 10000) AS c`, stats.DayStart(20260101))
	// the layers above the cars' rows, as stats.Rebuild leaves them: the trip group rows (products) and
	// the route group rows (D71)
	for _, lv := range []struct{ table, day, from string }{{"stat_trip_group_daily", "day", "stat_trip_daily"}, {"stat_trip_group_monthly", "month", "stat_trip_group_daily"}} {
		exec(`INSERT INTO ` + lv.table + ` (` + lv.day + `, group_id, sales_group_id, product_id, trips, shipped_vt_l, shipped_v20_l, shipped_t, received_v20_l,
			loss_l, km, ton_km, timed_trips, out_to_arrival_min, abnormal_openings, over_allowance)
			SELECT day / ` + map[string]string{"day": "1", "month": "100"}[lv.day] + `, group_id, sales_group_id, product_id, SUM(trips), SUM(shipped_vt_l), SUM(shipped_v20_l),
			SUM(shipped_t), SUM(received_v20_l), SUM(loss_l), SUM(km), SUM(ton_km), SUM(timed_trips), SUM(out_to_arrival_min), SUM(abnormal_openings),
			SUM(over_allowance) FROM ` + lv.from + ` GROUP BY day / ` + map[string]string{"day": "1", "month": "100"}[lv.day] + `, group_id, sales_group_id, product_id`)
	}
	if err := Regroup(ctx, d, 20260101, 20261231); err != nil {
		t.Fatal(err)
	}
	exec("ANALYZE")
	var rows int
	_ = d.NewRaw("SELECT COUNT(*) FROM stat_route_daily").Scan(ctx, &rows)
	t.Logf("seeded %d route rows and %d trip rows in %s", rows, rows*3, time.Since(start).Round(time.Millisecond))

	conn, err := d.Conn(ctx) // one backend, so that its CPU time is the answers'
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
	s := New(conn)
	year := Scope{Period: Period{20260101, 20261231}, Under: "/1/"}
	month := Scope{Period: Period{20261101, 20261130}, Under: "/1/"}
	cases := []struct {
		name string
		fn   func() error
	}{
		{"year by company", func() error { _, err := s.Breakdown(ctx, year, DimCompany); return err }},
		{"year by product", func() error { _, err := s.Breakdown(ctx, year, DimProduct); return err }},
		{"year by route (spread)", func() error { _, err := s.Breakdown(ctx, year, DimRoute); return err }},
		{"year by month against the year before", func() error { _, err := s.Compare(ctx, year, GrainMonth); return err }},
		{"month by day against last month and last year", func() error { _, err := s.Compare(ctx, month, GrainDay); return err }},
		{"one company, year by week", func() error {
			_, err := s.Compare(ctx, Scope{Period: year.Period, Under: "/1/3/"}, GrainWeek)
			return err
		}},
		{"one route, year by month", func() error {
			_, err := s.Compare(ctx, Scope{Period: year.Period, Under: "/1/", DepotID: 1003, StationID: 2010}, GrainMonth)
			return err
		}},
	}
	var all []time.Duration
	for _, c := range cases {
		var ds []time.Duration
		cpu0 := dbtest.BackendCPU(pid)
		for i := 0; i < perfRuns; i++ {
			t0 := time.Now()
			if err := c.fn(); err != nil {
				t.Fatal(c.name, err)
			}
			ds = append(ds, time.Since(t0))
		}
		cpu := (dbtest.BackendCPU(pid) - cpu0) / perfRuns
		sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
		all = append(all, ds...)
		t.Logf("%-48s p50 %6.1f ms  max of %d %6.1f ms; server CPU %4d ms an answer", c.name, ms(ds[len(ds)/2]), perfRuns, ms(ds[len(ds)-1]), cpu.Milliseconds())
	}
	sort.Slice(all, func(i, j int) bool { return all[i] < all[j] })
	load, _ := os.ReadFile("/proc/loadavg")
	t.Logf("all %d answers: p50 %.1f ms, p99 %.1f ms (wall, load average %s)", len(all), ms(all[len(all)/2]), ms(all[(len(all)*99+99)/100-1]), strings.TrimSpace(string(load)))
}

// perfRuns: each answer is timed this often (the machine is shared: a few runs, not a p99 of hundreds).
const perfRuns = 10

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
