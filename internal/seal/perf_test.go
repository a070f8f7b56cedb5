package seal

import (
	"context"
	"os"
	"slices"
	"testing"
	"time"

	"tankwatch/internal/platform/db/dbtest"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/waybill"
)

// TestSealFiguresPerf measures, on PostgreSQL, the sync of one waybill (through Rebuild) and the
// leadSealRecord page on 300,000 seals of 1,000 cars over 100 days (docs/PERFORMANCE.md). It runs
// only when TANKWATCH_SEAL_PERF=1 (a minute of the machine; not part of the suite).
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

	start := time.Now()
	n, err := Rebuild(ctx, d, 0, 0, day0)
	if err != nil || n != cars*days {
		t.Fatalf("Rebuild = %d, %v", n, err)
	}
	took := time.Since(start)
	exec("ANALYZE")
	var seals, incidents int
	_ = d.NewRaw("SELECT COUNT(*) FROM seal_records").Scan(ctx, &seals)
	_ = d.NewRaw("SELECT COUNT(*) FROM seal_incidents").Scan(ctx, &incidents)
	t.Logf("Rebuild: %d waybills → %d seals, %d incidents in %v (%.2f ms a waybill)", n, seals, incidents, took.Round(time.Millisecond),
		float64(took.Microseconds())/1000/float64(n))

	s := New(d)
	p := &httpx.Principal{UserID: 1, GroupPath: "/1/"}
	month := Query{StartTime: httpx.Time(day0 + 60*86_400_000), EndTime: httpx.Time(day0 + 90*86_400_000 - 1)}
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
