package stats

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/db/dbtest"
	"tankwatch/internal/waybill"
	"tankwatch/internal/waybill/process"
)

// simulateMonth drives a month of trips of three cars through the real writers — the process
// engine's loss step (FinishLoss), operators' corrections (Correct) and reviews (EvReviewClose, which
// moves closed_at to the review's day) — draining the outbox now and then as the worker does.
func simulateMonth(t *testing.T, d *db.DB) {
	t.Helper()
	ctx := context.Background()
	east, north, sales, carE, carN, p92, p0 := seed(t, d)
	var carE2 int64
	if err := d.NewRaw("INSERT INTO cars (group_id, plate, compartments, created_at, updated_at) VALUES (?, '沪A00002', 2, 1, 1) RETURNING id", east).Scan(ctx, &carE2); err != nil {
		t.Fatal(err)
	}
	var depot int64
	if err := d.NewRaw("SELECT id FROM stations ORDER BY id LIMIT 1").Scan(ctx, &depot); err != nil {
		t.Fatal(err)
	}
	// the seed's trips were finished without the writers: the rebuild makes them part of the rollup
	if _, err := Rebuild(ctx, d, day1, NextDay(day1)); err != nil {
		t.Fatal(err)
	}
	h := int64(3_600_000)
	type car struct {
		id, group int64
		sales     *int64
	}
	cars := []car{{carE, east, nil}, {carN, north, &sales}, {carE2, east, &sales}}
	var review []int64 // trips to review the next day
	n := 0
	tx := func(fn func(ctx context.Context, tx bun.Tx) error) {
		t.Helper()
		if err := d.RunInTx(ctx, nil, fn); err != nil {
			t.Fatal(err)
		}
	}
	for _, day := range Days(20261103, 20261130) {
		s := DayStart(day)
		for _, id := range review {
			tx(func(ctx context.Context, tx bun.Tx) error {
				_, _, err := waybill.Advance(ctx, tx, id, waybill.Move{Evidence: waybill.EvReviewClose, Cause: waybill.CauseUser, UserID: 1, T: s + 9*h, Reason: "ok"}, s+9*h)
				return err
			})
		}
		review = review[:0]
		for i, c := range cars {
			n++
			shipped := float64(8000 + 100*n)
			r := waybill.Row{GroupID: c.group, SalesGroupID: c.sales, CarID: c.id, DepotID: depot, No: fmt.Sprintf("SIM%04d", n),
				State: waybill.Received, StateAt: s, DepartAt: s + int64(i+1)*h, ArriveAt: s + int64(i+3)*h, ShippedV20: shipped,
				ShippedMassT: shipped * 0.00074, ReceivedV20: shipped - float64(n%40), CreatedAt: s, UpdatedAt: s}
			if err := waybill.Insert(ctx, d, &r, []waybill.Destination{{Seq: 1, StationID: depot}}, []waybill.Compartment{{No: 1, ProductID: p92, PlannedL: 1, DestSeq: 1}}); err != nil {
				t.Fatal(err)
			}
			var rec int64
			if err := d.NewRaw(`INSERT INTO load_records (waybill_id, group_id, car_id, depot_id, loaded_at, source, created_at, updated_at)
				VALUES (?, ?, ?, ?, 1, 1, 1, 1) RETURNING id`, r.ID, c.group, c.id, depot).Scan(ctx, &rec); err != nil {
				t.Fatal(err)
			}
			for k, p := range []int64{p92, p0}[:1+n%2] {
				v := shipped / float64(1+n%2)
				if _, err := d.NewRaw(`INSERT INTO load_record_items (record_id, compartment, product_id, vt_l, temp_c, density20, vcf20, v20_l, mass_t)
					VALUES (?, ?, ?, ?, 20, 740, 1, ?, ?)`, rec, k+1, p, v*1.01, v, v*0.00074).Exec(ctx); err != nil {
					t.Fatal(err)
				}
			}
			closeAt := s + int64(10+i)*h
			tx(func(ctx context.Context, tx bun.Tx) error { return process.FinishLoss(ctx, tx, r.ID, closeAt) })
			switch {
			case n%5 == 0: // flagged by an operator, reviewed and closed the next day
				tx(func(ctx context.Context, tx bun.Tx) error {
					_, err := waybill.Correct(ctx, tx, r.ID, waybill.DiffFlagged, 1, "check", closeAt+h)
					return err
				})
				if day < 20261130 {
					review = append(review, r.ID)
				}
			case n%7 == 0: // taken back out of the finished set
				tx(func(ctx context.Context, tx bun.Tx) error {
					_, err := waybill.Correct(ctx, tx, r.ID, waybill.Unloading, 1, "not unloaded", closeAt+h)
					return err
				})
			}
		}
		if day%3 == 0 {
			if _, err := Drain(ctx, d, 1000); err != nil {
				t.Fatal(err)
			}
		}
	}
	for {
		k, err := Drain(ctx, d, 1000)
		if err != nil {
			t.Fatal(err)
		}
		if k == 0 {
			break
		}
	}
}

type snapRow struct {
	Day, Car, Group, Sales, Product int64
	Figures
}

func snapshot(t *testing.T, d *db.DB, table, dayCol string) []snapRow {
	car := "car_id"
	if strings.Contains(table, "group") {
		car = "0"
	}
	t.Helper()
	var rows []snapRow
	err := d.NewSelect().TableExpr(table).ColumnExpr(dayCol+" AS day, "+car+" AS car, group_id AS \"group\", sales_group_id AS sales, product_id AS product, "+monthCols).
		Scan(context.Background(), &rows)
	if err != nil {
		t.Fatal(err)
	}
	sort.Slice(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		for _, p := range [][2]int64{{a.Day, b.Day}, {a.Car, b.Car}, {a.Group, b.Group}, {a.Sales, b.Sales}, {a.Product, b.Product}} {
			if p[0] != p[1] {
				return p[0] < p[1]
			}
		}
		return false
	})
	return rows
}

func sameFigures(a, b Figures) bool {
	return a.Trips == b.Trips && near(a.ShippedVtL, b.ShippedVtL) && near(a.ShippedV20L, b.ShippedV20L) && near(a.ShippedT, b.ShippedT) &&
		near(a.ReceivedV20L, b.ReceivedV20L) && near(a.LossL, b.LossL) && near(a.Km, b.Km) && near(a.TonKm, b.TonKm) &&
		a.TimedTrips == b.TimedTrips && near(a.OutToArrivalMin, b.OutToArrivalMin) && a.AbnormalOpenings == b.AbnormalOpenings &&
		a.OverAllowance == b.OverAllowance
}

func sameRows(t *testing.T, what string, live, rebuilt []snapRow) {
	t.Helper()
	if len(live) != len(rebuilt) {
		t.Fatalf("%s: %d live rows, %d rebuilt", what, len(live), len(rebuilt))
	}
	for i := range live {
		a, b := live[i], rebuilt[i]
		if a.Day != b.Day || a.Car != b.Car || a.Group != b.Group || a.Sales != b.Sales || a.Product != b.Product || !sameFigures(a.Figures, b.Figures) {
			t.Fatalf("%s row %d: live %+v, rebuilt %+v", what, i, a, b)
		}
	}
}

// The rollup kept live by the writers' marks equals a full rebuild, row for row, daily and monthly.
func TestLiveRollupEqualsRebuild(t *testing.T) {
	dbtest.DataHeavy(t)
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		simulateMonth(t, d)
		ctx := context.Background()
		var left int
		if err := d.NewRaw("SELECT COUNT(*) FROM stat_dirty").Scan(ctx, &left); err != nil || left != 0 {
			t.Fatalf("marks left: %d %v", left, err)
		}
		live, liveM := snapshot(t, d, "stat_trip_daily", "day"), snapshot(t, d, "stat_trip_monthly", "month")
		liveGD, liveGM := snapshot(t, d, "stat_trip_group_daily", "day"), snapshot(t, d, "stat_trip_group_monthly", "month")
		liveMTD := snapshot(t, d, "stat_trip_mtd", "day")
		if len(liveGD) == 0 || len(liveGM) == 0 {
			t.Fatal("no group rows")
		}
		var trips int64
		for _, r := range live {
			if r.Product == 0 {
				trips += r.Trips
			}
		}
		// 84 simulated trips less the 10 taken back (n%7, not n%35 which is flagged first) plus the seed's 4 finished
		if trips != 84-10+4 {
			t.Errorf("live trips = %d, want 78", trips)
		}
		if _, err := Rebuild(ctx, d, 20261101, 20261130); err != nil {
			t.Fatal(err)
		}
		sameRows(t, "daily", live, snapshot(t, d, "stat_trip_daily", "day"))
		sameRows(t, "monthly", liveM, snapshot(t, d, "stat_trip_monthly", "month"))
		sameRows(t, "group daily", liveGD, snapshot(t, d, "stat_trip_group_daily", "day"))
		sameRows(t, "group monthly", liveGM, snapshot(t, d, "stat_trip_group_monthly", "month"))
		sameRows(t, "month to date", liveMTD, snapshot(t, d, "stat_trip_mtd", "day"))
		mtdEqualsDays(t, d)
	})
}

// Sum over whole months reads the monthly rollup; it must give what the daily rows give.
func TestMonthlyPathEqualsDaily(t *testing.T) {
	dbtest.DataHeavy(t)
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		simulateMonth(t, d)
		ctx := context.Background()
		for _, p := range [][2]int{{20261101, 20261130}, {20261103, 20261130}, {20261015, 20261210}, {20261101, 20261101}, {20261201, 20261130},
			{20261103, 20261117}, {20261105, 20261105}, {20261110, 20261130}, {20261020, 20261106}} {
			for _, by := range []By{ByTotal, ByCar, ByGroup, BySales, ByProduct, ByMonth, ByDay} {
				for _, f := range []Filter{{Under: "/1/"}, {Under: "/1/4/", SalesView: true}, {Under: "/1/2/", Products: true},
					{Under: "/1/", GroupID: 2}, {Under: "/1/", NoSales: true}, {Under: "/1/", CarID: 2}} {
					f.From, f.To = p[0], p[1]
					m, err := sum(ctx, d, f, by, true)
					if err != nil {
						t.Fatal(err)
					}
					dd, err := sum(ctx, d, f, by, false)
					if err != nil {
						t.Fatal(err)
					}
					if len(m) != len(dd) {
						t.Fatalf("%v %s %+v: %d monthly rows, %d daily", p, by, f, len(m), len(dd))
					}
					for i := range m {
						if m[i].Key != dd[i].Key || !sameFigures(m[i].Figures, dd[i].Figures) || m[i].LossRatePct != dd[i].LossRatePct {
							t.Fatalf("%v %s %+v row %d: monthly %+v daily %+v", p, by, f, i, m[i], dd[i])
						}
					}
				}
			}
		}
		whole, _ := Sum(ctx, d, Filter{From: 20261101, To: 20261130, Under: "/1/"}, ByTotal)
		if whole[0].Trips != 78 {
			t.Errorf("November trips = %d, want 78", whole[0].Trips)
		}
	})
}

// mtdEqualsDays checks every month-to-date row against the sum of its key's daily rows from the 1st of
// its month to its day, and that each key has a row on every day from its first one to the month's end.
func mtdEqualsDays(t *testing.T, d *db.DB) {
	t.Helper()
	days := snapshot(t, d, "stat_trip_daily", "day")
	type key struct{ car, group, sales, product, month int64 }
	firsts := map[key]int64{}
	for _, r := range days {
		k := key{r.Car, r.Group, r.Sales, r.Product, r.Day / 100}
		if f, ok := firsts[k]; !ok || r.Day < f {
			firsts[k] = r.Day
		}
	}
	want := 0
	for k, f := range firsts {
		last := int64(AddDays(int(Month(NextDay(int(k.month)*100+31))*100+1), -1))
		want += len(Days(int(f), int(last)))
	}
	mtd := snapshot(t, d, "stat_trip_mtd", "day")
	if len(mtd) != want || want == 0 {
		t.Fatalf("%d month-to-date rows, want %d", len(mtd), want)
	}
	for _, m := range mtd {
		var sum Figures
		for _, r := range days {
			if r.Car == m.Car && r.Group == m.Group && r.Sales == m.Sales && r.Product == m.Product && r.Day/100 == m.Day/100 && r.Day <= m.Day {
				sum.Add(r.Figures)
			}
		}
		if !sameFigures(sum, m.Figures) {
			t.Fatalf("month-to-date %+v, days add up to %+v", m, sum)
		}
	}
}
