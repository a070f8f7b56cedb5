package seal

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
	"tankwatch/internal/platform/xlsx"
)

const prefix = "/monitor-app/leadSealRecord/"

// Routes returns the lead seal endpoints (page 04-23, export 04-23-01).
func (s *Service) Routes() []httpx.Route {
	read := httpx.Needs(CodePage)
	return []httpx.Route{
		{Method: "POST", Path: prefix + "page", Access: read, Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q Query) (any, error) { return s.Page(r.Context(), httpx.Caller(r), q) })},
		{Method: "POST", Path: prefix + "incidents", Access: read, Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q Query) (any, error) {
				lang := httpx.Lang(r)
				return s.IncidentsPage(r.Context(), httpx.Caller(r), q, func(v *IncidentView) string { return DetailText(lang, v) })
			})},
		{Method: "POST", Path: prefix + "export", Access: httpx.Needs(CodeExport), Scoped: true, Handler: xlsx.Handler(s.Export)},
		{Method: "POST", Path: prefix + "exportIncidents", Access: httpx.Needs(CodeExport), Scoped: true, Handler: xlsx.Handler(s.ExportIncidents)},
	}
}

// DetailText is an incident's detail in lang.
func DetailText(lang i18n.Lang, v *IncidentView) string {
	switch v.Kind {
	case IncidentReused:
		var d ReusedDetail
		if json.Unmarshal([]byte(v.Detail), &d) == nil && d.WaybillNo != "" {
			return i18n.T(lang, "leadSeal.detail.reused", d.WaybillNo, httpx.Time(d.AppliedAt).String())
		}
	case IncidentBrokenAway:
		return i18n.T(lang, "leadSeal.detail.brokenAway")
	case IncidentNoSeals:
		var d NoSealsDetail
		if json.Unmarshal([]byte(v.Detail), &d) != nil {
			return ""
		}
		var parts []string
		if d.LeftUnsealed {
			parts = append(parts, i18n.T(lang, "leadSeal.detail.leftUnsealed"))
		}
		if d.NoRecord {
			parts = append(parts, i18n.T(lang, "leadSeal.detail.noRecord"))
		}
		if len(d.Unsealed) > 0 {
			nos := make([]string, len(d.Unsealed))
			for i, n := range d.Unsealed {
				nos[i] = fmt.Sprint(n)
			}
			parts = append(parts, i18n.T(lang, "leadSeal.detail.unsealed", strings.Join(nos, ", ")))
		}
		return strings.Join(parts, i18n.T(lang, "leadSeal.detail.sep"))
	case IncidentMismatch:
		var d MismatchDetail
		if json.Unmarshal([]byte(v.Detail), &d) == nil {
			return i18n.T(lang, "leadSeal.detail.mismatch", v.SealNo, d.Found)
		}
	}
	return ""
}

func place(name string, lat, lon int64) string {
	if name != "" {
		return name
	}
	if lat == 0 && lon == 0 {
		return ""
	}
	return fmt.Sprintf("%.6f, %.6f", float64(lat)/1e6, float64(lon)/1e6)
}

// Export writes the filtered seals (the seals tab's columns) and the totals by state.
func (s *Service) Export(r *http.Request, q Query) (*xlsx.Sheet, error) {
	ctx, p, lang := r.Context(), httpx.Caller(r), httpx.Lang(r)
	order, err := q.OrderBy(sealSort, "s.applied_at DESC")
	if err != nil {
		return nil, err
	}
	sel, err := s.seals(ctx, p, &q, s.sealSelect())
	if err != nil {
		return nil, err
	}
	var rows []View
	if err := sel.OrderExpr(order+", s.id").Limit(maxExportRows).Scan(ctx, &rows); err != nil {
		return nil, err
	}
	for i := 0; i < len(rows); i += 1000 {
		if err := s.countIncidents(ctx, rows[i:min(i+1000, len(rows))]); err != nil {
			return nil, err
		}
	}
	sh := &xlsx.Sheet{Name: "export.leadSeal", ASCII: "lead-seals"}
	for _, k := range []string{"sealNo", "plate", "group", "compartment", "waybillNo", "depot", "appliedAt", "appliedBy", "brokenAt",
		"brokenPlace", "state", "incidents"} {
		sh.Head = append(sh.Head, "field.leadSeal."+k)
	}
	var count [4]int
	for _, v := range rows {
		count[v.State%4]++
		broken := ""
		if v.BrokenAt > 0 {
			broken = v.BrokenAt.String()
		}
		sh.Rows = append(sh.Rows, []any{v.SealNo, v.Plate, v.GroupName, v.Compartment, v.WaybillNo, v.DepotName, v.AppliedAt.String(),
			v.AppliedBy, broken, place(v.BrokenStationName, v.BrokenLat, v.BrokenLon), i18n.T(lang, fmt.Sprintf("leadSeal.state.%d", v.State)), v.Incidents})
	}
	sh.Rows = append(sh.Rows, []any{i18n.T(lang, "leadSeal.totals", len(rows), count[StateApplied], count[StateBrokenAtDest], count[StateBrokenAway])})
	return sh, nil
}

// ExportIncidents writes the filtered incidents (the incidents tab's columns).
func (s *Service) ExportIncidents(r *http.Request, q Query) (*xlsx.Sheet, error) {
	ctx, p, lang := r.Context(), httpx.Caller(r), httpx.Lang(r)
	order, err := q.OrderBy(incidentSort, "x.t DESC")
	if err != nil {
		return nil, err
	}
	sel, err := s.incidents(ctx, p, &q, s.incidentSelect())
	if err != nil {
		return nil, err
	}
	var rows []IncidentView
	if err := sel.OrderExpr(order+", x.id").Limit(maxExportRows).Scan(ctx, &rows); err != nil {
		return nil, err
	}
	sh := &xlsx.Sheet{Name: "export.leadSealIncidents", ASCII: "lead-seal-incidents"}
	for _, k := range []string{"kind", "t", "plate", "group", "waybillNo", "compartment", "sealNo", "place", "detail"} {
		sh.Head = append(sh.Head, "field.leadSeal."+k)
	}
	for i := range rows {
		v := &rows[i]
		comp := any("")
		if v.Compartment > 0 {
			comp = v.Compartment
		}
		sh.Rows = append(sh.Rows, []any{i18n.T(lang, fmt.Sprintf("leadSeal.kind.%d", v.Kind)), v.T.String(), v.Plate, v.GroupName, v.WaybillNo,
			comp, v.SealNo, place(v.StationName, v.Lat, v.Lon), DetailText(lang, v)})
	}
	return sh, nil
}
