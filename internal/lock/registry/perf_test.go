package registry

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

// TestRegistryPerformance: the lock list, the binding history and the blacklist check of a 10,000-car
// fleet on PostgreSQL (two locks per compartment, three compartments: 60,000 locks; 120,000 binding
// records; 10,000 blacklist entries), p50 / p99 of 100 calls each, as the handlers query them. Run with
// TANKWATCH_PERF_LOCKS=1 and TANKWATCH_TEST_PG set (docs/PERFORMANCE.md).
func TestRegistryPerformance(t *testing.T) {
	if os.Getenv("TANKWATCH_PERF_LOCKS") == "" || os.Getenv(dbtest.EnvPG) == "" {
		t.Skip("set TANKWATCH_PERF_LOCKS=1 and TANKWATCH_TEST_PG to run the 10,000-car lock registry benchmark")
	}
	ctx := context.Background()
	d := dbtest.Open(t, db.Postgres)
	start := time.Now()
	for _, q := range []string{
		`INSERT INTO org_groups (id, parent_id, path, name, created_at) VALUES (1, NULL, '/1/', '集团', 1), (2, 1, '/1/2/', '华东', 1), (3, 1, '/1/3/', '华北', 1)`,
		`INSERT INTO cars (id, group_id, plate, compartments, created_at, updated_at) SELECT g, 2 + g % 2, '沪A' || lpad(g::text, 5, '0'), 3, 1, 1 FROM generate_series(1, 10000) AS g`,
		`INSERT INTO locks (id, group_id, serial, kind, state, car_id, compartment, device, battery_pct, last_event_at, created_at, updated_at)
			SELECT g, 2 + ((g - 1) / 6 + 1) % 2, 'TW-' || lpad(g::text, 8, '0'), 1 + g % 2, 2, (g - 1) / 6 + 1, ((g - 1) / 2) % 3 + 1, 1 + g % 2,
				g % 101, 1700000000000 + g::bigint * 1000, 1, 1 FROM generate_series(1, 60000) AS g`,
		`INSERT INTO lock_binds (lock_id, group_id, car_id, compartment, device, action, t)
			SELECT 1 + g % 60000, 2 + (g % 60000 / 6 + 1) % 2, g % 60000 / 6 + 1, 1, 1, 1 + g % 2, 1700000000000 + g::bigint * 60000 FROM generate_series(1, 120000) AS g`,
		`INSERT INTO car_blacklist (group_id, car_id, reason, start_at, end_at, created_at)
			SELECT 2 + g % 2, g, '测试', 1700000000000, CASE WHEN g % 2 = 0 THEN 0 ELSE 1800000000000 END, 1 FROM generate_series(1, 10000) AS g`,
		`VACUUM ANALYZE`,
	} {
		if _, err := d.ExecContext(ctx, q); err != nil {
			t.Fatalf("%v\n%s", err, q)
		}
	}
	t.Logf("fill: %s", time.Since(start).Round(time.Millisecond))
	s := New(d, nil)
	top := &httpx.Principal{UserID: 1, GroupID: 1, GroupPath: "/1/"}
	east := &httpx.Principal{UserID: 1, GroupID: 2, GroupPath: "/1/2/"}
	no := false
	measure := func(name string, fn func() error) {
		var ds []time.Duration
		for i := 0; i < 100; i++ {
			t0 := time.Now()
			if err := fn(); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			ds = append(ds, time.Since(t0))
		}
		sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
		t.Logf("%-40s p50 %7.1f ms  p99 %7.1f ms", name, float64(ds[49].Microseconds())/1000, float64(ds[98].Microseconds())/1000)
	}
	page := func(p *httpx.Principal, q Query) func() error {
		return func() error { _, err := s.Page(ctx, p, q); return err }
	}
	measure("locks, page 1 (60,000 in scope)", page(top, Query{}))
	measure("locks, page 1 of a company (30,000)", page(east, Query{}))
	measure("locks, page 500 by last report", page(top, Query{PageReq: httpx.PageReq{PageNum: 500, SortField: "lastEventAt", SortOrder: "descend"}}))
	measure("locks, plate contains", page(top, Query{Plate: "沪A0123"}))
	measure("locks, serial contains", page(top, Query{Serial: "0004711"}))
	measure("locks, not bound", page(top, Query{Bound: &no}))
	measure("binding history, page 1 (120,000)", func() error { _, err := s.BindPage(ctx, top, BindQuery{}); return err })
	measure("binding history, one lock", func() error { _, err := s.BindPage(ctx, top, BindQuery{LockID: 4711}); return err })
	measure("blacklist, page 1 active (10,000)", func() error { _, err := s.BlackPage(ctx, top, BlackQuery{State: EntryActive}); return err })
	i := int64(0)
	measure("blacklist check of a waybill (Refusal)", func() error {
		i++
		err := Refusal(ctx, d, 1+i*97%10000, 1750000000000)
		if err == nil {
			t.Fatal("a blacklisted car passed")
		}
		if _, ok := err.(*httpx.Error); !ok {
			return err
		}
		return nil
	})
}
