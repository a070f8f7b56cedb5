package events

import (
	"fmt"
	"net/http"

	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
	"tankwatch/internal/platform/xlsx"
)

// exportBatch is how many events the export reads (and names) at a time: it walks the filter newest
// first by (t, id) in batches, so its memory stays flat however many rows the filter holds and no
// read stays open while the workbook is written.
const exportBatch = 2000

// Export streams the filtered events, newest first, with the texts in the caller's language; every
// row the filter holds, without a cap (docs/PERFORMANCE.md).
func (s *Service) Export(r *http.Request, q Query) (*xlsx.Sheet, xlsx.Rows, error) {
	ctx, p, lang := r.Context(), httpx.Caller(r), httpx.Lang(r)
	if _, err := s.where(ctx, p, &q); err != nil { // validation and scope, answered before the download
		return nil, nil, err
	}
	sh := &xlsx.Sheet{Name: "export.lockEvents", ASCII: "lock-events", Head: []string{"field.lockEvents.time", "field.lockEvents.plate",
		"field.lockEvents.group", "field.lockEvents.serial", "field.lockEvents.compartment", "field.lockEvents.device",
		"field.lockEvents.event", "field.lockEvents.method", "field.lockEvents.battery", "field.lockEvents.fence",
		"field.lockEvents.place", "field.lockEvents.lat", "field.lockEvents.lon", "field.lockEvents.waybill", "field.lockEvents.command"}}
	each := func(emit func([]any) error) error {
		var lastT, lastID int64
		for first := true; ; first = false {
			sel, err := s.where(ctx, p, &q)
			if err != nil {
				return err
			}
			if !first {
				sel = sel.Where("(e.t < ? OR (e.t = ? AND e.id < ?))", lastT, lastT, lastID)
			}
			var rows []eventRow
			if err := sel.OrderExpr("e.t DESC, e.id DESC").Limit(exportBatch).Scan(ctx, &rows); err != nil {
				return err
			}
			vs := make([]View, len(rows))
			for i := range rows {
				vs[i] = rows[i].view()
			}
			s.name(ctx, lang, vs)
			for _, v := range vs {
				if err := emit(exportRow(lang, &v)); err != nil {
					return err
				}
			}
			if len(rows) < exportBatch {
				return nil
			}
			lastT, lastID = rows[len(rows)-1].T, rows[len(rows)-1].ID
		}
	}
	return sh, each, nil
}

func exportRow(lang i18n.Lang, v *View) []any {
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
	return []any{v.Time.String(), v.Plate, v.GroupName, v.Serial, v.Compartment,
		i18n.T(lang, fmt.Sprintf("lockEvents.device.%d", v.Device)), i18n.T(lang, fmt.Sprintf("lockEvents.event.%d", v.Event)),
		i18n.T(lang, fmt.Sprintf("lockEvents.method.%d", v.Method)), battery, fence, place, v.Lat, v.Lon, v.WaybillNo, cmd}
}
