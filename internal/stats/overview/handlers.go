package overview

import (
	"math"
	"net/http"
	"strconv"

	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
	"tankwatch/internal/platform/xlsx"
)

// Routes are the overview's and the report's endpoints (docs/API.md, "Period overview and
// operations report"). Reads need the page's code, exports the export button's.
func (s *Service) Routes() []httpx.Route {
	read := httpx.Needs(CodeStatistic, CodeReport)
	return []httpx.Route{
		{Method: "POST", Path: "/monitor-app/transportProcessItem/selectTrafficStatistics", Access: httpx.Needs(CodeStatistic), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q Query) (any, error) { return s.Statistic(r.Context(), httpx.Caller(r), q) })},
		{Method: "POST", Path: "/base-info-app/transportProcess/transportProcessStatistics", Access: read, Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q Query) (any, error) { return s.StatesNow(r.Context(), httpx.Caller(r), q) })},
		{Method: "POST", Path: "/monitor-app/transportProcessItem/vehicleUnloading", Access: read, Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q Query) (any, error) { return s.Unloadings(r.Context(), httpx.Caller(r), q) })},
		{Method: "POST", Path: "/monitor-app/transportProcessItem/trips", Access: read, Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q TripsQuery) (any, error) { return s.Trips(r.Context(), httpx.Caller(r), q) })},
		{Method: "POST", Path: "/monitor-app/transportProcessItem/exportStatistics", Access: httpx.Needs(CodeStatisticExport), Scoped: true,
			Handler: xlsx.Handler(s.ExportStatistic)},
		{Method: "POST", Path: "/monitor-app/report/operations", Access: httpx.Needs(CodeReport), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q ReportQuery) (any, error) { return s.Report(r.Context(), httpx.Caller(r), q) })},
		{Method: "POST", Path: "/monitor-app/report/export", Access: httpx.Needs(CodeReportExport), Scoped: true,
			Handler: xlsx.Handler(s.ExportReport)},
	}
}

// exportHead: the columns both exports share — section, line, then the DOMAIN.md §5 figures.
var exportHead = []string{"field.overview.section", "field.overview.line", "field.overview.trips", "field.overview.shippedV20",
	"field.overview.shippedT", "field.overview.receivedV20", "field.overview.lossL", "field.overview.lossRatePct",
	"field.overview.km", "field.overview.tonKm", "field.overview.avgOutToArrivalMin", "field.overview.overAllowance",
	"field.overview.openings"}

func r1(v float64) float64 { return math.Round(v*10) / 10 }

// figureRow is a line of an export: its figures in exportHead's order.
func figureRow(section, line string, t Named) []any {
	avg := any(t.AvgOutToArrivalMin)
	if t.AvgOutToArrivalMin < 0 {
		avg = ""
	}
	return []any{section, line, t.Trips, r1(t.ShippedV20L), math.Round(t.ShippedT*1000) / 1000, r1(t.ReceivedV20L), r1(t.LossL),
		t.LossRatePct, r1(t.Km), r1(t.TonKm), avg, t.OverAllowance, t.AbnormalOpenings}
}

// ExportStatistic writes the overview: the two periods' tiles, then the series per day, company and product.
func (s *Service) ExportStatistic(r *http.Request, q Query) (*xlsx.Sheet, error) {
	o, err := s.Statistic(r.Context(), httpx.Caller(r), q)
	if err != nil {
		return nil, err
	}
	l := httpx.Lang(r)
	head := append(append([]string{}, exportHead...), "field.overview.lockTampered", "field.overview.sealIncidents")
	sh := &xlsx.Sheet{Name: "export.overview", ASCII: "overview", Head: head}
	tiles := i18n.T(l, "overview.sectionTiles")
	for _, p := range []struct {
		line string
		t    Tiles
	}{{o.From + " ~ " + o.To, o.Current}, {o.PrevFrom + " ~ " + o.PrevTo, o.Previous}} {
		sh.Rows = append(sh.Rows, append(figureRow(tiles, p.line, Named{Total: p.t.Total}), p.t.LockTampered, p.t.SealIncidents))
	}
	for _, d := range o.ByDay {
		sh.Rows = append(sh.Rows, figureRow(i18n.T(l, "overview.sectionDay"), d.Day, Named{Total: d.Total}))
	}
	for _, c := range o.ByCompany {
		sh.Rows = append(sh.Rows, figureRow(i18n.T(l, "overview.sectionCompany"), c.Name, c))
	}
	for _, p := range o.ByProduct {
		sh.Rows = append(sh.Rows, figureRow(i18n.T(l, "overview.sectionProduct"), p.Name, p))
	}
	return sh, nil
}

// ExportReport writes the report with the same sections as the page: header, summary, cars, products,
// stations, differences.
func (s *Service) ExportReport(r *http.Request, q ReportQuery) (*xlsx.Sheet, error) {
	rep, err := s.Report(r.Context(), httpx.Caller(r), q)
	if err != nil {
		return nil, err
	}
	l := httpx.Lang(r)
	head := append(append([]string{}, exportHead...), "field.overview.detail")
	sh := &xlsx.Sheet{Name: "export.report", ASCII: "operations-report", Head: head}
	sh.Rows = append(sh.Rows,
		[]any{i18n.T(l, "overview.sectionHeader"), rep.Company, "", "", "", "", "", "", "", "", "", "", "",
			i18n.T(l, "overview.reportPeriod", i18n.T(l, "overview.kind."+rep.Kind), rep.From, rep.To, rep.GeneratedAt.String())})
	sum := i18n.T(l, "overview.sectionSummary")
	sh.Rows = append(sh.Rows, append(figureRow(sum, i18n.T(l, "overview.total"), Named{Total: rep.Summary.Total}),
		i18n.T(l, "overview.eventsLine", rep.Summary.LockTampered, rep.Summary.SealIncidents)))
	for _, c := range rep.Cars {
		sh.Rows = append(sh.Rows, figureRow(i18n.T(l, "overview.sectionCar"), c.Name, c))
	}
	for _, p := range rep.Products {
		sh.Rows = append(sh.Rows, figureRow(i18n.T(l, "overview.sectionProduct"), p.Name, p))
	}
	st := i18n.T(l, "overview.sectionStation")
	for _, x := range rep.Stations {
		sh.Rows = append(sh.Rows, []any{st, x.Name, x.Unloadings, "", "", x.ReceivedV20, "", "", "", "", "", "", "",
			i18n.T(l, "overview.stationLine", x.Unloadings, x.Cars)})
	}
	df := i18n.T(l, "overview.sectionDiff")
	for _, d := range rep.Differences {
		line := d.WaybillNo + " " + d.Plate
		row := []any{df, line, "", "", "", "", "", "", "", "", "", "", "", ""}
		switch d.Kind {
		case "over":
			row[6], row[7] = d.LossL, d.LossRatePct
			row[13] = i18n.T(l, "overview.diff.over", httpx.Time(d.T).String(), d.LossRatePct, d.AllowedPct)
		case "opening":
			row[13] = i18n.T(l, "overview.diff.opening", httpx.Time(d.T).String(), d.Compartment)
		default:
			row[13] = i18n.T(l, "overview.diff.seal", httpx.Time(d.T).String(), i18n.T(l, "overview.sealKind."+strconv.Itoa(d.SealKind)), d.SealNo)
		}
		sh.Rows = append(sh.Rows, row)
	}
	sh.Rows = append(sh.Rows, []any{i18n.T(l, "overview.sectionSign"), i18n.T(l, "overview.signLine")})
	return sh, nil
}
