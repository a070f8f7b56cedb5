package telemetry

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"tankwatch/internal/tank"
)

// ReadBack rebuilds a car's committed reports with a row time in (after, until] from the store, in
// time order, at most limit of them: how an engine that fell behind catches up (DESIGN §2) instead of
// dropping what its queue could not hold. A report is its positions row and its tank_states row of
// the same time merged; the tank state is read for the car's compartments (1 … MaxCompartments).
// What the store does not keep is not rebuilt: the probes' Readings (level_readings; engines convert
// Levels themselves), the help request's id and the lock events. more is true when the store holds
// more reports in the span than were returned; the next call starts after the last one returned.
func ReadBack(ctx context.Context, idb bun.IDB, carID int64, compartments int, after, until int64, limit int) (out []Report, more bool, err error) {
	if limit <= 0 {
		limit = 1000
	}
	var pos []histPosition
	if err := idb.NewSelect().TableExpr("positions").Column(histPositionCols...).
		Where("car_id = ? AND t > ? AND t <= ?", carID, after, until).OrderExpr("t").Limit(int64(limit)).Scan(ctx, &pos); err != nil {
		return nil, false, err
	}
	var states []struct {
		T          int64  `bun:"t"`
		TerminalID int64  `bun:"terminal_id"`
		LockState  string `bun:"lock_state"`
		Seal       int    `bun:"seal"`
		Levels     string `bun:"levels"`
	}
	if err := idb.NewSelect().TableExpr("tank_states").Column("t", "terminal_id", "lock_state", "seal", "levels").
		Where("car_id = ? AND t > ? AND t <= ?", carID, after, until).OrderExpr("t").Limit(int64(limit)).Scan(ctx, &states); err != nil {
		return nil, false, err
	}
	// both lists are complete up to the older of their last rows when either was cut
	if len(pos) == limit {
		until, more = pos[len(pos)-1].T, true
	}
	if len(states) == limit {
		until, more = min(until, states[len(states)-1].T), true
	}
	byT := map[int64]*Report{}
	get := func(t, terminal int64) *Report {
		r := byT[t]
		if r == nil {
			r = &Report{CarID: carID, TerminalID: terminal, Time: time.UnixMilli(t), Received: time.UnixMilli(t), TankOnly: true}
			byT[t] = r
		}
		return r
	}
	for _, p := range pos {
		if p.T > until {
			break
		}
		r := get(p.T, p.TerminalID)
		r.TankOnly, r.Received, r.Blind = false, time.UnixMilli(p.ReceivedAt), p.Blind != 0
		r.Lat, r.Lon, r.Altitude, r.Speed, r.Direction = int32(p.Lat), int32(p.Lon), uint16(p.Altitude), uint16(p.Speed), uint16(p.Direction)
		r.Alarm, r.Status, r.Signal, r.Satellites = uint32(p.Alarm), uint32(p.Status), byte(p.Signal), byte(p.Satellites)
		if p.Mileage != nil {
			r.Mileage, r.HasMileage = uint32(*p.Mileage), true
		}
		if p.Fuel != nil {
			r.Fuel, r.HasFuel = uint16(*p.Fuel), true
		}
	}
	n := min(max(compartments, 1), tank.MaxCompartments)
	for _, s := range states {
		if s.T > until {
			break
		}
		r := get(s.T, s.TerminalID)
		if st, ok := tank.ParseLockString(s.LockState, n); ok {
			st.Seal = tank.Seal(s.Seal)
			r.Tank = &st
		}
		r.Levels = ParseLevels(s.Levels)
	}
	out = make([]Report, 0, len(byT))
	for _, r := range byT {
		out = append(out, *r)
	}
	slices.SortFunc(out, func(a, b Report) int { return a.Time.Compare(b.Time) })
	return out, more, nil
}

// ParseLevels reads tank_states.levels (LevelsText's "compartment:mm:litres:0.1°C;…"); nil when there
// are none.
func ParseLevels(s string) *tank.Levels {
	if s == "" {
		return nil
	}
	l := &tank.Levels{}
	for part := range strings.SplitSeq(s, ";") {
		f := strings.Split(part, ":")
		if len(f) != 4 || l.N >= tank.MaxCompartments {
			continue
		}
		c, e1 := strconv.ParseUint(f[0], 10, 8)
		mm, e2 := strconv.ParseUint(f[1], 10, 16)
		vol, e3 := strconv.ParseUint(f[2], 10, 32)
		temp, e4 := strconv.ParseInt(f[3], 10, 16)
		if e1 != nil || e2 != nil || e3 != nil || e4 != nil {
			continue
		}
		l.Probes[l.N] = tank.Level{Compartment: uint8(c), LevelMM: uint16(mm), VolumeL: uint32(vol), TempDeci: int16(temp)}
		l.N++
	}
	if l.N == 0 {
		return nil
	}
	return l
}
