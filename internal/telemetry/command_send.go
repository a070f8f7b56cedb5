package telemetry

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"tankwatch/internal/jt808"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/tank"
)

// Sender delivers a command to a connected terminal and waits for its answer, recording both in the
// command log (the JT/T 808 gateway implements it).
type Sender interface {
	Send(ctx context.Context, terminalID int64, msg jt808.Message, c *Command) error
}

// Command kinds an operator can send.
const (
	KindText        = "text"
	KindLock        = "lock"
	KindUnlock      = "unlock"
	KindQueryParams = "queryParams"
	KindSetParams   = "setParams"
)

// CommandInput is POST /base-info-app/terminalCommand/send.
type CommandInput struct {
	CarID        int64        `json:"carId"`
	Kind         string       `json:"kind"`
	Text         string       `json:"text"`         // text: shown and spoken on the terminal
	Compartments []int        `json:"compartments"` // lock / unlock: compartments 1–8, empty = all
	Params       []ParamInput `json:"params"`       // setParams: DWORD parameters
}

// ParamInput is one terminal parameter (JT/T 808 parameter ID and a DWORD value).
type ParamInput struct {
	ID    uint32 `json:"id"`
	Value uint32 `json:"value"`
}

// message builds the downlink message of in and a readable description for the log.
func (in *CommandInput) message(requestID uint16) (jt808.Message, string, error) {
	switch in.Kind {
	case KindText:
		text := strings.TrimSpace(in.Text)
		if text == "" {
			return nil, "", httpx.Required("text")
		}
		if len([]rune(text)) > 200 {
			return nil, "", httpx.Biz("field.maxLen", httpx.Field("text"), 200)
		}
		return &jt808.Text{Flag: jt808.TextDisplay | jt808.TextTTS, Type: jt808.TextTypeNotice, Text: text}, text, nil
	case KindLock, KindUnlock:
		var mask byte
		for _, c := range in.Compartments {
			if c < 1 || c > tank.MaxCompartments {
				return nil, "", httpx.Biz("field.range", httpx.Field("command.compartments"), 1, tank.MaxCompartments)
			}
			mask |= 1 << (c - 1)
		}
		cmd := tank.LockCommand{Action: tank.HelpLock, Mask: mask, RequestID: requestID}
		if in.Kind == KindUnlock {
			cmd.Action = tank.HelpUnlock
		}
		desc := "all compartments"
		if mask != 0 {
			desc = fmt.Sprintf("compartments %v", in.Compartments)
		}
		return &jt808.PassThrough{Down: true, Type: tank.PassTank, Data: cmd.AppendItem(nil)}, desc, nil
	case KindQueryParams:
		return &jt808.Empty{ID: jt808.MsgQueryParams}, "", nil
	case KindSetParams:
		if len(in.Params) == 0 || len(in.Params) > 50 {
			return nil, "", httpx.Biz("field.range", httpx.Field("params"), 1, 50)
		}
		m := &jt808.SetParams{}
		var parts []string
		for _, p := range in.Params {
			m.Params = append(m.Params, jt808.Uint32Param(p.ID, p.Value))
			parts = append(parts, fmt.Sprintf("0x%04X=%d", p.ID, p.Value))
		}
		return m, strings.Join(parts, ", "), nil
	case "":
		return nil, "", httpx.Required("kind")
	}
	return nil, "", httpx.Invalid("kind")
}

// Send sends an operator's command to the terminal of a car in the caller's scope and waits for the
// answer. The command is logged whatever happens; a terminal that is offline, silent or refusing
// gives a business error saying which.
func (c *Commands) Send(r *http.Request, s Sender, in CommandInput) (*CommandView, error) {
	p := httpx.Caller(r)
	if c.Fleet == nil {
		return nil, fmt.Errorf("telemetry: command sending needs the fleet registry for the scope check")
	}
	if in.CarID <= 0 {
		return nil, httpx.Required("carId")
	}
	target, err := c.Fleet.CommandTerminal(r.Context(), p, in.CarID)
	if err != nil {
		return nil, err
	}
	msg, desc, err := in.message(uint16(c.Now().UnixNano()))
	if err != nil {
		return nil, err
	}
	cmd := &Command{TerminalID: target.TerminalID, CarID: in.CarID, Phone: target.Phone, Kind: in.Kind, Params: desc, UserID: p.UserID}
	sendErr := s.Send(r.Context(), target.TerminalID, msg, cmd)
	view := &CommandView{ID: cmd.ID, CarID: in.CarID, Plate: target.Plate, TerminalID: target.TerminalID, Phone: target.Phone,
		Kind: cmd.Kind, MsgID: fmt.Sprintf("0x%04X", cmd.MsgID), Serial: int(cmd.Serial), Params: cmd.Params, UserID: cmd.UserID,
		Status: cmd.Status, Reply: cmd.Reply, CreatedAt: httpx.TimeOf(cmd.Created)}
	if !cmd.Done.IsZero() {
		view.DoneAt = httpx.TimeOf(cmd.Done)
	}
	if cmd.Result != nil {
		res := int64(*cmd.Result)
		view.Result = &res
	}
	switch cmd.Status {
	case CommandOK:
		return view, nil
	case CommandOffline:
		return nil, httpx.Biz("command.offline", target.Plate)
	case CommandTimeout:
		return nil, httpx.Biz("command.timeout", target.Plate)
	case CommandFailed:
		return nil, httpx.Biz("command.failed", target.Plate, cmd.Reply)
	}
	if sendErr != nil {
		return nil, sendErr
	}
	return view, nil
}

// SendRoutes are the operator's command calls, sent through s. Remote calibration (parameter, 04-08)
// grants them.
func (c *Commands) SendRoutes(s Sender) []httpx.Route {
	return []httpx.Route{
		{Method: "POST", Path: "/base-info-app/terminalCommand/send", Access: httpx.Needs("04-08"), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in CommandInput) (any, error) { return c.Send(r, s, in) })},
		{Method: "POST", Path: "/base-info-app/terminalCommand/page", Access: httpx.Needs("04-08"), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q CommandQuery) (any, error) { return c.List(r.Context(), httpx.Caller(r), q) })},
	}
}
