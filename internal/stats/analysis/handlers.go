package analysis

import (
	"context"
	"database/sql"
	"errors"
	"net/http"

	"tankwatch/internal/geo"
	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/stats"
)

// Permission codes: dataAnalysis/transportation (05-01, export 05-01-01) and trend (05-02, export 05-02-01).
const (
	CodeTransportation       = "05-01"
	CodeTransportationExport = "05-01-01"
	CodeTrend                = "05-02"
	CodeTrendExport          = "05-02-01"
)

// maxDays bounds a period (a series by day over three years is still a readable chart).
const maxDays = 1100

// Req is every analysis request: the period (start and end, the time-range picker's), the filters and
// what to answer.
type Req struct {
	httpx.PageReq
	Start     httpx.Time `json:"start"`
	End       httpx.Time `json:"end"`
	GroupID   int64      `json:"groupId"`   // a company: its subtree
	CompanyID int64      `json:"companyId"` // exactly this carrier group (a company row's drill-down)
	ProductID int64      `json:"productId"`
	DepotID   int64      `json:"depotId"` // a route: depot and first destination station
	StationID int64      `json:"stationId"`
	Dim       string     `json:"dim"`   // company | product | route
	Grain     string     `json:"grain"` // day | week | month
	Only      string     `json:"only"`  // drill-down: "" | over | openings | timed
	Year      int        `json:"year"`  // tonKilometersMonth
}

// scope checks r against the caller and turns it into a Scope.
func (s *Service) scope(ctx context.Context, p *httpx.Principal, r Req) (Scope, error) {
	var sc Scope
	if r.Start == 0 || r.End == 0 {
		return sc, httpx.Biz("analysis.period")
	}
	sc.From, sc.To = stats.Day(int64(r.Start)), stats.Day(int64(r.End))
	if sc.To < sc.From {
		return sc, httpx.Biz("analysis.endBeforeStart")
	}
	if len(stats.Days(sc.From, sc.To)) > maxDays {
		return sc, httpx.Biz("analysis.tooLong", maxDays)
	}
	var err error
	if sc.Under, err = db.ScopeUnder(ctx, s.db, p, r.GroupID); err != nil {
		return sc, err
	}
	if r.CompanyID > 0 {
		if _, err := db.ScopedGroupPath(ctx, s.db, p, r.CompanyID); err != nil {
			return sc, err
		}
		sc.GroupID = r.CompanyID
	}
	if r.ProductID > 0 && r.DepotID > 0 {
		return sc, httpx.Biz("analysis.productAndRoute")
	}
	if r.ProductID > 0 {
		if err := s.visible(ctx, p, "products", r.ProductID); err != nil {
			return sc, err
		}
		sc.ProductID = r.ProductID
	}
	if r.StationID > 0 && r.DepotID <= 0 {
		return sc, httpx.Invalid("analysis.depotId")
	}
	for _, id := range []int64{r.DepotID, r.StationID} {
		if id > 0 {
			if err := s.visible(ctx, p, "stations", id); err != nil {
				return sc, err
			}
		}
	}
	sc.DepotID, sc.StationID = r.DepotID, r.StationID
	return sc, nil
}

// visible: the product or station exists and the caller may see it (shared down a company's tree, as
// the waybill views check stations).
func (s *Service) visible(ctx context.Context, p *httpx.Principal, table string, id int64) error {
	var path string
	err := s.db.NewSelect().TableExpr(table+" AS x").ColumnExpr("g.path").Join("JOIN org_groups AS g ON g.id = x.group_id").
		Where("x.id = ?", id).Scan(ctx, &path)
	if errors.Is(err, sql.ErrNoRows) {
		return httpx.ErrNotFound
	} else if err != nil {
		return err
	}
	if !geo.Visible(path, p.GroupPath) {
		return httpx.ErrScope
	}
	return nil
}

func dim(r Req, sc Scope) (Dimension, error) {
	switch d := Dimension(r.Dim); d {
	case "", DimCompany:
		return DimCompany, nil
	case DimProduct, DimRoute:
		if (d == DimProduct && sc.route()) || (d == DimRoute && sc.ProductID > 0) {
			return d, httpx.Biz("analysis.productAndRoute")
		}
		return d, nil
	}
	return "", httpx.Invalid("analysis.dim")
}

func grain(r Req) (Grain, error) {
	switch g := Grain(r.Grain); g {
	case "":
		return GrainDay, nil
	case GrainDay, GrainWeek, GrainMonth:
		return g, nil
	}
	return "", httpx.Invalid("analysis.grain")
}

// call adapts a handler that needs the checked scope.
func (s *Service) call(fn func(r *http.Request, sc Scope, in Req) (any, error)) http.HandlerFunc {
	return httpx.JSON(func(r *http.Request, in Req) (any, error) {
		sc, err := s.scope(r.Context(), httpx.Caller(r), in)
		if err != nil {
			return nil, err
		}
		return fn(r, sc, in)
	})
}

// Routes are the analysis endpoints (spec §7 outToArrival/*, D57; docs/API.md).
func (s *Service) Routes() []httpx.Route {
	const base = "/monitor-app/outToArrival/"
	both := httpx.Needs(CodeTransportation, CodeTrend)
	return []httpx.Route{
		{Method: "POST", Path: base + "selectTransportProcessStatistics", Access: httpx.Needs(CodeTransportation), Scoped: true,
			Handler: s.call(func(r *http.Request, sc Scope, in Req) (any, error) {
				d, err := dim(in, sc)
				if err != nil {
					return nil, err
				}
				return s.Breakdown(r.Context(), sc, d)
			})},
		{Method: "POST", Path: base + "selectTransportationConsumption", Access: httpx.Needs(CodeTransportation), Scoped: true,
			Handler: s.call(func(r *http.Request, sc Scope, in Req) (any, error) {
				if sc.ProductID > 0 {
					return nil, httpx.Biz("analysis.productAndRoute")
				}
				return s.Breakdown(r.Context(), sc, DimRoute)
			})},
		{Method: "POST", Path: base + "v20Top5", Access: both, Scoped: true,
			Handler: s.call(func(r *http.Request, sc Scope, in Req) (any, error) { return s.Top5(r.Context(), sc) })},
		{Method: "POST", Path: base + "selectTonKilometers", Access: httpx.Needs(CodeTrend), Scoped: true,
			Handler: s.call(func(r *http.Request, sc Scope, in Req) (any, error) {
				g, err := grain(in)
				if err != nil {
					return nil, err
				}
				return s.Compare(r.Context(), sc, g)
			})},
		{Method: "POST", Path: base + "tonKilometersMonth", Access: httpx.Needs(CodeTrend), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in Req) (any, error) {
				if in.Year < 2000 || in.Year > 2100 {
					return nil, httpx.Invalid("analysis.year")
				}
				in.Start = httpx.Time(stats.DayStart(in.Year*10000 + 101))
				in.End = httpx.Time(stats.DayStart(in.Year*10000 + 1231))
				sc, err := s.scope(r.Context(), httpx.Caller(r), in)
				if err != nil {
					return nil, err
				}
				return s.Compare(r.Context(), sc, GrainMonth)
			})},
		{Method: "POST", Path: base + "trips", Access: both, Scoped: true,
			Handler: s.call(func(r *http.Request, sc Scope, in Req) (any, error) {
				if err := in.Normalize(); err != nil {
					return nil, err
				}
				switch Only(in.Only) {
				case OnlyAll, OnlyOver, OnlyOpenings, OnlyTimed:
				default:
					return nil, httpx.Invalid("analysis.only")
				}
				return s.Trips(r.Context(), sc, Only(in.Only), in.PageReq)
			})},
		{Method: "POST", Path: base + "options", Access: both, Scoped: true,
			Handler: s.call(func(r *http.Request, sc Scope, in Req) (any, error) { return s.Options(r.Context(), sc) })},
		{Method: "POST", Path: base + "export", Access: httpx.Needs(CodeTransportationExport), Scoped: true, Handler: s.exportHandler()},
		{Method: "POST", Path: base + "exportTrend", Access: httpx.Needs(CodeTrendExport), Scoped: true, Handler: s.trendExportHandler()},
	}
}
