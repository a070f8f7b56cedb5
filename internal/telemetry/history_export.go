package telemetry

import (
	"net/http"
	"strconv"
	"strings"

	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
	"tankwatch/internal/platform/xlsx"
	"tankwatch/internal/tank"
)

// The history exports: the filters of the page (JSON body), at most HistExportRows rows newest first,
// as xlsx through internal/platform/xlsx.

func histYesNo(l i18n.Lang, v bool) string {
	if v {
		return i18n.T(l, "history.yes")
	}
	return i18n.T(l, "history.no")
}

func histOptional(v *float64) any {
	if v == nil {
		return ""
	}
	return *v
}

func histDirection(l i18n.Lang, dir string) string { return i18n.T(l, "telemetry.dir."+dir) }

// histLevelsText shows level readings as one line.
func histLevelsText(l i18n.Lang, levels []LevelView) string {
	parts := make([]string, len(levels))
	for i, v := range levels {
		parts[i] = i18n.T(l, "history.levelText", v.Compartment, v.LevelMM, v.VolumeL, v.Temperature)
	}
	return strings.Join(parts, i18n.T(l, "history.levelSep"))
}

// exportRaw is POST /hbase/rawHistoryRecord/export: the raw data page's frames.
func (h *History) exportRaw(r *http.Request, q HistoryQuery) (*xlsx.Sheet, error) {
	q.export = true
	l := httpx.Lang(r)
	page, err := h.rawFrames(r.Context(), httpx.Caller(r), l, q, true)
	if err != nil {
		return nil, err
	}
	return rawSheet(l, page.List, true), nil
}

// rawSheet lists frames, with the decoding error of each when they were decoded.
func rawSheet(l i18n.Lang, frames []*RawFrameView, decoded bool) *xlsx.Sheet {
	sh := &xlsx.Sheet{Name: "export.rawData", ASCII: "raw-data", Head: []string{"col.time", "col.plate", "col.terminalPhone",
		"col.msgId", "col.msgName", "col.serial", "col.direction", "col.hex"}}
	if decoded {
		sh.Head = append(sh.Head, "col.error")
	}
	for _, f := range frames {
		row := []any{f.Time.String(), f.Plate, f.Phone, f.MsgID, f.MsgName, f.Serial, histDirection(l, f.Direction), f.Hex}
		if decoded {
			row = append(row, f.Decoded.Error)
		}
		sh.Rows = append(sh.Rows, row)
	}
	return sh
}

// exportTable is POST /hbase/HbaseServlet/export: one table of the raw store (the vehicle record's
// positions, the sensor record's tank states, frames or commands).
func (h *History) exportTable(r *http.Request, q HistoryQuery) (*xlsx.Sheet, error) {
	q.export = true
	l := httpx.Lang(r)
	data, err := h.Table(r.Context(), httpx.Caller(r), l, q)
	if err != nil {
		return nil, err
	}
	switch page := data.(type) {
	case httpx.Page[*PositionView]:
		sh := &xlsx.Sheet{Name: "export.positions", ASCII: "positions", Head: []string{"col.time", "col.receivedAt", "col.plate",
			"col.lng", "col.lat", "col.altitude", "col.speed", "col.bearing", "col.load", "col.mileage", "col.fuel",
			"col.satellites", "col.signal", "col.blind", "col.alarms", "col.states"}}
		for _, p := range page.List {
			sh.Rows = append(sh.Rows, []any{p.Time.String(), p.ReceivedAt.String(), p.Plate, p.Lng, p.Lat, p.Altitude, p.Speed,
				p.Direction, histName(l, "telemetry.load.", int64(p.Status>>8&3)), histOptional(p.Mileage), histOptional(p.Fuel),
				p.Satellites, p.Signal, histYesNo(l, p.Blind), strings.Join(p.Alarms, ", "), strings.Join(p.States, ", ")})
		}
		return sh, nil
	case httpx.Page[*TankStateView]:
		sh := &xlsx.Sheet{Name: "export.tankStates", ASCII: "tank-states", Width: 22, Head: []string{"col.time", "col.plate",
			"col.lockState", "col.seal", "col.levels", "col.help"}}
		for _, t := range page.List {
			sh.Rows = append(sh.Rows, []any{t.Time.String(), t.Plate, tank.LockText(l, t.LockState), t.SealName, histLevelsText(l, t.Levels), t.HelpName})
		}
		return sh, nil
	case httpx.Page[*RawFrameView]:
		return rawSheet(l, page.List, false), nil
	case httpx.Page[*CommandView]:
		sh := &xlsx.Sheet{Name: "export.commands", ASCII: "commands", Head: []string{"col.createdAt", "col.plate", "col.terminalPhone",
			"col.kind", "col.msgId", "col.serial", "col.params", "col.status", "col.result", "col.reply", "col.doneAt"}}
		for _, c := range page.List {
			result := ""
			if c.Result != nil {
				result = strconv.FormatInt(*c.Result, 10)
			}
			sh.Rows = append(sh.Rows, []any{c.CreatedAt.String(), c.Plate, c.Phone, commandName(l, "kind", c.Kind), c.MsgID, c.Serial, c.ParamsText, commandName(l, "status", c.Status),
				result, c.Reply, c.DoneAt.String()})
		}
		return sh, nil
	}
	return nil, httpx.Invalid("telemetry.table")
}
