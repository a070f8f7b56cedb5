package telemetry

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/uptrace/bun/dialect/pgdialect"

	"tankwatch/internal/platform/db"
	"tankwatch/internal/tank"
)

// The newest row per car is found by one index seek per car on the primary key (car_id, t,
// terminal_id), driven by the registry's car ids: the cost grows with the number of cars, not with
// the length of the history (a GROUP BY or DISTINCT ON would read every stored row).
const (
	livePositionCols = "p.car_id, p.t, p.terminal_id, p.received_at, p.lat, p.lon, p.speed, p.direction, p.alarm, p.status, p.mileage"
	liveTankCols     = "p.car_id, p.t, p.terminal_id, p.lock_state, p.seal, p.levels"

	// Arguments: columns, table, condition, order (DESC for the newest row, ASC for the oldest).
	livePGNewest = "SELECT %s FROM unnest(?::bigint[]) AS c(id) CROSS JOIN LATERAL (SELECT * FROM %s AS q " +
		"WHERE q.car_id = c.id%s ORDER BY q.t %[4]s, q.terminal_id %[4]s LIMIT 1) AS p"
	// SQLite has no LATERAL: the correlated subquery walks the index backwards from the newest row;
	// rows of several terminals at that time are told apart in Go.
	liveSQLiteNewest = "SELECT %s FROM json_each(?) AS c JOIN %s AS p ON p.car_id = c.value AND p.t = " +
		"(SELECT q.t FROM %[2]s AS q WHERE q.car_id = c.value%s ORDER BY q.t %s LIMIT 1)"
)

type livePositionRow struct {
	CarID      int64  `bun:"car_id"`
	T          int64  `bun:"t"`
	TerminalID int64  `bun:"terminal_id"`
	ReceivedAt int64  `bun:"received_at"`
	Lat        int64  `bun:"lat"`
	Lon        int64  `bun:"lon"`
	Speed      int64  `bun:"speed"`
	Direction  int64  `bun:"direction"`
	Alarm      int64  `bun:"alarm"`
	Status     int64  `bun:"status"`
	Mileage    *int64 `bun:"mileage"`
}

func liveTankCar(r *liveTankRow) int64 { return r.CarID }

type liveTankRow struct {
	CarID      int64  `bun:"car_id"`
	T          int64  `bun:"t"`
	TerminalID int64  `bun:"terminal_id"`
	LockState  string `bun:"lock_state"`
	Seal       int64  `bun:"seal"`
	Levels     string `bun:"levels"`
}

// liveRecent is how far back the first pass of liveNewest looks on PostgreSQL. Its history is
// partitioned by day (D9B) and a seek with no time bound visits every day's index; most cars have
// reported within two days, so they are found in the newest partitions (and the default one), and
// only the others are sought through all of them.
const liveRecent = 2 * 24 * time.Hour

// liveNewest returns the newest row per car of table (optionally among rows matching cond, written
// with the alias q); carOf names a row's car.
func liveNewest[T any](ctx context.Context, l *Live, ids []int64, cols, table, cond string, carOf func(*T) int64) ([]T, error) {
	var rows []T
	if !l.d.IsPostgres() || len(ids) == 0 {
		err := seekEach(ctx, l.d, ids, cols, table, cond, true, &rows)
		return rows, err
	}
	recent := fmt.Sprintf("q.t >= %d", l.now().Add(-liveRecent).UnixMilli())
	if cond != "" {
		recent = cond + " AND " + recent
	}
	if err := seekEach(ctx, l.d, ids, cols, table, recent, true, &rows); err != nil {
		return nil, err
	}
	found := make(map[int64]bool, len(rows))
	for i := range rows {
		found[carOf(&rows[i])] = true
	}
	var rest []int64
	for _, id := range ids {
		if !found[id] {
			rest = append(rest, id)
		}
	}
	var older []T
	if err := seekEach(ctx, l.d, rest, cols, table, cond, true, &older); err != nil {
		return nil, err
	}
	return append(rows, older...), nil
}

// seekEach scans the newest (or, newest false, the oldest) row per car of table among rows matching
// cond (alias q; "" = all) into dst: one index seek per car in one statement.
func seekEach(ctx context.Context, d *db.DB, ids []int64, cols, table, cond string, newest bool, dst any) error {
	if len(ids) == 0 {
		return nil
	}
	if cond != "" {
		cond = " AND " + cond
	}
	order := "ASC"
	if newest {
		order = "DESC"
	}
	arg, err := idListArg(d, ids)
	if err != nil {
		return err
	}
	tmpl := liveSQLiteNewest
	if d.IsPostgres() {
		tmpl = livePGNewest
	}
	return d.NewRaw(fmt.Sprintf(tmpl, cols, table, cond, order), arg).Scan(ctx, dst)
}

// idListArg is ids as one query parameter: a bigint[] for PostgreSQL, a JSON array for SQLite's
// json_each.
func idListArg(d *db.DB, ids []int64) (any, error) {
	if d.IsPostgres() {
		return pgdialect.Array(ids), nil
	}
	list, err := json.Marshal(ids)
	return string(list), err
}

// Load reads the car registry and the newest position and tank data of every car from the store.
// Reports applied while it runs are kept when they are newer.
func (l *Live) Load(ctx context.Context) error {
	l.reloadMu.Lock()
	defer l.reloadMu.Unlock()
	cars, err := l.f.LiveCars(ctx)
	if err != nil {
		return fmt.Errorf("live state: cars: %w", err)
	}
	ids := make([]int64, len(cars))
	for i := range cars {
		ids[i] = cars[i].ID
	}
	stored := make(map[int64]*liveEntry, len(cars))
	entry := func(id int64) *liveEntry {
		e := stored[id]
		if e == nil {
			e = &liveEntry{}
			stored[id] = e
		}
		return e
	}

	pos, err := liveNewest(ctx, l, ids, livePositionCols, "positions", "", func(r *livePositionRow) int64 { return r.CarID })
	if err != nil {
		return fmt.Errorf("live state: positions: %w", err)
	}
	for _, r := range pos {
		e := entry(r.CarID)
		if e.hasPos && !liveNewer(r.T, r.TerminalID, e.pos.t, e.pos.terminal) {
			continue
		}
		e.pos = livePos{t: r.T, terminal: r.TerminalID, received: r.ReceivedAt, lat: int32(r.Lat), lon: int32(r.Lon),
			speed: uint16(r.Speed), direction: uint16(r.Direction), alarm: uint32(r.Alarm), status: uint32(r.Status)}
		if r.Mileage != nil {
			e.pos.mileage, e.pos.hasMileage = uint32(*r.Mileage), true
		}
		e.hasPos = true
	}

	// Lock state and levels are kept apart: a report carrying only one of them (or only a help
	// request) does not erase the other.
	locks, err := liveNewest(ctx, l, ids, liveTankCols, "tank_states", "q.lock_state <> ''", liveTankCar)
	if err != nil {
		return fmt.Errorf("live state: tank states: %w", err)
	}
	for _, r := range locks {
		if r.LockState == "" {
			continue // another terminal's row at the same time (SQLite join)
		}
		if _, ok := tank.ParseLockString(r.LockState, tank.MaxCompartments); !ok {
			l.log.Warn("live state: stored lock state is not a lock-state string", "car", r.CarID, "t", r.T)
			continue
		}
		e := entry(r.CarID)
		if e.hasLock && !liveNewer(r.T, r.TerminalID, e.lock.t, e.lock.terminal) {
			continue
		}
		e.lock = liveLock{t: r.T, terminal: r.TerminalID, text: r.LockState, seal: tank.Seal(r.Seal), fault: liveLockFault(r.LockState)}
		e.hasLock = true
	}

	levels, err := liveNewest(ctx, l, ids, liveTankCols, "tank_states", "q.levels <> ''", liveTankCar)
	if err != nil {
		return fmt.Errorf("live state: levels: %w", err)
	}
	for _, r := range levels {
		if r.Levels == "" {
			continue
		}
		lv, err := liveParseLevels(r.Levels)
		if err != nil {
			l.log.Warn("live state: stored levels not readable", "car", r.CarID, "t", r.T, "err", err)
			continue
		}
		e := entry(r.CarID)
		if e.hasLevels && !liveNewer(r.T, r.TerminalID, e.levels.t, e.levels.terminal) {
			continue
		}
		e.levels, e.hasLevels = liveLevels{t: r.T, terminal: r.TerminalID, levels: lv}, true
	}
	l.mu.RLock()
	conv := l.conv
	l.mu.RUnlock()
	if conv != nil {
		// The newest levels made volumes again through the catalogue (the same conversion the writer
		// applied; a table changed since converts with the new one).
		for id, e := range stored {
			if e.hasLevels {
				e.levels.readings = conv.Convert(id, &e.levels.levels)
			}
		}
	}

	l.install(cars, stored)
	return nil
}
