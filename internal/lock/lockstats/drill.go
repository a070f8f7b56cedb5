package lockstats

import (
	"context"
	"sort"

	"github.com/uptrace/bun"

	"tankwatch/internal/lock"
	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/seal"
	"tankwatch/internal/stats"
)

// DrillQuery names one figure of one row: the rows behind it are listed. From / To are the row's days
// (its from / to); CarID, CompanyID or Serial its key; GroupID, and the page's car and serial filters
// as on the page.
type DrillQuery struct {
	httpx.PageReq
	Kind      Kind       `json:"kind"`
	Column    string     `json:"column"`
	From      httpx.Time `json:"from"`
	To        httpx.Time `json:"to"`
	GroupID   int64      `json:"groupId"`   // the page's subtree filter
	CompanyID int64      `json:"companyId"` // the row's carrier company (exactly that group)
	CarID     int64      `json:"carId"`
	Serial    string     `json:"serial"`
}

// DrillRow is one lock event, offline interval, seal record or incident.
type DrillRow struct {
	ID          int64      `bun:"id" json:"id"`
	T           httpx.Time `bun:"t" json:"t"` // event / incident time; applied_at; offline start
	Serial      string     `bun:"serial" json:"serial,omitempty"`
	Plate       string     `bun:"plate" json:"plate"`
	GroupName   string     `bun:"group_name" json:"groupName"`
	Compartment int        `bun:"compartment" json:"compartment"`
	Device      int        `bun:"device" json:"device"`
	Event       int        `bun:"event" json:"event,omitempty"`
	Method      int        `bun:"method" json:"method"`
	StationName string     `bun:"station_name" json:"stationName"`
	WaybillNo   string     `bun:"waybill_no" json:"waybillNo"`
	SealNo      string     `bun:"seal_no" json:"sealNo,omitempty"`
	State       int        `bun:"state" json:"state,omitempty"`
	Kind        int        `bun:"kind" json:"kind,omitempty"`
	BrokenAt    httpx.Time `bun:"broken_at" json:"brokenAt,omitempty"`
	Detail      string     `bun:"detail" json:"detail,omitempty"`
	BackAt      httpx.Time `bun:"-" json:"backAt,omitempty"`    // offline: when it came back (null: not yet)
	CountedTo   httpx.Time `bun:"-" json:"countedTo,omitempty"` // offline, still open: counted up to
	Seconds     int64      `bun:"-" json:"seconds,omitempty"`   // offline: the seconds in the days asked
}

// Drill is a page of the rows behind a figure; Sum is the figure they add up to (the row count, or
// the offline seconds).
type Drill struct {
	httpx.Page[DrillRow]
	Shape string `json:"shape"` // events, offline, seals, incidents
	Sum   int64  `json:"sum"`
}

// what each figure counts: the shape of its rows and the condition on them
var lockWhere = map[string]string{
	"openedRemote": "e.event = 1 AND e.method = 1", "openedBle": "e.event = 1 AND e.method = 2", "openedKey": "e.event = 1 AND e.method = 3",
	"openedOther": "e.event = 1 AND e.method NOT IN (1, 2, 3)", "opened": "e.event = 1", "openedInside": "e.event = 1 AND e.station_id > 0",
	"openedOutside": "e.event = 1 AND e.station_id = 0", "closed": "e.event = 2", "tampered": "e.event = 3", "lowBattery": "e.event = 4",
	"offlineEvents": "e.event = 5",
}

var sealWhere = map[string][2]string{ // time column, condition
	"applied": {"r.applied_at", "1 = 1"}, "brokenDest": {"r.broken_at", "r.state = 2"}, "brokenAway": {"r.broken_at", "r.state = 3"},
}

var incidentKind = map[string]seal.Incident{"reused": seal.IncidentReused, "noSeals": seal.IncidentNoSeals, "mismatch": seal.IncidentMismatch}

// Rows lists the records behind one figure, in the caller's scope, with paging.
func (s *Service) Rows(ctx context.Context, p *httpx.Principal, q DrillQuery) (*Drill, error) {
	if err := q.Normalize(); err != nil {
		return nil, err
	}
	if q.From == 0 || q.To == 0 {
		return nil, httpx.Required("lockStats.period")
	}
	from, to := stats.Day(int64(q.From)), stats.Day(q.To.Through())
	if to < from {
		return nil, httpx.Biz("lockStats.endBeforeStart")
	}
	if len(stats.Days(from, to)) > MaxDays {
		return nil, httpx.Biz("lockStats.rangeTooLong", MaxDays)
	}
	under, err := db.ScopeUnder(ctx, s.DB, p, q.GroupID)
	if err != nil {
		return nil, err
	}
	if q.CompanyID > 0 {
		if _, err := db.ScopedGroupPath(ctx, s.DB, p, q.CompanyID); err != nil {
			return nil, err
		}
	}
	if q.CarID > 0 {
		if err := carInScope(ctx, s.DB, p, q.CarID); err != nil {
			return nil, err
		}
	}
	start, end := stats.DayStart(from), stats.DayEnd(to)
	filter := func(sel *bun.SelectQuery, alias string) *bun.SelectQuery {
		sel = sel.Where("g.path LIKE ?", under+"%")
		if q.CompanyID > 0 {
			sel = sel.Where(alias+".group_id = ?", q.CompanyID)
		}
		if q.CarID > 0 {
			sel = sel.Where(alias+".car_id = ?", q.CarID)
		}
		return sel
	}
	switch {
	case q.Kind == KindLock && q.Column == "offlineS":
		return s.offline(ctx, filter, q, from, to)
	case q.Kind == KindLock && lockWhere[q.Column] != "":
		sel := s.DB.NewSelect().TableExpr("lock_events AS e").
			ColumnExpr("e.id, e.t, e.serial, e.compartment, e.device, e.event, e.method").
			ColumnExpr("COALESCE(c.plate, '') AS plate, g.name AS group_name, COALESCE(st.name, '') AS station_name, COALESCE(w.no, '') AS waybill_no").
			Join("JOIN org_groups AS g ON g.id = e.group_id").Join("LEFT JOIN cars AS c ON c.id = e.car_id").
			Join("LEFT JOIN stations AS st ON st.id = e.station_id").Join("LEFT JOIN waybills AS w ON w.id = e.waybill_id").
			Where("e.t BETWEEN ? AND ?", start, end).Where(lockWhere[q.Column])
		if q.Serial != "" {
			sel = sel.Where("e.serial = ?", q.Serial)
		}
		return page(ctx, filter(sel, "e"), q.PageReq, "e.t, e.id", "events")
	case q.Kind == KindSeal && sealWhere[q.Column][0] != "":
		w := sealWhere[q.Column]
		sel := s.DB.NewSelect().TableExpr("seal_records AS r").
			ColumnExpr("r.id, r.applied_at AS t, r.compartment, r.seal_no, r.state, r.broken_at").
			ColumnExpr("COALESCE(c.plate, '') AS plate, g.name AS group_name, COALESCE(st.name, '') AS station_name, wb.no AS waybill_no").
			Join("JOIN org_groups AS g ON g.id = r.group_id").Join("LEFT JOIN cars AS c ON c.id = r.car_id").
			Join("LEFT JOIN stations AS st ON st.id = r.broken_station_id").Join("JOIN waybills AS wb ON wb.id = r.waybill_id").
			Where(w[0]+" BETWEEN ? AND ?", start, end).Where(w[1])
		return page(ctx, filter(sel, "r"), q.PageReq, w[0]+", r.id", "seals")
	case q.Kind == KindSeal && incidentKind[q.Column] != 0:
		sel := s.DB.NewSelect().TableExpr("seal_incidents AS i").
			ColumnExpr("i.id, i.t, i.compartment, i.seal_no, i.kind, i.detail").
			ColumnExpr("COALESCE(c.plate, '') AS plate, g.name AS group_name, COALESCE(st.name, '') AS station_name, wb.no AS waybill_no").
			Join("JOIN org_groups AS g ON g.id = i.group_id").Join("LEFT JOIN cars AS c ON c.id = i.car_id").
			Join("LEFT JOIN stations AS st ON st.id = i.station_id").Join("JOIN waybills AS wb ON wb.id = i.waybill_id").
			Where("i.t BETWEEN ? AND ? AND i.kind = ?", start, end, int(incidentKind[q.Column]))
		return page(ctx, filter(sel, "i"), q.PageReq, "i.t, i.id", "incidents")
	}
	return nil, httpx.Invalid("lockStats.column")
}

func page(ctx context.Context, sel *bun.SelectQuery, q httpx.PageReq, order, shape string) (*Drill, error) {
	var rows []DrillRow
	n, err := sel.OrderExpr(order).Limit(q.Limit()).Offset(q.Offset()).ScanAndCount(ctx, &rows)
	if err != nil {
		return nil, err
	}
	return &Drill{Page: httpx.NewPage(rows, int64(n), q), Shape: shape, Sum: int64(n)}, nil
}

// offline lists the offline intervals that give offline time to the days asked, each with its
// seconds: counted exactly as the rollup counted them, an open interval up to the time its rollup
// row was computed (so the seconds add up to the figure clicked).
func (s *Service) offline(ctx context.Context, filter func(*bun.SelectQuery, string) *bun.SelectQuery, q DrillQuery, from, to int) (*Drill, error) {
	start, end := stats.DayStart(from), stats.DayEnd(to)
	sel := intervalSelect(s.DB).Join("JOIN org_groups AS g ON g.id = e.group_id")
	if q.Serial != "" {
		sel = sel.Where("e.serial = ?", q.Serial)
	}
	var ivs []Interval
	if err := overlapping(filter(sel, "e"), start, end).OrderExpr("e.t, e.id").Scan(ctx, &ivs); err != nil {
		return nil, err
	}
	type rk struct {
		car, group int64
		serial     string
		day        int
	}
	computed := map[rk]int64{}
	if len(ivs) > 0 {
		cars := map[int64]bool{}
		var ids []int64
		for _, iv := range ivs {
			if !cars[iv.CarID] {
				cars[iv.CarID] = true
				ids = append(ids, iv.CarID)
			}
		}
		var rows []LockDaily
		err := s.DB.NewSelect().Model(&rows).Column("day", "car_id", "group_id", "serial", "computed_at").
			Where("day BETWEEN ? AND ? AND offline_s > 0 AND car_id IN (?)", from, to, bun.In(ids)).Scan(ctx)
		if err != nil {
			return nil, err
		}
		for _, r := range rows {
			computed[rk{r.CarID, r.GroupID, r.Serial, r.Day}] = r.ComputedAt
		}
	}
	var all []DrillRow
	var sum int64
	for _, iv := range ivs {
		var sec, upTo int64
		for _, d := range stats.Days(max(from, stats.Day(iv.Start)), to) {
			at, ok := computed[rk{iv.CarID, iv.GroupID, iv.Serial, d}]
			if !ok {
				continue // no offline time in the rollup that day (not refreshed yet)
			}
			sec += OfflineSeconds(iv, d, at)
			upTo = max(upTo, at)
		}
		if sec == 0 {
			continue
		}
		r := DrillRow{ID: iv.EventID, T: httpx.Time(iv.Start), Serial: iv.Serial, Event: int(lock.EventOffline), Seconds: sec, BackAt: httpx.Time(iv.End)}
		if iv.End == 0 || iv.End > upTo {
			r.CountedTo = httpx.Time(upTo)
		}
		all = append(all, r)
		sum += sec
	}
	total := len(all)
	lo := min(int(q.Offset()), total)
	hi := min(lo+q.PageSize, total)
	pg := all[lo:hi]
	if err := s.names(ctx, pg); err != nil {
		return nil, err
	}
	return &Drill{Page: httpx.NewPage(pg, int64(total), q.PageReq), Shape: "offline", Sum: sum}, nil
}

// names fills plate and company of the offline rows shown.
func (s *Service) names(ctx context.Context, rows []DrillRow) error {
	if len(rows) == 0 {
		return nil
	}
	ids := make([]int64, len(rows))
	for i := range rows {
		ids[i] = rows[i].ID
	}
	var got []DrillRow
	err := s.DB.NewSelect().TableExpr("lock_events AS e").ColumnExpr("e.id, e.compartment, e.device, COALESCE(c.plate, '') AS plate, g.name AS group_name").
		Join("JOIN org_groups AS g ON g.id = e.group_id").Join("LEFT JOIN cars AS c ON c.id = e.car_id").
		Where("e.id IN (?)", bun.In(ids)).Scan(ctx, &got)
	if err != nil {
		return err
	}
	by := map[int64]DrillRow{}
	for _, g := range got {
		by[g.ID] = g
	}
	for i := range rows {
		g := by[rows[i].ID]
		rows[i].Plate, rows[i].GroupName, rows[i].Compartment, rows[i].Device = g.Plate, g.GroupName, g.Compartment, g.Device
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].T < rows[j].T })
	return nil
}
