package app_test

import (
	"math"
	"strconv"
	"testing"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/platform/config"
	"tankwatch/internal/platform/db/dbtest"
	"tankwatch/internal/stats/overview"
	"tankwatch/internal/waybill/views"
)

// TestOverviewStatistic runs the overview on the demo's past trips (clock 2026-03-01): the tiles are
// the period's finished trips, the previous period is the same length before it, every series adds up
// to the tiles, and the drill-down behind a tile, a day and a company lists exactly that many trips.
func TestOverviewStatistic(t *testing.T) {
	dbtest.DataHeavy(t)
	t.Parallel()
	eachWithHistory(t, func(t *testing.T, e *apptest.Env) {
		admin := e.Login("admin", "admin123")
		q := map[string]any{"start": "2026-02-01", "end": "2026-02-28"}
		var o overview.Overview
		e.MustOK("POST", "/monitor-app/transportProcessItem/selectTrafficStatistics", admin, q).Decode(&o)
		c := o.Current
		if c.Trips < 12*28 || c.ShippedV20L <= 0 || c.TonKm <= 0 || c.AvgOutToArrivalMin <= 0 || c.OverAllowance == 0 {
			t.Fatalf("current tiles: %+v", c)
		}
		if o.PrevFrom != "2026-01-04" || o.PrevTo != "2026-01-31" || o.Previous.Trips == 0 {
			t.Errorf("previous period %s…%s: %+v", o.PrevFrom, o.PrevTo, o.Previous)
		}
		if math.Abs(c.LossRatePct-math.Round(c.LossL/c.ShippedV20L*100*10000)/10000) > 1e-9 {
			t.Errorf("loss rate %v of %v / %v", c.LossRatePct, c.LossL, c.ShippedV20L)
		}
		// the series add up to the tiles
		var dayTrips, compTrips int64
		var dayV20 float64
		for _, d := range o.ByDay {
			dayTrips += d.Trips
			dayV20 += d.ShippedV20L
		}
		for _, g := range o.ByCompany {
			compTrips += g.Trips
		}
		if len(o.ByDay) != 28 || dayTrips != c.Trips || math.Abs(dayV20-c.ShippedV20L) > 0.5 || compTrips != c.Trips {
			t.Errorf("series: %d days, %d day trips, %d company trips, want %d", len(o.ByDay), dayTrips, compTrips, c.Trips)
		}
		var prodV20 float64
		for _, p := range o.ByProduct {
			prodV20 += p.ShippedV20L
			if p.Name == "" {
				t.Errorf("product %d without a name", p.Key)
			}
		}
		if math.Abs(prodV20-c.ShippedV20L) > 0.5 {
			t.Errorf("products ship %v, trips %v", prodV20, c.ShippedV20L)
		}
		// drill-downs: the transport record's rows of the same days and scope
		drill := func(extra map[string]any) views.RecordPage {
			body := map[string]any{"start": "2026-02-01", "end": "2026-02-28", "pageNum": 1, "pageSize": 10}
			for k, v := range extra {
				body[k] = v
			}
			var pg views.RecordPage
			e.MustOK("POST", "/monitor-app/transportProcessItem/trips", admin, body).Decode(&pg)
			return pg
		}
		if pg := drill(nil); int64(pg.Total) != c.Trips || pg.Totals.Trips != int(c.Trips) || len(pg.List) != 10 {
			t.Errorf("drill-down of the trips tile: %d rows, totals %d, want %d", pg.Total, pg.Totals.Trips, c.Trips)
		}
		if pg := drill(map[string]any{"over": "over"}); int64(pg.Total) != c.OverAllowance {
			t.Errorf("drill-down of over-allowance: %d, want %d", pg.Total, c.OverAllowance)
		}
		d := o.ByDay[9]
		if pg := drill(map[string]any{"day": d.Day}); int64(pg.Total) != d.Trips || math.Abs(pg.Totals.ShippedV20-d.ShippedV20L) > 0.5 {
			t.Errorf("drill-down of %s: %d trips %v L, want %d %v", d.Day, pg.Total, pg.Totals.ShippedV20, d.Trips, d.ShippedV20L)
		}
		g := o.ByCompany[0]
		if pg := drill(map[string]any{"groupId": g.Key}); int64(pg.Total) != g.Trips {
			t.Errorf("drill-down of %s: %d, want %d", g.Name, pg.Total, g.Trips)
		}
		// bad input: a clear message, no crash
		for _, c := range []struct {
			body map[string]any
			msg  string
		}{
			{map[string]any{"start": "", "end": "2026-02-01"}, "请选择统计时间段"},
			{map[string]any{"start": "2026-02-10", "end": "2026-02-01"}, "结束日期不能早于开始日期"},
			{map[string]any{"start": "2024-01-01", "end": "2026-02-01"}, "统计时间段最长 366 天"},
			{map[string]any{"start": "2026-13-01", "end": "2026-02-01"}, "统计时间段格式不正确"},
		} {
			r := e.Call("POST", "/monitor-app/transportProcessItem/selectTrafficStatistics", admin, c.body)
			if r.Code == 1 || r.Message != c.msg {
				t.Errorf("%v: %d %q, want %q", c.body, r.Code, r.Message, c.msg)
			}
		}
		if r := e.Call("POST", "/monitor-app/transportProcessItem/trips", admin, map[string]any{"start": "2026-02-01", "end": "2026-02-28", "day": "2026-03-05"}); r.Code == 1 {
			t.Errorf("a day outside the period was accepted: %s", r.Body)
		}
		// the trips by state now: the live demo is not driving here, so nothing is under way
		var now overview.NowStates
		e.MustOK("POST", "/base-info-app/transportProcess/transportProcessStatistics", admin, map[string]any{}).Decode(&now)
		if len(now.States) != 11 || now.States[0].State != "PLANNED" {
			t.Errorf("states now: %+v", now)
		}
		// the export: the tiles of both periods, then 28 days, the companies and the products
		r := e.Call("POST", "/monitor-app/transportProcessItem/exportStatistics", admin, q)
		rows := apptest.SheetRows(t, r.Body)
		if r.Status != 200 || len(rows) != 1+2+28+len(o.ByCompany)+len(o.ByProduct) || rows[1][2] != itoa64(c.Trips) {
			t.Errorf("export: %d %d rows, first %v", r.Status, len(rows), rows[1])
		}
	})
}

// TestOverviewReport: the operations report of a company for February 2026 has the summary of its
// trips, and its per-car, per-product and per-station sections add up to it; the xlsx has every section.
func TestOverviewReport(t *testing.T) {
	dbtest.DataHeavy(t)
	t.Parallel()
	e := apptest.New(t, "sqlite", historyCfg)
	admin := e.Login("admin", "admin123")
	east := e.Groups(admin)["华东分公司"]
	var rep overview.Report
	e.MustOK("POST", "/monitor-app/report/operations", admin, map[string]any{"groupId": east, "kind": "month", "date": "2026-02-11"}).Decode(&rep)
	if rep.From != "2026-02-01" || rep.To != "2026-02-28" || rep.Company != "华东分公司" || rep.Summary.Trips == 0 {
		t.Fatalf("report %s %s…%s: %+v", rep.Company, rep.From, rep.To, rep.Summary)
	}
	var carTrips int64
	var carLoss, prodV20, stationV20 float64
	for _, c := range rep.Cars {
		carTrips += c.Trips
		carLoss += c.LossL
	}
	for _, p := range rep.Products {
		prodV20 += p.ShippedV20L
	}
	var unloadings int64
	for _, s := range rep.Stations {
		stationV20 += s.ReceivedV20
		unloadings += s.Unloadings
	}
	sum := rep.Summary
	if carTrips != sum.Trips || math.Abs(carLoss-sum.LossL) > 0.5 || math.Abs(prodV20-sum.ShippedV20L) > 0.5 ||
		math.Abs(stationV20-sum.ReceivedV20L) > 0.5 || unloadings < sum.Trips {
		t.Errorf("sections do not add up: cars %d/%v, products %v, stations %v/%d; summary %+v", carTrips, carLoss, prodV20, stationV20, unloadings, sum)
	}
	var over, opening int64
	for _, d := range rep.Differences {
		switch d.Kind {
		case "over":
			over++
		case "opening":
			opening++
		}
	}
	if over != sum.OverAllowance || opening != sum.AbnormalOpenings {
		t.Errorf("differences: %d over, %d openings; summary %d, %d", over, opening, sum.OverAllowance, sum.AbnormalOpenings)
	}
	// the week and the day of the same date
	var wk overview.Report
	e.MustOK("POST", "/monitor-app/report/operations", admin, map[string]any{"groupId": east, "kind": "week", "date": "2026-02-11"}).Decode(&wk)
	if wk.From != "2026-02-09" || wk.To != "2026-02-15" || wk.Summary.Trips == 0 || wk.Summary.Trips >= sum.Trips {
		t.Errorf("week %s…%s: %d trips", wk.From, wk.To, wk.Summary.Trips)
	}
	for _, c := range []struct {
		body map[string]any
		msg  string
	}{
		{map[string]any{"kind": "month", "date": "2026-02-11"}, "单位不能为空"},
		{map[string]any{"groupId": east, "kind": "year", "date": "2026-02-11"}, "报表类型格式不正确"},
		{map[string]any{"groupId": east, "kind": "day", "date": "11/02/2026"}, "报表日期不能为空"},
	} {
		if r := e.Call("POST", "/monitor-app/report/operations", admin, c.body); r.Code == 1 || r.Message != c.msg {
			t.Errorf("%v: %q, want %q", c.body, r.Message, c.msg)
		}
	}
	r := e.Call("POST", "/monitor-app/report/export", admin, map[string]any{"groupId": east, "kind": "month", "date": "2026-02-11"})
	rows := apptest.SheetRows(t, r.Body)
	want := 1 + 1 + 1 + len(rep.Cars) + len(rep.Products) + len(rep.Stations) + len(rep.Differences) + 1
	if r.Status != 200 || len(rows) != want || rows[1][1] != "华东分公司" || rows[2][2] != itoa64(sum.Trips) {
		t.Errorf("report export: %d, %d rows (want %d): %v %v", r.Status, len(rows), want, rows[1], rows[2])
	}
}

// historyCfg is a demo whose fleet is configured (the twelve named cars): Bootstrap seeds their past trips.
var historyCfg = config.Config{Demo: true, DemoVehicles: 12, DemoHistoryCars: 12}

// eachWithHistory runs fn on a demo instance with the past trips per dialect.
func eachWithHistory(t *testing.T, fn func(t *testing.T, e *apptest.Env)) {
	t.Helper()
	for _, d := range dbtest.Dialects() {
		t.Run(d, func(t *testing.T) { fn(t, apptest.New(t, d, historyCfg)) })
	}
}

func itoa64(n int64) string { return strconv.FormatInt(n, 10) }
