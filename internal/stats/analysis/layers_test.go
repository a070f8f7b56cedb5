package analysis

import (
	"context"
	"fmt"
	"math"
	"testing"

	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/db/dbtest"
	"tankwatch/internal/stats"
)

type groupRow struct {
	Day     int64   `bun:"day"`
	Group   int64   `bun:"group_id"`
	Sales   int64   `bun:"sales_group_id"`
	Depot   int64   `bun:"depot_id"`
	Station int64   `bun:"station_id"`
	Trips   int64   `bun:"trips"`
	V20     float64 `bun:"shipped_v20_l"`
	Loss    float64 `bun:"loss_l"`
	TonKm   float64 `bun:"ton_km"`
	Timed   int64   `bun:"timed_trips"`
	Min     float64 `bun:"out_to_arrival_min"`
	Sq      float64 `bun:"out_to_arrival_sq"`
	Lo      float64 `bun:"out_to_arrival_lo"`
	Hi      float64 `bun:"out_to_arrival_hi"`
	Over    int64   `bun:"over_allowance"`
}

func (r groupRow) key() string { return fmt.Sprint(r.Day, r.Group, r.Sales, r.Depot, r.Station) }

// layersMatch checks both route group layers against the cars' route rows added up in Go: the same
// keys, sums, shortest and longest.
func layersMatch(t *testing.T, d *db.DB, when string) {
	t.Helper()
	ctx := context.Background()
	read := func(table, day string) []groupRow {
		var rows []groupRow
		if err := d.NewSelect().TableExpr(table).ColumnExpr(day+" AS day, group_id, sales_group_id, depot_id, station_id, trips, shipped_v20_l, loss_l, ton_km, "+
			"timed_trips, out_to_arrival_min, out_to_arrival_sq, out_to_arrival_lo, out_to_arrival_hi, over_allowance").Scan(ctx, &rows); err != nil {
			t.Fatal(err)
		}
		return rows
	}
	cars := read("stat_route_daily", "day")
	for _, level := range []struct {
		table, col string
		div        int64
	}{{"stat_route_group_daily", "day", 1}, {"stat_route_group_monthly", "month", 100}} {
		want := map[string]*groupRow{}
		for _, c := range cars {
			c.Day /= level.div
			w := want[c.key()]
			if w == nil {
				cp := c
				want[c.key()] = &cp
				continue
			}
			w.Trips, w.V20, w.Loss, w.TonKm, w.Timed, w.Min, w.Sq, w.Over = w.Trips+c.Trips, w.V20+c.V20, w.Loss+c.Loss, w.TonKm+c.TonKm,
				w.Timed+c.Timed, w.Min+c.Min, w.Sq+c.Sq, w.Over+c.Over
			if c.Lo >= 0 && (w.Lo < 0 || c.Lo < w.Lo) {
				w.Lo = c.Lo
			}
			w.Hi = math.Max(w.Hi, c.Hi)
		}
		got := read(level.table, level.col)
		if len(got) != len(want) {
			t.Fatalf("%s: %s has %d rows, the cars' rows add up to %d", when, level.table, len(got), len(want))
		}
		for _, g := range got {
			w := want[g.key()]
			if w == nil || g.Trips != w.Trips || !near(g.V20, w.V20) || !near(g.Loss, w.Loss) || !near(g.TonKm, w.TonKm) || g.Timed != w.Timed ||
				!near(g.Min, w.Min) || !near(g.Sq, w.Sq) || g.Lo != w.Lo || g.Hi != w.Hi || g.Over != w.Over {
				t.Fatalf("%s: %s row %+v, the cars' rows add up to %+v", when, level.table, g, w)
			}
		}
	}
}

// Every route sum the pages ask for gives the same answer from the group layers as from the cars' rows.
func TestRouteLayersAnswerAsCarRows(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f := seed(t, d)
		if _, err := stats.Rebuild(ctx, d, 20251101, 20261130); err != nil {
			t.Fatal(err)
		}
		layersMatch(t, d, "rebuild")
		for _, p := range []Period{nov, {20261001, 20261130}, {20251101, 20261130}, {20261015, 20261102}, {20261102, 20261102}, {20261201, 20261231}} {
			for _, sc := range []Scope{{Under: "/1/"}, {Under: "/1/", GroupID: f.north}, {Under: "/1/", DepotID: f.depot, StationID: f.s1}, {Under: "/1/2/"}} {
				sc.Period = p
				for _, key := range []string{"0", "s.day", "s.group_id"} {
					for _, byRoute := range []bool{false, true} {
						fast, err := sumRoutesFrom(ctx, d, sc, key, byRoute, true)
						if err != nil {
							t.Fatal(err)
						}
						slow, err := sumRoutesFrom(ctx, d, sc, key, byRoute, false)
						if err != nil {
							t.Fatal(err)
						}
						if len(fast) != len(slow) {
							t.Fatalf("%+v %s %v: %d rows from the layers, %d from the cars", sc, key, byRoute, len(fast), len(slow))
						}
						for i := range fast {
							a, b := fast[i], slow[i]
							if a.Key != b.Key || a.Depot != b.Depot || a.Station != b.Station || a.Trips != b.Trips || !near(a.ShippedV20L, b.ShippedV20L) ||
								!near(a.LossL, b.LossL) || !near(a.Sq, b.Sq) || a.Lo != b.Lo || a.Hi != b.Hi || a.spread() != b.spread() {
								t.Fatalf("%+v %s %v row %d: layers %+v, cars %+v", sc, key, byRoute, i, a, b)
							}
						}
					}
				}
			}
		}
	})
}
