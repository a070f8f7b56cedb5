package telemetry

import (
	"cmp"
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"

	"tankwatch/internal/platform/db"
	"tankwatch/internal/tank"
	"tankwatch/internal/tank/trend/rollup"
)

// The history insert is the one hot path that bypasses bun: SQLite gets prepared multi-row INSERT OR
// IGNORE statements on the writer's own connection; PostgreSQL gets binary COPY (pgcopy.go).
// Both make a re-sent report (same primary key) a no-op.

var histPositionCols = []string{"car_id", "t", "terminal_id", "received_at", "lat", "lon", "altitude", "speed",
	"direction", "alarm", "status", "mileage", "fuel", "signal", "satellites", "blind"}

var histTankCols = []string{"car_id", "t", "terminal_id", "lock_state", "seal", "levels", "help"}

var histReadingCols = []string{"car_id", "t", "compartment", "level_mm", "probe_l", "temp_dc", "volume_l", "source", "v20_l", "mass_kg"}

var histFrameCols = []string{"terminal_id", "car_id", "phone", "received_at", "msg_id", "serial", "down", "data"}

// reportTime is the row time of a report: the device's, or when it arrived if the device sent none.
func reportTime(r *Report) int64 {
	if r.Time.IsZero() {
		return r.Received.UnixMilli()
	}
	return r.Time.UnixMilli()
}

func hasTank(r *Report) bool { return r.Tank != nil || r.Levels != nil || r.Help != nil }

// LevelsText encodes probe readings as "compartment:levelMM:volumeL:tempDeci;…" (tank_states.levels).
func LevelsText(l *tank.Levels) string {
	if l == nil {
		return ""
	}
	var b strings.Builder
	for i, p := range l.Probes[:min(l.N, tank.MaxCompartments)] {
		if i > 0 {
			b.WriteByte(';')
		}
		b.WriteString(strconv.Itoa(int(p.Compartment)))
		b.WriteByte(':')
		b.WriteString(strconv.Itoa(int(p.LevelMM)))
		b.WriteByte(':')
		b.WriteString(strconv.FormatUint(uint64(p.VolumeL), 10))
		b.WriteByte(':')
		b.WriteString(strconv.Itoa(int(p.TempDeci)))
	}
	return b.String()
}

func helpCode(h *tank.Help) int64 {
	if h == nil {
		return 0
	}
	return int64(h.Type)
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// histCommitter returns the commit function of the writer for d, and what releases its resources. With
// rollups, each commit also folds the positions and level readings it inserted into the trend slices
// (D99); without, only a store that still has the insert triggers of 00018 keeps them (the equality test).
func histCommitter(d *db.DB, rollups bool) (commit func(ctx context.Context, reports []Report, frames []Frame) error, release func()) {
	if d.IsPostgres() {
		var f *rollup.Fold
		if rollups {
			f = &rollup.Fold{}
		}
		return func(ctx context.Context, reports []Report, frames []Frame) error {
			return histCommitPG(ctx, d, reports, frames, f)
		}, func() {}
	}
	s := &sqliteWriter{d: d}
	if rollups {
		s.fold = &rollup.Fold{}
	}
	return s.commit, s.reset
}

// sqliteWriterCacheKiB is the page cache of the writer's connection: the leaf pages of the per-vehicle
// indexes that every batch touches stay in memory (without it each batch re-reads them).
const sqliteWriterCacheKiB = 16 << 10

// sqliteWriter commits history on a connection of its own: its statements stay prepared and its page
// cache warm, and the pool's other connections keep the small default cache. It talks to the driver
// directly (database/sql would re-prepare a connection's statements inside each transaction).
type sqliteWriter struct {
	d     *db.DB
	conn  *sql.Conn
	dc    any                    // the driver connection the statements belong to
	stmts map[string]driver.Stmt // by table and chunk size
	fold  *rollup.Fold           // nil: the store's triggers keep the trend rollups
}

func (s *sqliteWriter) open(ctx context.Context) error {
	if s.conn != nil {
		return nil
	}
	c, err := s.d.DB.DB.Conn(ctx)
	if err != nil {
		return err
	}
	if _, err := c.ExecContext(ctx, "PRAGMA cache_size = -"+strconv.Itoa(sqliteWriterCacheKiB)); err != nil {
		_ = c.Close()
		return err
	}
	s.conn = c
	return nil
}

// reset drops the connection and its statements; the next commit starts on a fresh one.
func (s *sqliteWriter) reset() {
	if s.conn == nil {
		return
	}
	_ = s.conn.Raw(func(any) error {
		for _, st := range s.stmts {
			_ = st.Close()
		}
		return driver.ErrBadConn // database/sql closes a connection given back with ErrBadConn
	})
	_ = s.conn.Close()
	s.conn, s.dc, s.stmts = nil, nil, nil
}

func (s *sqliteWriter) commit(ctx context.Context, reports []Report, frames []Frame) error {
	if err := s.open(ctx); err != nil {
		return err
	}
	pos, tanks, rd, fr := histSQLiteArgs(reports, frames)
	err := s.conn.Raw(func(dc any) error {
		if dc != s.dc {
			s.dc, s.stmts = dc, map[string]driver.Stmt{}
		}
		b, ok := dc.(driver.ConnBeginTx)
		if !ok {
			return fmt.Errorf("history writer: SQLite driver connection is %T", dc)
		}
		tx, err := b.BeginTx(ctx, driver.TxOptions{})
		if err != nil {
			return err
		}
		if err := s.insert(ctx, dc, pos, tanks, rd, fr); err != nil {
			_ = tx.Rollback()
			return err
		}
		if err := s.rollups(ctx, dc); err != nil {
			_ = tx.Rollback()
			return err
		}
		return tx.Commit()
	})
	if err != nil {
		s.reset()
	}
	return err
}

func (s *sqliteWriter) insert(ctx context.Context, dc any, pos, tanks, rd, fr []driver.Value) error {
	var addPos, addLevel func([]driver.Value)
	if s.fold != nil {
		s.fold.Reset() // what a failed attempt folded is gone with its transaction
		addPos, addLevel = s.foldPosition, s.foldLevel
	}
	if err := s.rows(ctx, dc, "positions", histPositionCols, pos, addPos); err != nil {
		return err
	}
	if err := s.rows(ctx, dc, "tank_states", histTankCols, tanks, nil); err != nil {
		return err
	}
	if err := s.rows(ctx, dc, "level_readings", histReadingCols, rd, addLevel); err != nil {
		return err
	}
	return s.rows(ctx, dc, "raw_frames", histFrameCols, fr, nil)
}

// foldPosition and foldLevel take an inserted row (its values as histSQLiteArgs made them) into the fold.
func (s *sqliteWriter) foldPosition(row []driver.Value) {
	s.fold.AddSpeed(row[0].(int64), row[1].(int64), row[7].(int64))
}

func (s *sqliteWriter) foldLevel(row []driver.Value) {
	s.fold.AddLevel(row[0].(int64), row[1].(int64), row[2].(int64), rollup.LevelValues{
		LevelMM: row[3].(int64), TempDC: row[5].(int64), VolumeL: row[6].(float64), V20L: row[8].(float64)})
}

// rollups upserts what the batch folded, a chunk of slices per statement.
func (s *sqliteWriter) rollups(ctx context.Context, dc any) error {
	if s.fold == nil {
		return nil
	}
	for _, t := range s.fold.Take() {
		per := len(t.Cols)
		for args := t.Args; len(args) > 0; {
			n := rollup.ChunkRows(len(args) / per)
			st, err := s.prepared(ctx, dc, t.Name+"/"+strconv.Itoa(n), func() string { return rollup.UpsertSQL(false, t.Name, n) })
			if err != nil {
				return err
			}
			vals := make([]driver.Value, n*per)
			for i, v := range args[:n*per] {
				vals[i] = v
			}
			if _, err := st.Exec(vals); err != nil { //nolint:staticcheck // modernc's statements implement only Exec
				return err
			}
			args = args[n*per:]
		}
	}
	return nil
}

// rows inserts rows (flattened values, len(cols) per row) in chunks of the prepared sizes. With
// inserted, it is called with each row the insert kept, in insertion order, and not with a re-sent row
// that INSERT OR IGNORE dropped (kept).
func (s *sqliteWriter) rows(ctx context.Context, dc any, table string, cols []string, args []driver.Value, inserted func([]driver.Value)) error {
	per := len(cols)
	for len(args) > 0 {
		n := rollup.ChunkRows(len(args) / per)
		chunk := args[:n*per]
		args = args[n*per:]
		if inserted != nil {
			if err := s.kept(ctx, dc, table, cols, chunk, inserted); err != nil {
				return err
			}
			continue
		}
		st, err := s.insertStmt(ctx, dc, table, cols, n)
		if err != nil {
			return err
		}
		if _, err := st.Exec(chunk); err != nil { //nolint:staticcheck // modernc's statements implement only Exec
			return err
		}
	}
	return nil
}

// kept inserts a chunk of one of the prepared sizes inside a savepoint and tells which rows it kept by
// the change count: all of them or none, done; some, the chunk is rolled back to the savepoint and
// inserted again as chunks of the next smaller size, down to single rows. Re-sent reports come in runs
// (a terminal re-sends its unacknowledged ones in order, and rows are in key order), so a saturated
// writer whose queue is half re-sends splits few chunks.
func (s *sqliteWriter) kept(ctx context.Context, dc any, table string, cols []string, chunk []driver.Value, inserted func([]driver.Value)) error {
	per := len(cols)
	n := len(chunk) / per
	st, err := s.insertStmt(ctx, dc, table, cols, n)
	if err != nil {
		return err
	}
	if err := s.exec(ctx, dc, "SAVEPOINT hist_rows"); err != nil {
		return err
	}
	res, err := st.Exec(chunk) //nolint:staticcheck // modernc's statements implement only Exec
	if err != nil {
		return err
	}
	k, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if k == int64(n) || k == 0 {
		for i := 0; k > 0 && i < len(chunk); i += per {
			inserted(chunk[i : i+per])
		}
		return s.exec(ctx, dc, "RELEASE hist_rows")
	}
	if err := s.exec(ctx, dc, "ROLLBACK TO hist_rows"); err != nil {
		return err
	}
	if err := s.exec(ctx, dc, "RELEASE hist_rows"); err != nil {
		return err
	}
	m := rollup.ChunkRows(n - 1) // the next smaller prepared size
	for i := 0; i < len(chunk); i += m * per {
		if err := s.kept(ctx, dc, table, cols, chunk[i:i+m*per], inserted); err != nil {
			return err
		}
	}
	return nil
}

// exec runs a statement without arguments (the savepoints), prepared once like the inserts.
func (s *sqliteWriter) exec(ctx context.Context, dc any, q string) error {
	st, err := s.prepared(ctx, dc, q, func() string { return q })
	if err != nil {
		return err
	}
	_, err = st.Exec(nil) //nolint:staticcheck // modernc's statements implement only Exec
	return err
}

func (s *sqliteWriter) insertStmt(ctx context.Context, dc any, table string, cols []string, rows int) (driver.Stmt, error) {
	return s.prepared(ctx, dc, table+"/"+strconv.Itoa(rows), func() string {
		one := "(" + strings.Repeat("?,", len(cols)-1) + "?)"
		return "INSERT OR IGNORE INTO " + table + " (" + strings.Join(cols, ", ") + ") VALUES " + strings.Repeat(one+",", rows-1) + one
	})
}

// prepared returns the statement under key on the writer's connection, preparing text() the first time.
func (s *sqliteWriter) prepared(ctx context.Context, dc any, key string, text func() string) (driver.Stmt, error) {
	if st, ok := s.stmts[key]; ok {
		return st, nil
	}
	p, ok := dc.(driver.ConnPrepareContext)
	if !ok {
		return nil, fmt.Errorf("history writer: SQLite driver connection is %T", dc)
	}
	st, err := p.PrepareContext(ctx, text())
	if err != nil {
		return nil, err
	}
	s.stmts[key] = st
	return st, nil
}

func nullable(ok bool, v int64) driver.Value {
	if !ok {
		return nil
	}
	return v
}

// histReadingRow is one level_readings row.
func histReadingRow(carID, t int64, g *tank.Reading) [10]any {
	return [10]any{carID, t, int64(g.Compartment), int64(g.LevelMM), int64(g.ProbeL), int64(g.TempDeci), g.VolumeL,
		int64(g.Source), g.V20L, g.MassKg}
}

// histKeyOrder returns the indexes of reports in the order of the history tables' primary key (car,
// time, terminal), equal keys in arrival order (a re-sent report stays behind the first, which INSERT
// OR IGNORE keeps). Rows inserted in key order land in neighbouring B-tree pages one after another,
// instead of a seek from the root to a random leaf per row: on SQLite the per-vehicle tables cost a
// third as much per row this way (docs/PERFORMANCE.md, D92).
func histKeyOrder(reports []Report) []int32 {
	idx := make([]int32, len(reports))
	for i := range idx {
		idx[i] = int32(i)
	}
	slices.SortStableFunc(idx, func(a, b int32) int {
		ra, rb := &reports[a], &reports[b]
		return cmp.Or(cmp.Compare(ra.CarID, rb.CarID), cmp.Compare(reportTime(ra), reportTime(rb)),
			cmp.Compare(ra.TerminalID, rb.TerminalID))
	})
	return idx
}

// histSQLiteArgs flattens a batch into the bound values of the four tables.
func histSQLiteArgs(reports []Report, frames []Frame) (pos, tanks, rd, fr []driver.Value) {
	pos = make([]driver.Value, 0, len(reports)*len(histPositionCols))
	for _, i := range histKeyOrder(reports) {
		r := &reports[i]
		t := reportTime(r)
		if !r.TankOnly {
			pos = append(pos, r.CarID, t, r.TerminalID, r.Received.UnixMilli(), int64(r.Lat), int64(r.Lon),
				int64(r.Altitude), int64(r.Speed), int64(r.Direction), int64(r.Alarm), int64(r.Status),
				nullable(r.HasMileage, int64(r.Mileage)), nullable(r.HasFuel, int64(r.Fuel)),
				int64(r.Signal), int64(r.Satellites), b2i(r.Blind))
		}
		if hasTank(r) {
			tanks = append(tanks, r.CarID, t, r.TerminalID, tank.LockString(r.Tank), histSeal(r.Tank),
				LevelsText(r.Levels), helpCode(r.Help))
		}
		for k := range r.Readings {
			row := histReadingRow(r.CarID, t, &r.Readings[k])
			for _, v := range row {
				rd = append(rd, v)
			}
		}
	}
	fr = make([]driver.Value, 0, len(frames)*len(histFrameCols))
	for i := range frames {
		f := &frames[i]
		fr = append(fr, f.TerminalID, f.CarID, f.Phone, f.At.UnixMilli(), int64(f.MsgID), int64(f.Serial), b2i(f.Down), f.Data)
	}
	return pos, tanks, rd, fr
}

func histSeal(s *tank.State) int64 {
	if s == nil {
		return 0
	}
	return int64(s.Seal)
}

// histCommitPG copies each table with the COPY protocol on the pgx connection under database/sql:
// raw frames straight into raw_frames, positions and tank states into per-connection temporary
// tables first, so that INSERT … ON CONFLICT DO NOTHING can drop re-sent reports (COPY cannot).
// Measured twice as fast as INSERT … SELECT FROM unnest(arrays) for 2000 + 2000 rows.
// With fold, the positions and level readings the copies inserted are folded into the trend slices,
// upserted once each before the commit (through the connection's staging tables, pgcopy_rollup.go).
func histCommitPG(ctx context.Context, d *db.DB, reports []Report, frames []Frame, fold *rollup.Fold) error {
	pos := make([]pgPosRow, 0, len(reports))
	var tanks []pgTankRow
	var rd []pgLevelRow
	for _, i := range histKeyOrder(reports) {
		r := &reports[i]
		t := reportTime(r)
		if !r.TankOnly {
			pos = append(pos, pgPos(r, t))
		}
		if hasTank(r) {
			tanks = append(tanks, pgTankRow{r.CarID, t, r.TerminalID, tank.LockString(r.Tank), histSeal(r.Tank),
				LevelsText(r.Levels), helpCode(r.Help)})
		}
		for k := range r.Readings {
			rd = append(rd, pgLevelRow{r.CarID, t, r.Readings[k]})
		}
	}
	fr := make([]pgFrameRow, len(frames))
	for i := range frames {
		fr[i] = pgFrameRow{&frames[i]}
	}
	conn, err := d.DB.DB.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	return conn.Raw(func(dc any) error {
		sc, ok := dc.(*stdlib.Conn)
		if !ok {
			return fmt.Errorf("history writer: PostgreSQL driver connection is %T, not pgx", dc)
		}
		staged := false
		if fold != nil {
			if staged, err = pgRollupStaging(ctx, sc.Conn()); err != nil {
				return err
			}
		}
		var addPos func(*pgPosRow)
		var addLevel func(*pgLevelRow)
		if fold != nil {
			addPos = func(r *pgPosRow) { fold.AddSpeed(r.car, r.t, r.speed) }
			addLevel = func(r *pgLevelRow) {
				fold.AddLevel(r.car, r.t, int64(r.g.Compartment), rollup.LevelValues{
					LevelMM: int64(r.g.LevelMM), TempDC: int64(r.g.TempDeci), VolumeL: r.g.VolumeL, V20L: r.g.V20L})
			}
		}
		if fold == nil || staged {
			err := histPipelined(ctx, sc.Conn(), pos, tanks, rd, fr, fold, addPos, addLevel)
			if !pipeFallsBack(err, sc.Conn()) {
				return err
			}
			pgPipeFallbacks.Add(1) // the copies below skip what is stored
		}
		tx, err := sc.Conn().Begin(ctx)
		if err != nil {
			return err
		}
		defer func() { _ = tx.Rollback(ctx) }() // no-op after Commit
		if fold != nil {
			fold.Reset() // what a failed attempt folded is gone with its transaction
		}
		if err := histCopyIgnoring(ctx, tx, "positions", histPositionCols, pos, addPos); err != nil {
			return err
		}
		if err := histCopyIgnoring(ctx, tx, "tank_states", histTankCols, tanks, nil); err != nil {
			return err
		}
		if err := histCopyIgnoring(ctx, tx, "level_readings", histReadingCols, rd, addLevel); err != nil {
			return err
		}
		if fold != nil && staged {
			if err := pgRollups(ctx, tx, fold.TakeRows()); err != nil {
				return err
			}
		} else if fold != nil {
			err := rollup.Write(ctx, true, fold.Take(), func(ctx context.Context, q string, args ...any) error {
				_, err := tx.Exec(ctx, q, args...)
				return err
			})
			if err != nil {
				return err
			}
		}
		if len(fr) > 0 {
			if err := pgCopyRows(ctx, tx, "raw_frames", histFrameCols, fr); err != nil {
				return err
			}
		}
		return tx.Commit(ctx)
	})
}

// histCopyIgnoring copies rows into table, skipping rows whose primary key is already stored. COPY
// straight into the table is the common case (terminals re-send only what went unacknowledged); when
// it meets a re-sent row, the copy is rolled back to a savepoint and the batch goes through a
// temporary table and INSERT … ON CONFLICT DO NOTHING, which COPY cannot do. With inserted, it is
// called with each row the table kept, in order (the key is the first three columns: positions and
// level readings).
func histCopyIgnoring[T any, P interface {
	*T
	copyRow
}](ctx context.Context, tx pgx.Tx, table string, cols []string, rows []T, inserted func(P)) error {
	if len(rows) == 0 {
		return nil
	}
	if _, err := tx.Exec(ctx, "SAVEPOINT hist_copy"); err != nil {
		return err
	}
	err := pgCopyRows[T, P](ctx, tx, table, cols, rows)
	if err == nil && inserted != nil {
		for i := range rows {
			inserted(&rows[i])
		}
	}
	if err == nil || !db.IsUniqueViolation(err) {
		return err
	}
	if _, err := tx.Exec(ctx, "ROLLBACK TO SAVEPOINT hist_copy"); err != nil {
		return err
	}
	tmp := "hist_" + table
	if _, err := tx.Exec(ctx, "CREATE TEMP TABLE IF NOT EXISTS "+tmp+" (LIKE "+table+" INCLUDING DEFAULTS) ON COMMIT DELETE ROWS"); err != nil {
		return err
	}
	if err := pgCopyRows[T, P](ctx, tx, tmp, cols, rows); err != nil {
		return err
	}
	list := strings.Join(cols, ", ")
	q := "INSERT INTO " + table + " (" + list + ") SELECT " + list + " FROM " + tmp + " ON CONFLICT DO NOTHING"
	if inserted == nil {
		_, err = tx.Exec(ctx, q)
		return err
	}
	return histKeptRows(ctx, tx, q+" RETURNING "+strings.Join(cols[:3], ", "), rows, inserted)
}

// histKeptRows runs the INSERT … RETURNING the key of each row it kept, and calls inserted with those
// rows: of rows with equal keys, the first (the temporary table is read in the order it was copied,
// which is the order the insert keeps).
func histKeptRows[T any, P interface {
	*T
	copyRow
}](ctx context.Context, tx pgx.Tx, q string, rows []T, inserted func(P)) error {
	res, err := tx.Query(ctx, q)
	if err != nil {
		return err
	}
	kept := map[[3]int64]bool{}
	for res.Next() {
		var k [3]int64
		if err := res.Scan(&k[0], &k[1], &k[2]); err != nil {
			res.Close()
			return err
		}
		kept[k] = true
	}
	res.Close()
	if err := res.Err(); err != nil {
		return err
	}
	for i := range rows {
		r := P(&rows[i])
		k := r.key()
		if kept[k] {
			delete(kept, k) // a later row with this key was the one dropped
			inserted(r)
		}
	}
	return nil
}

func histPtr(ok bool, v int64) *int64 {
	if !ok {
		return nil
	}
	return &v
}
