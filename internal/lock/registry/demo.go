package registry

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"

	"tankwatch/internal/lock"
)

// demoDay is a day in Unix milliseconds.
const demoDay = int64(24 * 3600 * 1000)

// SeedDemo registers the demo fleet's locks once (nothing when any lock is registered): a manhole
// cover lock and a discharge valve lock on every compartment of every car (4G remote locks on even
// cars, BLE one-shot locks on odd ones), installed 120 days ago, with a few locks moved between cars
// 30 days ago and one sent back faulty 12 days ago (its place refitted), plus three spare locks in
// stock; and the blacklist: one active entry, one expired, one lifted. userID decides and binds.
func (s *Service) SeedDemo(ctx context.Context, userID int64) error {
	n, err := s.db.NewSelect().Model((*Lock)(nil)).Count(ctx)
	if err != nil || n > 0 {
		return err
	}
	var top int64
	if err := s.db.NewSelect().TableExpr("users").Column("group_id").Where("id = ?", userID).Scan(ctx, &top); err != nil {
		return err
	}
	var cars []carRef
	if err := carSel(s.db).OrderExpr("c.id").Scan(ctx, &cars); err != nil {
		return err
	}
	if len(cars) == 0 {
		return nil
	}
	now := s.nowMS()
	t0, tMove, tFault := now-120*demoDay, now-30*demoDay, now-12*demoDay
	var locks []*Lock
	var binds []*BindRow
	pos := map[*Lock]int64{}  // a lock's index in locks, its id until the locks are stored
	carIdx := map[int64]int{} // a car's demo vehicle index (the demo cars in the order they were made)
	for i, c := range cars {
		carIdx[c.ID] = i
	}
	serial := func(k lock.Kind, i int) string {
		if k == lock.Kind4G {
			return fmt.Sprintf("TW4G-2406-%06d", 100+i)
		}
		return fmt.Sprintf("TWBLE-2403-%06d", 500+i)
	}
	add := func(k lock.Kind, groupID int64, car *carRef, comp int, dev lock.Device, at int64) *Lock {
		i := len(locks)
		m := &Lock{GroupID: groupID, Serial: serial(k, i), Kind: k, BatteryPct: -1, State: lock.StateInStock, CreatedBy: userID, CreatedAt: at, UpdatedAt: at}
		if k == lock.Kind4G {
			m.Model, m.Firmware = "TW-EL400 4G", []string{"V2.3.1", "V2.4.0"}[i%2]
		} else {
			m.Model, m.Firmware = "TW-BL120", []string{"V1.8.2", "V1.9.0"}[i%2]
		}
		if car != nil {
			id := car.ID
			m.CarID, m.Compartment, m.Device, m.State, m.GroupID = &id, comp, dev, lock.StateBound, car.GroupID
			if dev == lock.DeviceCover {
				// the simulated trucks report their manhole-cover locks by sim.LockSerial (TWL + the demo
				// vehicle's number + compartment): the same serial here, so their events find this lock
				m.Serial = fmt.Sprintf("TWL%05d-%d", carIdx[car.ID]+1, comp)
			}
		}
		pos[m] = int64(len(locks))
		locks = append(locks, m)
		return m
	}
	bind := func(m *Lock, car *carRef, comp int, dev lock.Device, action int, reason string, at int64) {
		binds = append(binds, &BindRow{GroupID: car.GroupID, CarID: car.ID, Compartment: comp, Device: dev, Action: action,
			UserID: userID, Reason: reason, T: at, LockID: pos[m]})
	}
	// moves: the cover lock of compartment 1 of car j came 30 days ago from the discharge valve of
	// compartment 1 of car j-3 (the demo fleet's cars take turns between the companies: the same
	// company's), which got a new lock that day
	moved := map[int]bool{}
	for j := 4; j < len(cars) && len(moved) < 4; j += 7 {
		moved[j] = true
	}
	faultyCar := min(5, len(cars)-1)
	for ci := range cars {
		c := &cars[ci]
		k := lock.Kind4G
		if ci%2 == 1 {
			k = lock.KindBLE
		}
		comps := min(max(c.Compartments, 1), MaxCompartment)
		for comp := 1; comp <= comps; comp++ {
			for _, dev := range []lock.Device{lock.DeviceCover, lock.DeviceDischargeValve} {
				at := t0 + int64(ci)*60_000
				switch {
				case moved[ci] && comp == 1 && dev == lock.DeviceCover:
					prev := &cars[ci-3]
					m := add(k, c.GroupID, c, comp, dev, at)
					m.UpdatedAt = tMove
					bind(m, prev, 1, lock.DeviceDischargeValve, lock.BindBound, "", at)
					bind(m, prev, 1, lock.DeviceDischargeValve, lock.BindUnbound, "移装到 "+c.Plate, tMove)
					bind(m, c, comp, dev, lock.BindBound, "从 "+prev.Plate+" 移装", tMove)
					continue
				case moved[ci+3] && comp == 1 && dev == lock.DeviceDischargeValve:
					at = tMove // its first lock moved away that day
				case ci == faultyCar && comp == 1 && dev == lock.DeviceDischargeValve:
					f := add(k, top, nil, 0, 0, t0)
					f.State, f.UpdatedAt = lock.StateFaulty, tFault
					f.Remark = "锁体进水，返厂检测"
					bind(f, c, comp, dev, lock.BindBound, "", t0+int64(ci)*60_000)
					bind(f, c, comp, dev, lock.BindUnbound, "锁体进水损坏，返厂检测", tFault)
					at = tFault
				}
				m := add(k, c.GroupID, c, comp, dev, at)
				bind(m, c, comp, dev, lock.BindBound, "", at)
			}
		}
	}
	for i := 0; i < 3; i++ {
		add([]lock.Kind{lock.Kind4G, lock.KindBLE, lock.Kind4G}[i], top, nil, 0, 0, now-7*demoDay)
	}
	return s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		for i := 0; i < len(locks); i += 200 {
			batch := locks[i:min(i+200, len(locks))]
			if _, err := tx.NewInsert().Model(&batch).Exec(ctx); err != nil {
				return err
			}
		}
		var ids []struct {
			ID     int64  `bun:"id"`
			Serial string `bun:"serial"`
		}
		if err := tx.NewSelect().Model((*Lock)(nil)).Column("id", "serial").Scan(ctx, &ids); err != nil {
			return err
		}
		idOf := map[string]int64{}
		for _, r := range ids {
			idOf[r.Serial] = r.ID
		}
		for _, b := range binds {
			b.LockID = idOf[locks[b.LockID].Serial]
		}
		for i := 0; i < len(binds); i += 200 {
			batch := binds[i:min(i+200, len(binds))]
			if _, err := tx.NewInsert().Model(&batch).Exec(ctx); err != nil {
				return err
			}
		}
		return s.seedBlacklist(ctx, tx, cars, userID, now)
	})
}

// seedBlacklist: a car of the last company barred now for a month — the one whose plate sorts last
// there, late in the pickers' plate order and in the lists' company order, so that a script taking "the
// first free car" does not meet it (the demo planner gives it no waybill) —, an entry of another car
// that expired a month ago, and one lifted early.
func (s *Service) seedBlacklist(ctx context.Context, tx bun.IDB, cars []carRef, userID, now int64) error {
	barred := len(cars) - 1
	for i := range cars {
		if cars[i].GroupID == cars[len(cars)-1].GroupID && cars[i].Plate > cars[barred].Plate {
			barred = i
		}
	}
	var others []*carRef
	for i := len(cars) - 1; i >= 0 && len(others) < 2; i-- {
		if i != barred {
			others = append(others, &cars[i])
		}
	}
	entries := []*Entry{{CarID: cars[barred].ID, GroupID: cars[barred].GroupID, Reason: "到站前铅封破损未报备，停运整改", StartAt: now - 3*demoDay, EndAt: now + 27*demoDay}}
	if len(others) == 2 {
		entries = append(entries,
			&Entry{CarID: others[0].ID, GroupID: others[0].GroupID, Reason: "一周内超速报警 3 次，停运参加安全培训", StartAt: now - 60*demoDay, EndAt: now - 30*demoDay},
			&Entry{CarID: others[1].ID, GroupID: others[1].GroupID, Reason: "罐体年检过期", StartAt: now - 20*demoDay,
				LiftedAt: now - 10*demoDay, LiftedBy: userID, LiftReason: "年检已完成，复查合格"})
	}
	for _, e := range entries {
		e.DecidedBy, e.CreatedAt = userID, e.StartAt
		if _, err := tx.NewInsert().Model(e).Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}
