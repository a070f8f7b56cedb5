package app_test

import (
	"context"
	"math"
	"testing"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/platform/config"
	"tankwatch/internal/platform/db/dbtest"
	"tankwatch/internal/stats"
	"tankwatch/internal/waybill"
)

// TestOverviewDemoHistory: with --demo (and its fleet) the past sixty days hold finished trips for the demo fleet,
// each consistent (a final state the loss rule gives, times in order, steps that end where the
// waybill stands, a load record whose items add up to the shipped V20), and the trip rollup counts
// exactly them; a second Bootstrap adds nothing.
func TestOverviewDemoHistory(t *testing.T) {
	dbtest.DataHeavy(t)
	t.Parallel()
	e := apptest.New(t, "sqlite", historyCfg)
	ctx := context.Background()
	var ws []waybill.Row
	if err := e.DB.NewSelect().Model(&ws).Where("remark = ?", "演示历史").OrderExpr("id").Scan(ctx); err != nil {
		t.Fatal(err)
	}
	if len(ws) < 12*60 {
		t.Fatalf("%d past trips, want at least one a car a day", len(ws))
	}
	today := stats.Day(e.Clock.Now().UnixMilli())
	first, last := int(stats.AddDays(today, -60)), int(stats.AddDays(today, -1))
	var over, opened, sold int
	cars := map[int64]bool{}
	for _, w := range ws {
		cars[w.CarID] = true
		d := stats.Day(w.ClosedAt)
		if d < first || d > last {
			t.Fatalf("%s closed on %d, outside %d…%d", w.No, d, first, last)
		}
		times := []int64{w.CreatedAt, w.DispatchedAt, w.LoadStartAt, w.LoadedAt, w.SealedAt, w.DepartAt, w.ArriveAt, w.UnsealedAt, w.UnloadStartAt, w.ReceivedAt, w.ClosedAt}
		for i := 1; i < len(times); i++ {
			if times[i] <= times[i-1] {
				t.Fatalf("%s: times out of order at %d: %v", w.No, i, times)
			}
		}
		l := waybill.LossOf(w.ShippedV20, w.ReceivedV20, w.LoadedKm)
		if math.Abs(l.LossL-w.LossL) > 0.051 || math.Abs(l.RatePct-w.LossRatePct) > 0.0001 {
			t.Fatalf("%s: loss %v/%v, the rule says %+v", w.No, w.LossL, w.LossRatePct, l)
		}
		want := waybill.Closed
		if l.Over || w.Flagged {
			want = waybill.DiffFlagged
		}
		if w.State != want {
			t.Fatalf("%s: state %v, want %v (over %v, flagged %v)", w.No, w.State, want, l.Over, w.Flagged)
		}
		if l.Over {
			over++
		}
		if w.Flagged {
			opened++
		}
		if w.SalesGroupID != nil {
			sold++
		}
		// 40–70 km/h on the road (the time to the last station's receipt includes the unloading)
		kmh := w.LoadedKm / (float64(w.ReceivedAt-w.DepartAt) / 3.6e6)
		if w.LoadedKm <= 0 || w.LoadedKm > 400 || kmh > 70 {
			t.Fatalf("%s: %.1f km in %d min", w.No, w.LoadedKm, (w.ArriveAt-w.DepartAt)/60000)
		}
	}
	if over == 0 || opened == 0 || sold == 0 || over > len(ws)/5 || opened > len(ws)/10 {
		t.Errorf("over %d, opened %d, sold %d of %d", over, opened, sold, len(ws))
	}
	// the steps end where the waybill stands; the load items add up to the shipped V20
	for _, w := range ws[:50] {
		steps, err := waybill.Steps(ctx, e.DB, w.ID)
		if err != nil || len(steps) < 10 {
			t.Fatalf("%s: %d steps, %v", w.No, len(steps), err)
		}
		if s := steps[len(steps)-1]; s.To != w.State || s.T != w.ClosedAt {
			t.Fatalf("%s: last step %+v, waybill %v at %d", w.No, s, w.State, w.ClosedAt)
		}
		var v20 float64
		if err := e.DB.NewSelect().TableExpr("load_record_items AS i").Join("JOIN load_records AS r ON r.id = i.record_id").
			ColumnExpr("SUM(i.v20_l)").Where("r.waybill_id = ?", w.ID).Scan(ctx, &v20); err != nil {
			t.Fatal(err)
		}
		if math.Abs(v20-w.ShippedV20) > 0.05 {
			t.Fatalf("%s: items %v, shipped %v", w.No, v20, w.ShippedV20)
		}
	}
	// the rollup has them all
	tot, err := stats.Sum(ctx, e.DB, stats.Filter{From: first, To: last, Under: "/"}, stats.ByTotal)
	if err != nil {
		t.Fatal(err)
	}
	if tot[0].Trips != int64(len(ws)) || tot[0].OverAllowance != int64(over) {
		t.Errorf("rollup %d trips %d over, want %d, %d", tot[0].Trips, tot[0].OverAllowance, len(ws), over)
	}
	// the lock and seal rollups are made at the seed, and no mark is left for the worker to redo (D128)
	if n, err := e.DB.NewSelect().Table("stat_dirty").Where("kind IN ('lock', 'seal')").Count(ctx); err != nil || n != 0 {
		t.Errorf("lock and seal marks left by the seed: %d, %v", n, err)
	}
	for _, table := range []string{"stat_lock_daily", "stat_seal_daily"} {
		if n, err := e.DB.NewSelect().Table(table).Count(ctx); err != nil || n == 0 {
			t.Errorf("%s: %d rows after the seed, %v", table, n, err)
		}
	}
	// deterministic: a second instance at the same clock seeds the same trips
	e2 := apptest.New(t, "sqlite", historyCfg)
	var ws2 []waybill.Row
	if err := e2.DB.NewSelect().Model(&ws2).Where("remark = ?", "演示历史").OrderExpr("id").Scan(ctx); err != nil {
		t.Fatal(err)
	}
	if len(ws2) != len(ws) || ws2[len(ws)-1].No != ws[len(ws)-1].No || ws2[len(ws)-1].LossL != ws[len(ws)-1].LossL {
		t.Errorf("second seed differs: %d trips", len(ws2))
	}
	// a demo organisation without a fleet gets no history
	bare := apptest.New(t, "sqlite", config.Config{Demo: true})
	if n, _ := bare.DB.NewSelect().Table("waybills").Where("remark = ?", "演示历史").Count(ctx); n != 0 {
		t.Errorf("a bare demo has %d past trips", n)
	}
	// once per data folder
	if err := e.App.Bootstrap(ctx, nilWriter{}); err != nil {
		t.Fatal(err)
	}
	n, _ := e.DB.NewSelect().Table("waybills").Where("remark = ?", "演示历史").Count(ctx)
	if n != int64(len(ws)) {
		t.Errorf("after a second Bootstrap: %d trips, want %d", n, len(ws))
	}
}

type nilWriter struct{}

func (nilWriter) Write(p []byte) (int, error) { return len(p), nil }
