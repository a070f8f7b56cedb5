package seal

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"tankwatch/internal/platform/db/dbtest"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/waybill"
)

// TestSealFiguresPerf measures, on PostgreSQL, the sync of one waybill (through Rebuild) and the
// leadSealRecord page on 300,000 seals of 1,000 cars over 100 days (docs/PERFORMANCE.md). It runs
// only when TANKWATCH_SEAL_PERF=1 (a few minutes of the machine; not part of the suite).
func TestSealFiguresPerf(t *testing.T) {
	if os.Getenv("TANKWATCH_SEAL_PERF") != "1" || os.Getenv("TANKWATCH_TEST_PG") == "" {
		t.Skip("set TANKWATCH_SEAL_PERF=1 and TANKWATCH_TEST_PG")
	}
	d := dbtest.Open(t, "postgres")
	ctx := context.Background()
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := d.NewRaw(q, args...).Exec(ctx); err != nil {
			t.Fatal(err)
		}
	}
	const cars, days = 1000, 100
	day0 := time.Date(2026, 8, 1, 0, 0, 0, 0, httpx.Shanghai).UnixMilli()
	exec("INSERT INTO org_groups (id, name, path, created_at) VALUES (1, '集团', '/1/', 1), (2, '华东', '/1/2/', 1)")
	exec("SELECT setval('org_groups_id_seq', 10)")
	exec(`INSERT INTO cars (group_id, plate, compartments, created_at, updated_at) SELECT 2, '沪A' || lpad(g::text, 5, '0'), 3, 1, 1 FROM generate_series(1, ?) g`, cars)
	exec(`INSERT INTO stations (id, group_id, name, station_type, fence_type, fence_center, raduis, center_lng, center_lat, created_at, updated_at)
		VALUES (1, 1, '油库', 'yk', 2, '121,31', 300, 121, 31, 1, 1), (2, 1, '一站', 'jyz', 2, '121.3,31.3', 300, 121.3, 31.3, 1, 1)`)
	exec("SELECT setval('stations_id_seq', 10)")
	exec("INSERT INTO products (id, group_id, code, name, created_at, updated_at) VALUES (1, 1, 'P92', '92#', 1, 1)")
	// one trip a car a day: loaded at 08:00 + car seconds, left 08:30, arrived 10:00, unsealed 10:05;
	// one trip in 20 has its seal broken on the way at 09:00 instead; one in 1000 reuses a number
	exec(`INSERT INTO waybills (group_id, no, car_id, depot_id, state, state_at, created_at, updated_at, depart_at)
		SELECT 2, 'YD' || g, (g - 1) % ? + 1, 1, ?, 1, 1, 1, ? + ((g::bigint - 1) / ?) * 86400000 + 30600000 FROM generate_series(1, ?) g`,
		cars, waybill.Closed, day0, cars, cars*days)
	exec(`INSERT INTO waybill_destinations (waybill_id, seq, station_id) SELECT id, 1, 2 FROM waybills`)
	exec(`INSERT INTO load_records (waybill_id, group_id, car_id, depot_id, loaded_at, source, created_at, updated_at)
		SELECT id, 2, car_id, 1, depart_at - 1800000 + car_id * 1000, 3, 1, 1 FROM waybills`)
	exec(`INSERT INTO load_record_items (record_id, compartment, product_id, vt_l, temp_c, density20, vcf20, v20_l, mass_t, seal_no)
		SELECT r.id, c, 1, 8000, 20, 740, 1, 8000, 5.9, CASE WHEN r.waybill_id % 1000 = 0 AND c = 1 THEN 'QF' || (r.waybill_id - 1) || '-1' ELSE 'QF' || r.waybill_id || '-' || c END
		FROM load_records r, generate_series(1, 3) c`)
	exec(`INSERT INTO waybill_steps (waybill_id, from_state, to_state, evidence, cause, t, recorded_at, station_id, lat, lon, detail)
		SELECT id, ?, ?, ?, 1, depart_at, depart_at, 1, 31000000, 121000000, '' FROM waybills`, waybill.Sealed, waybill.InTransit, waybill.EvDepotExit)
	exec(`INSERT INTO waybill_steps (waybill_id, from_state, to_state, evidence, cause, t, recorded_at, station_id, lat, lon, detail)
		SELECT id, ?, ?, ?, 1, depart_at + 1800000, depart_at + 1800000, 0, 31150000, 121150000, '{"seal":2}' FROM waybills WHERE id % 20 = 0`,
		waybill.InTransit, waybill.InTransit, waybill.EvOpeningOnWay)
	exec(`INSERT INTO waybill_steps (waybill_id, from_state, to_state, evidence, cause, t, recorded_at, station_id, lat, lon, detail)
		SELECT id, ?, ?, ?, 1, depart_at + 5400000 + 300000, depart_at + 5700000, 2, 31300000, 121300000, '' FROM waybills`,
		waybill.Arrived, waybill.Unsealed, waybill.EvUnseal)
	exec("ANALYZE")

	// the first 10 days through Rebuild (the cost of a sync); the other 90 written by SQL the same way
	// (checked below: a rebuild of a copied day changes nothing)
	const synced = 10 * cars
	start := time.Now()
	n, err := Rebuild(ctx, d, 0, day0+10*86_400_000-1, day0)
	if err != nil || n != synced {
		t.Fatalf("Rebuild = %d, %v", n, err)
	}
	took := time.Since(start)
	exec(`INSERT INTO seal_records (group_id, waybill_id, car_id, compartment, seal_no, depot_id, applied_at, applied_by, state, broken_at, broken_station_id, broken_lat, broken_lon)
		SELECT 2, r.waybill_id, r.car_id, i.compartment, i.seal_no, 1, r.loaded_at, 0,
			CASE WHEN r.waybill_id % 20 = 0 THEN 3 ELSE 2 END,
			w.depart_at + CASE WHEN r.waybill_id % 20 = 0 THEN 1800000 ELSE 5700000 END,
			CASE WHEN r.waybill_id % 20 = 0 THEN 0 ELSE 2 END,
			CASE WHEN r.waybill_id % 20 = 0 THEN 31150000 ELSE 31300000 END,
			CASE WHEN r.waybill_id % 20 = 0 THEN 121150000 ELSE 121300000 END
		FROM load_records r JOIN load_record_items i ON i.record_id = r.id JOIN waybills w ON w.id = r.waybill_id WHERE r.waybill_id > ?`, synced)
	exec(`INSERT INTO seal_incidents (group_id, waybill_id, car_id, seal_id, compartment, seal_no, kind, t, lat, lon, detail)
		SELECT 2, waybill_id, car_id, id, compartment, seal_no, 2, broken_at, broken_lat, broken_lon, '' FROM seal_records WHERE state = 3 AND waybill_id > ?`, synced)
	exec(`INSERT INTO seal_incidents (group_id, waybill_id, car_id, seal_id, compartment, seal_no, kind, t, lat, lon, station_id, detail)
		SELECT 2, s.waybill_id, s.car_id, s.id, 1, s.seal_no, 1, s.applied_at, 0, 0, 1, '{"waybillId":' || (s.waybill_id - 1) || ',"waybillNo":"YD' || (s.waybill_id - 1) || '","appliedAt":' || p.applied_at || '}'
		FROM seal_records s JOIN seal_records p ON p.waybill_id = s.waybill_id - 1 AND p.compartment = 1
		WHERE s.waybill_id % 1000 = 0 AND s.compartment = 1 AND s.waybill_id > ?`, synced)
	exec("ANALYZE")
	count := func() (int, int) {
		var a, b int
		_ = d.NewRaw("SELECT COUNT(*) FROM seal_records").Scan(ctx, &a)
		_ = d.NewRaw("SELECT COUNT(*) FROM seal_incidents").Scan(ctx, &b)
		return a, b
	}
	seals, incidents := count()
	snap := func() string {
		var v string
		_ = d.NewRaw(`SELECT md5(string_agg(concat_ws('|', waybill_id, compartment, seal_no, state, broken_at, broken_station_id, broken_lat, broken_lon), ',' ORDER BY waybill_id, compartment))
			FROM seal_records WHERE applied_at BETWEEN ? AND ?`, day0+50*86_400_000, day0+51*86_400_000-1).Scan(ctx, &v)
		return v
	}
	before := snap()
	if _, err := Rebuild(ctx, d, day0+50*86_400_000, day0+51*86_400_000-1, day0); err != nil {
		t.Fatal(err)
	}
	if a, b := count(); a != seals || b != incidents || snap() != before {
		t.Fatalf("the copied day differs from its rebuild: %d/%d seals, %d/%d incidents", a, seals, b, incidents)
	}
	t.Logf("Rebuild: %d waybills → their seals and incidents in %v (%.2f ms a waybill); the set: %d seals, %d incidents",
		n, took.Round(time.Millisecond), float64(took.Microseconds())/1000/float64(n), seals, incidents)

	s := New(d)
	p := &httpx.Principal{UserID: 1, GroupPath: "/1/"}
	month := Query{StartTime: httpx.Time(day0 + 60*86_400_000), EndTime: httpx.Time(day0 + 90*86_400_000 - 1)}
	if os.Getenv("TANKWATCH_SEAL_EXPLAIN") == "1" { // the plans, for whoever tunes the queries
		q := month
		_ = q.Normalize()
		tot, _ := s.seals(ctx, p, &q, s.db.NewSelect().TableExpr("seal_records AS s"))
		page, _ := s.seals(ctx, p, &q, s.sealSelect())
		for _, sel := range []string{tot.ColumnExpr("COUNT(*)").String(), page.OrderExpr("s.applied_at DESC, s.id").Limit(10).String()} {
			var plan []string
			if err := d.NewRaw("EXPLAIN ANALYZE "+sel).Scan(ctx, &plan); err != nil {
				t.Fatal(err)
			}
			t.Logf("%s\n%s", sel, strings.Join(plan, "\n"))
		}
	}
	measure := func(name string, fn func() error) {
		var ds []time.Duration
		for range 30 {
			st := time.Now()
			if err := fn(); err != nil {
				t.Fatal(err)
			}
			ds = append(ds, time.Since(st))
		}
		slices.Sort(ds)
		t.Logf("%s: p50 %v, p99 %v", name, ds[len(ds)/2].Round(time.Millisecond/10), ds[len(ds)-1].Round(time.Millisecond/10))
	}
	measure("seals page, 30 days, whole scope (page 1 + totals)", func() error {
		pg, err := s.Page(ctx, p, month)
		if err == nil && pg.Totals.Total != 90_000 {
			t.Errorf("30 days: %d seals, want 90000", pg.Totals.Total)
		}
		return err
	})
	measure("seals page, a seal number over 100 days", func() error {
		_, err := s.Page(ctx, p, Query{SealNo: "QF5000-2"})
		return err
	})
	measure("seals page, 30 days, sorted by broken time, page 100", func() error {
		q := month
		q.PageNum, q.SortField, q.SortOrder = 100, "brokenAt", "descend"
		_, err := s.Page(ctx, p, q)
		return err
	})
	measure("incidents page, 30 days (page 1 + totals by kind)", func() error {
		_, err := s.IncidentsPage(ctx, p, month, func(*IncidentView) string { return "" })
		return err
	})
	measure("Sync of one waybill (no change)", func() error {
		return Sync(ctx, d, 5000, day0)
	})
}
