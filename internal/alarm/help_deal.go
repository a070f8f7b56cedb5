package alarm

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"time"

	"tankwatch/internal/audit"
	"tankwatch/internal/jt808"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/tank"
	"tankwatch/internal/telemetry"
)

// helpStale: a record left "sending" this long (the node died mid-command) may be dealt again.
const helpStale = 2 * time.Minute

// HelpModule is the operation log's module of help records.
const HelpModule = "help"

// HelpDealInput is POST /base-info-app/helpRecord/deal.
type HelpDealInput struct {
	ID       int64 `json:"id"`
	DealType int   `json:"dealType"`
}

// helpScoped reads a record with its group's path; another group's record is a 403.
func (h *HelpService) helpScoped(ctx context.Context, p *httpx.Principal, id int64) (*helpRecord, error) {
	if id <= 0 {
		return nil, httpx.Required("id")
	}
	var row struct {
		helpRecord
		Path string `bun:"group_path"`
	}
	err := h.DB.NewSelect().Model((*helpRecord)(nil)).ColumnExpr("hr.*").ColumnExpr("g.path AS group_path").
		Join("LEFT JOIN org_groups AS g ON g.id = hr.group_id").Where("hr.id = ?", id).Scan(ctx, &row)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, httpx.ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	if !p.InScope(row.Path) {
		return nil, httpx.ErrScope
	}
	return &row.helpRecord, nil
}

// Deal answers a help request: unlock or lock (the request's own type) goes down to the terminal as
// item 0xE4 carrying the request ID and succeeds only when the terminal accepts it; ignore (3) closes
// the record. A record already answered is refused; a terminal that is offline leaves it pending, one
// that refuses or stays silent marks it failed (both may be dealt again).
func (h *HelpService) Deal(r *http.Request, in HelpDealInput) (*HelpView, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	if in.ID <= 0 {
		return nil, httpx.Required("id")
	}
	if in.DealType == 0 {
		return nil, httpx.Required("help.dealType")
	}
	if in.DealType < HelpDealUnlock || in.DealType > HelpDealIgnore {
		return nil, httpx.Biz("help.dealTypeInvalid")
	}
	m, err := h.helpScoped(ctx, p, in.ID)
	if err != nil {
		return nil, err
	}
	if in.DealType != HelpDealIgnore && in.DealType != m.RequestType {
		return nil, httpx.Biz("help.dealTypeMismatch", httpx.T(r, helpTypeKey(m.RequestType)), m.RequestType)
	}
	now := h.Now().UnixMilli()
	// Claim the record in one statement, so two operators (or two nodes) cannot both answer it.
	res, err := h.DB.NewUpdate().Model((*helpRecord)(nil)).
		Set("status = ?", HelpSending).Set("deal_type = ?", in.DealType).Set("dealt_by = ?", p.UserID).
		Set("dealt_by_name = ?", p.UserName).Set("dealt_at = ?", now).
		Where("id = ?", m.ID).
		Where("(status IN (?, ?) OR (status = ? AND dealt_at < ?))", HelpPending, HelpFailed, HelpSending, now-helpStale.Milliseconds()).
		Exec(ctx)
	if err != nil {
		return nil, err
	}
	if k, err := res.RowsAffected(); err != nil || k == 0 {
		if m.Status == HelpSending {
			return nil, httpx.Biz("help.busy")
		}
		return nil, httpx.Biz("help.alreadyDealt")
	}
	prev := m.Status
	if prev == HelpSending {
		prev = HelpPending
	}
	m.DealType, m.DealtBy, m.DealtByName, m.DealtAt = in.DealType, p.UserID, p.UserName, now
	if in.DealType == HelpDealIgnore {
		m.Status, m.Result = HelpIgnored, ""
		if err := h.finish(ctx, m); err != nil {
			return nil, err
		}
		h.audit(r, m, "help.dealt.ignored")
		v := helpViewOf(m)
		h.localize(ctx, httpx.Lang(r), v)
		return v, nil
	}
	outcome, err := h.send(r, m)
	if m.Status == HelpPending && prev == HelpFailed {
		m.Status = prev // nothing was sent: the record stays as it was
	}
	if ferr := h.finish(context.WithoutCancel(ctx), m); ferr != nil && err == nil {
		err = ferr
	}
	h.audit(r, m, outcome)
	if err != nil {
		return nil, err
	}
	v := helpViewOf(m)
	h.localize(ctx, httpx.Lang(r), v)
	return v, nil
}

// send carries an unlock / lock to the terminal and sets the record's outcome (status, command,
// result); the error is what the operator is told when the terminal did not carry it out.
func (h *HelpService) send(r *http.Request, m *helpRecord) (outcome string, err error) {
	m.Status = HelpPending
	if h.Terminals == nil || h.Sender == nil {
		return "help.dealt.noGateway", httpx.Biz("help.noGateway")
	}
	target, err := h.Terminals.CommandTerminal(r.Context(), httpx.Caller(r), m.CarID)
	if err != nil {
		return "help.dealt.noTerminal", err
	}
	kind, action := telemetry.KindUnlock, tank.HelpUnlock
	if m.DealType == HelpDealLock {
		kind, action = telemetry.KindLock, tank.HelpLock
	}
	cmd := &tank.LockCommand{Action: action, RequestID: uint16(m.RequestID)}
	msg := &jt808.PassThrough{Down: true, Type: tank.PassTank, Data: cmd.AppendItem(nil)}
	c := &telemetry.Command{TerminalID: target.TerminalID, CarID: m.CarID, Phone: target.Phone, Kind: kind,
		Params: fmt.Sprintf("help request %d (request ID 0x%04X), all compartments", m.ID, m.RequestID), UserID: httpx.Caller(r).UserID}
	sendErr := h.Sender.Send(r.Context(), target.TerminalID, msg, c)
	m.CommandID, m.Result = c.ID, c.Reply
	switch c.Status {
	case telemetry.CommandOK:
		m.Status = HelpDone
		return "help.dealt.done", nil
	case telemetry.CommandOffline:
		m.Result = "offline"
		return "help.dealt.offline", httpx.Biz("command.offline", target.Plate)
	case telemetry.CommandTimeout:
		m.Status, m.Result = HelpFailed, "timeout"
		return "help.dealt.timeout", httpx.Biz("command.timeout", target.Plate)
	case telemetry.CommandFailed:
		m.Status = HelpFailed
		return "help.dealt.failed", httpx.Biz("command.failed", target.Plate, c.Reply)
	}
	if sendErr == nil {
		sendErr = errors.New("alarm: the gateway gave no outcome for the command")
	}
	return "help.dealt.failed", sendErr
}

// finish stores the outcome of a deal.
func (h *HelpService) finish(ctx context.Context, m *helpRecord) error {
	q := h.DB.NewUpdate().Model((*helpRecord)(nil)).Set("status = ?", m.Status).Set("command_id = ?", m.CommandID).
		Set("result = ?", m.Result).Where("id = ?", m.ID)
	if m.Status == HelpPending {
		// Nothing reached the terminal: the record is open again for anyone.
		q = q.Set("deal_type = 0").Set("dealt_by = 0").Set("dealt_by_name = ''").Set("dealt_at = 0")
	}
	_, err := q.Exec(ctx)
	return err
}

func (h *HelpService) audit(r *http.Request, m *helpRecord, outcome string) {
	if h.Audit == nil {
		return
	}
	h.Audit.Record(r.Context(), r, nil, audit.Entry{Module: HelpModule, Action: "helpDeal", Target: m.CarNumber, TargetID: m.ID,
		Detail: audit.Text("oplog.helpDeal", audit.Key(outcome), audit.Key(fmt.Sprintf("help.deal.%d", m.DealType)), audit.Key("help.status."+m.Status))})
}
