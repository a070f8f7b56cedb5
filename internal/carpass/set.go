package carpass

import (
	"context"
	"errors"
	"net/http"

	"tankwatch/internal/audit"
	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
	"tankwatch/internal/telemetry"
)

// SetInput is POST /base-info-app/carPassword/set: a six-digit password, "" to generate one, or
// resend to send the stored one again (after the terminal was offline or refused it).
type SetInput struct {
	CarID    int64  `json:"carId"`
	Password string `json:"password"`
	Resend   bool   `json:"resend"`
}

// SetResult is the outcome of a set: the password is stored whatever the terminal did; SyncState says
// whether the terminal has it and Message, in the caller's language, what to do next. The password
// itself is never in it: reading it is View's job, which records the reveal.
type SetResult struct {
	CarView
	Generated bool   `json:"generated"`
	Message   string `json:"message"`
}

// Set stores a car's password and sends it to the terminal as item 0xE5 through the command log.
// The car must be in the caller's scope; nothing is stored otherwise, nor for a malformed password.
func (s *Service) Set(r *http.Request, in SetInput) (*SetResult, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	if in.CarID <= 0 {
		return nil, httpx.Required("carId")
	}
	car, err := s.fleet.ScopedCar(ctx, p, in.CarID)
	if err != nil {
		return nil, err
	}
	row := &password{CarID: car.ID, SetBy: p.UserID, SetByName: p.UserName, SetAt: s.Now().UnixMilli()}
	generated := false
	if in.Resend {
		old, err := s.load(ctx, car.ID)
		if err != nil {
			return nil, err
		}
		// the same password again: who set it and when stay as they were
		row = old
	} else {
		generated = in.Password == ""
		if row.Password, err = cleanPassword(in.Password); err != nil {
			return nil, err
		}
	}
	row.SyncState, row.SyncReason, row.CommandID, row.SyncedAt = SyncPending, ReasonSending, 0, 0
	if _, err := s.db.NewInsert().Model(row).On("CONFLICT (car_id) DO UPDATE").
		Set("password = EXCLUDED.password").Set("set_by = EXCLUDED.set_by").Set("set_by_name = EXCLUDED.set_by_name").
		Set("set_at = EXCLUDED.set_at").Set("sync_state = EXCLUDED.sync_state").Set("sync_reason = EXCLUDED.sync_reason").
		Set("command_id = 0").Set("synced_at = 0").Exec(ctx); err != nil {
		return nil, err
	}
	sendErr := s.send(r, row)
	if err := s.saveSync(context.WithoutCancel(ctx), row); err != nil {
		return nil, err
	}
	action := "carPasswordSet"
	if in.Resend {
		action = "carPasswordResend"
	}
	s.record(r, action, car, audit.Text("oplog.carPassword", audit.Key("carPassword.state."+row.reasonKey())))
	if sendErr != nil {
		return nil, sendErr
	}
	l := httpx.Lang(r)
	v := viewOf(l, row)
	v.CarID, v.Plate, v.GroupID = car.ID, car.Plate, car.GroupID
	return &SetResult{CarView: *v, Generated: generated, Message: i18n.T(l, "carPassword.sync."+row.reasonKey(), car.Plate)}, nil
}

// send delivers row's password as 0xE5 and sets its sync state from the terminal's answer. The error
// is only for a failure outside the terminal (the gateway or the store); a terminal that is offline,
// silent or refusing is a sync state, not an error: the password is stored and can be resent.
func (s *Service) send(r *http.Request, row *password) error {
	if s.commands == nil || s.sender == nil {
		row.SyncState, row.SyncReason = SyncPending, ReasonOffline
		return nil
	}
	v, err := s.commands.Deliver(r, s.sender, telemetry.PasswordCommand(row.CarID, row.Password))
	var he *httpx.Error
	switch {
	case err != nil && errors.As(err, &he) && he.Key == "command.noTerminal":
		row.SyncState, row.SyncReason = SyncPending, ReasonNoTerminal
		return nil
	case err != nil:
		row.SyncState, row.SyncReason = SyncFailed, ReasonError
		return err
	}
	row.CommandID = v.ID
	switch v.Status {
	case telemetry.CommandOK:
		row.SyncState, row.SyncReason, row.SyncedAt = SyncOK, "", s.Now().UnixMilli()
	case telemetry.CommandOffline:
		row.SyncState, row.SyncReason = SyncPending, ReasonOffline
	case telemetry.CommandTimeout:
		row.SyncState, row.SyncReason = SyncFailed, ReasonTimeout
	default:
		row.SyncState, row.SyncReason = SyncFailed, ReasonRefused
	}
	return nil
}

// saveSync stores the outcome, unless someone set another password meanwhile: then that set's outcome
// is the one that counts (the terminal may have received the two in either order, and that set's
// answer comes last for its own password).
func (s *Service) saveSync(ctx context.Context, row *password) error {
	_, err := s.db.NewUpdate().Model((*password)(nil)).Set("sync_state = ?", row.SyncState).Set("sync_reason = ?", row.SyncReason).
		Set("command_id = ?", row.CommandID).Set("synced_at = ?", row.SyncedAt).
		Where("car_id = ? AND password = ? AND set_at = ?", row.CarID, row.Password, row.SetAt).Exec(ctx)
	return err
}

// reasonKey is the catalogue suffix of the row's state: "ok" or its reason.
func (row *password) reasonKey() string {
	if row.SyncState == SyncOK {
		return "ok"
	}
	return row.SyncReason
}
