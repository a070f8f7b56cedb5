package lockstats

import (
	"context"
	"fmt"
	"math/rand"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"tankwatch/internal/lock"
	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/db/dbtest"
	"tankwatch/internal/seal"
	"tankwatch/internal/stats"
	"tankwatch/internal/waybill"
)

type fixture struct {
	d                 *db.DB
	top, east, north  int64
	carE, carE2, carN int64
	depot, waybill    int64
}

func setup(t *testing.T, d *db.DB) *fixture {
	t.Helper()
	ctx := context.Background()
	id := func(q string, args ...any) int64 {
		t.Helper()
		var v int64
		if err := d.NewRaw(q+" RETURNING id", args...).Scan(ctx, &v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	f := &fixture{d: d}
	f.top = id("INSERT INTO org_groups (name, path, created_at) VALUES ('集团', '/1/', 1)")
	f.east = id("INSERT INTO org_groups (name, path, created_at) VALUES ('华东', '/1/2/', 1)")
	f.north = id("INSERT INTO org_groups (name, path, created_at) VALUES ('华北', '/1/3/', 1)")
	f.carE = id("INSERT INTO cars (group_id, plate, compartments, created_at, updated_at) VALUES (?, '沪A00001', 2, 1, 1)", f.east)
	f.carE2 = id("INSERT INTO cars (group_id, plate, compartments, created_at, updated_at) VALUES (?, '沪A00002', 2, 1, 1)", f.east)
	f.carN = id("INSERT INTO cars (group_id, plate, compartments, created_at, updated_at) VALUES (?, '京A00001', 2, 1, 1)", f.north)
	f.depot = id(`INSERT INTO stations (group_id, name, station_type, fence_type, fence_center, raduis, center_lng, center_lat, created_at, updated_at)
		VALUES (?, '油库', 'yk', 2, '121,31', 300, 121, 31, 1, 1)`, f.top)
	p := id("INSERT INTO products (group_id, code, name, created_at, updated_at) VALUES (?, 'P92', '92#汽油', 1, 1)", f.top)
	r := waybill.Row{GroupID: f.east, CarID: f.carE, DepotID: f.depot, No: "YD1", State: waybill.InTransit, CreatedAt: 1, UpdatedAt: 1}
	if err := waybill.Insert(ctx, d, &r, []waybill.Destination{{Seq: 1, StationID: f.depot}}, []waybill.Compartment{{No: 1, ProductID: p, PlannedL: 1, DestSeq: 1}}); err != nil {
		t.Fatal(err)
	}
	f.waybill = r.ID
	return f
}

// event writes a lock event and marks its day, as the lock-events part does.
func (f *fixture) event(t *testing.T, serial string, car, group int64, e lock.Event, m lock.Method, station, at int64) {
	t.Helper()
	ctx := context.Background()
	ev := lock.EventRow{Serial: serial, CarID: car, GroupID: group, Event: e, Method: m, StationID: station, T: at, RecordedAt: at, BatteryPct: -1}
	if _, err := f.d.NewInsert().Model(&ev).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	if err := stats.MarkDirty(ctx, f.d, stats.DirtyLock, car, stats.Day(at), at); err != nil {
		t.Fatal(err)
	}
}

func (f *fixture) seal(t *testing.T, car, group int64, comp int, applied int64, st seal.State, broken int64) {
	t.Helper()
	ctx := context.Background()
	r := seal.Record{GroupID: group, WaybillID: f.waybill, CarID: car, Compartment: comp, SealNo: fmt.Sprintf("S%d", comp), AppliedAt: applied, State: st, BrokenAt: broken}
	if _, err := f.d.NewInsert().Model(&r).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	for _, at := range []int64{applied, broken} {
		if at > 0 {
			if err := stats.MarkDirty(ctx, f.d, stats.DirtySeal, car, stats.Day(at), at); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func (f *fixture) incident(t *testing.T, car, group int64, k seal.Incident, at int64) {
	t.Helper()
	ctx := context.Background()
	i := seal.IncidentRow{GroupID: group, WaybillID: f.waybill, CarID: car, Kind: k, T: at}
	if _, err := f.d.NewInsert().Model(&i).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	if err := stats.MarkDirty(ctx, f.d, stats.DirtySeal, car, stats.Day(at), at); err != nil {
		t.Fatal(err)
	}
}

func snapshot(t *testing.T, d *db.DB) ([]LockDaily, []SealDaily) {
	t.Helper()
	var l []LockDaily
	var s []SealDaily
	ctx := context.Background()
	if err := d.NewSelect().Model(&l).ExcludeColumn("computed_at").Order("day", "car_id", "group_id", "serial").Scan(ctx); err != nil {
		t.Fatal(err)
	}
	if err := d.NewSelect().Model(&s).Order("day", "car_id", "group_id").Scan(ctx); err != nil {
		t.Fatal(err)
	}
	return l, s
}

// TestLiveRollupEqualsRebuild: a month of lock events (locks moved between cars, offline spells over
// several days, one still offline at the end) and seal records written with their marks, the worker
// draining as they come; the rows it keeps equal a full rebuild at the same clock, row for row. Split:
// two workers, each with a share of the cars (two nodes of a cluster, D113), do it between them.
func TestLiveRollupEqualsRebuild(t *testing.T) {
	dbtest.DataHeavy(t)
	t.Run("one worker", func(t *testing.T) { liveEqualsRebuild(t, false) })
	t.Run("split", func(t *testing.T) { liveEqualsRebuild(t, true) })
}

// split is two workers whose shares of the cars are the two partitions of 2.
type split [2]*Worker

func (s split) Drain(ctx context.Context) (int, error) {
	n := 0
	for _, w := range s {
		k, err := w.Drain(ctx)
		if err != nil {
			return n, err
		}
		n += k
	}
	return n, nil
}

func (s split) Sweep(ctx context.Context) error {
	for _, w := range s {
		if err := w.Sweep(ctx); err != nil {
			return err
		}
	}
	return nil
}

func liveEqualsRebuild(t *testing.T, halves bool) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f := setup(t, d)
		clock := stats.DayStart(20261101)
		now := func() time.Time { return time.UnixMilli(clock) }
		var w interface {
			Drain(context.Context) (int, error)
			Sweep(context.Context) error
		} = &Worker{DB: d.DB, Now: now}
		if halves {
			if f.carE%2 == f.carN%2 && f.carE%2 == f.carE2%2 {
				t.Fatalf("cars %d, %d, %d are all in one partition of 2: the split proves nothing", f.carE, f.carE2, f.carN)
			}
			half := func(p int) *Worker {
				return &Worker{DB: d.DB, Now: now, Share: func() stats.Share { return stats.Share{Parts: 2, Held: []int{p}} }}
			}
			w = split{half(0), half(1)}
			// one half alone leaves the other half's marks, and only those
			f.event(t, "L9", f.carE, f.east, lock.EventClosed, lock.Method(0), 0, clock)
			other, group := f.carN, f.north
			if other%2 == f.carE%2 {
				other, group = f.carE2, f.east
			}
			f.event(t, "L8", other, group, lock.EventClosed, lock.Method(0), 0, clock)
			odd := int(f.carE % 2)
			if _, err := half(odd).Drain(ctx); err != nil {
				t.Fatal(err)
			}
			left, err := stats.TakeDirty(ctx, d, stats.DirtyLock, 10)
			if err != nil || len(left) != 1 || left[0].CarID%2 == f.carE%2 {
				t.Fatalf("after one half's drain, marks left %+v (%v): want the other half's car alone", left, err)
			}
		}
		rnd := rand.New(rand.NewSource(16))
		cars := []struct{ car, group int64 }{{f.carE, f.east}, {f.carE2, f.east}, {f.carN, f.north}}
		serials := []string{"L1", "L2", "L3", "L4"}
		on := map[string]int{"L1": 0, "L2": 0, "L3": 1, "L4": 2}
		offline := map[string]bool{}
		for i := 0; i < 400; i++ {
			clock += int64(rnd.Intn(4*3600)) * 1000 // up to 4 h between reports: about a month in all
			s := serials[rnd.Intn(len(serials))]
			if rnd.Intn(40) == 0 {
				on[s] = rnd.Intn(len(cars)) // rebound to another car
			}
			c := cars[on[s]]
			e := lock.Event(1 + rnd.Intn(4))
			switch {
			case offline[s] && rnd.Intn(3) == 0:
				e, offline[s] = lock.EventOnline, false
			case offline[s]:
				continue // an offline lock reports nothing else
			case rnd.Intn(12) == 0:
				e, offline[s] = lock.EventOffline, true
			}
			f.event(t, s, c.car, c.group, e, lock.Method(rnd.Intn(4)), int64(rnd.Intn(2))*f.depot, clock)
			if rnd.Intn(5) == 0 {
				f.seal(t, c.car, c.group, i, clock, seal.State(1+rnd.Intn(3)), clock+int64(rnd.Intn(30))*3_600_000)
				f.incident(t, c.car, c.group, seal.Incident(1+rnd.Intn(4)), clock)
			}
			if i%7 == 0 {
				if _, err := w.Drain(ctx); err != nil {
					t.Fatal(err)
				}
			}
		}
		if _, err := w.Drain(ctx); err != nil {
			t.Fatal(err)
		}
		if err := w.Sweep(ctx); err != nil {
			t.Fatal(err)
		}
		liveL, liveS := snapshot(t, d)
		liveM := monthlySnapshot(t, d)
		n, err := Rebuild(ctx, d, 20261101, stats.Day(clock)+3, clock)
		if err != nil || n == 0 {
			t.Fatalf("Rebuild = %d, %v", n, err)
		}
		fullL, fullS := snapshot(t, d)
		if fullM := monthlySnapshot(t, d); fullM != liveM || fullM == "" {
			t.Fatalf("monthly rows: live\n%s\nrebuilt\n%s", liveM, fullM)
		}
		if len(liveL) < 30 || len(liveS) < 10 {
			t.Fatalf("too little data to prove anything: %d lock rows, %d seal rows", len(liveL), len(liveS))
		}
		var offS int64
		for _, r := range fullL {
			offS += r.OfflineS
		}
		if offS == 0 {
			t.Fatal("no offline time in the month")
		}
		if !reflect.DeepEqual(liveL, fullL) {
			for i := range min(len(liveL), len(fullL)) {
				if liveL[i] != fullL[i] {
					t.Errorf("first lock row that differs: live %+v, rebuilt %+v", liveL[i], fullL[i])
					break
				}
			}
			t.Fatalf("lock rows: live %d, rebuilt %d", len(liveL), len(fullL))
		}
		if !reflect.DeepEqual(liveS, fullS) {
			t.Fatalf("seal rows differ: live %d, rebuilt %d", len(liveS), len(fullS))
		}
		if left, _ := stats.TakeDirty(ctx, d, stats.DirtyLock, 10); len(left) != 0 {
			t.Errorf("marks left: %+v", left)
		}
	})
}

// monthlySnapshot is the monthly rows, checked to be the sums of the daily rows, as text.
func monthlySnapshot(t *testing.T, d *db.DB) string {
	t.Helper()
	ctx := context.Background()
	out := ""
	for _, k := range []Kind{KindLock, KindSeal} {
		keys := "month, car_id, group_id"
		if k == KindLock {
			keys += ", serial"
		}
		var got, want []map[string]any
		q := "SELECT " + keys + ", " + sumCols(k) + " FROM " + strings.Replace(table[k], "_daily", "_monthly", 1) + " ORDER BY " + keys
		if err := d.NewRaw(q).Scan(ctx, &got); err != nil {
			t.Fatal(err)
		}
		var cast []string
		for _, c := range Columns[k] {
			cast = append(cast, "CAST(SUM("+c[1]+") AS BIGINT) AS "+c[1])
		}
		q = "SELECT " + keys + ", " + strings.Join(cast, ", ") + " FROM " + table[k] + " GROUP BY " + keys + " ORDER BY " + keys
		if err := d.NewRaw(q).Scan(ctx, &want); err != nil {
			t.Fatal(err)
		}
		g, w := fmt.Sprint(got), fmt.Sprint(want)
		if g != w {
			t.Fatalf("%s monthly rows are not the sums of the daily rows:\n%s\n%s", k, g, w)
		}
		out += g
		if k == KindLock {
			out += mtdEqualsDays(t, d)
		}
		// the per-group rows are the sums of the car rows, by day and by month
		base := strings.TrimSuffix(table[k], "_daily")
		for _, lv := range []string{"day", "month"} {
			from := base + "_daily"
			if lv == "month" {
				from = base + "_monthly"
			}
			var gr, sum []map[string]any
			if err := d.NewRaw("SELECT "+lv+", group_id, "+sumCols(k)+" FROM "+base+"_group_"+map[string]string{"day": "daily", "month": "monthly"}[lv]+
				" ORDER BY "+lv+", group_id").Scan(ctx, &gr); err != nil {
				t.Fatal(err)
			}
			if err := d.NewRaw("SELECT "+lv+", group_id, "+strings.Join(cast, ", ")+" FROM "+from+" GROUP BY "+lv+", group_id ORDER BY "+lv+", group_id").
				Scan(ctx, &sum); err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(gr) != fmt.Sprint(sum) || len(gr) == 0 {
				t.Fatalf("%s per-group rows by %s are not the sums of the car rows:\n%v\n%v", k, lv, gr, sum)
			}
			out += fmt.Sprint(gr)
		}
	}
	return out
}

// mtdEqualsDays checks the lock rollup's month-to-date rows against its daily rows added up in Go:
// every key of a month has a row on each day from its first daily row to the month's end (dense),
// holding the sum of its daily rows from the 1st to that day, and no other row. It returns the rows as
// text.
func mtdEqualsDays(t *testing.T, d *db.DB) string {
	t.Helper()
	const kind = KindLock
	ctx := context.Background()
	read := func(tbl string) map[string][]int64 {
		var rows []map[string]any
		q := "SELECT day, " + keyCols(kind) + ", " + sumCols(kind) + " FROM " + tbl + " ORDER BY " + keyCols(kind) + ", day"
		if err := d.NewRaw(q).Scan(ctx, &rows); err != nil {
			t.Fatal(err)
		}
		out := map[string][]int64{}
		for _, r := range rows {
			key := fmt.Sprint(r["day"])
			for _, c := range strings.Split(keyCols(kind), ", ") {
				key += "/" + fmt.Sprint(r[c])
			}
			for _, c := range Columns[kind] {
				var v int64
				fmt.Sscan(fmt.Sprint(r[c[1]]), &v)
				out[key] = append(out[key], v)
			}
		}
		return out
	}
	daily, got := read(table[kind]), read("stat_lock_mtd")
	// the daily rows by key and month
	type km struct {
		key   string
		month int
	}
	days := map[km]map[int][]int64{}
	for k, v := range daily {
		var day int
		fmt.Sscan(k[:8], &day)
		x := km{k[8:], day / 100}
		if days[x] == nil {
			days[x] = map[int][]int64{}
		}
		days[x][day] = v
	}
	want := map[string][]int64{}
	for x, ds := range days {
		first := 99999999
		for d := range ds {
			first = min(first, d)
		}
		run := make([]int64, len(Columns[kind]))
		for _, day := range stats.Days(first, lastOfMonth(first)) {
			for i, v := range ds[day] {
				run[i] += v
			}
			want[fmt.Sprint(day)+x.key] = append([]int64(nil), run...)
		}
	}
	if len(want) == 0 || !reflect.DeepEqual(got, want) {
		for k, w := range want {
			if !reflect.DeepEqual(got[k], w) {
				t.Errorf("%s month-to-date row %s = %v, want %v", kind, k, got[k], w)
				break
			}
		}
		t.Fatalf("%s month-to-date rows: %d, want %d (the running sums of the daily rows)", kind, len(got), len(want))
	}
	return fmt.Sprint(got)
}

// TestRefreshesTakeTurns: on PostgreSQL, two workers (two nodes, D113) refresh the seal rows of two
// cars of one group at once. The second waits for the first's transaction instead of failing on the
// group rows the first wrote (a primary-key error before D121), and the group's rows are what a
// rebuild makes of both cars.
func TestRefreshesTakeTurns(t *testing.T) {
	d, f := setupPG(t)
	ctx := context.Background()
	day := 20261101
	at := stats.DayStart(day) + 3_600_000
	f.seal(t, f.carE, f.east, 1, at, seal.State(1), 0)
	f.seal(t, f.carE2, f.east, 2, at, seal.State(1), 0)
	dbtest.Overlap(t, d,
		func(ctx context.Context, tx bun.Tx) error { return RefreshSeal(ctx, tx, f.carE, day) },
		func(ctx context.Context, tx bun.Tx) error { return RefreshSeal(ctx, tx, f.carE2, day) })
	groups := []string{"stat_seal_group_daily", "stat_seal_group_monthly"}
	live := dbtest.Snapshot(t, d, groups...)
	if _, err := Rebuild(ctx, d, day, day, at); err != nil {
		t.Fatal(err)
	}
	if rebuilt := dbtest.Snapshot(t, d, groups...); !reflect.DeepEqual(live, rebuilt) || len(live["stat_seal_group_daily"]) == 0 {
		t.Errorf("group rows after the two refreshes\n%v\nrebuilt\n%v", live, rebuilt)
	}
}

// setupPG is setup on PostgreSQL, for the tests of transactions that overlap (skipped without it).
func setupPG(t *testing.T) (*db.DB, *fixture) {
	t.Helper()
	dbtest.NeedPG(t) // SQLite writes one transaction at a time
	d := dbtest.Open(t, db.Postgres)
	return d, setup(t, d)
}
