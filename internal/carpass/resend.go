package carpass

import (
	"context"
	"net/http"

	"tankwatch/internal/audit"
	"tankwatch/internal/platform/httpx"
)

// everywhere is the scope of the platform itself, for looking up the car of a terminal that just came
// online; nothing answers to it.
var everywhere = &httpx.Principal{GroupPath: "/"}

// waiting reports whether the row's password is still on its way to the terminal: pending (the terminal
// was offline, or no terminal was bound) or failed for want of an answer. A refused password is not
// retried, nor one being sent right now.
func (row *password) waiting() bool {
	return row.SyncState == SyncPending && row.SyncReason != ReasonSending ||
		row.SyncState == SyncFailed && row.SyncReason == ReasonTimeout
}

// ResendWaiting sends the car's stored password again when its terminal has just authenticated and
// the password is still waiting for it, so a dispatcher who set it while the vehicle was out of range
// need not watch for its return. The command and the operation log name the user who set the password;
// the log entry's action says it was sent automatically. Nothing happens for a car without a waiting
// password.
func (s *Service) ResendWaiting(ctx context.Context, carID int64) error {
	if carID <= 0 {
		return nil
	}
	row, err := s.load(ctx, carID)
	if err != nil || !row.waiting() {
		return nil // no password (or none waiting): nothing to send
	}
	car, err := s.fleet.ScopedCar(ctx, everywhere, carID)
	if err != nil {
		return err
	}
	actor := &httpx.Principal{UserID: row.SetBy, UserName: row.SetByName, GroupPath: car.GroupPath}
	r, err := http.NewRequestWithContext(httpx.WithPrincipal(ctx, actor), http.MethodPost, "/", nil)
	if err != nil {
		return err
	}
	sendErr := s.send(r, row)
	if err := s.saveSync(context.WithoutCancel(ctx), row); err != nil {
		return err
	}
	// the password went down (or was tried): its log entry is written even if the session that
	// triggered the resend has ended meanwhile, as saveSync is
	s.record(r.WithContext(context.WithoutCancel(r.Context())), "carPasswordAutoResend", car, audit.Text("oplog.carPassword", audit.Key("carPassword.state."+row.reasonKey())))
	return sendErr
}
