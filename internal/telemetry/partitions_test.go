package telemetry_test

import (
	"context"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"

	"tankwatch/internal/app/apptest"
	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
	"tankwatch/internal/tank"
	"tankwatch/internal/telemetry"
)

// pgOnly runs fn on PostgreSQL only: SQLite's history is not partitioned (D89).
func pgOnly(t *testing.T, fn func(t *testing.T, e *apptest.Env)) {
	t.Helper()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		if !e.DB.IsPostgres() {
			t.Skip("history partitions are PostgreSQL's")
		}
		fn(t, e)
	})
}

func count(t *testing.T, d *db.DB, table string, where ...any) int {
	t.Helper()
	q := d.NewSelect().TableExpr(table)
	if len(where) > 0 {
		q = q.Where(where[0].(string), where[1:]...)
	}
	n, err := q.Count(context.Background())
	if err != nil {
		t.Fatalf("count %s: %v", table, err)
	}
	return int(n)
}

func partitionNames(t *testing.T, d *db.DB, table string) []string {
	t.Helper()
	days, err := d.DayPartitions(context.Background(), table)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, p := range days {
		out = append(out, p.Name)
	}
	return out
}

func TestHistoryPartitions(t *testing.T) {
	t.Parallel()
	pgOnly(t, func(t *testing.T, e *apptest.Env) {
		ctx := context.Background()
		he := newHistEnv(t, e, 7*24*time.Hour)
		he.h.SetRetention(7*24*time.Hour, 7*24*time.Hour)
		car := he.eastCar
		lv := &tank.Levels{N: 1}
		lv.Probes[0] = tank.Level{Compartment: 1, LevelMM: 900, VolumeL: 5000, TempDeci: 215}
		report := func(at time.Time, speed uint16) telemetry.Report {
			return telemetry.Report{TerminalID: car.TerminalID, CarID: car.ID, Received: at, Time: at, Lat: 31_000_000,
				Lon: 121_000_000, Speed: speed, Tank: &tank.State{Compartments: 1, Seal: tank.SealSealed}, Levels: lv,
				Readings: tank.Convert(nil, lv)}
		}
		frame := func(at time.Time) telemetry.Frame {
			return telemetry.Frame{TerminalID: car.TerminalID, CarID: car.ID, Phone: car.Phone, At: at, MsgID: 0x0200, Data: []byte{1}}
		}

		// Stored before its day has a partition: it waits in the default partition, and moves into
		// the day's partition when the day is made, its trend rollup untouched.
		he.store(t, []telemetry.Report{report(base, 300)}, []telemetry.Frame{frame(base)})
		if n := count(t, e.DB, "positions_default"); n != 1 {
			t.Fatalf("before the partitions: %d rows in the default partition", n)
		}
		rollup := func() int { return count(t, e.DB, "speed_rollup", "car_id = ?", car.ID) }
		if rollup() != 1 {
			t.Fatalf("speed rollup: %d", rollup())
		}
		n, err := he.h.EnsurePartitions(ctx)
		if err != nil || n != 4*(telemetry.PartitionsAhead+2) {
			t.Fatalf("ensure: %d %v", n, err)
		}
		if got := partitionNames(t, e.DB, "positions"); got[0] != "positions_p20260228" || got[len(got)-1] != "positions_p20260308" || len(got) != 9 {
			t.Fatalf("positions partitions: %v", got)
		}
		for _, tb := range []string{"positions", "tank_states", "level_readings", "raw_frames"} {
			if d, p := count(t, e.DB, tb+"_default"), count(t, e.DB, tb+"_p20260301"); d != 0 || p != 1 {
				t.Errorf("%s after ensure: default %d, day %d", tb, d, p)
			}
		}
		if rollup() != 1 {
			t.Errorf("the move changed the rollup: %d rows", rollup())
		}
		if n, err := he.h.EnsurePartitions(ctx); err != nil || n != 0 {
			t.Errorf("second ensure: %d %v", n, err)
		}

		// Across a day boundary, a re-sent report (the copy's unique violation, then ON CONFLICT on the
		// partitioned table), and clocks far off: 2001 and 2099 land in the default partition.
		midnight := time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)
		past, future := time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2099, 6, 1, 12, 0, 0, 0, time.UTC)
		batch := []telemetry.Report{report(midnight.Add(-time.Millisecond), 400), report(midnight, 500), report(past, 10), report(future, 20)}
		he.store(t, batch, []telemetry.Frame{frame(midnight.Add(-time.Millisecond)), frame(midnight), frame(past), frame(future)})
		he.store(t, batch[:2], nil)
		if a, b, d := count(t, e.DB, "positions_p20260301"), count(t, e.DB, "positions_p20260302"), count(t, e.DB, "positions_default"); a != 2 || b != 1 || d != 2 {
			t.Errorf("rows by partition: %d %d default %d", a, b, d)
		}
		if n := rollup(); n != 5 { // the writer's rollups count the attached days too, the re-sent reports not
			t.Errorf("speed rollup slices: %d, want 5", n)
		}
		if n := count(t, e.DB, "level_rollup", "car_id = ?", car.ID); n != 5 {
			t.Errorf("level rollup slices: %d, want 5", n)
		}
		if a, b := count(t, e.DB, "level_readings_p20260302"), count(t, e.DB, "tank_states_default"); a != 1 || b != 2 {
			t.Errorf("tank rows: %d level readings on the 2nd, %d tank states in the default partition", a, b)
		}
		admin := he.principal(t, he.admin)
		tr, err := he.h.Track(ctx, admin, car.ID, midnight.Add(-time.Hour), midnight.Add(time.Hour), 0)
		if err != nil || len(tr.Points) != 2 || tr.Points[0].Speed != 40 || tr.Points[1].Speed != 50 {
			t.Errorf("track across midnight: %v %+v", err, tr.Points)
		}
		for _, at := range []time.Time{past, future} {
			tr, err := he.h.Track(ctx, admin, car.ID, at.Add(-time.Hour), at.Add(time.Hour), 0)
			if err != nil || len(tr.Points) != 1 || !tr.Points[0].Time.Std().Equal(at) {
				t.Errorf("track at %v (default partition): %v %+v", at, err, tr.Points)
			}
			page, err := he.h.Table(ctx, admin, i18n.EnUS, telemetry.HistoryQuery{Table: telemetry.TableRawFrames, CarID: car.ID,
				StartTime: httpx.TimeOf(at.Add(-time.Hour)), EndTime: httpx.TimeOf(at.Add(time.Hour))})
			if p, ok := page.(httpx.Page[*telemetry.RawFrameView]); err != nil || !ok || p.Total != 1 {
				t.Errorf("raw frames at %v: %v %+v", at, err, page)
			}
		}

		// Ten days on, with a week's retention (cutoff 2026-03-04 08:00): the whole days before the
		// cutoff go, 28 Feb to 3 Mar, with their speed rollups; the 4th stays (the cutoff falls in it);
		// the default partition loses the 2001 rows, keeps the 2099 ones; new days are made from yesterday
		// on (the 9th, a day the job never saw as yesterday, is left to the default partition).
		e.Clock.Advance(10 * 24 * time.Hour)
		created, err := he.h.EnsurePartitions(ctx)
		if err != nil || created != 4*(telemetry.PartitionsAhead+2) {
			t.Fatalf("ensure ten days on: %d %v", created, err)
		}
		raw, err := he.h.Purge(ctx)
		if err != nil || raw != 4 {
			t.Errorf("raw frames purged: %d %v", raw, err)
		}
		pos, err := he.h.PurgePositions(ctx)
		if err != nil || pos != 4 {
			t.Errorf("positions purged: %d %v", pos, err)
		}
		got := partitionNames(t, e.DB, "positions")
		if got[0] != "positions_p20260304" || got[len(got)-1] != "positions_p20260318" {
			t.Errorf("positions partitions after the purge: %v", got)
		}
		if got := partitionNames(t, e.DB, "raw_frames"); got[0] != "raw_frames_p20260304" {
			t.Errorf("raw frame partitions after the purge: %v", got)
		}
		if n := count(t, e.DB, "positions"); n != 1 {
			t.Errorf("positions left: %d (the 2099 one)", n)
		}
		if n := count(t, e.DB, "speed_rollup", "car_id = ?", car.ID); n != 1 {
			t.Errorf("speed rollups left: %d (the 2099 one)", n)
		}
		if n := count(t, e.DB, "speed_rollup_h", "car_id = ?", car.ID); n != 1 {
			t.Errorf("hourly speed rollups left: %d (the 2099 one)", n)
		}
		if n := count(t, e.DB, "tank_states"); n != 5 {
			t.Errorf("tank states have no retention: %d", n) // 3 days' partitions kept, not dropped
		}
	})
}

// queryLog records the SQL that the history sends, as executed (bun formats the arguments in).
type queryLog struct {
	mu   sync.Mutex
	sqls []string
}

func (l *queryLog) BeforeQuery(ctx context.Context, _ *bun.QueryEvent) context.Context { return ctx }

func (l *queryLog) AfterQuery(_ context.Context, ev *bun.QueryEvent) {
	l.mu.Lock()
	l.sqls = append(l.sqls, ev.Query)
	l.mu.Unlock()
}

func (l *queryLog) take() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := l.sqls
	l.sqls = nil
	return out
}

var partitionRef = regexp.MustCompile(`\b(?:positions|tank_states|level_readings|raw_frames)_(?:p\d{8}|default)\b`)

// TestHistoryQueriesPrunePartitions runs EXPLAIN on the statements the history and track calls
// really send (captured through a query hook) and checks that a car's period reads only the
// partitions of its days: neither the other days nor the default partition.
func TestHistoryQueriesPrunePartitions(t *testing.T) {
	t.Parallel()
	pgOnly(t, func(t *testing.T, e *apptest.Env) {
		ctx := context.Background()
		he := newHistEnv(t, e, 0)
		log := &queryLog{}
		hooked := bun.NewDB(e.DB.DB.DB, pgdialect.New())
		hooked.AddQueryHook(log)
		h := telemetry.NewHistory(&db.DB{DB: hooked, Kind: db.Postgres}, e.App.Fleet, telemetry.HistoryConfig{}, e.Clock.Now)
		if _, err := h.EnsurePartitions(ctx); err != nil {
			t.Fatal(err)
		}
		log.take()
		admin := he.principal(t, he.admin)
		car := he.eastCar
		from, to := time.Date(2026, 3, 1, 20, 0, 0, 0, time.UTC), time.Date(2026, 3, 2, 4, 0, 0, 0, time.UTC)
		calls := map[string]func() error{
			"track": func() error { _, err := h.Track(ctx, admin, car.ID, from, to, 0); return err },
		}
		for _, tb := range []string{telemetry.TablePositions, telemetry.TableTankStates, telemetry.TableRawFrames} {
			for _, q := range []telemetry.HistoryQuery{{CarID: car.ID}, {Phone: car.Phone}} {
				q.Table, q.StartTime, q.EndTime = tb, httpx.TimeOf(from), httpx.TimeOf(to)
				name := tb + " by car"
				if q.Phone != "" {
					name = tb + " by terminal"
				}
				calls[name] = func() error { _, err := h.Table(ctx, admin, i18n.EnUS, q); return err }
			}
		}
		names := make([]string, 0, len(calls))
		for n := range calls {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, name := range names {
			if err := calls[name](); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			table := "positions"
			switch {
			case strings.HasPrefix(name, telemetry.TableTankStates):
				table = "tank_states"
			case strings.HasPrefix(name, telemetry.TableRawFrames):
				table = "raw_frames"
			}
			want := []string{table + "_p20260301", table + "_p20260302"}
			explained := 0
			for _, sql := range log.take() {
				if !strings.HasPrefix(sql, "SELECT") || !strings.Contains(sql, table) {
					continue
				}
				var plan []string
				if err := e.DB.NewRaw("EXPLAIN "+sql).Scan(ctx, &plan); err != nil {
					t.Fatalf("%s: explain %s: %v", name, sql, err)
				}
				seen := map[string]bool{}
				for _, line := range plan {
					for _, p := range partitionRef.FindAllString(line, -1) {
						seen[p] = true
					}
				}
				got := make([]string, 0, len(seen))
				for p := range seen {
					got = append(got, p)
				}
				sort.Strings(got)
				if !slices.Equal(got, want) {
					t.Errorf("%s reads %v, want %v\nSQL: %s\nplan:\n%s", name, got, want, sql, strings.Join(plan, "\n"))
				}
				explained++
			}
			if explained == 0 {
				t.Errorf("%s: no query of %s captured", name, table)
			}
		}
	})
}

// TestLiveLoadAcrossPartitions: the start-up load seeks recent days first (liveRecent) and the rest
// through every partition: a car last seen ten days ago, one seen an hour ago and one whose clock is
// in 2099 (default partition) all come back with their newest position and tank state.
func TestLiveLoadAcrossPartitions(t *testing.T) {
	t.Parallel()
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		ctx := context.Background()
		he := newHistEnv(t, e, 0)
		if _, err := he.h.EnsurePartitions(ctx); err != nil {
			t.Fatal(err)
		}
		third := findCar(t, e, "苏E·71C26")
		future := time.Date(2099, 1, 1, 0, 0, 0, 0, time.UTC)
		cases := []struct {
			car demoCar
			at  []time.Time
		}{
			{he.eastCar, []time.Time{base.Add(-11 * 24 * time.Hour), base.Add(-10 * 24 * time.Hour)}},
			{he.northCar, []time.Time{base.Add(-10 * 24 * time.Hour), base.Add(-time.Hour)}},
			{third, []time.Time{base.Add(-time.Hour), future}},
		}
		var reports []telemetry.Report
		for _, c := range cases {
			for k, at := range c.at {
				reports = append(reports, telemetry.Report{TerminalID: c.car.TerminalID, CarID: c.car.ID, Received: at, Time: at,
					Lat: 30_000_000, Lon: 120_000_000, Speed: uint16(100 * (k + 1)), Tank: &tank.State{Compartments: 1, Seal: tank.SealSealed}})
			}
		}
		he.store(t, reports, nil)
		l := telemetry.NewLive(e.DB, e.App.Fleet, telemetry.LiveConfig{}, e.Clock.Now)
		if err := l.Load(ctx); err != nil {
			t.Fatal(err)
		}
		for _, c := range cases {
			newest := c.at[len(c.at)-1]
			s, ok := l.Car(c.car.ID)
			if !ok || !s.Time.Equal(newest) || s.Speed != 200 || !s.TankTime.Equal(newest) || s.LockState == "" {
				t.Errorf("car %d after Load: %v time %v speed %d tank %v %q, want %v", c.car.ID, ok, s.Time, s.Speed, s.TankTime, s.LockState, newest)
			}
		}
	})
}
