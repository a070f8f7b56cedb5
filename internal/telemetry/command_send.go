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
	// KindSetPassword sets the locks' local unlock password (item 0xE5). Only Go callers can send it
	// (CommandInput.password has no JSON name): the car password service stores the password first,
	// so a terminal never holds one the platform does not know.
	KindSetPassword = "setPassword"
)

// CommandInput is POST /base-info-app/terminalCommand/send.
type CommandInput struct {
	CarID        int64        `json:"carId"`
	Kind         string       `json:"kind"`
	Text         string       `json:"text"`         // text: shown and spoken on the terminal
	Compartments []int        `json:"compartments"` // lock / unlock: compartments 1–8, empty = all
	Params       []ParamInput `json:"params"`       // setParams: DWORD parameters

	password string // setPassword: six digits (see KindSetPassword)
}

// PasswordCommand is the input that sends password to carID's terminal as item 0xE5.
func PasswordCommand(carID int64, password string) CommandInput {
	return CommandInput{CarID: carID, Kind: KindSetPassword, password: password}
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
	case KindSetPassword:
		item, err := tank.LocalPassword(in.password).AppendItem(nil)
		if err != nil { // also a setPassword asked over HTTP, which cannot carry a password
			return nil, "", httpx.Invalid("kind")
		}
		return &jt808.PassThrough{Down: true, Type: tank.PassTank, Data: item}, "local unlock password (0xE5)", nil
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

// Deliver sends a command to the terminal of a car in the caller's scope, waits for the answer and
// returns the logged command whatever the terminal did (its Status says: ok, failed, timeout,
// offline). The error is for what stopped it before or outside the terminal: validation, scope, no
// terminal, or a gateway failure without an outcome.
func (c *Commands) Deliver(r *http.Request, s Sender, in CommandInput) (*CommandView, error) {
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
	cmd := &Command{TerminalID: target.TerminalID, CarID: in.CarID, Phone: target.Phone, Kind: in.Kind, Params: desc, UserID: p.UserID,
		Secret: in.Kind == KindSetPassword}
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
	view.Localise(httpx.Lang(r))
	if view.Outcome() == nil && cmd.Status != CommandOK && sendErr != nil {
		return nil, sendErr
	}
	return view, nil
}

// Outcome is what the operator is told about a delivered command: nil when the terminal carried it
// out, else a business error saying whether it was offline, silent or refusing.
func (v *CommandView) Outcome() error {
	switch v.Status {
	case CommandOffline:
		return httpx.Biz("command.offline", v.Plate)
	case CommandTimeout:
		return httpx.Biz("command.timeout", v.Plate)
	case CommandFailed:
		return httpx.Biz("command.failed", v.Plate, v.Reply)
	}
	return nil
}

// Send is Deliver for the operator's command page: a command the terminal did not carry out is an
// error naming why.
func (c *Commands) Send(r *http.Request, s Sender, in CommandInput) (*CommandView, error) {
	v, err := c.Deliver(r, s, in)
	if err != nil {
		return nil, err
	}
	if err := v.Outcome(); err != nil {
		return nil, err
	}
	return v, nil
}

// SendRoutes are the operator's command calls, sent through s. Remote calibration (parameter, 04-08)
// grants them.
func (c *Commands) SendRoutes(s Sender) []httpx.Route {
	return []httpx.Route{
		{Method: "POST", Path: "/base-info-app/terminalCommand/send", Access: httpx.Needs("04-08"), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, in CommandInput) (any, error) { return c.Send(r, s, in) })},
		{Method: "POST", Path: "/base-info-app/terminalCommand/page", Access: httpx.Needs("04-08"), Scoped: true,
			Handler: httpx.JSON(func(r *http.Request, q CommandQuery) (any, error) {
				page, err := c.List(r.Context(), httpx.Caller(r), q)
				for _, v := range page.List {
					v.Localise(httpx.Lang(r))
				}
				return page, err
			})},
	}
}
