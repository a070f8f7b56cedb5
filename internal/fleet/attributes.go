package fleet

import (
	"context"
	"net/http"
	"time"

	"tankwatch/internal/platform/httpx"
)

// The terminal's own attributes (0x8107 → 0x0107, D90): asked once a terminal authenticates when the
// stored answer is older than AttrsFresh, and at most once per AttrsRetry whatever the terminal does
// (a terminal that never answers, or reconnects in a loop, is not asked on every login).
const (
	AttrsFresh = 24 * time.Hour
	AttrsRetry = time.Hour
)

// SaveAttributes stores a terminal's 0x0107 answer received at at (a.At and a.AskedAt are not taken).
func (s *Service) SaveAttributes(ctx context.Context, terminalID int64, a TerminalAttrs, at time.Time) error {
	_, err := s.db.NewUpdate().TableExpr("terminals").
		Set("attr_type = ?, attr_maker = ?, attr_model = ?, attr_device = ?, attr_iccid = ?", a.Type, a.Maker, a.Model, a.Device, a.ICCID).
		Set("attr_hardware = ?, attr_firmware = ?, attr_gnss = ?, attr_comm = ?, attr_at = ?", a.Hardware, a.Firmware, a.GNSS, a.Comm, at.UnixMilli()).
		Where("id = ?", terminalID).Exec(ctx)
	return err
}

// ClaimAttributesAsk reports whether the terminal is due a 0x8107 at now (no answer within AttrsFresh,
// not asked within AttrsRetry) and, if so, marks it asked: one store update, so that two logins at once
// (or two nodes) ask once.
func (s *Service) ClaimAttributesAsk(ctx context.Context, terminalID int64, now time.Time) (bool, error) {
	ms := now.UnixMilli()
	res, err := s.db.NewUpdate().TableExpr("terminals").Set("attr_asked_at = ?", ms).
		Where("id = ? AND attr_at <= ? AND attr_asked_at <= ?", terminalID, ms-AttrsFresh.Milliseconds(), ms-AttrsRetry.Milliseconds()).Exec(ctx)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// QueryAttributes asks a terminal of the caller's scope for its attributes now (terminalVXE's
// 查询终端属性) and returns the terminal as stored after the answer. AskAttributes does the asking.
func (s *Service) QueryAttributes(r *http.Request, id int64) (*TerminalView, error) {
	ctx, p := r.Context(), httpx.Caller(r)
	if id <= 0 {
		return nil, httpx.Required("id")
	}
	if err := checkScope(ctx, s.db, p, "terminals", []int64{id}); err != nil {
		return nil, err
	}
	if s.AskAttributes == nil {
		return nil, httpx.Biz("terminal.attrsNoGateway")
	}
	if _, err := s.db.NewUpdate().TableExpr("terminals").Set("attr_asked_at = ?", s.nowMS()).Where("id = ?", id).Exec(ctx); err != nil {
		return nil, err
	}
	if err := s.AskAttributes(ctx, id, p.UserID); err != nil {
		return nil, err
	}
	return s.terminalView(ctx, id)
}
