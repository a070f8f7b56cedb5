package equipment

import (
	"context"

	"github.com/uptrace/bun"

	"tankwatch/internal/platform/httpx"
)

// CarFunctions is what car id's devices offer (D63): the models of its terminal, cameras, probes and
// locks that are not retired, and the locks bound to it.
func (s *Service) CarFunctions(ctx context.Context, p *httpx.Principal, carID int64) (*Functions, error) {
	if carID <= 0 {
		return nil, httpx.Required("carId")
	}
	if _, err := placePath(ctx, s.db, p, "cars", carID); err != nil {
		return nil, err
	}
	// every device on the car counts, whichever group registered it: the car is the caller's
	var rows []row
	err := listSel(s.db, "/").Where("u.car_id = ?", carID).Where("COALESCE(e.state, u.src_state) <> ?", StateRetired).
		OrderExpr("u.kind, u.serial").Scan(ctx, &rows)
	if err != nil {
		return nil, err
	}
	locks, ids := 0, []int64{}
	for _, r := range rows {
		if r.Kind == KindLock {
			locks++
		}
		if r.ModelID != nil {
			ids = append(ids, *r.ModelID)
		}
	}
	byID := map[int64]Model{}
	if len(ids) > 0 {
		var ms []Model
		if err := s.db.NewSelect().Model(&ms).Where("m.id IN (?)", bun.In(ids)).Scan(ctx); err != nil {
			return nil, err
		}
		for _, m := range ms {
			m.fill()
			byID[m.ID] = m
		}
	}
	models := make([]Model, 0, len(ids))
	for _, id := range ids { // one per device: two cameras of a model bring two sets of channels
		models = append(models, byID[id])
	}
	f := Decide(carID, models, locks)
	return &f, nil
}
