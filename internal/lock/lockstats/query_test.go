package lockstats

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"tankwatch/internal/lock"
	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/db/dbtest"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/seal"
	"tankwatch/internal/stats"
)

// fixed: a week of events across the Sunday/Monday of weeks 47/48, a lock moved from an east car to
// a north car while offline, and a Monday of week 49. The figures below are counted by hand.
func fixed(t *testing.T, d *db.DB) *fixture {
	f := setup(t, d)
	e, n := f.carE, f.carN
	f.event(t, "L1", e, f.east, lock.EventOpened, lock.MethodRemote, f.depot, at(20261122, 10))
	f.event(t, "L1", e, f.east, lock.EventClosed, lock.MethodRemote, f.depot, at(20261122, 11))
	f.event(t, "L1", e, f.east, lock.EventOpened, lock.MethodBLE, 0, at(20261123, 9))
	f.event(t, "L1", e, f.east, lock.EventOffline, 0, 0, at(20261123, 22))
	f.event(t, "L1", n, f.north, lock.EventOnline, 0, 0, at(20261124, 2)) // rebound to the north car meanwhile
	f.event(t, "L1", n, f.north, lock.EventOpened, lock.MethodLocalKey, f.depot, at(20261124, 3))
	f.event(t, "L1", n, f.north, lock.EventTampered, 0, 0, at(20261124, 4))
	f.event(t, "L2", f.carE2, f.east, lock.EventOpened, lock.MethodRemote, 0, at(20261130, 8))
	f.event(t, "L2", f.carE2, f.east, lock.EventLowBattery, 0, 0, at(20261130, 9))
	f.seal(t, e, f.east, 1, at(20261122, 8), seal.StateBrokenAtDest, at(20261123, 10))
	f.seal(t, n, f.north, 2, at(20261124, 8), seal.StateBrokenAway, at(20261124, 12))
	f.incident(t, n, f.north, seal.IncidentReused, at(20261124, 8))
	f.incident(t, f.carE2, f.east, seal.IncidentNoSeals, at(20261130, 7))
	if _, err := Rebuild(context.Background(), d, 20261101, 20261205, at(20261205, 0)); err != nil {
		t.Fatal(err)
	}
	return f
}

func day(d int) httpx.Time { return httpx.Time(stats.DayStart(d)) }

func TestPagesByHand(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f := fixed(t, d)
		s := &Service{DB: d}
		root := &httpx.Principal{GroupPath: "/1/"}
		east := &httpx.Principal{GroupPath: "/1/2/"}
		q := Query{Start: day(20261122), End: day(20261130), PageReq: httpx.PageReq{PageSize: 50}}

		r, err := s.Page(ctx, root, KindLock, PerDay, q)
		if err != nil {
			t.Fatal(err)
		}
		// rows: 11-22 E, 11-23 E, 11-24 E (offline time only), 11-24 N, 11-30 E2
		if r.Total != 5 || len(r.Chart) != 4 {
			t.Fatalf("day rows = %d, chart %d: %+v", r.Total, len(r.Chart), r.List)
		}
		// the count comes with a page, and alone past the last one
		for _, pg := range []struct{ num, size, rows int }{{2, 2, 2}, {3, 2, 1}, {9, 2, 0}} {
			qp := q
			qp.PageNum, qp.PageSize = pg.num, pg.size
			rp, err := s.Page(ctx, root, KindLock, PerDay, qp)
			if err != nil || rp.Total != 5 || len(rp.List) != pg.rows {
				t.Fatalf("page %d of %d: total %v, %d rows, %v", pg.num, pg.size, rp.Total, len(rp.List), err)
			}
		}
		want := map[string]int64{"opened": 4, "openedRemote": 2, "openedBle": 1, "openedKey": 1, "openedInside": 2, "openedOutside": 2,
			"closed": 1, "tampered": 1, "lowBattery": 1, "offlineEvents": 1, "offlineS": 14400}
		for k, v := range want {
			if r.Totals[k] != v {
				t.Errorf("totals[%s] = %d, want %d", k, r.Totals[k], v)
			}
		}
		if x := find(r.List, "2026-11-24", f.carE); x.Label != "2026-11-24" || x.CarID != f.carE || x.Figures["offlineS"] != 7200 || x.Figures["opened"] != 0 || x.Name != "沪A00001" || x.Detail != "华东" {
			t.Errorf("11-24 east car = %+v", x)
		}

		// the week page snaps to whole weeks: 11-25..11-30 → W48 and W49; Sunday 11-22 (W47) is out
		wk, err := s.Page(ctx, root, KindLock, PerWeek, Query{Start: day(20261125), End: day(20261130), PageReq: httpx.PageReq{PageSize: 50}})
		if err != nil {
			t.Fatal(err)
		}
		if wk.From != "2026-11-23" || wk.To != "2026-12-06" || wk.Total != 3 || wk.Totals["opened"] != 3 || wk.Totals["closed"] != 0 {
			t.Fatalf("week page = %s..%s %d rows, totals %v", wk.From, wk.To, wk.Total, wk.Totals)
		}
		if x := find(wk.List, "2026-W48 (11-23～11-29)", f.carE); x.Label != "2026-W48 (11-23～11-29)" || x.From != "2026-11-23" || x.To != "2026-11-29" || x.Figures["offlineS"] != 14400 {
			t.Errorf("first week row = %+v", x)
		}

		// per company, sorted by openings descending: east 3 (over three days), north 1
		byG, err := s.Page(ctx, root, KindLock, PerMonth, Query{Start: day(20261122), End: day(20261130), By: "group",
			PageReq: httpx.PageReq{PageSize: 50, SortField: "opened", SortOrder: "descend"}})
		if err != nil {
			t.Fatal(err)
		}
		if byG.Total != 2 || byG.List[0].GroupID != f.east || byG.List[0].Figures["opened"] != 3 || byG.List[1].Name != "华北" || byG.List[0].Label != "2026-11" {
			t.Errorf("by company = %+v", byG.List)
		}

		// per lock: the moved lock adds up over both cars
		pl, err := s.Page(ctx, root, KindLock, PerAll, q)
		if err != nil {
			t.Fatal(err)
		}
		if pl.Total != 2 || pl.List[0].Serial != "L1" || pl.List[0].Figures["opened"] != 3 || pl.List[0].Figures["offlineS"] != 14400 || pl.List[0].Figures["tampered"] != 1 {
			t.Errorf("per lock = %+v", pl.List)
		}

		// whole months are read from the monthly rows: the same as the daily rows of the same days
		mo, err := s.Page(ctx, root, KindLock, PerAll, Query{Start: day(20261101), End: day(20261130), PageReq: q.PageReq})
		if err != nil {
			t.Fatal(err)
		}
		da, err := s.Page(ctx, root, KindLock, PerAll, Query{Start: day(20261101), End: day(20261201), PageReq: q.PageReq})
		if err != nil {
			t.Fatal(err)
		}
		figs := func(r *Result) string {
			out := fmt.Sprint(r.Totals)
			for _, x := range r.List {
				out += x.Serial + fmt.Sprint(x.Figures)
			}
			return out
		}
		if figs(mo) != figs(da) || mo.Totals["opened"] != 4 {
			t.Errorf("monthly path %v %v\ndaily path %v %v", mo.List, mo.Totals, da.List, da.Totals)
		}

		// a subsidiary sees its own cars only; another group's car or group is refused
		er, err := s.Page(ctx, east, KindLock, PerDay, q)
		if err != nil || er.Totals["opened"] != 3 || er.Totals["tampered"] != 0 || er.Totals["offlineS"] != 14400 {
			t.Errorf("east = %v, %v", er.Totals, err)
		}
		for _, bad := range []Query{{CarID: f.carN}, {GroupID: f.north}} {
			bad.Start, bad.End = q.Start, q.End
			if _, err := s.Page(ctx, east, KindLock, PerDay, bad); !errors.Is(err, httpx.ErrScope) {
				t.Errorf("%+v: err = %v, want the scope error", bad, err)
			}
		}
		if _, err := s.Rows(ctx, east, DrillQuery{Kind: KindLock, Column: "opened", From: q.Start, To: q.End, CompanyID: f.north}); !errors.Is(err, httpx.ErrScope) {
			t.Errorf("drill into north: %v", err)
		}
		if _, err := s.Page(ctx, root, KindSeal, PerDay, Query{Start: q.Start, End: q.End, By: "lock"}); err == nil {
			t.Error("seals have no per-lock grouping")
		}

		sr, err := s.Page(ctx, root, KindSeal, PerDay, q)
		if err != nil {
			t.Fatal(err)
		}
		ws := map[string]int64{"applied": 2, "brokenDest": 1, "brokenAway": 1, "reused": 1, "noSeals": 1, "mismatch": 0}
		for k, v := range ws {
			if sr.Totals[k] != v {
				t.Errorf("seal totals[%s] = %d, want %d", k, sr.Totals[k], v)
			}
		}

		// every figure of every row equals the rows behind it
		for _, c := range []struct {
			p    *httpx.Principal
			kind Kind
			per  Period
			by   string
		}{{root, KindLock, PerDay, "car"}, {root, KindLock, PerWeek, "group"}, {root, KindLock, PerAll, "lock"}, {east, KindLock, PerMonth, "car"},
			{root, KindSeal, PerDay, "car"}, {root, KindSeal, PerMonth, "group"}} {
			res, err := s.Page(ctx, c.p, c.kind, c.per, Query{Start: q.Start, End: q.End, By: c.by, PageReq: httpx.PageReq{PageSize: 50}})
			if err != nil {
				t.Fatal(err)
			}
			checked := 0
			for _, row := range res.List {
				for col, v := range row.Figures {
					from, _ := httpx.ParseTime(row.From)
					to, _ := httpx.ParseTime(row.To)
					dq := DrillQuery{Kind: c.kind, Column: col, From: from, To: to, CarID: row.CarID, CompanyID: row.GroupID, Serial: row.Serial,
						PageReq: httpx.PageReq{PageSize: 500}}
					dr, err := s.Rows(ctx, c.p, dq)
					if err != nil {
						t.Fatalf("%s %s: %v", row.Label, col, err)
					}
					if dr.Sum != v || (dr.Shape != "offline" && int64(dr.Total) != v) {
						t.Errorf("%v %s %s %s: figure %d, drill-down sum %d (%d rows)", c.per, row.Label, row.Name, col, v, dr.Sum, dr.Total)
					}
					checked++
				}
			}
			if checked == 0 {
				t.Errorf("%v: nothing checked", c)
			}
		}
		off, err := s.Rows(ctx, root, DrillQuery{Kind: KindLock, Column: "offlineS", From: day(20261124), To: day(20261124), CarID: f.carE})
		if err != nil || off.Total != 1 || off.Sum != 7200 || off.List[0].BackAt != httpx.Time(at(20261124, 2)) || off.List[0].Plate != "沪A00001" {
			t.Errorf("offline drill = %+v, %v", off, err)
		}
	})
}

func find(rows []Row, label string, car int64) Row {
	for _, r := range rows {
		if r.Label == label && r.CarID == car {
			return r
		}
	}
	return Row{}
}
