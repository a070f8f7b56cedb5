package events

import (
	"context"
	"net/http"

	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
	"tankwatch/internal/tank"
	"tankwatch/internal/telemetry"
)

// CommandQuery is the body of the remote-commands tab.
type CommandQuery struct {
	httpx.PageReq
	StartTime httpx.Time `json:"startTime"`
	EndTime   httpx.Time `json:"endTime"`
	GroupID   int64      `json:"groupId"`
	CarID     int64      `json:"carId"`
	Plate     string     `json:"plate"`
	Status    string     `json:"status"` // telemetry.Command*: pending, ok, failed, timeout, offline
}

// CommandView is a remote lock / unlock command: who asked, its state and the events it caused.
type CommandView struct {
	telemetry.CommandView
	UserName string `json:"userName"`
	Events   int    `json:"events"` // lock events this command explains
}

type commandRow struct {
	ID       int64  `bun:"id"`
	CarID    int64  `bun:"car_id"`
	Plate    string `bun:"plate"`
	Terminal int64  `bun:"terminal_id"`
	Phone    string `bun:"phone"`
	Kind     string `bun:"kind"`
	Params   string `bun:"params"`
	UserID   int64  `bun:"user_id"`
	UserName string `bun:"user_name"`
	Status   string `bun:"status"`
	Result   *int64 `bun:"result"`
	Reply    string `bun:"reply"`
	Created  int64  `bun:"created_at"`
	Done     *int64 `bun:"done_at"`
	Events   int    `bun:"events"`
}

var commandSort = map[string]string{"createdAt": "cmd.created_at", "plate": "c.plate", "status": "cmd.status",
	"kind": "cmd.kind", "userName": "user_name", "events": "events"}

// Commands pages the lock and unlock commands sent to the cars of the caller's scope (the car's group
// now), newest first, with the number of lock events each explains.
func (s *Service) Commands(ctx context.Context, p *httpx.Principal, lang i18n.Lang, q CommandQuery) (httpx.Page[CommandView], error) {
	var zero httpx.Page[CommandView]
	if err := q.Normalize(); err != nil {
		return zero, err
	}
	order, err := q.OrderBy(commandSort, "cmd.created_at DESC")
	if err != nil {
		return zero, err
	}
	if q.StartTime != 0 && q.EndTime != 0 && q.EndTime < q.StartTime {
		return zero, httpx.Biz("lockEvents.rangeReversed")
	}
	switch q.Status {
	case "", telemetry.CommandPending, telemetry.CommandOK, telemetry.CommandFailed, telemetry.CommandTimeout, telemetry.CommandOffline:
	default:
		return zero, httpx.Invalid("status")
	}
	under, err := db.ScopeUnder(ctx, s.db, p, q.GroupID)
	if err != nil {
		return zero, err
	}
	sel := s.db.NewSelect().TableExpr("commands AS cmd").
		ColumnExpr("cmd.id, cmd.car_id, cmd.terminal_id, cmd.phone, cmd.kind, cmd.params, cmd.user_id, cmd.status, cmd.result, cmd.reply, cmd.created_at, cmd.done_at").
		ColumnExpr("c.plate, COALESCE(u.name, '') AS user_name").
		ColumnExpr("(SELECT COUNT(*) FROM lock_events AS e WHERE e.command_id = cmd.id) AS events").
		Join("JOIN cars AS c ON c.id = cmd.car_id").Join("JOIN org_groups AS g ON g.id = c.group_id").
		Join("LEFT JOIN users AS u ON u.id = cmd.user_id").
		Where("cmd.kind IN (?, ?)", telemetry.KindLock, telemetry.KindUnlock).Where("g.path LIKE ?", under+"%")
	sel, err = carAndTime(ctx, s.db, p, sel, carFilter{"cmd.created_at", q.StartTime, q.EndTime, "cmd.car_id", q.CarID, q.Plate})
	if err != nil {
		return zero, err
	}
	if q.Status != "" {
		sel = sel.Where("cmd.status = ?", q.Status)
	}
	return db.ScanPage(ctx, sel, q.PageReq, order, "cmd.id DESC", func(r *commandRow) CommandView {
		v := CommandView{CommandView: telemetry.CommandView{ID: r.ID, CarID: r.CarID, Plate: r.Plate, TerminalID: r.Terminal,
			Phone: r.Phone, Kind: r.Kind, Params: r.Params, UserID: r.UserID, Status: r.Status, Result: r.Result, Reply: r.Reply,
			CreatedAt: httpx.Time(r.Created)}, UserName: r.UserName, Events: r.Events}
		if r.Done != nil {
			v.DoneAt = httpx.Time(*r.Done)
		}
		v.Localise(lang)
		return v
	})
}

// CommandInput is the page's remote open / close: the action and the compartments (empty = all).
type CommandInput struct {
	CarID        int64  `json:"carId"`
	Action       string `json:"action"` // "unlock" or "lock"
	Compartments []int  `json:"compartments"`
}

// SendCommand sends the lock command through the operator's command path (scope, terminal, the
// command log); a command the terminal did not carry out is an error naming why, and stays in the log.
func (s *Service) SendCommand(r *http.Request, in CommandInput) (*telemetry.CommandView, error) {
	if in.Action != telemetry.KindUnlock && in.Action != telemetry.KindLock {
		return nil, httpx.Invalid("lockEvents.action")
	}
	if len(in.Compartments) > tank.MaxCompartments {
		return nil, httpx.Biz("field.range", httpx.Field("command.compartments"), 1, tank.MaxCompartments)
	}
	if s.Send == nil {
		return nil, httpx.Biz("lockEvents.noGateway")
	}
	return s.Send(r, telemetry.CommandInput{CarID: in.CarID, Kind: in.Action, Compartments: in.Compartments})
}
