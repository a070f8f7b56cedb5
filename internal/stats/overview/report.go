package overview

import (
	"context"
	"database/sql"
	"errors"
	"math"
	"sort"
	"time"

	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/stats"
	"tankwatch/internal/waybill"
)

// ReportQuery is the body of the operations report: a company (a group of the caller's scope), the
// kind of period and a day inside it.
type ReportQuery struct {
	GroupID int64  `json:"groupId"`
	Kind    string `json:"kind"` // day, week (ISO, Monday first), month
	Date    string `json:"date"` // YYYY-MM-DD
}

// StationRow is one destination station's unloadings in the period.
type StationRow struct {
	StationID   int64   `json:"stationId" bun:"station_id"`
	Name        string  `json:"name" bun:"name"`
	Unloadings  int64   `json:"unloadings" bun:"unloadings"`
	Cars        int64   `json:"cars" bun:"cars"`
	ReceivedV20 float64 `json:"receivedV20" bun:"received_v20"`
}

// Difference is one line of the report's differences: an over-allowance trip, an opening on the way,
// or a seal incident.
type Difference struct {
	Kind        string  `json:"kind" bun:"kind"` // over, opening, seal
	WaybillID   int64   `json:"waybillId" bun:"waybill_id"`
	WaybillNo   string  `json:"waybillNo" bun:"waybill_no"`
	Plate       string  `json:"plate" bun:"plate"`
	T           int64   `json:"t" bun:"t"`
	LossL       float64 `json:"lossL" bun:"loss_l"`
	LossRatePct float64 `json:"lossRatePct" bun:"loss_rate_pct"`
	AllowedPct  float64 `json:"allowedPct" bun:"allowed_pct"`
	Compartment int     `json:"compartment" bun:"compartment"`
	SealKind    int     `json:"sealKind" bun:"seal_kind"` // seal.Incident*
	SealNo      string  `json:"sealNo" bun:"seal_no"`
}

// Report is the formal operations report of one company for a day, week or month.
type Report struct {
	GroupID     int64        `json:"groupId"`
	Company     string       `json:"company"`
	Kind        string       `json:"kind"`
	From        string       `json:"from"`
	To          string       `json:"to"`
	GeneratedAt httpx.Time   `json:"generatedAt"`
	Summary     Tiles        `json:"summary"`
	Cars        []Named      `json:"cars"`
	Products    []Named      `json:"products"`
	Stations    []StationRow `json:"stations"`
	Differences []Difference `json:"differences"`
	// Truncated: more differences than MaxDifferences (the list shows the first ones).
	Truncated bool `json:"truncated"`
}

// MaxDifferences bounds the differences listed in one report.
const MaxDifferences = 1000

// ReportPeriod is the period of kind holding date.
func ReportPeriod(kind, date string) (Period, error) {
	d, ok := parseDay(date)
	if !ok {
		return Period{}, httpx.Required("overview.date")
	}
	switch kind {
	case "day":
		return Period{From: d, To: d}, nil
	case "week":
		w := stats.WeekStart(d)
		return Period{From: w, To: int(stats.AddDays(w, 6))}, nil
	case "month":
		first := d/100*100 + 1
		next := time.Date(d/10000, time.Month(d/100%100)+1, 1, 12, 0, 0, 0, httpx.Shanghai)
		last := int(stats.AddDays(next.Year()*10000+int(next.Month())*100+1, -1))
		return Period{From: first, To: last}, nil
	}
	return Period{}, httpx.Invalid("overview.kind")
}

// Report builds the operations report of q for the caller.
func (s *Service) Report(ctx context.Context, pr *httpx.Principal, q ReportQuery) (*Report, error) {
	if q.GroupID <= 0 {
		return nil, httpx.Required("overview.company")
	}
	p, err := ReportPeriod(q.Kind, q.Date)
	if err != nil {
		return nil, err
	}
	under, err := s.scope(ctx, pr, q.GroupID)
	if err != nil {
		return nil, err
	}
	out := &Report{GroupID: q.GroupID, Kind: q.Kind, From: DayText(p.From), To: DayText(p.To), GeneratedAt: httpx.TimeOf(s.Now())}
	if err := s.db.NewSelect().Table("org_groups").Column("name").Where("id = ?", q.GroupID).Scan(ctx, &out.Company); err != nil {
		return nil, err
	}
	if out.Summary, err = s.tiles(ctx, under, p); err != nil {
		return nil, err
	}
	f := stats.Filter{From: p.From, To: p.To, Under: under}
	if out.Cars, err = s.named(ctx, f, stats.ByCar, "cars", "plate"); err != nil {
		return nil, err
	}
	sort.SliceStable(out.Cars, func(i, j int) bool { return out.Cars[i].Name < out.Cars[j].Name })
	products, err := s.named(ctx, f, stats.ByProduct, "products", "name")
	if err != nil {
		return nil, err
	}
	out.Products = byName(products)
	if out.Stations, err = s.stations(ctx, under, p); err != nil {
		return nil, err
	}
	out.Differences, out.Truncated, err = s.differences(ctx, under, p)
	return out, err
}

// finishedIn restricts a query on waybills AS w (joined to org_groups AS g) to the trips the rollup
// counts: finished in p, carrier under path.
const finishedIn = "w.state IN (?, ?) AND w.closed_at BETWEEN ? AND ? AND g.path LIKE ?"

func finishedArgs(under string, p Period) []any {
	from, to := p.Bounds()
	return []any{waybill.Closed, waybill.DiffFlagged, from, to, under + "%"}
}

// stations are the unloadings per destination station of the trips the report counts
// (vehicleUnloading): a two-stop trip unloads at two stations. Read from the destinations, which the
// rollup does not split by.
func (s *Service) stations(ctx context.Context, under string, p Period) ([]StationRow, error) {
	var out []StationRow
	err := s.db.NewSelect().TableExpr("waybill_destinations AS d").Join("JOIN waybills AS w ON w.id = d.waybill_id").
		Join("JOIN org_groups AS g ON g.id = w.group_id").Join("JOIN stations AS st ON st.id = d.station_id").
		ColumnExpr("d.station_id, st.name, COUNT(*) AS unloadings, COUNT(DISTINCT w.car_id) AS cars").
		ColumnExpr("CAST(COALESCE(SUM(d.received_v20), 0) AS DOUBLE PRECISION) AS received_v20").
		Where(finishedIn, finishedArgs(under, p)...).GroupExpr("d.station_id, st.name").OrderExpr("st.name, d.station_id").Scan(ctx, &out)
	for i := range out {
		out[i].ReceivedV20 = math.Round(out[i].ReceivedV20*10) / 10
	}
	if out == nil {
		out = []StationRow{}
	}
	return out, err
}

// Unloadings is the vehicleUnloading call: the unloadings per destination station in a period.
func (s *Service) Unloadings(ctx context.Context, pr *httpx.Principal, q Query) ([]StationRow, error) {
	p, err := ParsePeriod(q.Start, q.End)
	if err != nil {
		return nil, err
	}
	under, err := s.scope(ctx, pr, q.GroupID)
	if err != nil {
		return nil, err
	}
	return s.stations(ctx, under, p)
}

// differences lists the over-allowance trips and the openings on the way of the trips the report
// counts, and the seal incidents of the period, by time.
func (s *Service) differences(ctx context.Context, under string, p Period) ([]Difference, bool, error) {
	out := []Difference{}
	var over []Difference
	err := s.db.NewSelect().TableExpr("waybills AS w").Join("JOIN org_groups AS g ON g.id = w.group_id").Join("JOIN cars AS c ON c.id = w.car_id").
		ColumnExpr("'over' AS kind, w.id AS waybill_id, w.no AS waybill_no, c.plate, w.closed_at AS t, w.loss_l, w.loss_rate_pct, w.allowed_pct").
		Where(finishedIn, finishedArgs(under, p)...).Where("w.loss_rate_pct > w.allowed_pct + 0.000000000001").
		OrderExpr("w.closed_at, w.id").Limit(MaxDifferences+1).Scan(ctx, &over)
	if err != nil {
		return nil, false, err
	}
	var opens []Difference
	err = s.db.NewSelect().TableExpr("waybill_steps AS st").Join("JOIN waybills AS w ON w.id = st.waybill_id").
		Join("JOIN org_groups AS g ON g.id = w.group_id").Join("JOIN cars AS c ON c.id = w.car_id").
		ColumnExpr("'opening' AS kind, w.id AS waybill_id, w.no AS waybill_no, c.plate, st.t, st.compartment").
		Where(finishedIn, finishedArgs(under, p)...).Where("st.evidence = ?", int(waybill.EvOpeningOnWay)).
		OrderExpr("st.t, st.id").Limit(MaxDifferences+1).Scan(ctx, &opens)
	if err != nil {
		return nil, false, err
	}
	from, to := p.Bounds()
	var seals []Difference
	err = s.db.NewSelect().TableExpr("seal_incidents AS i").Join("JOIN org_groups AS g ON g.id = i.group_id").
		Join("LEFT JOIN waybills AS w ON w.id = i.waybill_id").Join("LEFT JOIN cars AS c ON c.id = i.car_id").
		ColumnExpr("'seal' AS kind, i.waybill_id, COALESCE(w.no, '') AS waybill_no, COALESCE(c.plate, '') AS plate, i.t, i.compartment, i.kind AS seal_kind, i.seal_no").
		Where("i.t BETWEEN ? AND ? AND g.path LIKE ?", from, to, under+"%").OrderExpr("i.t, i.id").Limit(MaxDifferences+1).Scan(ctx, &seals)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, false, err
	}
	out = append(append(append(out, over...), opens...), seals...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].T < out[j].T })
	truncated := len(out) > MaxDifferences
	if truncated {
		out = out[:MaxDifferences]
	}
	return out, truncated, nil
}
