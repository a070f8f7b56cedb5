package aftersales

import (
	"context"
	"time"

	"github.com/uptrace/bun"
)

// Faults raised by the system (D82): a car silent for longer than the platform setting's hours, and a
// car's sensor-fault event. A system fault has created_by 0 and no reporter (the page shows 系统 /
// System); its symptom is left empty and written in the reader's language from its source. At most
// one fault per car and source kind is open at a time: while one is (whoever raised it), none is
// raised; and the same source (the same silence, the same event) never raises a second.

// Auto is the automatic raising in force (the platform settings, system.Values).
type Auto struct {
	SilentHours int  // raise a fault for a car silent for more than this many hours; 0: off
	Sensor      bool // raise a fault for a sensor-fault event
}

// Silence is a car's current silence: the received time of its last report (Unix ms).
type Silence struct {
	CarID int64
	Since int64
}

// SensorLookback bounds the sensor-fault events a pass looks at: older ones (from before the setting
// was turned on, or before a long stop) are history, not a fault to raise now.
const SensorLookback = 24 * time.Hour

// Fault types of the system-raised faults.
const (
	autoTypeOffline = "terminal"
	autoTypeSensor  = "probe"
)

// RaiseAuto raises the faults due at now: one for each car of silent that has been silent for more
// than a.SilentHours, and one for each car's newest sensor-fault event of the last SensorLookback when
// a.Sensor. It returns how many it raised.
func (s *Service) RaiseAuto(ctx context.Context, a Auto, silent []Silence) (int, error) {
	now := s.nowMS()
	n := 0
	if a.SilentHours > 0 {
		before := now - int64(a.SilentHours)*3600_000
		due, err := s.notYetRaised(ctx, silent, before)
		if err != nil {
			return n, err
		}
		for _, c := range due {
			ok, err := s.raise(ctx, c.CarID, SourceOffline, c.CarID, c.Since, now)
			if err != nil {
				return n, err
			}
			n += b2i(ok)
		}
	}
	if a.Sensor {
		var evs []struct {
			ID    int64 `bun:"id"`
			CarID int64 `bun:"car_id"`
		}
		// the newest sensor-fault event of each car in the look-back window
		if err := s.db.NewSelect().TableExpr("car_tank_events AS e").ColumnExpr("e.id, e.car_id").
			Where("e.start_at >= ?", now-SensorLookback.Milliseconds()).Where("e.kind IN (?)", bun.In(SensorFaultKinds)).
			Where("NOT EXISTS (SELECT 1 FROM car_tank_events AS n WHERE n.car_id = e.car_id AND n.kind IN (?) AND n.start_at >= ? AND n.id > e.id)",
				bun.In(SensorFaultKinds), now-SensorLookback.Milliseconds()).
			OrderExpr("e.id").Scan(ctx, &evs); err != nil {
			return n, err
		}
		for _, ev := range evs {
			ok, err := s.raise(ctx, ev.CarID, SourceTankEvent, ev.ID, 0, now)
			if err != nil {
				return n, err
			}
			n += b2i(ok)
		}
	}
	return n, nil
}

// notYetRaised is the silences of silent longer than before whose car has no open offline fault and
// no fault of that same silence: a silence of days is then one indexed read a pass, not a transaction
// per car (raise checks again in its transaction, for a fault filed in between).
func (s *Service) notYetRaised(ctx context.Context, silent []Silence, before int64) ([]Silence, error) {
	var due []Silence
	for _, c := range silent {
		if c.Since > 0 && c.Since < before {
			due = append(due, c)
		}
	}
	type key struct{ car, at int64 }
	raised := map[key]bool{}
	for start := 0; start < len(due); start += 500 {
		ids := make([]int64, 0, 500)
		for _, c := range due[start:min(start+500, len(due))] {
			ids = append(ids, c.CarID)
		}
		var rows []struct {
			CarID    int64  `bun:"car_id"`
			SourceAt int64  `bun:"source_at"`
			State    string `bun:"state"`
		}
		if err := s.db.NewSelect().Model((*Fault)(nil)).Column("f.car_id", "f.source_at", "f.state").
			Where("f.source_kind = ? AND f.car_id IN (?)", SourceOffline, bun.In(ids)).Scan(ctx, &rows); err != nil {
			return nil, err
		}
		for _, r := range rows {
			raised[key{r.CarID, r.SourceAt}] = true
			if r.State != StateClosed {
				raised[key{r.CarID, -1}] = true // an open one: none while it is
			}
		}
	}
	out := due[:0]
	for _, c := range due {
		if !raised[key{c.CarID, c.Since}] && !raised[key{c.CarID, -1}] {
			out = append(out, c)
		}
	}
	return out, nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// raise files a system fault of car from the source unless one of the car's faults of that source kind
// is still open or the same source raised one already (reports whether it filed one).
func (s *Service) raise(ctx context.Context, carID int64, kind string, sourceID, sourceAt, now int64) (bool, error) {
	raised := false
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var groupID int64
		if err := tx.NewSelect().Table("cars").Column("group_id").Where("id = ?", carID).Scan(ctx, &groupID); err != nil {
			return nil //nolint:nilerr // a car deleted meanwhile has nothing to raise
		}
		same := tx.NewSelect().Model((*Fault)(nil)).Where("f.car_id = ? AND f.source_kind = ?", carID, kind).
			WhereGroup(" AND ", func(q *bun.SelectQuery) *bun.SelectQuery {
				return q.Where("f.state <> ?", StateClosed).WhereOr("f.source_id = ? AND f.source_at = ?", sourceID, sourceAt)
			})
		if found, err := same.Exists(ctx); err != nil || found {
			return err
		}
		ftype := autoTypeOffline
		if kind == SourceTankEvent {
			ftype = autoTypeSensor
		}
		f := &Fault{GroupID: groupID, CarID: carID, FaultType: ftype, ReportedAt: now, State: StateOpen, Visits: "[]", Parts: "[]",
			SourceKind: kind, SourceID: sourceID, SourceAt: sourceAt, CreatedAt: now, UpdatedAt: now}
		if _, err := tx.NewInsert().Model(f).Exec(ctx); err != nil {
			return err
		}
		raised = true
		return nil
	})
	return raised, err
}
