package telemetry

import (
	"context"
	"errors"
	"time"

	"github.com/uptrace/bun"

	"tankwatch/internal/fleet"
	"tankwatch/internal/platform/db"
	"tankwatch/internal/platform/httpx"
)

// Commands is the log of downlink commands: the gateway records each command when it is sent and
// when it is answered (or times out); the history lists them.
type Commands struct {
	db  *db.DB
	Now func() time.Time
	// Fleet checks the scope of List; NewHistory sets it on its own log. The gateway only writes.
	Fleet *fleet.Service
}

// NewCommands returns the command log.
func NewCommands(d *db.DB) *Commands { return &Commands{db: d, Now: time.Now} }

type histCommand struct {
	bun.BaseModel `bun:"table:commands,alias:cmd"`

	ID         int64  `bun:"id,pk,autoincrement"`
	TerminalID int64  `bun:"terminal_id"`
	CarID      int64  `bun:"car_id"`
	Phone      string `bun:"phone"`
	Kind       string `bun:"kind"`
	MsgID      int64  `bun:"msg_id"`
	Serial     int64  `bun:"serial"`
	Params     string `bun:"params"`
	UserID     int64  `bun:"user_id"`
	Status     string `bun:"status"`
	Result     *int64 `bun:"result"`
	Reply      string `bun:"reply"`
	CreatedAt  int64  `bun:"created_at"`
	DoneAt     *int64 `bun:"done_at"`
}

func commandStatusValid(s string) bool {
	switch s {
	case CommandPending, CommandOK, CommandFailed, CommandTimeout, CommandOffline:
		return true
	}
	return false
}

// Start records cmd as pending (or with the status it already has, e.g. offline when it could not
// be sent) and sets cmd.ID and cmd.Created.
func (c *Commands) Start(ctx context.Context, cmd *Command) error {
	if cmd.TerminalID <= 0 || cmd.Kind == "" {
		return errors.New("telemetry: a command needs a terminal and a kind")
	}
	if cmd.Status == "" {
		cmd.Status = CommandPending
	}
	if !commandStatusValid(cmd.Status) {
		return errors.New("telemetry: unknown command status " + cmd.Status)
	}
	if cmd.Created.IsZero() {
		cmd.Created = c.Now()
	}
	row := &histCommand{TerminalID: cmd.TerminalID, CarID: cmd.CarID, Phone: cmd.Phone, Kind: cmd.Kind,
		MsgID: int64(cmd.MsgID), Serial: int64(cmd.Serial), Params: cmd.Params, UserID: cmd.UserID, Status: cmd.Status,
		Reply: cmd.Reply, CreatedAt: cmd.Created.UnixMilli()}
	if cmd.Result != nil {
		v := int64(*cmd.Result)
		row.Result = &v
	}
	if !cmd.Done.IsZero() {
		v := cmd.Done.UnixMilli()
		row.DoneAt = &v
	}
	if _, err := c.db.NewInsert().Model(row).Returning("id").Exec(ctx); err != nil {
		return err
	}
	cmd.ID = row.ID
	return nil
}

// Finish records the outcome of a started command: Status, Result, Reply, the serial it was sent
// with and Done (now when zero).
func (c *Commands) Finish(ctx context.Context, cmd *Command) error {
	if cmd.ID <= 0 {
		return errors.New("telemetry: Finish of a command that was not started")
	}
	if !commandStatusValid(cmd.Status) || cmd.Status == CommandPending {
		return errors.New("telemetry: a finished command needs a final status, not " + cmd.Status)
	}
	if cmd.Done.IsZero() {
		cmd.Done = c.Now()
	}
	var result *int64
	if cmd.Result != nil {
		v := int64(*cmd.Result)
		result = &v
	}
	res, err := c.db.NewUpdate().Model((*histCommand)(nil)).Set("status = ?", cmd.Status).Set("result = ?", result).
		Set("reply = ?", cmd.Reply).Set("serial = ?", int64(cmd.Serial)).Set("done_at = ?", cmd.Done.UnixMilli()).
		Where("id = ?", cmd.ID).Exec(ctx)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		return errors.New("telemetry: no command with that id")
	}
	return nil
}

// CommandQuery selects commands of one car or terminal in a time range (created time).
type CommandQuery struct {
	httpx.PageReq
	CarID     int64      `json:"carId"`
	Phone     string     `json:"phone"`
	StartTime httpx.Time `json:"startTime"`
	EndTime   httpx.Time `json:"endTime"`
}

// CommandView is a command as the API shows it.
type CommandView struct {
	ID         int64      `json:"id"`
	CarID      int64      `json:"carId"`
	Plate      string     `json:"plate"`
	TerminalID int64      `json:"terminalId"`
	Phone      string     `json:"phone"`
	Kind       string     `json:"kind"`
	MsgID      string     `json:"msgId"`
	Serial     int        `json:"serial"`
	Params     string     `json:"params"`
	ParamsText string     `json:"paramsText"` // Params in the caller's language (command_text.go)
	UserID     int64      `json:"userId"`
	Status     string     `json:"status"`
	Result     *int64     `json:"result"`
	Reply      string     `json:"reply"` // in the caller's language (command_text.go)
	CreatedAt  httpx.Time `json:"createdAt"`
	DoneAt     httpx.Time `json:"doneAt"`
}

// List returns a page of the commands of a car or terminal in the caller's scope, newest first.
func (c *Commands) List(ctx context.Context, p *httpx.Principal, q CommandQuery) (httpx.Page[*CommandView], error) {
	if c.Fleet == nil {
		return httpx.Page[*CommandView]{}, httpx.Biz("telemetry.noFleet")
	}
	h := &History{db: c.db, fleet: c.Fleet}
	hq := HistoryQuery{PageReq: q.PageReq, CarID: q.CarID, Phone: q.Phone, StartTime: q.StartTime, EndTime: q.EndTime}
	t, from, to, err := h.histPrepare(ctx, p, &hq)
	if err != nil {
		return httpx.Page[*CommandView]{}, err
	}
	return c.list(ctx, p, t, from, to, hq.PageReq)
}

func (c *Commands) list(ctx context.Context, p *httpx.Principal, t histTarget, from, to int64, q httpx.PageReq) (httpx.Page[*CommandView], error) {
	col, val := t.column()
	var rows []histCommand
	sel := c.db.NewSelect().Model(&rows).Where("cmd."+col+" = ?", val).Where("cmd.created_at >= ? AND cmd.created_at <= ?", from, to)
	total, err := histScan(ctx, sel, "cmd.created_at DESC, cmd.id DESC", q, &rows)
	if err != nil {
		return httpx.Page[*CommandView]{}, err
	}
	h := &History{db: c.db, fleet: c.Fleet}
	plates, err := h.plates(ctx, p, t, histCars(len(rows), func(i int) int64 { return rows[i].CarID }))
	if err != nil {
		return httpx.Page[*CommandView]{}, err
	}
	out := make([]*CommandView, len(rows))
	for i, r := range rows {
		v := &CommandView{ID: r.ID, CarID: r.CarID, Plate: plates[r.CarID], TerminalID: r.TerminalID, Phone: r.Phone,
			Kind: r.Kind, MsgID: histMsgHex(r.MsgID), Serial: int(r.Serial), Params: r.Params, UserID: r.UserID,
			Status: r.Status, Result: r.Result, Reply: r.Reply, CreatedAt: httpx.Time(r.CreatedAt)}
		if r.DoneAt != nil {
			v.DoneAt = httpx.Time(*r.DoneAt)
		}
		out[i] = v
	}
	return httpx.NewPage(out, total, q), nil
}
