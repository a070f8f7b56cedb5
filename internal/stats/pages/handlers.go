package pages

import (
	"math"
	"net/http"

	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
	"tankwatch/internal/platform/xlsx"
)

// Routes are the pages' endpoints (docs/API.md "Car, company and product statistics"). The per-car
// calls keep the spec's paths; a body's "sales" picks the "2" page, whose own code it then needs.
func (s *Service) Routes() []httpx.Route {
	var rs []httpx.Route
	for _, p := range []struct {
		kind         Kind
		page, export string
	}{
		{KindCar, "/monitor-app/realTimeMoitoring/getVehicleTransportationStatisticsPage1", "/monitor-app/realTimeMoitoring/exportDataExcel"},
		{KindCompany, "/monitor-app/statistics/company/page", "/monitor-app/statistics/company/export"},
		{KindProduct, "/monitor-app/statistics/product/page", "/monitor-app/statistics/product/export"},
	} {
		k := p.kind
		rs = append(rs,
			httpx.Route{Method: "POST", Path: p.page, Access: httpx.Needs(ReadCodes(k)...), Scoped: true,
				Handler: httpx.JSON(func(r *http.Request, q Query) (any, error) { return s.Page(r.Context(), httpx.Caller(r), k, q) })},
			httpx.Route{Method: "POST", Path: p.export, Access: httpx.Needs(ExportCodes(k)...), Scoped: true,
				Handler: xlsx.StreamHandler(func(r *http.Request, q Query) (*xlsx.Sheet, xlsx.Rows, error) { return s.Export(r, k, q) })})
	}
	all := append(append(ReadCodes(KindCar), ReadCodes(KindCompany)...), ReadCodes(KindProduct)...)
	rs = append(rs, httpx.Route{Method: "POST", Path: "/monitor-app/statistics/trips", Access: httpx.Needs(all...), Scoped: true,
		Handler: httpx.JSON(func(r *http.Request, q DrillQuery) (any, error) { return s.Trips(r.Context(), httpx.Caller(r), q) })})
	return rs
}

// sheetNames are the exports' file names (catalogue keys) and ASCII prefixes per page.
var sheetNames = map[Kind][2][2]string{
	KindCar:     {{"export.tripStats.car", "car-statistics"}, {"export.tripStats.car2", "car-statistics-sales"}},
	KindCompany: {{"export.tripStats.company", "company-statistics"}, {"export.tripStats.company2", "sales-company-statistics"}},
	KindProduct: {{"export.tripStats.product", "product-statistics"}, {"export.tripStats.product2", "product-statistics-sales"}},
}

// Export writes every row of the page in its order and the totals row, streamed (xlsx.Stream).
func (s *Service) Export(r *http.Request, k Kind, q Query) (*xlsx.Sheet, xlsx.Rows, error) {
	ctx, p, lang := r.Context(), httpx.Caller(r), httpx.Lang(r)
	if err := q.Normalize(); err != nil {
		return nil, nil, err
	}
	f, err := s.filter(ctx, p, k, &q, true)
	if err != nil {
		return nil, nil, err
	}
	rows, sum, err := s.rows(ctx, k, &q, f)
	if err != nil {
		return nil, nil, err
	}
	if err := order(rows, q.SortField, q.SortOrder); err != nil {
		return nil, nil, err
	}
	v := 0
	if q.Sales {
		v = 1
	}
	first := map[Kind]string{KindCar: "plate", KindCompany: "company", KindProduct: "product"}[k]
	if k == KindCompany && q.Sales {
		first = "salesCompany"
	}
	head := []string{"field.tripStats." + first}
	switch k {
	case KindCar:
		head = append(head, "field.tripStats.group")
	case KindProduct:
		head = append(head, "field.tripStats.owner")
	}
	for _, c := range []string{"trips", "shippedVt", "shippedV20", "shippedT", "receivedV20", "lossL", "lossRatePct", "km", "tonKm",
		"avgOutToArrivalMin", "abnormalOpenings", "overAllowance"} {
		head = append(head, "field.tripStats."+c)
	}
	sh := &xlsx.Sheet{Name: sheetNames[k][v][0], ASCII: sheetNames[k][v][1], Head: head}
	line := func(name, group string, t *Row) []any {
		out := []any{name}
		if k == KindCar || k == KindProduct {
			out = append(out, group)
		}
		avg := any(t.AvgOutToArrivalMin)
		if t.AvgOutToArrivalMin < 0 {
			avg = ""
		}
		return append(out, t.Trips, round1(t.ShippedVtL), round1(t.ShippedV20L), round3(t.ShippedT), round1(t.ReceivedV20L), round1(t.LossL),
			t.LossRatePct, round1(t.Km), round1(t.TonKm), avg, t.AbnormalOpenings, t.OverAllowance)
	}
	each := func(emit func([]any) error) error {
		for i := range rows {
			if err := emit(line(rows[i].Name, rows[i].GroupName, &rows[i])); err != nil {
				return err
			}
		}
		return emit(line(i18n.T(lang, "tripStats.total", dayText(f.From), dayText(f.To)), "", &sum))
	}
	return sh, each, nil
}

func round1(v float64) float64 { return math.Round(v*10) / 10 }
func round3(v float64) float64 { return math.Round(v*1000) / 1000 }
