package alarm

import (
	"context"
	"strings"

	"tankwatch/internal/platform/httpx"
	"tankwatch/internal/platform/i18n"
	"tankwatch/internal/platform/plate"
	"tankwatch/internal/telemetry"
)

// LockCommandSource pages the lock / unlock commands of cars (telemetry.Commands).
type LockCommandSource interface {
	LockCommands(ctx context.Context, carIDs []int64, from, to int64, q httpx.PageReq) ([]telemetry.LockCommandView, int, error)
}

// LockCommandRow is one row of the password record: a lock or unlock command sent to a vehicle.
type LockCommandRow struct {
	telemetry.LockCommandView
	Plate string `json:"carNumber"`
}

// PasswordRecords is POST /alarm-app/passwordRecord/page: the lock and unlock commands the platform
// sent to the vehicles of the scope (who, when, which car and compartments, the result).
func (s *Service) PasswordRecords(ctx context.Context, p *httpx.Principal, q Query) (httpx.Page[LockCommandRow], error) {
	if err := q.PageReq.Normalize(); err != nil {
		return httpx.Page[LockCommandRow]{}, err
	}
	if s.Locks == nil {
		return httpx.Page[LockCommandRow]{}, httpx.Biz("alarm.noCommands")
	}
	q.Types, q.Levels, q.States = nil, nil, nil
	if _, err := s.where(ctx, p, &q, true); err != nil {
		return httpx.Page[LockCommandRow]{}, err
	}
	path, err := s.fleet.LiveGroupPath(ctx, p, q.GroupID)
	if err != nil {
		return httpx.Page[LockCommandRow]{}, err
	}
	cars, err := s.fleet.LiveCars(ctx)
	if err != nil {
		return httpx.Page[LockCommandRow]{}, err
	}
	plates := map[int64]string{}
	var ids []int64
	plateQ := plate.Key(q.Plate)
	for _, c := range cars {
		if !strings.HasPrefix(c.GroupPath, path) || (q.CarID > 0 && c.ID != q.CarID) || (plateQ != "" && !strings.Contains(c.PlateKey, plateQ)) {
			continue
		}
		ids = append(ids, c.ID)
		plates[c.ID] = c.Plate
	}
	rows, total, err := s.Locks.LockCommands(ctx, ids, int64(q.StartTime), q.EndTime.Through(), q.PageReq)
	if err != nil {
		return httpx.Page[LockCommandRow]{}, err
	}
	out := make([]LockCommandRow, len(rows))
	for i, r := range rows {
		out[i] = LockCommandRow{LockCommandView: r, Plate: plates[r.CarID]}
	}
	return httpx.NewPage(out, int64(total), q.PageReq), nil
}

// LockOpenings is POST /alarm-app/lockRecord/page (blueLockLocalRecord): locks opened at the vehicle
// that no platform unlock explains — the lockOpened alarm records.
func (s *Service) LockOpenings(ctx context.Context, p *httpx.Principal, l i18n.Lang, q Query) (httpx.Page[View], error) {
	q.Types, q.Levels, q.States = []string{CodeLockOpened}, nil, nil
	return s.FindSome(ctx, p, l, q)
}
