package lockstats

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/db/dbtest"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/stats"
)

// TestRunningRangesEqualDailySums: two simulated months of lock and seal rows (cars on sparse days, a
// lock on two cars, a car under two groups), their layers written as the rebuild writes them; the
// per-lock page by lock and by car over random ranges — starting and ending inside months, across the
// month boundary, single days, whole months — reads months and month-to-date rows (D80) and must equal
// the daily rows of the same days added up, key for key, with the same row count (the seal figures
// over a range, read from the daily rows, too).
func TestRunningRangesEqualDailySums(t *testing.T) {
	dbtest.DataHeavy(t)
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f := setup(t, d)
		rnd := rand.New(rand.NewSource(95))
		type on struct {
			car, group int64
			serial     string
		}
		keys := []on{{f.carE, f.east, "L1"}, {f.carE2, f.east, "L2"}, {f.carN, f.north, "L3"}, {f.carN, f.north, "L1"}, {f.carE, f.north, "L4"}}
		days := stats.Days(20261001, 20261130)
		for _, day := range days {
			seals := map[[2]int64]bool{}
			for _, k := range keys {
				if rnd.Intn(3) == 0 {
					continue
				}
				r := LockDaily{Day: day, Week: stats.Week(day), Month: stats.Month(day), CarID: k.car, GroupID: k.group, Serial: k.serial, ComputedAt: 1,
					LockFigures: LockFigures{OpenedRemote: rnd.Int63n(3), OpenedBLE: rnd.Int63n(2), OpenedKey: rnd.Int63n(2), OpenedOther: rnd.Int63n(2),
						Closed: rnd.Int63n(4), Tampered: rnd.Int63n(2), LowBattery: rnd.Int63n(2), OfflineEvents: 1 + rnd.Int63n(2), OfflineS: rnd.Int63n(86_400)}}
				r.OpenedInside = rnd.Int63n(r.Opened() + 1)
				r.OpenedOutside = r.Opened() - r.OpenedInside
				if _, err := d.NewInsert().Model(&r).Exec(ctx); err != nil {
					t.Fatal(err)
				}
				if c := [2]int64{k.car, k.group}; !seals[c] && rnd.Intn(2) == 0 {
					seals[c] = true
					s := SealDaily{Day: day, Week: stats.Week(day), Month: stats.Month(day), CarID: k.car, GroupID: k.group,
						SealFigures: SealFigures{Applied: 1 + rnd.Int63n(3), BrokenDest: rnd.Int63n(3), BrokenAway: rnd.Int63n(2), Reused: rnd.Int63n(2),
							NoSeals: rnd.Int63n(2), Mismatch: rnd.Int63n(2)}}
					if _, err := d.NewInsert().Model(&s).Exec(ctx); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
		for _, k := range []Kind{KindLock, KindSeal} {
			if err := refreshMonths(ctx, d, k, 0, []int{202610, 202611}); err != nil {
				t.Fatal(err)
			}
			if err := refreshGroups(ctx, d, k, nil, days); err != nil {
				t.Fatal(err)
			}
		}
		monthlySnapshot(t, d) // the layers are the daily rows' sums, the running rows included

		s := &Service{DB: d}
		root := &httpx.Principal{GroupPath: "/1/"}
		east := &httpx.Principal{GroupPath: "/1/2/"}
		ranges := [][2]int{{20261001, 20261031}, {20261001, 20261130}, {20261031, 20261101}, {20261017, 20261017}, {20261101, 20261115},
			{20261002, 20261130}, {20261010, 20261125}}
		for len(ranges) < 40 {
			a, b := rnd.Intn(len(days)), rnd.Intn(len(days))
			ranges = append(ranges, [2]int{days[min(a, b)], days[max(a, b)]})
		}
		checked := 0
		for _, r := range ranges {
			for _, c := range []struct {
				kind   Kind
				by     string
				p      *httpx.Principal
				car    int64
				serial string
			}{{KindLock, "car", root, 0, ""}, {KindLock, "lock", root, 0, ""}, {KindLock, "lock", east, 0, ""}, {KindLock, "car", root, f.carN, ""},
				{KindLock, "car", root, 0, "L1"}, {KindSeal, "car", root, 0, ""}, {KindSeal, "car", east, f.carE, ""}} {
				q := Query{Start: day(r[0]), End: day(r[1]), By: c.by, CarID: c.car, Serial: c.serial,
					PageReq: httpx.PageReq{PageSize: 50, SortField: "name", SortOrder: "ascend"}}
				res, err := s.Page(ctx, c.p, c.kind, PerAll, q)
				if err != nil {
					t.Fatal(err)
				}
				got := map[string]string{}
				for _, x := range res.List {
					got[fmt.Sprint(x.CarID, x.Serial)] = figText(c.kind, x.Figures)
				}
				want := dailySums(t, d, c.kind, c.by, c.p.GroupPath, r[0], r[1], c.car, c.serial)
				if fmt.Sprint(got) != fmt.Sprint(want) || int(res.Total) != len(want) {
					t.Fatalf("%s by %s %v car %d serial %q, %d..%d: pages (%d rows)\n%v\ndaily rows\n%v", c.kind, c.by, c.p.GroupPath, c.car, c.serial,
						r[0], r[1], res.Total, got, want)
				}
				checked += len(want)
				// sorted by a figure, a page is cut before the names are joined: the same rows as the
				// whole list's in that order, and the same count
				q.SortField, q.PageSize = Columns[c.kind][0][0], 50
				all, err := s.Page(ctx, c.p, c.kind, PerAll, q)
				if err != nil {
					t.Fatal(err)
				}
				q.PageNum, q.PageSize = 2, 2
				pg, err := s.Page(ctx, c.p, c.kind, PerAll, q)
				if err != nil {
					t.Fatal(err)
				}
				if pg.Total != all.Total || fmt.Sprint(pg.List) != fmt.Sprint(all.List[min(2, len(all.List)):min(4, len(all.List))]) {
					t.Fatalf("page 2 of 2 by %s: %v of %d\nwhole list: %v", q.SortField, pg.List, pg.Total, all.List)
				}
			}
		}
		// the day, week and month pages: a page sorted by a figure or by name is the slice of the whole
		// list in that order, with its figures (added up for the page's keys after the cut)
		for _, per := range []Period{PerDay, PerWeek, PerMonth} {
			for _, c := range []struct {
				kind Kind
				by   string
				sort string
			}{{KindLock, "car", "opened"}, {KindLock, "car", "offlineS"}, {KindLock, "lock", "name"}, {KindLock, "group", "closed"},
				{KindSeal, "car", "applied"}, {KindSeal, "car", ""}, {KindLock, "car", ""}, {KindLock, "lock", ""}} {
				q := Query{Start: day(20261012), End: day(20261108), By: c.by, PageReq: httpx.PageReq{PageSize: 500, SortField: c.sort, SortOrder: "descend"}}
				all, err := s.Page(ctx, root, c.kind, per, q)
				if err != nil {
					t.Fatal(err)
				}
				want := dailySums(t, d, c.kind, c.by, root.GroupPath, 20261012, 20261108, 0, "")
				if per == PerDay && c.by != "group" { // each day's rows add up to the range's, key by key
					sums := map[string]map[string]int64{}
					for _, x := range all.List {
						k := fmt.Sprint(x.CarID, x.Serial)
						if sums[k] == nil {
							sums[k] = map[string]int64{}
						}
						for f, v := range x.Figures {
							sums[k][f] += v
						}
					}
					got := map[string]string{}
					for k, f := range sums {
						got[k] = figText(c.kind, f)
					}
					if fmt.Sprint(got) != fmt.Sprint(want) {
						t.Fatalf("%s day page by %s sorted by %q: the days add up to\n%v\nthe daily rows\n%v", c.kind, c.by, c.sort, got, want)
					}
				}
				q.PageNum, q.PageSize = 3, 4
				pg, err := s.Page(ctx, root, c.kind, per, q)
				if err != nil {
					t.Fatal(err)
				}
				if len(all.List) < 12 && per == PerDay || pg.Total != all.Total || fmt.Sprint(pg.List) != fmt.Sprint(all.List[min(8, len(all.List)):min(12, len(all.List))]) {
					t.Fatalf("%s %s page by %s sorted by %q: page 3 of 4 %v of %d\nwhole list %v", c.kind, per, c.by, c.sort, pg.List, pg.Total, all.List)
				}
			}
		}
		if checked < 500 {
			t.Fatalf("only %d rows compared", checked)
		}
	})
}

// figText is a row's figures of kind, in the columns' order.
func figText(kind Kind, f map[string]int64) string {
	var out []string
	for _, c := range Columns[kind] {
		out = append(out, fmt.Sprint(f[c[0]]))
	}
	return strings.Join(out, " ")
}

// dailySums is the reference: kind's daily rows of the days from..to under path (one car's, one
// lock's) added up per car or lock.
func dailySums(t *testing.T, d *db.DB, kind Kind, by, path string, from, to int, car int64, serial string) map[string]string {
	t.Helper()
	key, group := "s.car_id, '' AS serial", "s.car_id"
	if by == "lock" {
		key, group = "0 AS car_id, s.serial", "s.serial"
	}
	var cast []string
	for _, c := range Columns[kind] {
		cast = append(cast, "CAST(SUM(s."+c[1]+") AS BIGINT) AS "+c[1])
	}
	sel := d.NewSelect().TableExpr(table[kind]+" AS s").ColumnExpr(key).ColumnExpr(strings.Join(cast, ", ")).
		Join("JOIN org_groups AS g ON g.id = s.group_id").Where("g.path LIKE ?", path+"%").Where("s.day BETWEEN ? AND ?", from, to).
		GroupExpr(group)
	if car > 0 {
		sel = sel.Where("s.car_id = ?", car)
	}
	if serial != "" {
		sel = sel.Where("s.serial = ?", serial)
	}
	var rows []map[string]any
	if err := sel.Scan(context.Background(), &rows); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, r := range rows {
		f := map[string]int64{}
		for _, c := range Columns[kind] {
			var v int64
			fmt.Sscan(fmt.Sprint(r[c[1]]), &v)
			f[c[0]] = v
		}
		var k int64
		fmt.Sscan(fmt.Sprint(r["car_id"]), &k)
		out[fmt.Sprint(k, r["serial"])] = figText(kind, f)
	}
	return out
}
