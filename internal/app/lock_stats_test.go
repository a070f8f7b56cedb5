package app_test

import (
	"bytes"
	"testing"

	"github.com/xuri/excelize/v2"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/lock"
	"tankwatch/internal/stats"
)

type lockStatResult struct {
	List []struct {
		Label   string           `json:"label"`
		Name    string           `json:"name"`
		CarID   int64            `json:"carId"`
		From    string           `json:"from"`
		To      string           `json:"to"`
		Figures map[string]int64 `json:"figures"`
	} `json:"list"`
	Total  int              `json:"total"`
	Totals map[string]int64 `json:"totals"`
	Chart  []struct {
		Label string `json:"label"`
	} `json:"chart"`
}

// TestLockStatsHTTP: lock events of an east and a north car, recorded with their marks, are counted
// by the worker; the admin sees both, 华东 its own car; a figure's drill-down lists as many events;
// the export is a real xlsx with the totals row; bad input answers in the caller's language.
func TestLockStatsHTTP(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		f := setup(t, e)
		ctx := t.Context()
		admin := e.Login("admin", "admin123")
		now := e.Clock.Now().UnixMilli() // 2026-03-01 16:00 in Shanghai
		ev := func(car, group int64, serial string, k lock.Event, m lock.Method, at int64) {
			r := lock.EventRow{Serial: serial, CarID: car, GroupID: group, Event: k, Method: m, T: at, RecordedAt: at, BatteryPct: -1}
			if _, err := e.DB.NewInsert().Model(&r).Exec(ctx); err != nil {
				t.Fatal(err)
			}
			if err := stats.MarkDirty(ctx, e.DB, stats.DirtyLock, car, stats.Day(at), at); err != nil {
				t.Fatal(err)
			}
		}
		// the fixture's own load records marked their seals' days: those first
		if _, err := e.App.DrainLockStats(ctx); err != nil {
			t.Fatal(err)
		}
		var eastGroup, northGroup int64
		_ = e.DB.NewRaw("SELECT group_id FROM cars WHERE id = ?", f.eastCar).Scan(ctx, &eastGroup)
		_ = e.DB.NewRaw("SELECT group_id FROM cars WHERE id = ?", f.northCar).Scan(ctx, &northGroup)
		ev(f.eastCar, eastGroup, "T-E1", lock.EventOpened, lock.MethodRemote, now-3_600_000)
		ev(f.eastCar, eastGroup, "T-E1", lock.EventOpened, lock.MethodBLE, now-1_800_000)
		ev(f.eastCar, eastGroup, "T-E1", lock.EventOffline, 0, now-1_000_000)
		ev(f.eastCar, eastGroup, "T-E1", lock.EventOnline, 0, now-400_000) // 600 s offline
		ev(f.northCar, northGroup, "T-N1", lock.EventOpened, lock.MethodLocalKey, now-600_000)
		if n, err := e.App.DrainLockStats(ctx); err != nil || n != 2 {
			t.Fatalf("drain = %d, %v; want the two cars' day", n, err)
		}
		q := map[string]any{"start": "2026-03-01 00:00:00", "end": "2026-03-01 23:59:59", "pageSize": 50}
		var all, east lockStatResult
		e.MustOK("POST", "/monitor-app/blueLockStat/page", admin, q).Decode(&all)
		if all.Totals["opened"] != 3 || all.Totals["openedKey"] != 1 || all.Totals["offlineS"] != 600 || len(all.Chart) != 1 || all.Chart[0].Label != "2026-03-01" {
			t.Errorf("admin totals = %v chart %v", all.Totals, all.Chart)
		}
		e.MustOK("POST", "/monitor-app/blueLockStat/page", f.eastTok, q).Decode(&east)
		if east.Total != 1 || east.Totals["opened"] != 2 || east.List[0].CarID != f.eastCar || east.List[0].Figures["offlineS"] != 600 {
			t.Errorf("华东 sees %+v", east)
		}
		var drill struct {
			Total int   `json:"total"`
			Sum   int64 `json:"sum"`
			List  []struct {
				Serial string `json:"serial"`
				Method int    `json:"method"`
			} `json:"list"`
		}
		e.MustOK("POST", "/monitor-app/lockStat/rows", f.eastTok, map[string]any{"kind": "lock", "column": "opened", "from": "2026-03-01", "to": "2026-03-01",
			"carId": f.eastCar}).Decode(&drill)
		if drill.Total != 2 || drill.Sum != 2 || drill.List[0].Serial != "T-E1" || drill.List[0].Method != int(lock.MethodRemote) {
			t.Errorf("drill-down = %+v", drill)
		}
		// per lock, by week, by month: the same totals
		for _, pg := range []string{"blueLockStat2", "blueLockWeekStat", "blueLockMonthStat"} {
			var r lockStatResult
			e.MustOK("POST", "/monitor-app/"+pg+"/page", admin, q).Decode(&r)
			if r.Totals["opened"] != 3 || r.Totals["offlineS"] != 600 {
				t.Errorf("%s totals = %v", pg, r.Totals)
			}
		}
		// the export: a real xlsx, one row per row of the page, then the totals
		x := e.Call("POST", "/monitor-app/blueLockStat/export", admin, q)
		if x.Status != 200 || x.Header.Get("Content-Type") != "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" {
			t.Fatalf("export: %d %s", x.Status, x.Header.Get("Content-Type"))
		}
		book, err := excelize.OpenReader(bytes.NewReader(x.Body))
		if err != nil {
			t.Fatal(err)
		}
		rows, _ := book.GetRows(book.GetSheetName(0))
		if len(rows) != 1+all.Total+1 || rows[0][0] != "统计周期" || rows[len(rows)-1][0] != "合计" || rows[len(rows)-1][3] != "3" {
			t.Errorf("export rows = %v", rows)
		}
		// bad input in the caller's language
		e.Lang = "en-US"
		r := e.Call("POST", "/monitor-app/blueLockStat/page", admin, map[string]any{"start": "2026-03-02 00:00:00", "end": "2026-03-01 00:00:00"})
		if r.Code != 0 || r.Message != "The end date must not be before the start date" {
			t.Errorf("end before start: %d %s", r.Status, r.Body)
		}
		r = e.Call("POST", "/monitor-app/blueLockStat/page", admin, map[string]any{"start": "2026-03-01 00:00:00", "end": "2026-03-01 00:00:00", "sortField": "nope"})
		if r.Code != 0 || r.Status == 500 {
			t.Errorf("unknown sort: %d %s", r.Status, r.Body)
		}
		e.Lang = ""
		// a reader of the seal pages only may not list lock events
		role := newID(e, admin, "/authority-app/roleInfo/insert", map[string]any{"name": "施封统计", "resourceCodes": []string{"04", "04-38"}})
		newID(e, admin, "/authority-app/userInfo/insert", map[string]any{"name": "sealreader", "password": "secret1", "groupId": f.east, "roleIds": []int64{role}})
		seals := e.Login("sealreader", "secret1")
		if r := e.Call("POST", "/monitor-app/lockStat/rows", seals, map[string]any{"kind": "lock", "column": "opened", "from": "2026-03-01", "to": "2026-03-01"}); r.Status != 403 {
			t.Errorf("a seal reader listed lock events: %d %s", r.Status, r.Body)
		}
		e.MustOK("POST", "/monitor-app/lockStat/rows", seals, map[string]any{"kind": "seal", "column": "applied", "from": "2026-03-01", "to": "2026-03-01"})
		// the rebuild recomputes every (car, day) pair of the lock rows (the two cars above) and of the seal
		// rows (the cars of the fixture's sealed load records)
		var pairs int
		from, to := stats.DayStart(20260301), stats.DayEnd(20260301)
		if err := e.DB.NewRaw(`SELECT (SELECT COUNT(DISTINCT car_id) FROM lock_events WHERE t BETWEEN ? AND ?)
			+ (SELECT COUNT(DISTINCT car_id) FROM seal_records WHERE applied_at BETWEEN ? AND ? OR broken_at BETWEEN ? AND ?)`,
			from, to, from, to, from, to).Scan(ctx, &pairs); err != nil {
			t.Fatal(err)
		}
		if n, err := e.App.RebuildLockStats(ctx, 20260301, 20260301); err != nil || n != pairs || n < 2 {
			t.Errorf("rebuild = %d, %v; want %d", n, err, pairs)
		}
	})
}
