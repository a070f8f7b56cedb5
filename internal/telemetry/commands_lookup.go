package telemetry

import (
	"context"
	"time"
)

// SucceededSince reports whether a command of kind to the car was carried out (status ok) at or after
// since: the alarm engine tells an authorised unlock from a lock opened at the vehicle this way.
func (c *Commands) SucceededSince(ctx context.Context, carID int64, kind string, since time.Time) (bool, error) {
	n, err := c.db.NewSelect().Model((*histCommand)(nil)).Where("cmd.car_id = ?", carID).Where("cmd.kind = ?", kind).
		Where("cmd.status = ?", CommandOK).Where("cmd.created_at >= ?", since.UnixMilli()).Limit(1).Count(ctx)
	return n > 0, err
}
