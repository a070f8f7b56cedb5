package analysis

import (
	"context"

	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/waybill"
	"tankwatch/internal/waybill/views"
)

// Only narrows a drill-down to the trips behind one count.
type Only string

const (
	OnlyAll      Only = ""
	OnlyOver     Only = "over"     // over the allowance (overAllowance)
	OnlyOpenings Only = "openings" // with openings on the way (abnormalOpenings counts their openings)
	OnlyTimed    Only = "timed"    // with a known out-to-arrival time
)

// TripRow is a finished trip behind a figure.
type TripRow struct {
	ID              int64      `bun:"id" json:"id"`
	No              string     `bun:"no" json:"no"`
	Plate           string     `bun:"plate" json:"plate"`
	GroupName       string     `bun:"group_name" json:"groupName"`
	DepotName       string     `bun:"depot_name" json:"depotName"`
	StationName     string     `bun:"station_name" json:"stationName"`
	ClosedAt        httpx.Time `bun:"closed_at" json:"closedAt"`
	DepartAt        int64      `bun:"depart_at" json:"-"`
	ArriveAt        int64      `bun:"arrive_at" json:"-"`
	ShippedV20      float64    `bun:"shipped_v20" json:"shippedV20"`
	ShippedMassT    float64    `bun:"shipped_mass_t" json:"shippedT"`
	LossL           float64    `bun:"loss_l" json:"lossL"`
	LossRatePct     float64    `bun:"loss_rate_pct" json:"lossRatePct"`
	AllowedPct      float64    `bun:"allowed_pct" json:"allowedPct"`
	LoadedKm        float64    `bun:"loaded_km" json:"km"`
	Openings        int64      `bun:"openings" json:"openings"`
	TonKm           float64    `bun:"-" json:"tonKm"`
	OutToArrivalMin float64    `bun:"-" json:"outToArrivalMin"`
	Over            bool       `bun:"-" json:"over"`
}

var tripSort = map[string]string{"closedAt": "w.closed_at", "no": "w.no", "plate": "c.plate", "shippedV20": "w.shipped_v20",
	"shippedT": "w.shipped_mass_t", "lossL": "w.loss_l", "lossRatePct": "w.loss_rate_pct", "km": "w.loaded_km"}

// TripPage is a drill-down page with the count of the whole set (the figure it explains).
type TripPage = httpx.Page[TripRow]

func (s *Service) trips(ctx context.Context, sc Scope, only Only, order string, limit, offset int64) ([]TripRow, int, error) {
	sel := finishedTrips(s.db, sc).ColumnExpr("w.id, w.no, w.closed_at, w.depart_at, w.arrive_at, w.shipped_v20, w.shipped_mass_t, w.loss_l").
		ColumnExpr("w.loss_rate_pct, w.allowed_pct, w.loaded_km, c.plate, g.name AS group_name, d.name AS depot_name").
		ColumnExpr("COALESCE((SELECT st.name FROM waybill_destinations AS wd JOIN stations AS st ON st.id = wd.station_id WHERE wd.waybill_id = w.id ORDER BY wd.seq LIMIT 1), '') AS station_name").
		ColumnExpr("(SELECT COUNT(*) FROM waybill_steps AS ws WHERE ws.waybill_id = w.id AND ws.evidence = ?) AS openings", int(waybill.EvOpeningOnWay)).
		Join("JOIN cars AS c ON c.id = w.car_id").Join("JOIN stations AS d ON d.id = w.depot_id")
	switch only {
	case OnlyOver:
		sel = sel.Where("w.loss_rate_pct > w.allowed_pct + 0.000000000001")
	case OnlyOpenings:
		sel = sel.Where("EXISTS (SELECT 1 FROM waybill_steps AS ws WHERE ws.waybill_id = w.id AND ws.evidence = ?)", int(waybill.EvOpeningOnWay))
	case OnlyTimed:
		sel = sel.Where("w.depart_at > 0 AND w.arrive_at >= w.depart_at")
	}
	var rows []TripRow
	sel = sel.OrderExpr(order + ", w.id DESC").Limit(limit).Offset(offset)
	n, err := sel.ScanAndCount(ctx, &rows)
	for i := range rows {
		r := &rows[i]
		r.TonKm = waybill.TonKm(r.ShippedMassT, r.LoadedKm)
		r.OutToArrivalMin = views.OutToArrivalMin(r.DepartAt, r.ArriveAt)
		r.Over = views.Over(r.LossRatePct, r.AllowedPct)
	}
	if rows == nil {
		rows = []TripRow{}
	}
	return rows, int(n), err
}

// Trips is one page of the finished trips behind a figure of sc.
func (s *Service) Trips(ctx context.Context, sc Scope, only Only, pq httpx.PageReq) (TripPage, error) {
	order, err := pq.OrderBy(tripSort, "w.closed_at DESC")
	if err != nil {
		return TripPage{}, err
	}
	rows, n, err := s.trips(ctx, sc, only, order, pq.Limit(), pq.Offset())
	return httpx.NewPage(rows, int64(n), pq), err
}

// Top5 is the five finished trips of sc with the largest V20 loss (a loss above 0).
func (s *Service) Top5(ctx context.Context, sc Scope) ([]TripRow, error) {
	rows, _, err := s.trips(ctx, sc, OnlyAll, "w.loss_l DESC", 5, 0)
	out := rows[:0]
	for _, r := range rows {
		if r.LossL > 0 {
			out = append(out, r)
		}
	}
	return out, err
}
