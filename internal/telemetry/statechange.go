package telemetry

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strconv"

	"github.com/uptrace/bun"

	"tankwatch/internal/jt808"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
	"tankwatch/internal/platform/xlsx"
	"tankwatch/internal/tank"
)

// Kinds of state change (basic cleaning data, POST /monitor-app/stateChange/page).
const (
	ChangeACC        = "acc"        // status bit 0: off → on
	ChangePositioned = "positioned" // status bit 1
	ChangeLoad       = "load"       // status bits 8–9: empty, half, full
	ChangeOpen       = "open"       // a compartment device opened or closed
	ChangeLock       = "lock"       // a compartment device locked or unlocked
	ChangeFault      = "fault"      // a compartment device reports a fault or recovered
	ChangeSeal       = "seal"       // seal state
	ChangeAlarm      = "alarm"      // an alarm flag raised or cleared
)

var changeKinds = []string{ChangeACC, ChangePositioned, ChangeLoad, ChangeOpen, ChangeLock, ChangeFault, ChangeSeal, ChangeAlarm}

// changePos is what the derivation needs of a positions row.
type changePos struct {
	CarID  int64 `bun:"car_id"`
	T      int64 `bun:"t"`
	Status int64 `bun:"status"`
	Alarm  int64 `bun:"alarm"`
	Lat    int64 `bun:"lat"`
	Lon    int64 `bun:"lon"`
}

// changeTank is what the derivation needs of a tank_states row that carries a lock state.
type changeTank struct {
	CarID     int64  `bun:"car_id"`
	T         int64  `bun:"t"`
	LockState string `bun:"lock_state"`
	Seal      int64  `bun:"seal"`
}

// StateChange is one derived event. Compartment and Device are set for device changes (Compartment
// 1–8, Device the tank kind index), Bit for alarm changes; otherwise they are -1 / 0.
type StateChange struct {
	T           int64
	CarID       int64
	Kind        string
	Compartment int
	Device      int
	Bit         int
	From, To    string
	Lat, Lon    int64 // the car's newest position at that time (micro-degrees)
	Located     bool  // a position was known and not 0, 0
}

var (
	changeLoads = [4]string{"empty", "half", "reserved", "full"}
	changeSeals = [4]string{"none", "sealed", "broken", "unsealed"}
)

func changeFlag(on bool, yes, no string) string {
	if on {
		return yes
	}
	return no
}

func changeSeal(v int64) string {
	if v >= 0 && int(v) < len(changeSeals) {
		return changeSeals[v]
	}
	return strconv.FormatInt(v, 10)
}

// DeriveStateChanges derives the state changes of a car (or terminal) from its positions and tank
// states, each in time order. prevPos and prevTank are the newest rows before the range (nil when
// none): they are the state the first rows are compared with; without them the first row only sets
// the state. A row of another car than the row before (a terminal moved between cars) also only sets
// the state. Tank rows without a lock state (levels or help requests only) are skipped. Events come
// in time order; at one time position changes come before tank changes.
func DeriveStateChanges(prevPos *changePos, positions []changePos, prevTank *changeTank, tanks []changeTank) []StateChange {
	var out []StateChange
	// the newest position at or before a time, for the coordinates of tank events
	pi := 0
	where := prevPos
	locate := func(ev *StateChange) {
		for pi < len(positions) && positions[pi].T <= ev.T {
			where = &positions[pi]
			pi++
		}
		if where != nil && where.CarID == ev.CarID {
			ev.Lat, ev.Lon, ev.Located = where.Lat, where.Lon, where.Lat != 0 || where.Lon != 0
		}
	}
	emit := func(ev StateChange) {
		locate(&ev)
		out = append(out, ev)
	}

	// positions
	var posEvents []StateChange
	last := prevPos
	for i := range positions {
		cur := &positions[i]
		if last != nil && last.CarID == cur.CarID {
			posEvents = append(posEvents, positionChanges(last, cur)...)
		}
		last = cur
	}
	// tank states
	var tankEvents []StateChange
	var lastState *tank.State
	var lastTank *changeTank
	if prevTank != nil {
		if s, ok := tank.ParseLockString(prevTank.LockState, tank.MaxCompartments); ok {
			lastState, lastTank = &s, prevTank
		}
	}
	for i := range tanks {
		cur := &tanks[i]
		s, ok := tank.ParseLockString(cur.LockState, tank.MaxCompartments)
		if !ok {
			continue
		}
		if lastTank != nil && lastTank.CarID == cur.CarID {
			tankEvents = append(tankEvents, tankChanges(lastTank, lastState, cur, &s)...)
		}
		lastState, lastTank = &s, cur
	}
	// merge by time, positions first at equal times
	i, j := 0, 0
	for i < len(posEvents) || j < len(tankEvents) {
		if j >= len(tankEvents) || (i < len(posEvents) && posEvents[i].T <= tankEvents[j].T) {
			emit(posEvents[i])
			i++
		} else {
			emit(tankEvents[j])
			j++
		}
	}
	return out
}

func positionChanges(a, b *changePos) []StateChange {
	var out []StateChange
	ev := func(kind, from, to string) StateChange {
		return StateChange{T: b.T, CarID: b.CarID, Kind: kind, Compartment: 0, Device: -1, Bit: -1, From: from, To: to}
	}
	sa, sb := uint32(a.Status), uint32(b.Status)
	if d := sa ^ sb; d&jt808.StatusACC != 0 {
		out = append(out, ev(ChangeACC, changeFlag(sa&jt808.StatusACC != 0, "on", "off"), changeFlag(sb&jt808.StatusACC != 0, "on", "off")))
	}
	if d := sa ^ sb; d&jt808.StatusPositioned != 0 {
		out = append(out, ev(ChangePositioned, changeFlag(sa&jt808.StatusPositioned != 0, "positioned", "unpositioned"),
			changeFlag(sb&jt808.StatusPositioned != 0, "positioned", "unpositioned")))
	}
	if la, lb := (sa&jt808.StatusLoadMask)>>8, (sb&jt808.StatusLoadMask)>>8; la != lb {
		out = append(out, ev(ChangeLoad, changeLoads[la], changeLoads[lb]))
	}
	aa, ab := uint32(a.Alarm), uint32(b.Alarm)
	for bit := range 32 {
		m := uint32(1) << bit
		if (aa^ab)&m == 0 {
			continue
		}
		e := ev(ChangeAlarm, changeFlag(aa&m != 0, "raised", "cleared"), changeFlag(ab&m != 0, "raised", "cleared"))
		e.Bit = bit
		out = append(out, e)
	}
	return out
}

func tankChanges(a *changeTank, sa *tank.State, b *changeTank, sb *tank.State) []StateChange {
	var out []StateChange
	ev := func(kind string, c, k int, from, to string) StateChange {
		return StateChange{T: b.T, CarID: b.CarID, Kind: kind, Compartment: c, Device: k, Bit: -1, From: from, To: to}
	}
	for c := range tank.MaxCompartments {
		for k := range tank.Kinds {
			da, db := sa.Devices[c][k], sb.Devices[c][k]
			if (da^db)&tank.DevOpen != 0 {
				out = append(out, ev(ChangeOpen, c+1, k, changeFlag(da&tank.DevOpen != 0, "open", "closed"), changeFlag(db&tank.DevOpen != 0, "open", "closed")))
			}
			if (da^db)&tank.DevLocked != 0 {
				out = append(out, ev(ChangeLock, c+1, k, changeFlag(da&tank.DevLocked != 0, "locked", "unlocked"), changeFlag(db&tank.DevLocked != 0, "locked", "unlocked")))
			}
			if (da^db)&tank.DevFault != 0 {
				out = append(out, ev(ChangeFault, c+1, k, changeFlag(da&tank.DevFault != 0, "fault", "normal"), changeFlag(db&tank.DevFault != 0, "fault", "normal")))
			}
		}
	}
	if a.Seal != b.Seal {
		out = append(out, ev(ChangeSeal, 0, -1, changeSeal(a.Seal), changeSeal(b.Seal)))
	}
	return out
}

// changeValue translates one of the from/to codes.
func changeValue(l i18n.Lang, kind, v string) string {
	switch kind {
	case ChangeLoad:
		if i := slices.Index(changeLoads[:], v); i >= 0 {
			return i18n.T(l, "telemetry.load."+strconv.Itoa(i))
		}
	case ChangeSeal:
		if i := slices.Index(changeSeals[:], v); i >= 0 {
			return i18n.T(l, "telemetry.seal."+strconv.Itoa(i))
		}
	}
	if key := "change.value." + v; i18n.Has(key) {
		return i18n.T(l, key)
	}
	return v
}

// changeAlarmName names an alarm bit as the car detail does.
func changeAlarmName(l i18n.Lang, bit int) string {
	if key := "live.alarm." + strconv.Itoa(bit); i18n.Has(key) {
		return i18n.T(l, key)
	}
	return i18n.T(l, "live.alarm.other", bit)
}

// Text is the event in words, in l.
func (e *StateChange) Text(l i18n.Lang) string {
	switch e.Kind {
	case ChangeAlarm:
		key := "change.cleared"
		if e.To == "raised" {
			key = "change.raised"
		}
		return i18n.T(l, key, changeAlarmName(l, e.Bit))
	}
	return i18n.T(l, "change.text", e.subject(l), changeValue(l, e.Kind, e.From), changeValue(l, e.Kind, e.To))
}

func (e *StateChange) subject(l i18n.Lang) string {
	if e.Device >= 0 {
		return i18n.T(l, "change.device", e.Compartment, i18n.T(l, "telemetry.device."+strconv.Itoa(e.Device)))
	}
	return i18n.T(l, "change.subject."+e.Kind)
}

// StateChangeQuery is the body of stateChange/page and /export: the raw-data parameters plus an
// optional kind.
type StateChangeQuery struct {
	HistoryQuery
	Kind string `json:"kind"` // one of the Change* kinds, "" = all
}

// StateChangeView is one event as the API shows it.
type StateChangeView struct {
	Time        httpx.Time `json:"time"`
	CarID       int64      `json:"carId"`
	Plate       string     `json:"plate"`
	Kind        string     `json:"kind"`
	Compartment *int       `json:"compartment"` // device changes only
	Device      string     `json:"device"`      // smallManholeCover, manholeCover, oilDischargeValve, bottomValve or ""
	Bit         *int       `json:"bit"`         // alarm changes only
	From        string     `json:"from"`
	To          string     `json:"to"`
	Text        string     `json:"text"`
	Lng         LiveCoord  `json:"lng"`
	Lat         LiveCoord  `json:"lat"`
}

func stateChangeView(l i18n.Lang, e *StateChange, plates map[int64]string) *StateChangeView {
	v := &StateChangeView{Time: httpx.Time(e.T), CarID: e.CarID, Plate: plates[e.CarID], Kind: e.Kind, From: e.From, To: e.To,
		Text: e.Text(l), Lng: LiveCoord{float64(e.Lon) / 1e6, e.Located}, Lat: LiveCoord{float64(e.Lat) / 1e6, e.Located}}
	if e.Device >= 0 {
		c := e.Compartment
		v.Compartment, v.Device = &c, liveKinds[e.Device]
	}
	if e.Bit >= 0 {
		b := e.Bit
		v.Bit = &b
	}
	return v
}

// stateChanges loads the rows of the target in the range (and the newest before it) and derives the
// events, newest first, of the asked kind.
func (h *History) stateChanges(ctx context.Context, p *httpx.Principal, q *StateChangeQuery) ([]StateChange, map[int64]string, error) {
	if q.Kind != "" && !slices.Contains(changeKinds, q.Kind) {
		return nil, nil, httpx.Invalid("change.kind")
	}
	t, from, to, err := h.histPrepare(ctx, p, &q.HistoryQuery)
	if err != nil {
		return nil, nil, err
	}
	posSel := func() *bun.SelectQuery {
		return t.where(h.db.NewSelect().TableExpr("positions").ColumnExpr("car_id, t, status, alarm, lat, lon"), "positions")
	}
	tankSel := func() *bun.SelectQuery {
		return t.where(h.db.NewSelect().TableExpr("tank_states").ColumnExpr("car_id, t, lock_state, seal"), "tank_states").
			Where("lock_state <> ''")
	}
	var positions, prevPos []changePos
	if err := posSel().Where("t >= ? AND t <= ?", from, to).OrderExpr("t, terminal_id").Scan(ctx, &positions); err != nil {
		return nil, nil, err
	}
	if err := posSel().Where("t < ?", from).OrderExpr("t DESC, terminal_id DESC").Limit(1).Scan(ctx, &prevPos); err != nil {
		return nil, nil, err
	}
	var tanks, prevTank []changeTank
	if err := tankSel().Where("t >= ? AND t <= ?", from, to).OrderExpr("t, terminal_id").Scan(ctx, &tanks); err != nil {
		return nil, nil, err
	}
	if err := tankSel().Where("t < ?", from).OrderExpr("t DESC, terminal_id DESC").Limit(1).Scan(ctx, &prevTank); err != nil {
		return nil, nil, err
	}
	var pp *changePos
	if len(prevPos) > 0 {
		pp = &prevPos[0]
	}
	var pt *changeTank
	if len(prevTank) > 0 {
		pt = &prevTank[0]
	}
	all := DeriveStateChanges(pp, positions, pt, tanks)
	events := make([]StateChange, 0, len(all))
	for i := len(all) - 1; i >= 0; i-- {
		if q.Kind == "" || all[i].Kind == q.Kind {
			events = append(events, all[i])
		}
	}
	plates, err := h.plates(ctx, p, t, histCars(len(events), func(i int) int64 { return events[i].CarID }))
	return events, plates, err
}

// StateChanges is POST /monitor-app/stateChange/page: the state changes of one car or terminal in a
// time range, newest first.
func (h *History) StateChanges(ctx context.Context, p *httpx.Principal, l i18n.Lang, q StateChangeQuery) (httpx.Page[*StateChangeView], error) {
	events, plates, err := h.stateChanges(ctx, p, &q)
	if err != nil {
		return httpx.Page[*StateChangeView]{}, err
	}
	window := pageWindow(events, q.PageReq)
	out := make([]*StateChangeView, len(window))
	for i := range window {
		out[i] = stateChangeView(l, &window[i], plates)
	}
	return httpx.NewPage(out, int64(len(events)), q.PageReq), nil
}

// pageWindow is the part of list the page shows.
func pageWindow[T any](list []T, q httpx.PageReq) []T {
	from := min(int(q.Offset()), len(list))
	return list[from:min(from+q.PageSize, len(list))]
}

// exportStateChanges is the sheet of POST /monitor-app/stateChange/export.
func (h *History) exportStateChanges(r *http.Request, q StateChangeQuery) (*xlsx.Sheet, error) {
	q.export = true
	events, plates, err := h.stateChanges(r.Context(), httpx.Caller(r), &q)
	if err != nil {
		return nil, err
	}
	l := httpx.Lang(r)
	sh := &xlsx.Sheet{Name: "export.stateChanges", ASCII: "state-changes", Head: []string{"col.time", "col.plate", "col.kind",
		"col.change", "col.from", "col.to", "col.lng", "col.lat"}}
	for i := range events[:min(len(events), HistExportRows)] {
		e := &events[i]
		v := stateChangeView(l, e, plates)
		sh.Rows = append(sh.Rows, []any{v.Time.String(), v.Plate, i18n.T(l, "change.kind."+e.Kind), v.Text,
			changeValue(l, e.Kind, e.From), changeValue(l, e.Kind, e.To), histCoord(e.Lon, e.Located), histCoord(e.Lat, e.Located)})
	}
	return sh, nil
}

// histCoord shows micro-degrees with six decimals, "" when there is no position.
func histCoord(micro int64, ok bool) string {
	if !ok {
		return ""
	}
	return fmt.Sprintf("%.6f", float64(micro)/1e6)
}
