package registry

import (
	"context"

	"github.com/uptrace/bun"

	"tankwatch/internal/lock"
)

// CarsDeleted runs in the transaction that deletes cars (fleet.Service.OnCarsDeleted): their locks go
// back to stock with an unbinding in their history (the lock outlives the car), and their blacklist
// entries go with them (the car they bar is gone).
func CarsDeleted(ctx context.Context, tx bun.Tx, ids []int64, userID, now int64) error {
	var bound []Lock
	if err := tx.NewSelect().Model(&bound).Where("car_id IN (?)", bun.In(ids)).Scan(ctx); err != nil {
		return err
	}
	for _, l := range bound {
		b := &BindRow{LockID: l.ID, GroupID: l.GroupID, CarID: *l.CarID, Compartment: l.Compartment, Device: l.Device,
			Action: lock.BindUnbound, UserID: userID, Reason: "车辆已删除", T: now}
		if _, err := tx.NewInsert().Model(b).Exec(ctx); err != nil {
			return err
		}
	}
	if _, err := tx.NewUpdate().Model((*Lock)(nil)).Set("car_id = NULL, compartment = 0, device = 0, state = ?, updated_at = ?", lock.StateInStock, now).
		Where("car_id IN (?)", bun.In(ids)).Exec(ctx); err != nil {
		return err
	}
	_, err := tx.NewDelete().TableExpr("car_blacklist").Where("car_id IN (?)", bun.In(ids)).Exec(ctx)
	return err
}
