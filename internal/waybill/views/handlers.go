package views

import (
	"fmt"
	"net/http"

	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
	"tankwatch/internal/platform/xlsx"
)

// Routes returns the process views' endpoints (D46).
func (s *Service) Routes() []httpx.Route {
	return []httpx.Route{
		{Method: "POST", Path: "/monitor-app/transportProcess/page", Access: httpx.Needs(CodeProcess, CodeBoard), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q Query) (any, error) { return s.Page(r.Context(), httpx.Caller(r), q) })},
		{Method: "GET", Path: "/monitor-app/transportProcess/detail", Scoped: true,
			Access:  httpx.Needs(CodeProcess, CodeBoard, CodeRecord, CodeHistoryWay, CodeMonitoringWay),
			Handler: httpx.ByID("waybillId", func(r *http.Request, id int64) (any, error) { return s.Detail(r, id) })},
		{Method: "POST", Path: "/monitor-app/transportRecord/page", Access: httpx.Needs(CodeRecord), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q Query) (any, error) { return s.RecordPage(r.Context(), httpx.Caller(r), q) })},
		{Method: "POST", Path: "/monitor-app/transportRecord/export", Access: httpx.Needs(CodeRecordExport), Scoped: true,
			Handler: xlsx.Handler(s.Export)},
	}
}

// Export writes the finished trips of the filters with the same figures as the page, and the totals
// row of the set (transportRecord/export).
func (s *Service) Export(r *http.Request, q Query) (*xlsx.Sheet, error) {
	trips, err := s.records(r.Context(), httpx.Caller(r), q)
	if err != nil {
		return nil, err
	}
	lang := httpx.Lang(r)
	sh := &xlsx.Sheet{Name: "export.transportRecord", ASCII: "transport-record"}
	for _, k := range []string{"no", "plate", "group", "depot", "destinations", "state", "departAt", "arriveAt", "closedAt",
		"shippedV20", "shippedMassT", "receivedV20", "receivedSource", "lossL", "lossRatePct", "allowedPct", "over",
		"loadedKm", "tonKm", "outToArrivalMin"} {
		sh.Head = append(sh.Head, "field.wbviews."+k)
	}
	figs := make([]Figures, len(trips))
	for i, t := range trips {
		dests := ""
		for j, d := range t.Destinations {
			if j > 0 {
				dests += "、"
			}
			dests += d.StationName
		}
		over := i18n.T(lang, "wbviews.within")
		if t.Over {
			over = i18n.T(lang, "wbviews.over")
		}
		sh.Rows = append(sh.Rows, []any{t.No, t.Plate, t.GroupName, t.DepotName, dests, i18n.T(lang, "waybill.state."+t.State),
			httpx.Time(t.DepartAt).String(), httpx.Time(t.ArriveAt).String(), httpx.Time(t.ClosedAt).String(),
			t.ShippedV20, t.ShippedMassT, t.ReceivedV20, i18n.T(lang, fmt.Sprintf("waybill.received.%d", t.ReceivedSource)),
			t.LossL, t.LossRatePct, t.AllowedPct, over, t.LoadedKm, t.TonKm, minutes(t.OutToArrivalMin)})
		figs[i] = Figures{ShippedV20: t.ShippedV20, ShippedMassT: t.ShippedMassT, ReceivedV20: t.ReceivedV20, LossL: t.LossL,
			LoadedKm: t.LoadedKm, DepartAt: t.DepartAt, ArriveAt: t.ArriveAt, Over: t.Over}
	}
	tot := Summarize(figs)
	sh.Rows = append(sh.Rows, []any{i18n.T(lang, "wbviews.totals", tot.Trips), "", "", "", "", "", "", "", "",
		tot.ShippedV20, "", tot.ReceivedV20, "", tot.LossL, tot.LossRatePct, "", i18n.T(lang, "wbviews.overCount", tot.OverCount),
		tot.LoadedKm, tot.TonKm, minutes(tot.AvgOutToArrivalMin)})
	return sh, nil
}

// minutes is an out-to-arrival figure for the sheet: empty when unknown.
func minutes(v float64) any {
	if v < 0 {
		return ""
	}
	return v
}
