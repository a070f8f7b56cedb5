package telemetry

import (
	"context"
	"time"

	"github.com/uptrace/bun"

	"tankwatch/internal/platform/httpx"
)

// SucceededSince reports whether a command of kind to the car was carried out (status ok) at or after
// since: the alarm engine tells an authorised unlock from a lock opened at the vehicle this way.
func (c *Commands) SucceededSince(ctx context.Context, carID int64, kind string, since time.Time) (bool, error) {
	n, err := c.db.NewSelect().Model((*histCommand)(nil)).Where("cmd.car_id = ?", carID).Where("cmd.kind = ?", kind).
		Where("cmd.status = ?", CommandOK).Where("cmd.created_at >= ?", since.UnixMilli()).Limit(1).Count(ctx)
	return n > 0, err
}

// LockCommandView is a lock or unlock command with the name of the user who sent it.
type LockCommandView struct {
	CommandView
	UserName string `json:"userName"`
}

// LockCommands pages the lock and unlock commands sent to the cars in carIDs (the caller's scope,
// resolved by the caller) created in [from, to], newest first.
func (c *Commands) LockCommands(ctx context.Context, carIDs []int64, from, to int64, q httpx.PageReq) ([]LockCommandView, int, error) {
	if len(carIDs) == 0 {
		return []LockCommandView{}, 0, nil
	}
	arg, err := idListArg(c.db, carIDs)
	if err != nil {
		return nil, 0, err
	}
	cond := "cmd.car_id IN (SELECT value FROM json_each(?))"
	if c.db.IsPostgres() {
		cond = "cmd.car_id = ANY(?::bigint[])"
	}
	var rows []struct {
		histCommand
		UserName string `bun:"user_name"`
	}
	sel := c.db.NewSelect().TableExpr("commands AS cmd").ColumnExpr("cmd.*").
		// the operator's name as it is now (users are never hard-deleted while referenced by the log)
		ColumnExpr("COALESCE(u.name, '') AS user_name").Join("LEFT JOIN users AS u ON u.id = cmd.user_id").
		Where(cond, arg).Where("cmd.kind IN (?)", bun.In([]string{KindLock, KindUnlock})).
		Where("cmd.created_at >= ? AND cmd.created_at <= ?", from, to)
	total, err := sel.Count(ctx)
	if err != nil {
		return nil, 0, err
	}
	if err := sel.OrderExpr("cmd.created_at DESC, cmd.id DESC").Offset(q.Offset()).Limit(q.Limit()).Scan(ctx, &rows); err != nil {
		return nil, 0, err
	}
	out := make([]LockCommandView, len(rows))
	for i, r := range rows {
		v := LockCommandView{CommandView: CommandView{ID: r.ID, CarID: r.CarID, TerminalID: r.TerminalID, Phone: r.Phone, Kind: r.Kind,
			MsgID: histMsgHex(r.MsgID), Serial: int(r.Serial), Params: r.Params, UserID: r.UserID, Status: r.Status, Result: r.Result,
			Reply: r.Reply, CreatedAt: httpx.Time(r.CreatedAt)}, UserName: r.UserName}
		if r.DoneAt != nil {
			v.DoneAt = httpx.Time(*r.DoneAt)
		}
		out[i] = v
	}
	return out, int(total), nil
}
