package views

import (
	"database/sql"
	"errors"
	"net/http"

	"tankwatch/internal/geo"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/waybill"
)

// Destination is a destination of the detail.
type Destination = DestBrief

// CompartmentView is a planned compartment.
type CompartmentView struct {
	No          int     `json:"no" bun:"no"`
	ProductID   int64   `json:"productId" bun:"product_id"`
	ProductName string  `json:"productName" bun:"product_name"`
	PlannedL    float64 `json:"plannedL" bun:"planned_l"`
	DestSeq     int     `json:"destSeq" bun:"dest_seq"`
}

// LoadItem is one compartment of the load record.
type LoadItem struct {
	Compartment int     `json:"compartment" bun:"compartment"`
	ProductName string  `json:"productName" bun:"product_name"`
	VtL         float64 `json:"vtL" bun:"vt_l"`
	TempC       float64 `json:"tempC" bun:"temp_c"`
	Density20   float64 `json:"density20" bun:"density20"`
	VCF20       float64 `json:"vcf20" bun:"vcf20"`
	V20L        float64 `json:"v20L" bun:"v20_l"`
	MassT       float64 `json:"massT" bun:"mass_t"`
	SealNo      string  `json:"sealNo" bun:"seal_no"`
}

// LoadView is the trip's load record.
type LoadView struct {
	ID       int64      `json:"id" bun:"id"`
	TicketNo string     `json:"ticketNo" bun:"ticket_no"`
	LoadedAt int64      `json:"loadedAt" bun:"loaded_at"`
	Source   int        `json:"source" bun:"source"`
	Remark   string     `json:"remark" bun:"remark"`
	Items    []LoadItem `json:"items" bun:"-"`
}

// StepView is one stored step: who or what caused it, the evidence, the place, the volume.
type StepView struct {
	ID          int64   `json:"id"`
	From        string  `json:"from"`
	To          string  `json:"to"`
	Mark        bool    `json:"mark"` // the evidence marked the trip without moving it (From == To)
	Evidence    int     `json:"evidence"`
	Cause       int     `json:"cause"`
	UserID      int64   `json:"userId"`
	UserName    string  `json:"userName"`
	T           int64   `json:"t"`
	RecordedAt  int64   `json:"recordedAt"`
	DestSeq     int     `json:"destSeq"`
	Compartment int     `json:"compartment"`
	StationID   int64   `json:"stationId"`
	StationName string  `json:"stationName"`
	Lat         float64 `json:"lat"`
	Lon         float64 `json:"lon"`
	Address     string  `json:"address"`
	VolumeL     float64 `json:"volumeL"`
	Reason      string  `json:"reason"`
	Detail      string  `json:"detail"`
}

// DiffView is a difference recorded for the trip.
type DiffView struct {
	ID           int64   `json:"id" bun:"id"`
	Kind         int     `json:"kind" bun:"kind"`
	Status       int     `json:"status" bun:"status"`
	T            int64   `json:"t" bun:"t"`
	LossL        float64 `json:"lossL" bun:"loss_l"`
	LossRatePct  float64 `json:"lossRatePct" bun:"loss_rate_pct"`
	AllowedPct   float64 `json:"allowedPct" bun:"allowed_pct"`
	Evidence     string  `json:"evidence" bun:"evidence"`
	ReviewReason string  `json:"reviewReason" bun:"review_reason"`
}

// Detail is one trip with everything its timeline shows (transportProcess/detail).
type Detail struct {
	Waybill      Trip              `json:"waybill"`
	Destinations []DestBrief       `json:"destinations"`
	Compartments []CompartmentView `json:"compartments"`
	Load         *LoadView         `json:"load"`
	Steps        []StepView        `json:"steps"`
	Diffs        []DiffView        `json:"diffs"`
}

// maxLookups bounds the reverse geocoding of one detail (steps outside any station).
const maxLookups = 40

// Detail reads one trip of the caller's scope; another group's → 403, none → not found.
func (s *Service) Detail(r *http.Request, id int64) (*Detail, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	if id <= 0 {
		return nil, httpx.Required("wbviews.waybillId")
	}
	var rows []tripRow
	if err := s.tripSelect().Where("w.id = ?", id).Scan(ctx, &rows); err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, httpx.ErrNotFound
	}
	if !inScope(p, &rows[0]) {
		return nil, httpx.ErrScope
	}
	d := &Detail{Waybill: s.trip(&rows[0], s.Now().UnixMilli()), Compartments: []CompartmentView{}, Steps: []StepView{}, Diffs: []DiffView{}}
	trips := []Trip{d.Waybill}
	if err := s.destinations(ctx, trips); err != nil {
		return nil, err
	}
	d.Waybill.Destinations = trips[0].Destinations
	d.Destinations = trips[0].Destinations

	if err := s.db.NewSelect().TableExpr("waybill_compartments AS wc").
		ColumnExpr("wc.no, wc.product_id, COALESCE(pr.name, '') AS product_name, wc.planned_l, wc.dest_seq").
		Join("LEFT JOIN products AS pr ON pr.id = wc.product_id").Where("wc.waybill_id = ?", id).OrderExpr("wc.no").
		Scan(ctx, &d.Compartments); err != nil {
		return nil, err
	}
	var load LoadView
	err := s.db.NewSelect().TableExpr("load_records").ColumnExpr("id, ticket_no, loaded_at, source, remark").
		Where("waybill_id = ?", id).Scan(ctx, &load)
	switch {
	case errors.Is(err, sql.ErrNoRows):
	case err != nil:
		return nil, err
	default:
		load.Items = []LoadItem{}
		if err := s.db.NewSelect().TableExpr("load_record_items AS li").
			ColumnExpr("li.compartment, COALESCE(pr.name, '') AS product_name, li.vt_l, li.temp_c, li.density20, li.vcf20 AS vcf20, li.v20_l AS v20_l, li.mass_t, li.seal_no").
			Join("LEFT JOIN products AS pr ON pr.id = li.product_id").Where("li.record_id = ?", load.ID).OrderExpr("li.compartment").
			Scan(ctx, &load.Items); err != nil {
			return nil, err
		}
		d.Load = &load
	}
	var steps []struct {
		waybill.StepRow
		UserName    sql.NullString `bun:"user_name"`
		StationName sql.NullString `bun:"station_name"`
	}
	if err := s.db.NewSelect().TableExpr("waybill_steps AS ws").
		ColumnExpr("ws.*, CASE WHEN u.nick_name <> '' THEN u.nick_name ELSE u.name END AS user_name, st.name AS station_name").
		Join("LEFT JOIN users AS u ON u.id = ws.user_id").Join("LEFT JOIN stations AS st ON st.id = ws.station_id").
		Where("ws.waybill_id = ?", id).OrderExpr("ws.id").Scan(ctx, &steps); err != nil {
		return nil, err
	}
	lookups := 0
	gctx := geo.WithScope(ctx, p.GroupPath)
	for _, st := range steps {
		v := StepView{ID: st.ID, From: st.From.String(), To: st.To.String(), Mark: st.From == st.To, Evidence: st.Evidence,
			Cause: st.Cause, UserID: st.UserID, UserName: st.UserName.String, T: st.T, RecordedAt: st.RecordedAt,
			DestSeq: st.DestSeq, Compartment: st.Compartment, StationID: st.StationID, StationName: st.StationName.String,
			Lat: float64(st.Lat) / 1e6, Lon: float64(st.Lon) / 1e6, VolumeL: st.VolumeL, Reason: st.Reason, Detail: st.Detail}
		if v.StationName == "" && s.Geo != nil && geo.Valid(v.Lon, v.Lat) && lookups < maxLookups {
			lookups++
			v.Address, _ = s.Geo.Reverse(gctx, v.Lon, v.Lat, httpx.Lang(r))
		}
		d.Steps = append(d.Steps, v)
	}
	if err := s.db.NewSelect().TableExpr("diff_records").
		ColumnExpr("id, kind, status, t, loss_l, loss_rate_pct, allowed_pct, evidence, review_reason").
		Where("waybill_id = ?", id).OrderExpr("id").Scan(ctx, &d.Diffs); err != nil {
		return nil, err
	}
	return d, nil
}
