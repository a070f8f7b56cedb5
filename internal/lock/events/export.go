package events

import (
	"fmt"
	"net/http"

	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
	"tankwatch/internal/platform/xlsx"
)

// ExportLimit is the most rows one export writes (a narrower filter gets the rest).
const ExportLimit = 20_000

// Export writes the filtered events, newest first, with the texts in the caller's language.
func (s *Service) Export(r *http.Request, q Query) (*xlsx.Sheet, error) {
	ctx, p, lang := r.Context(), httpx.Caller(r), httpx.Lang(r)
	sel, err := s.where(ctx, p, &q)
	if err != nil {
		return nil, err
	}
	var rows []eventRow
	if err := sel.OrderExpr("e.t DESC, e.id DESC").Limit(ExportLimit).Scan(ctx, &rows); err != nil {
		return nil, err
	}
	vs := make([]View, len(rows))
	for i := range rows {
		vs[i] = rows[i].view()
	}
	s.name(ctx, lang, vs)
	sh := &xlsx.Sheet{Name: "export.lockEvents", ASCII: "lock-events", Head: []string{"field.lockEvents.time", "field.lockEvents.plate",
		"field.lockEvents.group", "field.lockEvents.serial", "field.lockEvents.compartment", "field.lockEvents.device",
		"field.lockEvents.event", "field.lockEvents.method", "field.lockEvents.battery", "field.lockEvents.fence",
		"field.lockEvents.place", "field.lockEvents.lat", "field.lockEvents.lon", "field.lockEvents.waybill", "field.lockEvents.command"}}
	for _, v := range vs {
		place, fence := v.StationName, i18n.T(lang, "lockEvents.fence.in")
		if v.StationID == 0 {
			place, fence = v.Address, i18n.T(lang, "lockEvents.fence.out")
		}
		battery := any("")
		if v.BatteryPct >= 0 {
			battery = v.BatteryPct
		}
		cmd := any("")
		if v.CommandID > 0 {
			cmd = v.CommandID
		}
		sh.Rows = append(sh.Rows, []any{v.Time.String(), v.Plate, v.GroupName, v.Serial, v.Compartment,
			i18n.T(lang, fmt.Sprintf("lockEvents.device.%d", v.Device)), i18n.T(lang, fmt.Sprintf("lockEvents.event.%d", v.Event)),
			i18n.T(lang, fmt.Sprintf("lockEvents.method.%d", v.Method)), battery, fence, place, v.Lat, v.Lon, v.WaybillNo, cmd})
	}
	return sh, nil
}
