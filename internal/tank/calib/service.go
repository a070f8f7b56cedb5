package calib

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/uptrace/bun"

	"tankwatch/internal/audit"
	"tankwatch/internal/fleet"
	"tankwatch/internal/jt808"
	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
	"tankwatch/internal/telemetry"
)

// Codes: 04-08 views and reads, 04-08-01 sets.
const (
	ViewCode = "04-08"
	SetCode  = "04-08-01"
)

// Command kinds and states (D40).
const (
	KindRead = "read"
	KindSet  = "set"

	StateSent         = "sent"
	StateAcknowledged = "acknowledged"
	StateFailed       = "failed"
	StateTimeout      = "timeout"
	StateOffline      = "offline"
)

// Sender delivers a command and knows which terminals are connected (the JT/T 808 gateway).
type Sender interface {
	telemetry.Sender
	// Reachable: the terminal's session is on this node or, over the bus, on another (gateway.Server).
	Reachable(ctx context.Context, terminalID int64) bool
}

// Service is remote calibration.
type Service struct {
	db     *db.DB
	fleet  *fleet.Service
	sender Sender
	audit  *audit.Log
	Now    func() time.Time
	// Timeout bounds the wait for one answer (the gateway's own CommandTimeout, 15 s, usually ends it
	// first); a row still "sent" longer than this after its creation (a restart in between) reads as timeout.
	Timeout time.Duration
	wg      sync.WaitGroup
}

// New builds the service.
func New(d *db.DB, f *fleet.Service, sender Sender, a *audit.Log) *Service {
	return &Service{db: d, fleet: f, sender: sender, audit: a, Now: time.Now, Timeout: 30 * time.Second}
}

// Wait waits for the commands in flight (tests, shutdown).
func (s *Service) Wait() { s.wg.Wait() }

type commandRow struct {
	bun.BaseModel `bun:"table:calib_commands,alias:cc"`

	ID         int64  `bun:"id,pk,autoincrement"`
	CarID      int64  `bun:"car_id"`
	TerminalID int64  `bun:"terminal_id"`
	Plate      string `bun:"plate"`
	GroupID    int64  `bun:"group_id"`
	GroupPath  string `bun:"group_path"`
	UserID     int64  `bun:"user_id"`
	UserName   string `bun:"user_name"`
	Kind       string `bun:"kind"`
	Items      string `bun:"items"`
	State      string `bun:"state"`
	Result     *int64 `bun:"result"`
	CommandID  int64  `bun:"command_id"`
	CreatedAt  int64  `bun:"created_at"`
	DoneAt     *int64 `bun:"done_at"`
}

type valueRow struct {
	bun.BaseModel `bun:"table:calib_values,alias:cv"`

	TerminalID int64  `bun:"terminal_id,pk"`
	ParamID    int64  `bun:"param_id,pk"`
	Value      string `bun:"value"`
	Source     string `bun:"source"`
	At         int64  `bun:"at"`
}

// item is one entry of calib_commands.items.
type item struct {
	ID  uint32 `json:"id"`
	Old *Value `json:"old,omitempty"` // set: the last known value before
	New *Value `json:"new,omitempty"` // set: the value sent; read: the value answered
}

// Input is one parameter of a set.
type Input struct {
	ID    uint32 `json:"id"`
	Value Value  `json:"value"`
}

// ReadInput is POST /monitor-app/parameter/read.
type ReadInput struct {
	CarID int64    `json:"carId"`
	IDs   []uint32 `json:"ids"`
}

// SetInput is POST /monitor-app/parameter/set.
type SetInput struct {
	CarID  int64   `json:"carId"`
	Params []Input `json:"params"`
}

type target struct {
	car        fleet.CarRef
	terminalID int64
	compN      int
}

func (s *Service) target(ctx context.Context, p *httpx.Principal, carID int64) (target, error) {
	if carID <= 0 {
		return target{}, httpx.Required("carId")
	}
	car, err := s.fleet.ScopedCar(ctx, p, carID)
	if err != nil {
		return target{}, err
	}
	t := target{car: car}
	var row struct {
		N int `bun:"n"`
	}
	if err := s.db.NewSelect().TableExpr("cars").ColumnExpr("compartments AS n").Where("id = ?", carID).Scan(ctx, &row); err != nil {
		return target{}, err
	}
	t.compN = row.N
	ct, err := s.fleet.CommandTerminal(ctx, p, carID)
	if err == nil {
		t.terminalID = ct.TerminalID
	} else {
		var he *httpx.Error
		if !errors.As(err, &he) || he.Key != "command.noTerminal" {
			return target{}, err
		}
	}
	return t, nil
}

// Read asks the terminal of a car for its parameters (0x8104; ids narrows what is kept and shown).
func (s *Service) Read(r *http.Request, in ReadInput) (*CommandView, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	t, err := s.target(ctx, p, in.CarID)
	if err != nil {
		return nil, err
	}
	if len(in.IDs) > 255 {
		return nil, httpx.Biz("field.range", httpx.Field("calib.ids"), 0, 255)
	}
	items := make([]item, 0, len(in.IDs))
	for _, id := range in.IDs {
		items = append(items, item{ID: id})
	}
	row, err := s.begin(ctx, p, t, KindRead, items)
	if err != nil {
		return nil, err
	}
	s.launch(row, &jt808.Empty{ID: jt808.MsgQueryParams}, "calibration read", items)
	return s.view(ctx, httpx.Lang(r), row)
}

// Set validates and sends new values to the terminal of a car (0x8103), recording old → new.
func (s *Service) Set(r *http.Request, in SetInput) (*CommandView, error) {
	ctx, p, lang := r.Context(), httpx.Caller(r), httpx.Lang(r)
	if len(in.Params) == 0 {
		return nil, httpx.Required("calib.params")
	}
	if len(in.Params) > 100 {
		return nil, httpx.Biz("field.range", httpx.Field("calib.params"), 1, 100)
	}
	seen := map[uint32]bool{}
	for _, pi := range in.Params {
		if pr := Check(pi.ID, pi.Value); pr != nil {
			return nil, problemError(lang, pr)
		}
		if seen[pi.ID] {
			return nil, httpx.Biz("calib.err.duplicate", Name(lang, pi.ID))
		}
		seen[pi.ID] = true
	}
	t, err := s.target(ctx, p, in.CarID)
	if err != nil {
		return nil, err
	}
	for _, pi := range in.Params {
		if d, _ := Lookup(pi.ID); d.Compartment > t.compN {
			return nil, httpx.Biz("calib.err.compartment", Name(lang, pi.ID), t.car.Plate, t.compN)
		}
	}
	known, err := s.known(ctx, t.terminalID)
	if err != nil {
		return nil, err
	}
	items := make([]item, 0, len(in.Params))
	m := &jt808.SetParams{}
	for _, pi := range in.Params {
		v := pi.Value
		if v.IsStr {
			v.Str = strings.TrimSpace(v.Str)
		}
		it := item{ID: pi.ID, New: &v}
		if old, ok := known[pi.ID]; ok {
			it.Old = &old.v
		}
		items = append(items, it)
		m.Params = append(m.Params, Encode(pi.ID, v))
	}
	row, err := s.begin(ctx, p, t, KindSet, items)
	if err != nil {
		return nil, err
	}
	if row.State == StateOffline {
		return nil, httpx.Biz("calib.offline", t.car.Plate)
	}
	s.audit.Record(ctx, r, p, audit.Entry{Module: "calib", Action: "set", Target: t.car.Plate, TargetID: t.car.ID,
		Detail: audit.Text("oplog.calibSet", changesText(items))})
	s.launch(row, m, changesText(items), items)
	return s.view(ctx, lang, row)
}

// changesText is the plain-ASCII protocol description of a set: 0xF011: 0 -> 12, ...
func changesText(items []item) string {
	parts := make([]string, len(items))
	for i, it := range items {
		old := "?"
		if it.Old != nil {
			old = it.Old.String()
		}
		parts[i] = fmt.Sprintf("0x%04X: %s -> %s", it.ID, old, it.New.String())
	}
	return strings.Join(parts, ", ")
}

func problemError(lang i18n.Lang, pr *Problem) error {
	name := Name(lang, pr.Def.ID)
	switch pr.Reason {
	case "range":
		unit := UnitText(lang, pr.Def.Unit)
		if unit != "" {
			unit = " " + unit
		}
		return httpx.Biz("calib.err.range", name, pr.Def.Min, pr.Def.Max, unit)
	case "length":
		return httpx.Biz("calib.err.length", name, pr.Def.Min, pr.Def.Max)
	case "chars":
		return httpx.Biz("calib.err.chars", name)
	case "type":
		if pr.Def.Kind == String {
			return httpx.Biz("calib.err.text", name)
		}
		return httpx.Biz("calib.err.integer", name)
	}
	return httpx.Biz("calib.err.unknown", fmt.Sprintf("0x%04X", pr.Def.ID))
}

// begin records the command: sent, or offline (refused: the terminal is not connected, or the car has none).
func (s *Service) begin(ctx context.Context, p *httpx.Principal, t target, kind string, items []item) (*commandRow, error) {
	b, err := json.Marshal(items)
	if err != nil {
		return nil, err
	}
	row := &commandRow{CarID: t.car.ID, TerminalID: t.terminalID, Plate: t.car.Plate, GroupID: t.car.GroupID, GroupPath: t.car.GroupPath,
		UserID: p.UserID, UserName: p.UserName, Kind: kind, Items: string(b), State: StateSent, CreatedAt: s.Now().UnixMilli()}
	if t.terminalID == 0 {
		return nil, httpx.Biz("command.noTerminal", t.car.Plate)
	}
	if !s.sender.Reachable(ctx, t.terminalID) {
		row.State = StateOffline
		done := row.CreatedAt
		row.DoneAt = &done
	}
	if _, err := s.db.NewInsert().Model(row).Returning("id").Exec(ctx); err != nil {
		return nil, err
	}
	if row.State == StateOffline && kind == KindRead {
		return nil, httpx.Biz("calib.offline", t.car.Plate)
	}
	return row, nil
}

// launch sends msg in the background and records the outcome on row.
func (s *Service) launch(row *commandRow, msg jt808.Message, desc string, items []item) {
	kind := telemetry.KindQueryParams
	if row.Kind == KindSet {
		kind = telemetry.KindSetParams
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		ctx, cancel := context.WithTimeout(context.Background(), s.Timeout)
		defer cancel()
		cmd := &telemetry.Command{Kind: kind, Params: desc, UserID: row.UserID}
		err := s.sender.Send(ctx, row.TerminalID, msg, cmd)
		state := StateFailed
		switch cmd.Status {
		case telemetry.CommandOK:
			state = StateAcknowledged
		case telemetry.CommandTimeout:
			state = StateTimeout
		case telemetry.CommandOffline:
			state = StateOffline
		}
		if cmd.Status == "" && err != nil {
			slog.Error("calibration command not sent", "car", row.CarID, "err", err)
		}
		done := s.Now()
		if err := s.finish(context.Background(), row, cmd, state, done, items); err != nil {
			slog.Error("calibration outcome not recorded", "command", row.ID, "err", err)
		}
	}()
}

func (s *Service) finish(ctx context.Context, row *commandRow, cmd *telemetry.Command, state string, done time.Time, items []item) error {
	return s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		at := done.UnixMilli()
		var vals []valueRow
		if state == StateAcknowledged {
			switch row.Kind {
			case KindRead:
				got := ParseReply(cmd.Reply)
				want := map[uint32]bool{}
				for _, it := range items {
					want[it.ID] = true
				}
				items = items[:0]
				for id, v := range got {
					if len(want) > 0 && !want[id] {
						continue
					}
					v := v
					items = append(items, item{ID: id, New: &v})
				}
				sort.Slice(items, func(i, j int) bool { return items[i].ID < items[j].ID })
				for _, it := range items {
					vals = append(vals, valueRow{TerminalID: row.TerminalID, ParamID: int64(it.ID), Value: encodeValue(*it.New), Source: KindRead, At: at})
				}
			case KindSet:
				for _, it := range items {
					vals = append(vals, valueRow{TerminalID: row.TerminalID, ParamID: int64(it.ID), Value: encodeValue(*it.New), Source: KindSet, At: at})
				}
			}
		}
		b, err := json.Marshal(items)
		if err != nil {
			return err
		}
		var result *int64
		if cmd.Result != nil {
			v := int64(*cmd.Result)
			result = &v
		}
		if _, err := tx.NewUpdate().Model((*commandRow)(nil)).Set("state = ?", state).Set("result = ?", result).
			Set("command_id = ?", cmd.ID).Set("done_at = ?", at).Set("items = ?", string(b)).Where("id = ?", row.ID).Exec(ctx); err != nil {
			return err
		}
		if len(vals) > 0 {
			if _, err := tx.NewInsert().Model(&vals).On("CONFLICT (terminal_id, param_id) DO UPDATE").
				Set("value = EXCLUDED.value").Set("source = EXCLUDED.source").Set("at = EXCLUDED.at").Exec(ctx); err != nil {
				return err
			}
		}
		return nil
	})
}

func encodeValue(v Value) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func decodeValue(s string) (Value, error) {
	var v Value
	err := json.Unmarshal([]byte(s), &v)
	return v, err
}

type knownValue struct {
	v      Value
	source string
	at     int64
}

func (s *Service) known(ctx context.Context, terminalID int64) (map[uint32]knownValue, error) {
	var rows []valueRow
	if err := s.db.NewSelect().Model(&rows).Where("cv.terminal_id = ?", terminalID).Scan(ctx); err != nil {
		return nil, err
	}
	out := make(map[uint32]knownValue, len(rows))
	for _, r := range rows {
		v, err := decodeValue(r.Value)
		if err != nil {
			continue
		}
		out[uint32(r.ParamID)] = knownValue{v: v, source: r.Source, at: r.At}
	}
	return out, nil
}
