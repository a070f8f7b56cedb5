package calib

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
	"tankwatch/internal/platform/plate"
	"tankwatch/internal/platform/xlsx"
)

// Name is a parameter's name in lang: "心跳间隔", "3 号仓 零点偏移", or its hex ID when unknown.
func Name(lang i18n.Lang, id uint32) string {
	d, ok := Lookup(id)
	if !ok {
		return fmt.Sprintf("0x%04X", id)
	}
	n := i18n.T(lang, "calib.p."+d.Key)
	if d.Compartment > 0 {
		return i18n.T(lang, "calib.compartmentParam", d.Compartment, n)
	}
	return n
}

// UnitText is a unit in lang ("" for none).
func UnitText(lang i18n.Lang, unit string) string {
	if unit == "" {
		return ""
	}
	return i18n.T(lang, "calib.unit."+unit)
}

// Row is one parameter as the page shows it.
type Row struct {
	ID          uint32     `json:"id"`
	Hex         string     `json:"hex"`
	Key         string     `json:"key"`
	Name        string     `json:"name"`
	Group       string     `json:"group"`
	Compartment int        `json:"compartment"`
	Kind        Kind       `json:"kind"`
	Min         int64      `json:"min"`
	Max         int64      `json:"max"`
	Unit        string     `json:"unit"`
	UnitText    string     `json:"unitText"`
	Value       *Value     `json:"value"`  // nil: not known
	Source      string     `json:"source"` // read / set
	At          httpx.Time `json:"at"`
}

func row(lang i18n.Lang, id uint32) Row {
	d, ok := Lookup(id)
	if !ok {
		d = Def{ID: id, Group: GroupOther}
	}
	return Row{ID: id, Hex: fmt.Sprintf("0x%04X", id), Key: d.Key, Name: Name(lang, id), Group: d.Group, Compartment: d.Compartment,
		Kind: d.Kind, Min: d.Min, Max: d.Max, Unit: d.Unit, UnitText: UnitText(lang, d.Unit)}
}

// Change is one parameter of a set: old → new.
type Change struct {
	Row
	Old *Value `json:"old"`
	New *Value `json:"new"`
}

// CommandView is a read or set as GET /monitor-app/parameter/command shows it.
type CommandView struct {
	ID        int64      `json:"id"`
	CarID     int64      `json:"carId"`
	Plate     string     `json:"plate"`
	Kind      string     `json:"kind"`
	KindText  string     `json:"kindText"`
	State     string     `json:"state"`
	StateText string     `json:"stateText"`
	Final     bool       `json:"final"`
	Result    *int64     `json:"result"`
	Message   string     `json:"message"` // the outcome in words
	UserName  string     `json:"userName"`
	CreatedAt httpx.Time `json:"createdAt"`
	DoneAt    httpx.Time `json:"doneAt"`
	CommandID int64      `json:"commandId"` // the protocol log's row (terminalCommand/page)
	Changes   []Change   `json:"changes"`   // set: old → new; read: the values answered (old empty)
}

func (s *Service) effectiveState(r *commandRow) string {
	if r.State == StateSent && s.Now().Sub(time.UnixMilli(r.CreatedAt)) > s.Timeout+time.Minute {
		return StateTimeout // never finished (the process stopped while it waited)
	}
	return r.State
}

func (s *Service) viewOf(lang i18n.Lang, r *commandRow) *CommandView {
	st := s.effectiveState(r)
	v := &CommandView{ID: r.ID, CarID: r.CarID, Plate: r.Plate, Kind: r.Kind, KindText: i18n.T(lang, "calib.kind."+r.Kind), State: st,
		StateText: i18n.T(lang, "calib.state."+st), Final: st != StateSent, Result: r.Result, UserName: r.UserName,
		CreatedAt: httpx.Time(r.CreatedAt), CommandID: r.CommandID, Changes: []Change{}}
	if r.DoneAt != nil {
		v.DoneAt = httpx.Time(*r.DoneAt)
	}
	switch st {
	case StateFailed:
		res := int64(-1)
		if r.Result != nil {
			res = *r.Result
		}
		v.Message = i18n.T(lang, "calib.msg.failed", r.Plate, resultText(lang, res))
	default:
		v.Message = i18n.T(lang, "calib.msg."+r.Kind+"."+st, r.Plate)
	}
	var items []item
	_ = json.Unmarshal([]byte(r.Items), &items)
	for _, it := range items {
		v.Changes = append(v.Changes, Change{Row: row(lang, it.ID), Old: it.Old, New: it.New})
	}
	return v
}

func resultText(lang i18n.Lang, res int64) string {
	if res >= 1 && res <= 3 {
		return i18n.T(lang, fmt.Sprintf("calib.result.%d", res))
	}
	return i18n.T(lang, "calib.result.other")
}

func (s *Service) view(ctx context.Context, lang i18n.Lang, r *commandRow) (*CommandView, error) {
	return s.viewOf(lang, r), nil
}

// Command returns a command of a car in the caller's scope.
func (s *Service) Command(r *http.Request, id int64) (*CommandView, error) {
	if id <= 0 {
		return nil, httpx.Required("id")
	}
	row := new(commandRow)
	err := s.db.NewSelect().Model(row).Where("cc.id = ?", id).Scan(r.Context())
	if errors.Is(err, sql.ErrNoRows) {
		return nil, httpx.ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	if !httpx.Caller(r).InScope(row.GroupPath) {
		return nil, httpx.ErrScope
	}
	// the car's group now (it may have moved since)
	if _, err := s.fleet.ScopedCar(r.Context(), httpx.Caller(r), row.CarID); err != nil && err != httpx.ErrNotFound {
		return nil, err
	}
	return s.view(r.Context(), httpx.Lang(r), row)
}

// Values is POST /monitor-app/parameter/values: the form of a car with the last known values.
type Values struct {
	CarID        int64      `json:"carId"`
	Plate        string     `json:"plate"`
	Online       bool       `json:"online"`
	HasTerminal  bool       `json:"hasTerminal"`
	Compartments int        `json:"compartments"`
	ReadAt       httpx.Time `json:"readAt"` // the newest value's time, 0 when none is known
	Rows         []Row      `json:"rows"`
	Pending      *int64     `json:"pending"` // a command of this car still waiting for its answer
}

// CarInput names a car.
type CarInput struct {
	CarID int64 `json:"carId"`
}

// Values returns the parameters of a car with what is known of them.
func (s *Service) Values(r *http.Request, in CarInput) (*Values, error) {
	ctx, lang := r.Context(), httpx.Lang(r)
	t, err := s.target(ctx, httpx.Caller(r), in.CarID)
	if err != nil {
		return nil, err
	}
	out := &Values{CarID: t.car.ID, Plate: t.car.Plate, HasTerminal: t.terminalID != 0, Compartments: t.compN, Rows: []Row{}}
	known := map[uint32]knownValue{}
	if t.terminalID != 0 {
		out.Online = s.sender.Reachable(ctx, t.terminalID)
		if known, err = s.known(ctx, t.terminalID); err != nil {
			return nil, err
		}
	}
	listed := map[uint32]bool{}
	add := func(id uint32) {
		rw := row(lang, id)
		if k, ok := known[id]; ok {
			v := k.v
			rw.Value, rw.Source, rw.At = &v, k.source, httpx.Time(k.at)
			if rw.At > out.ReadAt {
				out.ReadAt = rw.At
			}
		}
		listed[id] = true
		out.Rows = append(out.Rows, rw)
	}
	for _, d := range Defs(t.compN) {
		add(d.ID)
	}
	var rest []uint32
	for id := range known {
		if !listed[id] {
			rest = append(rest, id)
		}
	}
	sort.Slice(rest, func(i, j int) bool { return rest[i] < rest[j] })
	for _, id := range rest {
		add(id)
	}
	var pending []int64
	if err := s.db.NewSelect().Model((*commandRow)(nil)).Column("id").Where("car_id = ? AND state = ?", t.car.ID, StateSent).
		Where("created_at >= ?", s.Now().Add(-s.Timeout).UnixMilli()).OrderExpr("id DESC").Limit(1).Scan(ctx, &pending); err != nil {
		return nil, err
	}
	if len(pending) > 0 {
		out.Pending = &pending[0]
	}
	return out, nil
}

// HistoryQuery is POST /monitor-app/parameter/history (and /export).
type HistoryQuery struct {
	httpx.PageReq
	CarID     int64      `json:"carId"`
	CarNumber string     `json:"carNumber"`
	Kind      string     `json:"kind"`
	State     string     `json:"state"`
	UserName  string     `json:"userName"`
	StartTime httpx.Time `json:"startTime"`
	EndTime   httpx.Time `json:"endTime"`
}

var historySort = map[string]string{"createdAt": "cc.created_at", "plate": "cc.plate", "userName": "cc.user_name", "state": "cc.state"}

func (s *Service) historyWhere(ctx context.Context, p *httpx.Principal, q *HistoryQuery) (*bun.SelectQuery, error) {
	if err := q.Normalize(); err != nil {
		return nil, err
	}
	if q.StartTime != 0 && q.EndTime != 0 && q.EndTime < q.StartTime {
		return nil, httpx.Biz("alarm.endBeforeStart")
	}
	if p == nil || p.GroupPath == "" {
		return nil, httpx.ErrScope
	}
	sel := s.db.NewSelect().Model((*commandRow)(nil)).Where("cc.group_path LIKE ?", p.GroupPath+"%")
	if q.CarID != 0 {
		if _, err := s.fleet.ScopedCar(ctx, p, q.CarID); err != nil {
			return nil, err
		}
		sel = sel.Where("cc.car_id = ?", q.CarID)
	}
	if v := strings.TrimSpace(q.CarNumber); v != "" {
		sel = sel.Where(db.Contains(plate.SQL("cc.plate"), plate.Key(v)))
	}
	if v := strings.TrimSpace(q.UserName); v != "" {
		sel = sel.Where(db.Contains("cc.user_name", v))
	}
	switch q.Kind {
	case "":
	case KindRead, KindSet:
		sel = sel.Where("cc.kind = ?", q.Kind)
	default:
		return nil, httpx.Invalid("calib.kind")
	}
	switch q.State {
	case "":
	case StateSent, StateAcknowledged, StateFailed, StateTimeout, StateOffline:
		sel = sel.Where("cc.state = ?", q.State)
	default:
		return nil, httpx.Invalid("calib.state")
	}
	if q.StartTime != 0 {
		sel = sel.Where("cc.created_at >= ?", int64(q.StartTime))
	}
	if q.EndTime != 0 {
		sel = sel.Where("cc.created_at <= ?", q.EndTime.Through())
	}
	return sel, nil
}

// History pages the reads and sets of the caller's scope, newest first.
func (s *Service) History(r *http.Request, q HistoryQuery) (httpx.Page[*CommandView], error) {
	sel, err := s.historyWhere(r.Context(), httpx.Caller(r), &q)
	if err != nil {
		return httpx.Page[*CommandView]{}, err
	}
	order, err := q.OrderBy(historySort, "cc.created_at DESC")
	if err != nil {
		return httpx.Page[*CommandView]{}, err
	}
	lang := httpx.Lang(r)
	return db.ScanPage(r.Context(), sel, q.PageReq, order, "cc.id DESC", func(c *commandRow) *CommandView { return s.viewOf(lang, c) })
}

const exportMax = 10000

// Export writes the filtered history (up to 10,000 rows) in the caller's language, one line per command.
func (s *Service) Export(r *http.Request, q HistoryQuery) (*xlsx.Sheet, error) {
	q.PageNum, q.PageSize = 1, 1
	sel, err := s.historyWhere(r.Context(), httpx.Caller(r), &q)
	if err != nil {
		return nil, err
	}
	var rows []commandRow
	if err := sel.OrderExpr("cc.created_at DESC, cc.id DESC").Limit(exportMax).Scan(r.Context(), &rows); err != nil {
		return nil, err
	}
	lang := httpx.Lang(r)
	sh := &xlsx.Sheet{Name: "calib.export", ASCII: "calibration-history", Head: []string{"calib.col.createdAt", "calib.col.plate",
		"calib.col.kind", "calib.col.user", "calib.col.state", "calib.col.changes", "calib.col.doneAt"}}
	for i := range rows {
		v := s.viewOf(lang, &rows[i])
		done := ""
		if v.DoneAt != 0 {
			done = v.DoneAt.String()
		}
		sh.Rows = append(sh.Rows, []any{v.CreatedAt.String(), v.Plate, v.KindText, v.UserName, v.StateText, ChangesText(lang, v), done})
	}
	return sh, nil
}

// ChangesText is a command's parameters in words: "心跳间隔: 30 → 60; …" (a read lists the values answered).
func ChangesText(lang i18n.Lang, v *CommandView) string {
	parts := make([]string, 0, len(v.Changes))
	for _, c := range v.Changes {
		val := func(x *Value) string {
			if x == nil {
				return "—"
			}
			return x.String()
		}
		switch {
		case v.Kind == KindSet:
			parts = append(parts, fmt.Sprintf("%s: %s → %s", c.Name, val(c.Old), val(c.New)))
		case c.New != nil:
			parts = append(parts, fmt.Sprintf("%s: %s", c.Name, val(c.New)))
		default:
			parts = append(parts, c.Name)
		}
	}
	return strings.Join(parts, "; ")
}

// Routes are the calls of the remote calibration page.
func (s *Service) Routes() []httpx.Route {
	const base = "/monitor-app/parameter/"
	return []httpx.Route{
		{Method: "POST", Path: base + "values", Access: httpx.Needs(ViewCode), Scoped: true, Handler: httpx.JSON(func(r *http.Request, in CarInput) (any, error) { return s.Values(r, in) })},
		{Method: "POST", Path: base + "read", Access: httpx.Needs(ViewCode), Scoped: true, Handler: httpx.JSON(func(r *http.Request, in ReadInput) (any, error) { return s.Read(r, in) })},
		{Method: "POST", Path: base + "set", Access: httpx.Needs(SetCode), Scoped: true, Handler: httpx.JSON(func(r *http.Request, in SetInput) (any, error) { return s.Set(r, in) })},
		{Method: "GET", Path: base + "command", Access: httpx.Needs(ViewCode), Scoped: true,
			Handler: httpx.ByID("id", func(r *http.Request, id int64) (any, error) { return s.Command(r, id) })},
		{Method: "POST", Path: base + "history", Access: httpx.Needs(ViewCode), Scoped: true, Handler: httpx.JSON(func(r *http.Request, q HistoryQuery) (any, error) { return s.History(r, q) })},
		{Method: "POST", Path: base + "export", Access: httpx.Needs(ViewCode), Scoped: true, Handler: xlsx.Handler(s.Export)},
	}
}
