package bill

import (
	"context"
	"os"
	"sort"
	"testing"
	"time"

	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/db/dbtest"
	"tankwatch/internal/platform/httpx"
)

// TestPagePerformance: the waybill list with 1,000,000 waybills on PostgreSQL, p99 ≤ 100 ms for page
// 1, a deep page, and filtered pages, as the page handler queries them (Service.Page). Slow (fills a
// million rows): run with TANKWATCH_PERF_WAYBILLS=1 and TANKWATCH_TEST_PG set (docs/PERFORMANCE.md).
func TestPagePerformance(t *testing.T) {
	if os.Getenv("TANKWATCH_PERF_WAYBILLS") == "" || os.Getenv(dbtest.EnvPG) == "" {
		t.Skip("set TANKWATCH_PERF_WAYBILLS=1 and TANKWATCH_TEST_PG to run the 1M-waybill paging benchmark")
	}
	ctx := context.Background()
	// TANKWATCH_PERF_SCHEMA names a schema that keeps the million waybills between runs (filled on the
	// first run, about 4–8 min): the queries can then be measured at a quiet moment in seconds.
	var d *db.DB
	if keep := os.Getenv("TANKWATCH_PERF_SCHEMA"); keep != "" {
		d = dbtest.Kept(t, keep)
	} else {
		d = dbtest.Open(t, db.Postgres)
	}
	var have int
	if err := d.NewSelect().Table("waybills").ColumnExpr("COUNT(*)").Scan(ctx, &have); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	for _, q := range []string{
		`INSERT INTO org_groups (id, parent_id, path, name, created_at) VALUES (1, NULL, '/1/', '集团', 1), (2, 1, '/1/2/', '华东', 1), (3, 1, '/1/3/', '华北', 1)`,
		`INSERT INTO cars (id, group_id, plate, compartments, created_at, updated_at) SELECT g, 2 + g % 2, '沪A' || g, 3, 1, 1 FROM generate_series(1, 500) AS g`,
		`INSERT INTO stations (id, group_id, name, station_type, fence_type, center_lng, center_lat, created_at, updated_at)
			SELECT g, 2 + g % 2, '站' || g, CASE WHEN g <= 10 THEN 'yk' ELSE 'jyz' END, 2, 121, 31, 1, 1 FROM generate_series(1, 200) AS g`,
		`INSERT INTO products (id, group_id, code, name, created_at, updated_at) VALUES (1, 2, 'P1', '0号柴油', 1, 1)`,
		`INSERT INTO waybills (id, group_id, no, car_id, depot_id, state, state_at, planned_load_at, planned_arrive_at, created_at, updated_at)
			SELECT g, 2 + (g % 500 + 1) % 2, 'G0001YD' || lpad(g::text, 10, '0'), g % 500 + 1, g % 10 + 1, 1 + g % 13, 1,
				1700000000000 + g::bigint * 60000, 1700000000000 + g::bigint * 60000 + 3600000, 1, 1 FROM generate_series(1, 1000000) AS g`,
		`INSERT INTO waybill_destinations (waybill_id, seq, station_id) SELECT g, 1, 11 + g % 190 FROM generate_series(1, 1000000) AS g`,
		`INSERT INTO waybill_compartments (waybill_id, no, product_id, planned_l, dest_seq) SELECT g, 1, 1, 8000, 1 FROM generate_series(1, 1000000) AS g`,
		`VACUUM ANALYZE`,
	} {
		if have > 0 {
			break // a kept schema, filled before
		}
		if _, err := d.ExecContext(ctx, q); err != nil {
			t.Fatalf("%v\n%s", err, q)
		}
	}
	t.Logf("filled 1,000,000 waybills in %v", time.Since(start).Round(time.Millisecond))
	s := New(d, nil, nil, nil)
	root := &httpx.Principal{UserID: 1, GroupPath: "/1/"}
	east := &httpx.Principal{UserID: 1, GroupPath: "/1/2/"}
	page := func(n int) httpx.PageReq { return httpx.PageReq{PageNum: n, PageSize: 10} }
	cases := []struct {
		name string
		p    *httpx.Principal
		q    Query
	}{
		{"page 1", root, Query{PageReq: page(1)}},
		{"page 1, one company", east, Query{PageReq: page(1)}},
		{"deep page 50000 (offset 499990)", root, Query{PageReq: page(50000)}},
		{"state IN_TRANSIT", root, Query{PageReq: page(1), State: "IN_TRANSIT"}},
		{"state, page 1000", root, Query{PageReq: page(1000), State: "CLOSED"}},
		{"depot", root, Query{PageReq: page(1), DepotID: 3}},
		{"destination", root, Query{PageReq: page(1), StationID: 50}},
		{"car", root, Query{PageReq: page(1), CarID: 77}},
		{"number contains", root, Query{PageReq: page(1), No: "0000123"}},
		{"time range (one day)", root, Query{PageReq: page(1), StartTime: httpx.Time(1700000000000 + 500000*60000), EndTime: httpx.Time(1700000000000 + 501440*60000)}},
		{"sorted by planned loading", root, Query{PageReq: httpx.PageReq{PageNum: 1, PageSize: 10, SortField: "plannedLoadAt", SortOrder: "descend"}}},
	}
	const runs = 100
	for _, c := range cases {
		var ds []time.Duration
		for i := 0; i < runs; i++ {
			t0 := time.Now()
			pg, err := s.Page(ctx, c.p, c.q)
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			ds = append(ds, time.Since(t0))
			if i == 0 && len(pg.List) == 0 {
				t.Errorf("%s: empty page", c.name)
			}
		}
		sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
		p50, p99 := ds[runs/2], ds[runs*99/100-1]
		t.Logf("%-34s p50 %6.1f ms  p99 %6.1f ms", c.name, ms(p50), ms(p99))
		if p99 > 100*time.Millisecond {
			t.Errorf("%s: p99 %v over 100 ms", c.name, p99)
		}
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
