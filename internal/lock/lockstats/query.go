package lockstats

import (
	"context"
	"database/sql"
	"errors"
	"regexp"
	"strings"

	"github.com/uptrace/bun"

	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/stats"
)

// Kind is which rollup a page reads.
type Kind string

const (
	KindLock Kind = "lock"
	KindSeal Kind = "seal"
)

// Columns are the figures of each kind as the API names them, with their rollup column.
var Columns = map[Kind][][2]string{
	KindLock: {{"openedRemote", "opened_remote"}, {"openedBle", "opened_ble"}, {"openedKey", "opened_key"}, {"openedOther", "opened_other"},
		{"openedInside", "opened_inside"}, {"openedOutside", "opened_outside"}, {"closed", "closed"}, {"tampered", "tampered"},
		{"lowBattery", "low_battery"}, {"offlineEvents", "offline_events"}, {"offlineS", "offline_s"}},
	KindSeal: {{"applied", "applied"}, {"brokenDest", "broken_dest"}, {"brokenAway", "broken_away"}, {"reused", "reused"},
		{"noSeals", "no_seals"}, {"mismatch", "mismatch"}},
}

var table = map[Kind]string{KindLock: "stat_lock_daily", KindSeal: "stat_seal_daily"}

// Query is the body of a statistics page and its export.
type Query struct {
	httpx.PageReq
	Start httpx.Time `json:"start"`
	End   httpx.Time `json:"end"`
	// By: "car" (default), "group" (the carrier company), "lock" (the per-lock page, lock kind only).
	By      string `json:"by"`
	GroupID int64  `json:"groupId"` // the subtree counted (0: the caller's)
	CarID   int64  `json:"carId"`
	Serial  string `json:"serial"` // lock kind: one lock
}

// Row is one period × car / company / lock with its figures.
type Row struct {
	Period  int              `json:"period"` // YYYYMMDD, YYYYWW, YYYYMM; 0 on the per-lock page
	Label   string           `json:"label"`
	From    string           `json:"from"` // the days the row counts (YYYY-MM-DD), for the drill-down
	To      string           `json:"to"`
	CarID   int64            `json:"carId,omitempty"`
	GroupID int64            `json:"groupId,omitempty"`
	Serial  string           `json:"serial,omitempty"`
	Name    string           `json:"name"`   // plate, company name or serial
	Detail  string           `json:"detail"` // the car's company; the lock's current car
	Figures map[string]int64 `json:"figures"`
}

// Result is a page of rows with the totals of the whole filtered set and the chart by period.
type Result struct {
	httpx.Page[Row]
	From   string           `json:"from"`
	To     string           `json:"to"`
	Totals map[string]int64 `json:"totals"`
	Chart  []Row            `json:"chart"`
}

// Service answers the statistics pages over the rollups.
type Service struct {
	DB bun.IDB
	// daily reads the daily rows for every range that is not whole months, as before the month-to-date
	// layer (D80): the perf test's "before", in the same run.
	daily bool
}

type agg struct {
	N      int64  `bun:"n_rows"` // the page query's count of every row (COUNT(*) OVER ())
	P      int    `bun:"p"`
	K      int64  `bun:"k"`
	Sr     string `bun:"sr"`
	Name   string `bun:"name"`
	Detail string `bun:"detail"`
	LockFigures
	SealFigures
}

func (a *agg) figures(kind Kind) map[string]int64 {
	f := a.LockFigures
	s := a.SealFigures
	if kind == KindSeal {
		return map[string]int64{"applied": s.Applied, "brokenDest": s.BrokenDest, "brokenAway": s.BrokenAway, "reused": s.Reused,
			"noSeals": s.NoSeals, "mismatch": s.Mismatch}
	}
	return map[string]int64{"openedRemote": f.OpenedRemote, "openedBle": f.OpenedBLE, "openedKey": f.OpenedKey, "openedOther": f.OpenedOther,
		"opened": f.Opened(), "openedInside": f.OpenedInside, "openedOutside": f.OpenedOutside, "closed": f.Closed, "tampered": f.Tampered,
		"lowBattery": f.LowBattery, "offlineEvents": f.OfflineEvents, "offlineS": f.OfflineS}
}

// scope is a checked query: the days, the group path and the filters.
type scope struct {
	kind     Kind
	period   Period
	by       string
	from, to int
	under    string
	carID    int64
	serial   string
	daily    bool // Service.daily
}

// check validates q for a page of kind and period and resolves the caller's scope: a group or car of
// another subtree is refused (httpx.ErrScope), never read.
func (s *Service) check(ctx context.Context, p *httpx.Principal, kind Kind, per Period, q *Query) (*scope, error) {
	if err := q.Normalize(); err != nil {
		return nil, err
	}
	by := q.By
	switch {
	case by == "" && per == PerAll:
		by = "lock"
	case by == "":
		by = "car"
	case by == "car", by == "group", by == "lock" && kind == KindLock:
	default:
		return nil, httpx.Invalid("lockStats.by")
	}
	from, to, err := span(per, q.Start, q.End)
	if err != nil {
		return nil, err
	}
	under, err := db.ScopeUnder(ctx, s.DB, p, q.GroupID)
	if err != nil {
		return nil, err
	}
	if q.CarID > 0 {
		if err := carInScope(ctx, s.DB, p, q.CarID); err != nil {
			return nil, err
		}
	}
	return &scope{kind: kind, period: per, by: by, from: from, to: to, under: under, carID: q.CarID, serial: strings.TrimSpace(q.Serial), daily: s.daily}, nil
}

func carInScope(ctx context.Context, idb bun.IDB, p *httpx.Principal, carID int64) error {
	var path string
	err := idb.NewSelect().TableExpr("cars AS c").ColumnExpr("g.path").Join("JOIN org_groups AS g ON g.id = c.group_id").
		Where("c.id = ?", carID).Scan(ctx, &path)
	if errors.Is(err, sql.ErrNoRows) {
		return httpx.ErrNotFound
	} else if err != nil {
		return err
	}
	if !p.InScope(path) {
		return httpx.ErrScope
	}
	return nil
}

// wholeMonths: the days of sc are whole calendar months (always so on the month pages), which the
// monthly rollup answers with a thirtieth of the rows.
func (sc *scope) wholeMonths() bool {
	return sc.from%100 == 1 && sc.to == lastOfMonth(sc.to) && sc.period != PerDay && sc.period != PerWeek
}

// running: sc reads the cars' lock rows over one range as a whole (the per-lock page's rows by lock or
// car over any range): whole months from the monthly rows and each partial month [a, b] as the difference of two
// month-to-date rows, row(b) − row(a−1) (D80), instead of every day's rows.
func (sc *scope) running(perGroup bool) bool {
	return sc.kind == KindLock && sc.period == PerAll && !sc.wholeMonths() && !sc.groupRows(perGroup) && !sc.daily
}

// groupRows: sc is answered from the per-group rows (sums by group, period or in all, when no car or
// lock is asked for).
func (sc *scope) groupRows(perGroup bool) bool {
	return perGroup && sc.carID == 0 && (sc.serial == "" || sc.kind == KindSeal)
}

// filters are sc's conditions on a rollup table's own columns: the scope and the car or lock asked for.
func (sc *scope) filters() (string, []any) {
	cond, args := []string{"group_id IN (SELECT id FROM org_groups WHERE path LIKE ?)"}, []any{sc.under + "%"}
	if sc.carID > 0 {
		cond, args = append(cond, "car_id = ?"), append(args, sc.carID)
	}
	if sc.serial != "" && sc.kind == KindLock {
		cond, args = append(cond, "serial = ?"), append(args, sc.serial)
	}
	return strings.Join(cond, " AND "), args
}

// runningRows is the rows a running scope adds up: the monthly rows of its whole months, the
// month-to-date rows of the last day of each partial month, and those of the day before each partial
// month that does not start on the 1st, negated. The filters go into every branch.
func (s *Service) runningRows(sc *scope) *bun.RawQuery {
	where, fargs := sc.filters()
	keys := keyCols(sc.kind)
	var months, plus, minus []int
	for m := sc.from / 100; m <= sc.to/100; m = stats.Month(stats.NextDay(m*100 + 31)) {
		first, last := monthDays(m)
		lo, hi := max(sc.from, first), min(sc.to, last)
		if lo == first && hi == last {
			months = append(months, m)
			continue
		}
		plus = append(plus, hi)
		if lo > first {
			minus = append(minus, int(stats.AddDays(lo, -1)))
		}
	}
	var neg []string
	for _, c := range Columns[sc.kind] {
		neg = append(neg, "0 - "+c[1]+" AS "+c[1])
	}
	var parts []string
	var args []any
	for _, b := range []struct {
		table, key, cols string
		in               []int
	}{
		{strings.Replace(table[sc.kind], "_daily", "_monthly", 1), "month", sumCols(sc.kind), months},
		{"stat_lock_mtd", "day", sumCols(sc.kind), plus},
		{"stat_lock_mtd", "day", strings.Join(neg, ", "), minus},
	} {
		if len(b.in) > 0 {
			parts = append(parts, "SELECT "+keys+", "+b.cols+" FROM "+b.table+" WHERE "+b.key+" IN (?) AND "+where)
			args = append(append(args, bun.In(b.in)), fargs...)
		}
	}
	return s.DB.NewRaw("("+strings.Join(parts, " UNION ALL ")+")", args...)
}

// base selects the rollup rows of sc: the monthly rows for whole months, the monthly and month-to-date
// rows for a range counted as a whole, else the daily ones; the per-group rows when perGroup (sums by
// group, period or in all) and no car or lock is asked for.
func (s *Service) base(sc *scope, perGroup bool) *bun.SelectQuery {
	sel := s.rows(sc, perGroup)
	for _, c := range Columns[sc.kind] {
		sel = sel.ColumnExpr("CAST(COALESCE(SUM(s." + c[1] + "), 0) AS BIGINT) AS " + c[1])
	}
	return sel
}

// rows is base without its columns: the rollup rows of sc, aliased s.
func (s *Service) rows(sc *scope, perGroup bool) *bun.SelectQuery {
	sel := s.DB.NewSelect()
	name := strings.TrimSuffix(table[sc.kind], "_daily")
	if sc.groupRows(perGroup) {
		name += "_group"
	}
	where, args := sc.filters()
	if sc.groupRows(perGroup) {
		where, args = "group_id IN (SELECT id FROM org_groups WHERE path LIKE ?)", args[:1]
	}
	switch {
	case sc.running(perGroup):
		sel = sel.TableExpr("? AS s", s.runningRows(sc))
	case sc.wholeMonths():
		sel = sel.TableExpr(name+"_monthly AS s").Where("s.month BETWEEN ? AND ?", sc.from/100, sc.to/100).Where(where, args...)
	default:
		sel = sel.TableExpr(name+"_daily AS s").Where("s.day BETWEEN ? AND ?", sc.from, sc.to).Where(where, args...)
	}
	return sel
}

var periodExpr = map[Period]string{PerDay: "s.day", PerWeek: "s.week", PerMonth: "s.month", PerAll: "0"}

// keys are the expressions of a row's period, key and serial over the rollup rows s.
func (sc *scope) keys() (p, k, sr string) {
	p, k, sr = periodExpr[sc.period], "s.car_id", "''"
	switch sc.by {
	case "group":
		k = "s.group_id"
	case "lock":
		k, sr = "0", "s.serial"
	}
	return p, k, sr
}

// byKeys groups sel by sc's row keys, selected as p, k and sr.
func (sc *scope) byKeys(sel *bun.SelectQuery) *bun.SelectQuery {
	p, k, sr := sc.keys()
	sel = sel.ColumnExpr(p + " AS p").ColumnExpr(k + " AS k").ColumnExpr(sr + " AS sr")
	for _, g := range []string{p, k, sr} {
		if strings.HasPrefix(g, "s.") { // a constant in GROUP BY would be read as a column position
			sel = sel.GroupExpr(g)
		}
	}
	return sel
}

// keyed is base grouped by period and the row key: the page's rows without their names.
func (s *Service) keyed(sc *scope) *bun.SelectQuery {
	inner := sc.byKeys(s.base(sc, sc.by == "group"))
	if sc.running(sc.by == "group") {
		// a key whose running sums did not move in the range adds up to nothing: it had no row there
		// (every daily row counts something, and every figure is a count or seconds, never negative)
		var sums []string
		for _, c := range Columns[sc.kind] {
			sums = append(sums, "SUM(s."+c[1]+")")
		}
		inner = inner.Having(strings.Join(sums, " + ") + " <> 0")
	}
	return inner
}

// named joins their names to rows (keyed rows, as a subquery aliased a).
func (s *Service) named(sc *scope, rows *bun.SelectQuery) *bun.SelectQuery {
	outer := s.DB.NewSelect().TableExpr("(?) AS a", rows).ColumnExpr("a.*")
	switch sc.by {
	case "car":
		outer = outer.ColumnExpr("COALESCE(c.plate, '') AS name, COALESCE(cg.name, '') AS detail").
			Join("LEFT JOIN cars AS c ON c.id = a.k").Join("LEFT JOIN org_groups AS cg ON cg.id = c.group_id")
	case "group":
		outer = outer.ColumnExpr("COALESCE(og.name, '') AS name, '' AS detail").Join("LEFT JOIN org_groups AS og ON og.id = a.k")
	case "lock":
		outer = outer.ColumnExpr("a.sr AS name, COALESCE(lc.plate, '') AS detail").
			Join("LEFT JOIN locks AS l ON l.serial = a.sr").Join("LEFT JOIN cars AS lc ON lc.id = l.car_id")
	}
	return outer
}

// grouped is the page's rows with their names.
func (s *Service) grouped(sc *scope) *bun.SelectQuery { return s.named(sc, s.keyed(sc)) }

// pageRows is one page of the rows in order ord, each with the count of every row (COUNT(*) OVER ()).
// The day page of the whole fleet is 150,000 car-days and its month page over a year 120,000
// car-months (D80), so no more than the order needs is done per row: only the keys and the figures
// the order reads are added up (the offline seconds are a NUMERIC sum in PostgreSQL), and the rows are
// named only when the order is by name; the page's rows are then named and their figures added up
// for the page's keys alone. A range counted from running sums (whose keys are known only by their
// sums) is grouped whole.
func (s *Service) pageRows(ctx context.Context, sc *scope, ord string, limit, offset int64) ([]agg, error) {
	ord += ", a.p, a.k, a.sr" // a total order: rows of equal figures keep their place from page to page
	var rows []agg
	if sc.running(sc.by == "group") {
		err := s.grouped(sc).ColumnExpr("COUNT(*) OVER () AS n_rows").OrderExpr(ord).Limit(limit).Offset(offset).Scan(ctx, &rows)
		return rows, err
	}
	keys := sc.byKeys(s.rows(sc, sc.by == "group"))
	for _, c := range Columns[sc.kind] {
		if regexp.MustCompile(`\ba\.` + c[1] + `\b`).MatchString(ord) {
			keys = keys.ColumnExpr("CAST(COALESCE(SUM(s." + c[1] + "), 0) AS BIGINT) AS " + c[1])
		}
	}
	var page *bun.SelectQuery
	if strings.HasPrefix(ord, "a.p, name") { // the default order: the period leads, so only its periods are named
		return s.periodFirst(ctx, sc, keys, ord, limit, offset)
	} else if strings.Contains(ord, "name") {
		page = s.named(sc, keys).ColumnExpr("COUNT(*) OVER () AS n_rows").OrderExpr(ord).Limit(limit).Offset(offset)
	} else {
		cut := s.DB.NewSelect().TableExpr("(?) AS a", keys).ColumnExpr("a.*").ColumnExpr("COUNT(*) OVER () AS n_rows").
			OrderExpr(ord).Limit(limit).Offset(offset)
		page = s.named(sc, cut).OrderExpr(ord)
	}
	if err := page.Scan(ctx, &rows); err != nil || len(rows) == 0 {
		return rows, err
	}
	// the figures of the page's keys: the rows of its periods and keys, matched by (p, k, sr)
	p, k, sr := sc.keys()
	sel := s.keyed(sc)
	for _, c := range []struct {
		expr string
		vals func(a agg) any
	}{{p, func(a agg) any { return a.P }}, {k, func(a agg) any { return a.K }}, {sr, func(a agg) any { return a.Sr }}} {
		if !strings.HasPrefix(c.expr, "s.") {
			continue
		}
		var in []any
		for _, a := range rows {
			in = append(in, c.vals(a))
		}
		sel = sel.Where(c.expr+" IN (?)", bun.In(in))
	}
	var figs []agg
	if err := sel.Scan(ctx, &figs); err != nil {
		return nil, err
	}
	type key struct {
		p  int
		k  int64
		sr string
	}
	by := map[key]agg{}
	for _, f := range figs {
		by[key{f.P, f.K, f.Sr}] = f
	}
	for i, a := range rows {
		f := by[key{a.P, a.K, a.Sr}]
		rows[i].LockFigures, rows[i].SealFigures = f.LockFigures, f.SealFigures
	}
	return rows, nil
}

// periodFirst is pageRows for the default order (period, then name): the rows are counted per period,
// and only the periods the page falls in are named and sorted — the day page of the whole fleet names
// one day's cars instead of the month's 150,000 car-days (D80). Its rows carry their figures.
func (s *Service) periodFirst(ctx context.Context, sc *scope, keys *bun.SelectQuery, ord string, limit, offset int64) ([]agg, error) {
	var counts []struct {
		P int   `bun:"p"`
		N int64 `bun:"n"`
	}
	if err := s.DB.NewSelect().TableExpr("(?) AS a", keys).ColumnExpr("a.p AS p, COUNT(*) AS n").
		GroupExpr("a.p").OrderExpr("a.p").Scan(ctx, &counts); err != nil {
		return nil, err
	}
	var total, skip int64
	var in []any
	for _, c := range counts {
		if total+c.N > offset && total < offset+limit {
			if len(in) == 0 {
				skip = offset - total
			}
			in = append(in, c.P)
		}
		total += c.N
	}
	if len(in) == 0 {
		return nil, nil
	}
	p, _, _ := sc.keys()
	var rows []agg
	err := s.named(sc, s.keyed(sc).Where(p+" IN (?)", bun.In(in))).ColumnExpr("? AS n_rows", total).
		OrderExpr(ord).Limit(limit).Offset(skip).Scan(ctx, &rows)
	return rows, err
}

// order maps a sortField to the outer query's expression.
func order(sc *scope, q Query) (string, error) {
	cols := map[string]string{"period": "a.p", "name": "name"}
	for _, c := range Columns[sc.kind] {
		cols[c[0]] = "a." + c[1]
	}
	if sc.kind == KindLock {
		cols["opened"] = "(a.opened_remote + a.opened_ble + a.opened_key + a.opened_other)"
	}
	return q.OrderBy(cols, "a.p, name")
}

func (s *Service) row(sc *scope, a *agg) Row {
	lo, hi := bounds(sc.period, a.P, sc.from, sc.to)
	r := Row{Period: a.P, Label: label(sc.period, a.P), From: fmtDay(lo), To: fmtDay(hi), Name: a.Name, Detail: a.Detail, Figures: a.figures(sc.kind)}
	switch sc.by {
	case "car":
		r.CarID = a.K
	case "group":
		r.GroupID = a.K
	case "lock":
		r.Serial = a.Sr
	}
	return r
}

// Page is one page of rows of a statistics page, the totals of the filtered set and the chart (sums by
// period, none on the per-lock page).
func (s *Service) Page(ctx context.Context, p *httpx.Principal, kind Kind, per Period, q Query) (*Result, error) {
	sc, err := s.check(ctx, p, kind, per, &q)
	if err != nil {
		return nil, err
	}
	ord, err := order(sc, q)
	if err != nil {
		return nil, err
	}
	// the count of every row comes with the page (a window over the grouped rows) instead of a second
	// grouping of the whole range: the whole fleet's cars by month over a year are 120,000 rows (D70)
	rows, err := s.pageRows(ctx, sc, ord, q.Limit(), q.Offset())
	if err != nil {
		return nil, err
	}
	var n int
	if len(rows) > 0 {
		n = int(rows[0].N)
	} else if q.Offset() > 0 { // past the last page: the count alone
		c, err := s.DB.NewSelect().TableExpr("(?) AS x", s.keyed(sc)).Count(ctx)
		if err != nil {
			return nil, err
		}
		n = int(c)
	}
	out := &Result{From: fmtDay(sc.from), To: fmtDay(sc.to), Chart: []Row{}}
	list := make([]Row, len(rows))
	for i := range rows {
		list[i] = s.row(sc, &rows[i])
	}
	out.Page = httpx.NewPage(list, int64(n), q.PageReq)
	var tot agg
	if err := s.base(sc, true).Scan(ctx, &tot); err != nil {
		return nil, err
	}
	out.Totals = tot.figures(kind)
	if per != PerAll {
		var ch []agg
		pe := periodExpr[per]
		if err := s.base(sc, true).ColumnExpr(pe+" AS p").GroupExpr(pe).OrderExpr(pe).Scan(ctx, &ch); err != nil {
			return nil, err
		}
		for i := range ch {
			out.Chart = append(out.Chart, s.row(sc, &ch[i]))
		}
	}
	return out, nil
}

// MaxExportRows bounds one export.
const MaxExportRows = 100_000

// All is every row of the filtered set in the page's order (the export), with the totals.
func (s *Service) All(ctx context.Context, p *httpx.Principal, kind Kind, per Period, q Query) ([]Row, map[string]int64, error) {
	sc, err := s.check(ctx, p, kind, per, &q)
	if err != nil {
		return nil, nil, err
	}
	ord, err := order(sc, q)
	if err != nil {
		return nil, nil, err
	}
	var rows []agg
	if err := s.grouped(sc).OrderExpr(ord+", a.p, a.k, a.sr").Limit(MaxExportRows+1).Scan(ctx, &rows); err != nil {
		return nil, nil, err
	}
	if len(rows) > MaxExportRows {
		return nil, nil, httpx.Biz("lockStats.exportTooLarge", MaxExportRows)
	}
	out := make([]Row, len(rows))
	for i := range rows {
		out[i] = s.row(sc, &rows[i])
	}
	var tot agg
	if err := s.base(sc, true).Scan(ctx, &tot); err != nil {
		return nil, nil, err
	}
	return out, tot.figures(kind), nil
}
