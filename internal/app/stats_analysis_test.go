package app_test

import (
	"strings"
	"testing"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/stats"
	"tankwatch/internal/stats/analysis"
	"tankwatch/internal/waybill"
)

// TestAnalysisHTTP: the analysis endpoints over HTTP on the demo: figures from the rollups (route rows
// kept through the registered refresher), the caller's scope, a drill-down whose count is the figure,
// clear errors for bad input in the caller's language, and real xlsx downloads.
func TestAnalysisHTTP(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		f := setup(t, e)
		admin := e.Login("admin", "admin123")
		ctx := t.Context()
		// one finished trip in 华东 and the fixture's 华北 trip finished too, both on 2026-02-10
		closed := stats.DayStart(20260210) + 10*3_600_000
		east := insertWaybill(t, e, f.east, f.eastCar, f.northStation)
		for _, w := range []struct {
			id         int64
			st         waybill.State
			v20, loss  float64
			depart, km int64
		}{{east, waybill.Closed, 20000, 5, closed - 3_600_000, 120}, {f.northWaybill, waybill.DiffFlagged, 10000, 50, 0, 80}} {
			if _, err := e.DB.NewUpdate().Table("waybills").Set("state = ?, closed_at = ?, depart_at = ?, arrive_at = ?", w.st, closed, w.depart, closed-1_800_000).
				Set("shipped_v20 = ?, shipped_mass_t = 10, loss_l = ?, loss_rate_pct = ?, allowed_pct = 0.3, loaded_km = ?", w.v20, w.loss, w.loss/w.v20*100, w.km).
				Where("id = ?", w.id).Exec(ctx); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := stats.Rebuild(ctx, e.DB, 20260210, 20260210); err != nil {
			t.Fatal(err)
		}
		feb := map[string]any{"start": "2026-02-01 00:00:00", "end": "2026-02-28 23:59:59"}
		with := func(kv ...any) map[string]any {
			m := map[string]any{}
			for k, v := range feb {
				m[k] = v
			}
			for i := 0; i+1 < len(kv); i += 2 {
				m[kv[i].(string)] = kv[i+1]
			}
			return m
		}
		const base = "/monitor-app/outToArrival/"
		var b analysis.Breakdown
		e.MustOK("POST", base+"selectTransportProcessStatistics", admin, with("dim", "route")).Decode(&b)
		// both trips: 30000 L V20, loss 55 L; one timed (30 min); both from and to the 华北 station: one route
		if b.Totals.Trips != 2 || b.Totals.ShippedV20L != 30000 || b.Totals.LossL != 55 || b.Totals.OverAllowance != 1 ||
			b.Totals.AvgOutToArrivalMin != 30 || len(b.Rows) != 1 || b.Rows[0].Trips != 2 || b.Rows[0].StationID != f.northStation ||
			b.Rows[0].Spread.AvgMin != 30 || b.Rows[0].Spread.StdMin != 0 {
			t.Fatalf("admin's routes = %+v", b)
		}
		e.MustOK("POST", base+"selectTransportProcessStatistics", f.eastTok, feb).Decode(&b)
		if b.Totals.Trips != 1 || b.Totals.ShippedV20L != 20000 || len(b.Rows) != 1 || b.Rows[0].Key != f.east || *b.Totals.Tampering != 0 {
			t.Errorf("华东's companies = %+v", b)
		}
		var page struct {
			Total int                `json:"total"`
			List  []analysis.TripRow `json:"list"`
		}
		e.MustOK("POST", base+"trips", admin, with("only", "over")).Decode(&page)
		if page.Total != 1 || page.List[0].ID != f.northWaybill || !page.List[0].Over {
			t.Errorf("over drill-down = %+v", page)
		}
		e.MustOK("POST", base+"trips", admin, with("companyId", f.east)).Decode(&page)
		if page.Total != 1 || page.List[0].ID != east || page.List[0].TonKm != 1200 {
			t.Errorf("company drill-down = %+v", page)
		}
		var top []analysis.TripRow
		e.MustOK("POST", base+"v20Top5", admin, feb).Decode(&top)
		if len(top) != 2 || top[0].ID != f.northWaybill {
			t.Errorf("top 5 = %+v", top)
		}
		var c analysis.Comparison
		e.MustOK("POST", base+"selectTonKilometers", admin, with("grain", "week")).Decode(&c)
		// February 2026: 1st (Sunday), four Monday weeks, no last-month data: every change is "—"
		if len(c.Current.Points) != 5 || c.Current.Totals.Trips != 2 || c.LastMonth.Period.From != 20260101 || c.MoM["trips"] != nil {
			t.Errorf("comparison = %+v", c)
		}
		e.MustOK("POST", base+"tonKilometersMonth", admin, map[string]any{"year": 2026}).Decode(&c)
		if len(c.Current.Points) != 12 || c.Current.Points[1].Trips != 2 || c.LastYear.Period.From != 20250101 {
			t.Errorf("months = %+v", c.Current.Points)
		}

		// bad input: clear messages, in the caller's language
		for _, bad := range []struct {
			body map[string]any
			want string
		}{
			{map[string]any{}, "请选择统计时段"},
			{map[string]any{"start": "2026-03-01 00:00:00", "end": "2026-02-01 00:00:00"}, "结束时间必须晚于开始时间"},
			{map[string]any{"start": "2020-01-01 00:00:00", "end": "2026-02-01 00:00:00"}, "最长 1100 天"},
			{with("dim", "car"), "分组维度"},
			{with("productId", f.northProduct, "depotId", f.northStation), "油品与线路不能同时"},
		} {
			if r := e.Call("POST", base+"selectTransportProcessStatistics", admin, bad.body); r.Code == 1 || !strings.Contains(r.Message, bad.want) {
				t.Errorf("%v: %d %s, want %q", bad.body, r.Status, r.Body, bad.want)
			}
		}
		e.Lang = "en-US"
		if r := e.Call("POST", base+"selectTonKilometers", admin, with("grain", "hour")); r.Code == 1 || !strings.Contains(r.Message, "Step") {
			t.Errorf("grain in English: %s", r.Body)
		}
		e.Lang = ""

		for _, p := range []string{"export", "exportTrend"} {
			r := e.Call("POST", base+p, admin, with("dim", "route"))
			if r.Status != 200 || !strings.Contains(r.Header.Get("Content-Type"), "spreadsheetml") || len(r.Body) < 100 || string(r.Body[:2]) != "PK" {
				t.Errorf("%s: %d %s %d bytes", p, r.Status, r.Header.Get("Content-Type"), len(r.Body))
			}
		}
	})
}
