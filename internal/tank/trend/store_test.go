package trend

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"tankwatch/internal/fleet"
	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/db/dbtest"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/tank/trend/rollup"
)

// t0 is 2026-03-01 00:00 UTC, aligned to the rollup.
const t0 = int64(1772323200000)

func fixture(t testing.TB, d *db.DB) {
	t.Helper()
	for _, q := range []string{
		"INSERT INTO org_groups (id, parent_id, path, name, created_at) VALUES (1, NULL, '/1/', 'top', 0)",
		"INSERT INTO org_groups (id, parent_id, path, name, created_at) VALUES (2, 1, '/1/2/', 'a', 0)",
		"INSERT INTO org_groups (id, parent_id, path, name, created_at) VALUES (3, 1, '/1/3/', 'b', 0)",
		"INSERT INTO cars (id, group_id, plate, compartments, created_at, updated_at) VALUES (1, 2, 'A1', 3, 0, 0)",
		"INSERT INTO cars (id, group_id, plate, compartments, created_at, updated_at) VALUES (2, 3, 'B1', 3, 0, 0)",
		"INSERT INTO compartments (car_id, no, product, capacity_l, height_mm) VALUES (1, 1, 0, 10000, 1800), (1, 2, 1, 8000, 1800), (1, 4, 0, 5000, 1500)",
	} {
		if _, err := d.ExecContext(context.Background(), q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// readings inserts n 10-second readings of compartments 1–3 of car from start: level falls 1 mm a
// reading in compartment 1, compartment 2 dips by 3000 L in one reading at dip (-1: none).
func readings(t testing.TB, d *db.DB, car int64, start int64, n int, dip int) {
	t.Helper()
	q := fmt.Sprintf("WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i < %d), c(k) AS (SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3) "+
		"INSERT INTO level_readings (car_id, t, compartment, level_mm, probe_l, temp_dc, volume_l, source, v20_l, mass_kg) "+
		"SELECT %d, %d + CAST(i AS BIGINT) * 10000, k, 1500 - (CASE WHEN k = 1 THEN i %% 1000 ELSE 0 END), 0, 200 + k, "+
		"CASE WHEN k = 2 AND i = %d THEN 5000.0 ELSE 8000.0 - (CASE WHEN k = 1 THEN i %% 1000 ELSE 0 END) END, 1, 7900.0, 6000.0 FROM s CROSS JOIN c",
		n-1, car, start, dip)
	if _, err := d.ExecContext(context.Background(), q); err != nil {
		t.Fatal(err)
	}
	q = fmt.Sprintf("WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i < %d) "+
		"INSERT INTO positions (car_id, t, terminal_id, received_at, lat, lon, speed, status) "+
		"SELECT %d, %d + CAST(i AS BIGINT) * 10000, 1, %d + CAST(i AS BIGINT) * 10000, 31000000 + i, 121000000, (i %% 90) * 10, 3 FROM s", n-1, car, start, start)
	if _, err := d.ExecContext(context.Background(), q); err != nil {
		t.Fatal(err)
	}
	// rows inserted by SQL, not by the history writer: their slices are made from them (D99)
	if err := rollup.Rebuild(context.Background(), d, car, start, start+int64(n)*10_000); err != nil {
		t.Fatal(err)
	}
}

func principal(path string) *httpx.Principal { return &httpx.Principal{UserID: 1, GroupPath: path} }

func TestLevelChartStore(t *testing.T) {
	dbtest.DataHeavy(t)
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		fixture(t, d)
		// two days and 7 minutes; the dip at reading 10000.
		n := 2*8640 + 42
		readings(t, d, 1, t0+3_000, n, 10000)
		s := New(d, fleet.New(d, nil))
		p := principal("/1/2/")
		end := t0 + 3_000 + int64(n)*10_000
		c, err := s.LevelChart(ctx, p, CarQuery{CarID: 1, Start: httpx.Time(t0 + 1), End: httpx.Time(end), MaxPoints: 400})
		if err != nil {
			t.Fatal(err)
		}
		if c.BucketMS == 0 || c.BucketMS%RollupMS != 0 {
			t.Fatalf("bucket %d", c.BucketMS)
		}
		if len(c.Compartments) != 4 { // 1, 2, 3 with readings; 4 configured without
			t.Fatalf("%d compartments", len(c.Compartments))
		}
		if c.Compartments[3].No != 4 || c.Compartments[3].Series.Len() != 0 || c.Compartments[3].CapacityL != 5000 {
			t.Fatalf("compartment 4: %+v", c.Compartments[3])
		}
		for _, cs := range c.Compartments[:3] {
			if cs.Readings != n {
				t.Fatalf("compartment %d: %d readings, want %d", cs.No, cs.Readings, n)
			}
			if cs.Series.Len() > 400 {
				t.Fatalf("compartment %d: %d points", cs.No, cs.Series.Len())
			}
		}
		// the one-reading dip of compartment 2 survives the buckets.
		if !containsV(c.Compartments[1].Series.V[1], 5000) {
			t.Fatal("the dip of compartment 2 is hidden")
		}
		if c.Compartments[0].Series.V[3][0] != 20.1 {
			t.Fatalf("temperature %v", c.Compartments[0].Series.V[3][0])
		}
		// the rollup answer equals bucketing the raw readings the same way.
		raw, err := s.levelSlices(ctx, 1, Range{Start: t0 + 1, End: end}, Plan{})
		if err != nil {
			t.Fatal(err)
		}
		for _, cs := range c.Compartments[:3] {
			want := Build(raw[cs.No], 4, 0, c.BucketMS)
			if !sameSeries(want, cs.Series) {
				t.Fatalf("compartment %d: rollup %v\nraw %v", cs.No, cs.Series.T[:8], want.T[:8])
			}
		}
		if c.Speed.Len() == 0 || c.Speed.Len() > 400 || !containsV(c.Speed.V[0], 89) {
			t.Fatalf("speed: %d points", c.Speed.Len())
		}
		// fewer points: the hourly summaries, the same answer as bucketing the raw readings.
		c, err = s.LevelChart(ctx, p, CarQuery{CarID: 1, Start: httpx.Time(t0 + 1), End: httpx.Time(end), MaxPoints: 100})
		if err != nil {
			t.Fatal(err)
		}
		if c.BucketMS%HourMS != 0 {
			t.Fatalf("hourly bucket %d", c.BucketMS)
		}
		for _, cs := range c.Compartments[:3] {
			if want := Build(raw[cs.No], 4, 0, c.BucketMS); !sameSeries(want, cs.Series) {
				t.Fatalf("hourly compartment %d differs from the raw readings", cs.No)
			}
		}
		if !containsV(c.Compartments[1].Series.V[1], 5000) {
			t.Fatal("the dip of compartment 2 is hidden by the hourly summaries")
		}
		// a short period: raw readings.
		c, err = s.LevelChart(ctx, p, CarQuery{CarID: 1, Start: httpx.Time(t0), End: httpx.Time(t0 + 600_000)})
		if err != nil {
			t.Fatal(err)
		}
		if c.BucketMS != 0 || c.Compartments[0].Series.Len() != 60 {
			t.Fatalf("raw: bucket %d, %d points", c.BucketMS, c.Compartments[0].Series.Len())
		}
		// an empty period.
		c, err = s.LevelChart(ctx, p, CarQuery{CarID: 1, Start: httpx.Time(t0 - 86400_000*10), End: httpx.Time(t0 - 86400_000)})
		if err != nil {
			t.Fatal(err)
		}
		if c.Compartments[0].Series.Len() != 0 || c.Speed.Len() != 0 {
			t.Fatal("points in an empty period")
		}
		// a car without compartments or readings: an empty list, never null.
		c, err = s.LevelChart(ctx, principal("/1/"), CarQuery{CarID: 2, Start: httpx.Time(t0), End: httpx.Time(end)})
		if err != nil {
			t.Fatal(err)
		}
		if b, _ := json.Marshal(c); !strings.Contains(string(b), `"compartments":[]`) || !strings.Contains(string(b), `"valves":[]`) {
			t.Fatalf("empty car: %s", b)
		}
		// scope: another group's car is refused, a missing one not found.
		if _, err := s.LevelChart(ctx, p, CarQuery{CarID: 2, Start: httpx.Time(t0), End: httpx.Time(end)}); !errors.Is(err, httpx.ErrScope) {
			t.Fatalf("other group: %v", err)
		}
		if _, err := s.LevelChart(ctx, p, CarQuery{CarID: 99, Start: httpx.Time(t0), End: httpx.Time(end)}); !errors.Is(err, httpx.ErrNotFound) {
			t.Fatalf("missing: %v", err)
		}
		if _, err := s.LevelChart(ctx, p, CarQuery{CarID: 1, Start: httpx.Time(end), End: httpx.Time(t0)}); err == nil {
			t.Fatal("end before start accepted")
		}
		// deleting readings (retention) drops their slices.
		if _, err := d.ExecContext(ctx, "DELETE FROM level_readings WHERE car_id = 1"); err != nil {
			t.Fatal(err)
		}
		var left int
		if err := d.QueryRowContext(ctx, "SELECT COUNT(*) FROM level_rollup WHERE car_id = 1").Scan(&left); err != nil || left != 0 {
			t.Fatalf("rollup rows left: %d %v", left, err)
		}
	})
}

func TestMarksAndPositionAt(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		fixture(t, d)
		readings(t, d, 1, t0, 100, -1)
		for _, q := range []string{
			fmt.Sprintf("INSERT INTO valve_changes (car_id, t, compartment, kind, prev_state, state) VALUES (1, %d, 2, 3, 0, 1)", t0+50_000),
			fmt.Sprintf("INSERT INTO valve_changes (car_id, t, compartment, kind, prev_state, state) VALUES (2, %d, 2, 3, 0, 1)", t0+50_000),
			fmt.Sprintf("INSERT INTO car_tank_events (car_id, compartment, kind, start_at, end_at, before_l, after_l) VALUES (1, 1, 'unload', %d, %d, 8000, 100)", t0-10_000, t0+20_000),
			fmt.Sprintf("INSERT INTO car_tank_events (car_id, compartment, kind, start_at, before_l, after_l) VALUES (1, 1, 'theft', %d, 8000, 7000)", t0+900_000),
			fmt.Sprintf("INSERT INTO alarms (car_id, group_id, group_path, type_code, level, start_at, detail) VALUES (1, 2, '/1/2/', 'fenceIn', 1, %d, 'S1')", t0+30_000),
			fmt.Sprintf("INSERT INTO alarms (car_id, group_id, group_path, type_code, level, start_at, detail) VALUES (1, 2, '/1/2/', 'overSpeed', 1, %d, '')", t0+30_000),
		} {
			if _, err := d.ExecContext(ctx, q); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
		s := New(d, fleet.New(d, nil))
		p := principal("/1/")
		c, err := s.LevelChart(ctx, p, CarQuery{CarID: 1, Start: httpx.Time(t0), End: httpx.Time(t0 + 600_000)})
		if err != nil {
			t.Fatal(err)
		}
		if len(c.Valves) != 1 || c.Valves[0].Kind != 3 || len(c.Events) != 1 || c.Events[0].Kind != "unload" ||
			len(c.Fences) != 1 || c.Fences[0].Name != "S1" || c.Fences[0].Kind != "fenceIn" {
			t.Fatalf("marks: %+v %+v %+v", c.Valves, c.Events, c.Fences)
		}
		pos, err := s.PositionAt(ctx, p, 0, 1, t0+44_000)
		if err != nil || pos == nil || pos.T != t0+40_000 || pos.Speed != 4 || math.Abs(pos.Lat-31.000004) > 1e-9 {
			t.Fatalf("position %+v %v", pos, err)
		}
		pos, err = s.PositionAt(ctx, p, 0, 1, t0+46_000)
		if err != nil || pos == nil || pos.T != t0+50_000 {
			t.Fatalf("position after %+v %v", pos, err)
		}
		if pos, err = s.PositionAt(ctx, p, 0, 1, t0+5*3600_000); err != nil || pos != nil {
			t.Fatalf("far from every position: %+v %v", pos, err)
		}
		if _, err = s.PositionAt(ctx, principal("/1/3/"), 0, 1, t0); !errors.Is(err, httpx.ErrScope) {
			t.Fatalf("scope: %v", err)
		}
	})
}

func TestGroundChart(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		fixture(t, d)
		stmts := []string{
			"INSERT INTO stations (id, group_id, name, station_type, fence_type, center_lng, center_lat, created_at, updated_at) VALUES (1, 2, 'S1', '1', 1, 121, 31, 0, 0)",
			"INSERT INTO ground_tanks (id, station_id, tank_no, name, capacity_l, height_mm, created_at, updated_at) VALUES (1, 1, 1, 'T1', 30000, 2500, 0, 0)",
			// 10 hours of minute readings: 600 L/h sales, a 5000 L delivery from hour 4 to 4:30.
			fmt.Sprintf("WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i < 599) "+
				"INSERT INTO ground_readings (tank_id, t, gauge_volume_l, gauge_tc_l, ullage_l, height_mm, water_mm, water_l, temp_c, volume_l, source, v20_l, mass_kg) "+
				"SELECT 1, %d + i * 60000, 0, 0, 0, 1000, 5, 0, 18.5, 20000 - i * 10 + (CASE WHEN i >= 270 THEN 5000 WHEN i > 240 THEN (i - 240) * 166 ELSE 0 END), 1, 0, 0 FROM s", t0),
			fmt.Sprintf("INSERT INTO ground_deliveries (tank_id, start_at, end_at, start_l, end_l, start_tc_l, end_tc_l, start_height, end_height, start_temp_c, end_temp_c) "+
				"VALUES (1, %d, %d, 17600, 22600, 0, 0, 0, 0, 0, 0)", t0+240*60_000, t0+270*60_000),
		}
		for _, q := range stmts {
			if _, err := d.ExecContext(ctx, q); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
		s := New(d, fleet.New(d, nil))
		c, err := s.GroundChart(ctx, principal("/1/2/"), TankQuery{TankID: 1, Start: httpx.Time(t0), End: httpx.Time(t0 + 10*3600_000)})
		if err != nil {
			t.Fatal(err)
		}
		if c.Readings != 600 || c.Series.Len() != 600 || c.BucketMS != 0 || len(c.Deliveries) != 1 || c.StationName != "S1" {
			t.Fatalf("chart: %d readings %d points bucket %d deliveries %d", c.Readings, c.Series.Len(), c.BucketMS, len(c.Deliveries))
		}
		if c.SalesMS != 3600_000 || c.Sales.Len() != 11 {
			t.Fatalf("sales buckets %d × %d", c.Sales.Len(), c.SalesMS)
		}
		for k, r := range c.Sales.V[0][:10] {
			if math.IsNaN(r) || math.Abs(r-600) > 1e-6 {
				t.Fatalf("sales rate of hour %d: %v (all %v)", k, r, c.Sales.V[0])
			}
		}
		if !math.IsNaN(c.Sales.V[0][10]) {
			t.Fatalf("an hour without readings has a rate %v", c.Sales.V[0][10])
		}
		if l, err := s.Tanks(ctx, principal("/1/2/")); err != nil || len(l) != 1 || l[0].StationName != "S1" {
			t.Fatalf("tanks %+v %v", l, err)
		}
		if l, err := s.Tanks(ctx, principal("/1/3/")); err != nil || len(l) != 0 {
			t.Fatalf("another group's tanks %+v %v", l, err)
		}
		if _, err := s.GroundChart(ctx, principal("/1/3/"), TankQuery{TankID: 1, Start: httpx.Time(t0), End: httpx.Time(t0 + 3600_000)}); !errors.Is(err, httpx.ErrScope) {
			t.Fatalf("scope: %v", err)
		}
		if _, err := s.GroundChart(ctx, principal("/1/"), TankQuery{TankID: 9, Start: httpx.Time(t0), End: httpx.Time(t0 + 3600_000)}); !errors.Is(err, httpx.ErrNotFound) {
			t.Fatalf("missing: %v", err)
		}
	})
}

func containsV(v Vals, x float64) bool {
	for _, y := range v {
		if y == x {
			return true
		}
	}
	return false
}

func sameSeries(a, b *Series) bool {
	if !reflect.DeepEqual(a.T, b.T) || len(a.V) != len(b.V) {
		return false
	}
	for k := range a.V {
		for i := range a.V[k] {
			x, y := a.V[k][i], b.V[k][i]
			if !(x == y || (math.IsNaN(x) && math.IsNaN(y))) {
				return false
			}
		}
	}
	return true
}
