package seal

import (
	"context"
	"strings"

	"github.com/uptrace/bun"

	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/httpx"
)

// Permission codes: leadSealRecord (04-23), its export button (04-23-01).
const (
	CodePage   = "04-23"
	CodeExport = "04-23-01"
)

// maxExportRows bounds one export (the page pages; an export of a year of seals stays a sheet).
const maxExportRows = 50_000

// Service reads the seal records and incidents (leadSealRecord).
type Service struct{ db *db.DB }

// New returns the service.
func New(d *db.DB) *Service { return &Service{db: d} }

// Query filters both tabs: the seals by their applying time, the incidents by theirs.
type Query struct {
	httpx.PageReq
	StartTime httpx.Time `json:"startTime"`
	EndTime   httpx.Time `json:"endTime"`
	GroupID   int64      `json:"groupId"`
	CarID     int64      `json:"carId"`
	SealNo    string     `json:"sealNo"`
	WaybillNo string     `json:"waybillNo"`
	WaybillID int64      `json:"waybillId"`
	State     int        `json:"state"` // seals: State* (0 all)
	Kind      int        `json:"kind"`  // incidents: Incident* (0 all)
}

// named joins what a listed row shows by name: its waybill, its car's company, its car.
func named(sel *bun.SelectQuery, alias string) *bun.SelectQuery {
	return sel.Join("JOIN waybills AS w ON w.id = " + alias + ".waybill_id").
		Join("JOIN org_groups AS g ON g.id = " + alias + ".group_id").
		Join("JOIN cars AS c ON c.id = " + alias + ".car_id")
}

// scopeWhere is the scope as a condition on the table's own columns: the caller's groups as a list (an
// index condition with the time), and the sales company's look-up only when some waybill sold by a
// group of the scope was carried by a group outside it (never for a caller who sees every group).
func (s *Service) scopeWhere(ctx context.Context, under, alias string) (string, []any, error) {
	var ids []int64
	if err := s.db.NewSelect().Table("org_groups").Column("id").Where("path LIKE ?", under+"%").Scan(ctx, &ids); err != nil {
		return "", nil, err
	}
	if len(ids) == 0 {
		return "1 = 0", nil, nil
	}
	own := alias + ".group_id IN (?)"
	outside, err := s.db.NewSelect().Table("org_groups").Where("path NOT LIKE ?", under+"%").Exists(ctx)
	if err != nil || !outside {
		return own, []any{bun.In(ids)}, err
	}
	sold, err := s.db.NewSelect().Table("waybills").Where("sales_group_id IN (?) AND group_id NOT IN (?)", bun.In(ids), bun.In(ids)).Exists(ctx)
	if err != nil || !sold {
		return own, []any{bun.In(ids)}, err
	}
	return "(" + own + " OR " + alias + ".waybill_id IN (SELECT id FROM waybills WHERE sales_group_id IN (?) AND group_id NOT IN (?)))",
		[]any{bun.In(ids), bun.In(ids), bun.In(ids)}, nil
}

// filter applies the scope — the waybill's carrier group or its sales company in the caller's subtree:
// a sales company's users follow the seals of what they sold, as on the process views (D46) — and the
// filters common to both tabs; tcol is the time column filtered. It
// names only the table's own columns (alias) and sub-selects, so that the totals count the table alone
// (a count of every row of a period joined to waybills, groups and cars is what made a page slow).
func (s *Service) filter(ctx context.Context, p *httpx.Principal, sel *bun.SelectQuery, q *Query, alias, tcol string) (*bun.SelectQuery, error) {
	under, err := db.ScopeUnder(ctx, s.db, p, q.GroupID)
	if err != nil {
		return nil, err
	}
	scope, args, err := s.scopeWhere(ctx, under, alias)
	if err != nil {
		return nil, err
	}
	sel = sel.Where(scope, args...)
	if q.StartTime != 0 && q.EndTime != 0 && q.EndTime < q.StartTime {
		return nil, httpx.Biz("leadSeal.rangeReversed")
	}
	if q.StartTime != 0 {
		sel = sel.Where(tcol+" >= ?", int64(q.StartTime))
	}
	if q.EndTime != 0 {
		sel = sel.Where(tcol+" <= ?", q.EndTime.Through())
	}
	if q.CarID > 0 {
		car := s.db.NewSelect().TableExpr("cars AS c").ColumnExpr("g.path").Join("JOIN org_groups AS g ON g.id = c.group_id").Where("c.id = ?", q.CarID)
		if _, err := db.ScopedRow(ctx, car, p, func(r *struct {
			Path string `bun:"path"`
		}) string {
			return r.Path
		}); err != nil {
			return nil, err
		}
		sel = sel.Where(alias+".car_id = ?", q.CarID)
	}
	if q.WaybillID > 0 {
		sel = sel.Where(alias+".waybill_id = ?", q.WaybillID)
	}
	if len([]rune(q.SealNo)) > 64 || len([]rune(q.WaybillNo)) > 64 {
		return nil, httpx.Biz("field.maxLen", httpx.Field("leadSeal.sealNo"), 64)
	}
	if v := cleanNo(q.SealNo); v != "" {
		sel = sel.Where(db.Contains(alias+".seal_no", v))
	}
	if v := strings.TrimSpace(q.WaybillNo); v != "" {
		expr, arg := db.Contains("wn.no", v)
		sel = sel.Where(alias+".waybill_id IN (SELECT wn.id FROM waybills AS wn WHERE "+expr+")", arg)
	}
	return sel, nil
}

// View is one seal of the seals tab.
type View struct {
	ID                int64      `json:"id" bun:"id"`
	SealNo            string     `json:"sealNo" bun:"seal_no"`
	CarID             int64      `json:"carId" bun:"car_id"`
	Plate             string     `json:"plate" bun:"plate"`
	GroupName         string     `json:"groupName" bun:"group_name"`
	Compartment       int        `json:"compartment" bun:"compartment"`
	WaybillID         int64      `json:"waybillId" bun:"waybill_id"`
	WaybillNo         string     `json:"waybillNo" bun:"waybill_no"`
	DepotID           int64      `json:"depotId" bun:"depot_id"`
	DepotName         string     `json:"depotName" bun:"depot_name"`
	AppliedAt         httpx.Time `json:"appliedAt" bun:"applied_at"`
	AppliedBy         string     `json:"appliedBy" bun:"applied_by"`
	State             State      `json:"state" bun:"state"`
	BrokenAt          httpx.Time `json:"brokenAt" bun:"broken_at"`
	BrokenStationID   int64      `json:"brokenStationId" bun:"broken_station_id"`
	BrokenStationName string     `json:"brokenStationName" bun:"broken_station_name"`
	BrokenLat         int64      `json:"brokenLat" bun:"broken_lat"`
	BrokenLon         int64      `json:"brokenLon" bun:"broken_lon"`
	Incidents         int        `json:"incidents" bun:"-"`
}

func (s *Service) sealSelect() *bun.SelectQuery {
	return named(s.db.NewSelect().TableExpr("seal_records AS s"), "s").
		ColumnExpr("s.id, s.seal_no, s.car_id, c.plate, g.name AS group_name, s.compartment, s.waybill_id, w.no AS waybill_no").
		ColumnExpr("s.depot_id, COALESCE(d.name, '') AS depot_name, s.applied_at, COALESCE(NULLIF(u.nick_name, ''), u.name, '') AS applied_by").
		ColumnExpr("s.state, s.broken_at, s.broken_station_id, COALESCE(bs.name, '') AS broken_station_name, s.broken_lat, s.broken_lon").
		Join("LEFT JOIN stations AS d ON d.id = s.depot_id").
		Join("LEFT JOIN stations AS bs ON bs.id = s.broken_station_id").
		Join("LEFT JOIN users AS u ON u.id = s.applied_by")
}

var sealSort = map[string]string{"appliedAt": "s.applied_at", "brokenAt": "s.broken_at", "sealNo": "s.seal_no", "plate": "c.plate",
	"waybillNo": "w.no", "state": "s.state", "compartment": "s.compartment", "depotName": "depot_name"}

// countIncidents fills the incidents of each listed seal (one query for the rows shown: a count per
// row of the whole set would be computed before the sort).
func (s *Service) countIncidents(ctx context.Context, list []View) error {
	if len(list) == 0 {
		return nil
	}
	ids := make([]int64, len(list))
	at := map[int64]int{}
	for i := range list {
		ids[i], at[list[i].ID] = list[i].ID, i
	}
	var rows []struct {
		SealID int64 `bun:"seal_id"`
		N      int   `bun:"n"`
	}
	if err := s.db.NewSelect().Table("seal_incidents").ColumnExpr("seal_id, COUNT(*) AS n").Where("seal_id IN (?)", bun.In(ids)).
		GroupExpr("seal_id").Scan(ctx, &rows); err != nil {
		return err
	}
	for _, r := range rows {
		list[at[r.SealID]].Incidents = r.N
	}
	return nil
}

// Totals are the filtered seals (not the page) by state.
type Totals struct {
	Total        int `json:"total" bun:"total"`
	Applied      int `json:"applied" bun:"applied"`
	BrokenAtDest int `json:"brokenAtDest" bun:"broken_at_dest"`
	BrokenAway   int `json:"brokenAway" bun:"broken_away"`
}

// SealPage is the seals tab: a page and the totals of the whole filtered set.
type SealPage struct {
	httpx.Page[View]
	Totals Totals `json:"totals"`
}

func (s *Service) seals(ctx context.Context, p *httpx.Principal, q *Query, sel *bun.SelectQuery) (*bun.SelectQuery, error) {
	if q.State != 0 && (q.State < int(StateApplied) || q.State > int(StateBrokenAway)) {
		return nil, httpx.Invalid("leadSeal.state")
	}
	sel, err := s.filter(ctx, p, sel, q, "s", "s.applied_at")
	if err != nil {
		return nil, err
	}
	if q.State != 0 {
		sel = sel.Where("s.state = ?", q.State)
	}
	return sel, nil
}

// Page lists the seals of the caller's scope with the totals by state.
func (s *Service) Page(ctx context.Context, p *httpx.Principal, q Query) (*SealPage, error) {
	if err := q.Normalize(); err != nil {
		return nil, err
	}
	order, err := q.OrderBy(sealSort, "s.applied_at DESC")
	if err != nil {
		return nil, err
	}
	sel, err := s.seals(ctx, p, &q, s.sealSelect())
	if err != nil {
		return nil, err
	}
	// the totals are the whole filtered set, not the page; their total is the page's
	tot, err := s.seals(ctx, p, &q, s.db.NewSelect().TableExpr("seal_records AS s"))
	if err != nil {
		return nil, err
	}
	out := &SealPage{}
	if err := tot.ColumnExpr("COUNT(*) AS total").
		ColumnExpr("COALESCE(SUM(CASE WHEN s.state = ? THEN 1 ELSE 0 END), 0) AS applied", StateApplied).
		ColumnExpr("COALESCE(SUM(CASE WHEN s.state = ? THEN 1 ELSE 0 END), 0) AS broken_at_dest", StateBrokenAtDest).
		ColumnExpr("COALESCE(SUM(CASE WHEN s.state = ? THEN 1 ELSE 0 END), 0) AS broken_away", StateBrokenAway).
		Scan(ctx, &out.Totals); err != nil {
		return nil, err
	}
	var rows []View
	if err := sel.OrderExpr(order+", s.id").Limit(q.Limit()).Offset(q.Offset()).Scan(ctx, &rows); err != nil {
		return nil, err
	}
	if err := s.countIncidents(ctx, rows); err != nil {
		return nil, err
	}
	out.Page = httpx.NewPage(rows, int64(out.Totals.Total), q.PageReq)
	return out, nil
}

// IncidentView is one row of the incidents tab.
type IncidentView struct {
	ID          int64      `json:"id" bun:"id"`
	Kind        Incident   `json:"kind" bun:"kind"`
	T           httpx.Time `json:"t" bun:"t"`
	CarID       int64      `json:"carId" bun:"car_id"`
	Plate       string     `json:"plate" bun:"plate"`
	GroupName   string     `json:"groupName" bun:"group_name"`
	WaybillID   int64      `json:"waybillId" bun:"waybill_id"`
	WaybillNo   string     `json:"waybillNo" bun:"waybill_no"`
	SealID      int64      `json:"sealId" bun:"seal_id"`
	Compartment int        `json:"compartment" bun:"compartment"`
	SealNo      string     `json:"sealNo" bun:"seal_no"`
	StationID   int64      `json:"stationId" bun:"station_id"`
	StationName string     `json:"stationName" bun:"station_name"`
	Lat         int64      `json:"lat" bun:"lat"`
	Lon         int64      `json:"lon" bun:"lon"`
	Detail      string     `json:"detail" bun:"detail"`
	// DetailText is the detail in the reader's language.
	DetailText string `json:"detailText" bun:"-"`
}

func (s *Service) incidentSelect() *bun.SelectQuery {
	return named(s.db.NewSelect().TableExpr("seal_incidents AS x"), "x").
		ColumnExpr("x.id, x.kind, x.t, x.car_id, c.plate, g.name AS group_name, x.waybill_id, w.no AS waybill_no, x.seal_id").
		ColumnExpr("x.compartment, x.seal_no, x.station_id, COALESCE(st.name, '') AS station_name, x.lat, x.lon, x.detail").
		Join("LEFT JOIN stations AS st ON st.id = x.station_id")
}

var incidentSort = map[string]string{"t": "x.t", "kind": "x.kind", "plate": "c.plate", "waybillNo": "w.no", "sealNo": "x.seal_no"}

// KindTotals are the filtered incidents by kind.
type KindTotals struct {
	Total      int `json:"total" bun:"total"`
	Reused     int `json:"reused" bun:"reused"`
	BrokenAway int `json:"brokenAway" bun:"broken_away"`
	NoSeals    int `json:"noSeals" bun:"no_seals"`
	Mismatch   int `json:"mismatch" bun:"mismatch"`
}

// IncidentPage is the incidents tab.
type IncidentPage struct {
	httpx.Page[IncidentView]
	Totals KindTotals `json:"totals"`
}

func (s *Service) incidents(ctx context.Context, p *httpx.Principal, q *Query, sel *bun.SelectQuery) (*bun.SelectQuery, error) {
	if q.Kind != 0 && (q.Kind < int(IncidentReused) || q.Kind > int(IncidentMismatch)) {
		return nil, httpx.Invalid("leadSeal.kind")
	}
	sel, err := s.filter(ctx, p, sel, q, "x", "x.t")
	if err != nil {
		return nil, err
	}
	if q.Kind != 0 {
		sel = sel.Where("x.kind = ?", q.Kind)
	}
	return sel, nil
}

// IncidentsPage lists the incidents of the caller's scope with the totals by kind; lang renders the details.
func (s *Service) IncidentsPage(ctx context.Context, p *httpx.Principal, q Query, text func(*IncidentView) string) (*IncidentPage, error) {
	if err := q.Normalize(); err != nil {
		return nil, err
	}
	order, err := q.OrderBy(incidentSort, "x.t DESC")
	if err != nil {
		return nil, err
	}
	sel, err := s.incidents(ctx, p, &q, s.incidentSelect())
	if err != nil {
		return nil, err
	}
	tot, err := s.incidents(ctx, p, &q, s.db.NewSelect().TableExpr("seal_incidents AS x"))
	if err != nil {
		return nil, err
	}
	out := &IncidentPage{}
	if err := tot.ColumnExpr("COUNT(*) AS total").
		ColumnExpr("COALESCE(SUM(CASE WHEN x.kind = ? THEN 1 ELSE 0 END), 0) AS reused", IncidentReused).
		ColumnExpr("COALESCE(SUM(CASE WHEN x.kind = ? THEN 1 ELSE 0 END), 0) AS broken_away", IncidentBrokenAway).
		ColumnExpr("COALESCE(SUM(CASE WHEN x.kind = ? THEN 1 ELSE 0 END), 0) AS no_seals", IncidentNoSeals).
		ColumnExpr("COALESCE(SUM(CASE WHEN x.kind = ? THEN 1 ELSE 0 END), 0) AS mismatch", IncidentMismatch).
		Scan(ctx, &out.Totals); err != nil {
		return nil, err
	}
	var rows []IncidentView
	if err := sel.OrderExpr(order+", x.id").Limit(q.Limit()).Offset(q.Offset()).Scan(ctx, &rows); err != nil {
		return nil, err
	}
	for i := range rows {
		rows[i].DetailText = text(&rows[i])
	}
	out.Page = httpx.NewPage(rows, int64(out.Totals.Total), q.PageReq)
	return out, nil
}
