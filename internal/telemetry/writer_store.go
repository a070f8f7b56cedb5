package telemetry

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"

	"tankwatch/internal/platform/db"
	"tankwatch/internal/tank"
)

// The history insert is the one hot path that bypasses bun: SQLite gets multi-row INSERT OR IGNORE
// statements with bound parameters (chunked under its 32766-variable limit); PostgreSQL gets pgx COPY.
// Both make a re-sent report (same primary key) a no-op.

var histPositionCols = []string{"car_id", "t", "terminal_id", "received_at", "lat", "lon", "altitude", "speed",
	"direction", "alarm", "status", "mileage", "fuel", "signal", "satellites", "blind"}

var histTankCols = []string{"car_id", "t", "terminal_id", "lock_state", "seal", "levels", "help"}

var histFrameCols = []string{"terminal_id", "car_id", "phone", "received_at", "msg_id", "serial", "down", "data"}

// histChunkRows keeps a SQLite statement at 16 × 1000 = 16000 variables, well under 32766.
const histChunkRows = 1000

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

// histCommit writes one batch in one transaction.
func histCommit(ctx context.Context, d *db.DB, reports []Report, frames []Frame) error {
	if d.IsPostgres() {
		return histCommitPG(ctx, d, reports, frames)
	}
	tx, err := d.DB.DB.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := histInsertSQLite(ctx, tx, reports, frames); err != nil {
		_ = tx.Rollback()
		return err
	}
	return tx.Commit()
}

var histSQLCache sync.Map // SQLite statement text by table and row count

func histInsertSQL(table string, cols []string, rows int) string {
	key := table + "/" + strconv.Itoa(rows)
	if s, ok := histSQLCache.Load(key); ok {
		return s.(string)
	}
	one := "(" + strings.Repeat("?,", len(cols)-1) + "?)"
	s := "INSERT OR IGNORE INTO " + table + " (" + strings.Join(cols, ", ") + ") VALUES " +
		strings.Repeat(one+",", rows-1) + one
	histSQLCache.Store(key, s)
	return s
}

// histRows inserts rows (flattened args, len(cols) per row) in chunks.
func histRows(ctx context.Context, tx *sql.Tx, table string, cols []string, args []any) error {
	per := len(cols)
	for len(args) > 0 {
		n := min(len(args)/per, histChunkRows)
		if _, err := tx.ExecContext(ctx, histInsertSQL(table, cols, n), args[:n*per]...); err != nil {
			return err
		}
		args = args[n*per:]
	}
	return nil
}

func nullable(ok bool, v int64) any {
	if !ok {
		return nil
	}
	return v
}

func histInsertSQLite(ctx context.Context, tx *sql.Tx, reports []Report, frames []Frame) error {
	pos := make([]any, 0, len(reports)*len(histPositionCols))
	var tanks []any
	for i := range reports {
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
	}
	fr := make([]any, 0, len(frames)*len(histFrameCols))
	for i := range frames {
		f := &frames[i]
		fr = append(fr, f.TerminalID, f.CarID, f.Phone, f.At.UnixMilli(), int64(f.MsgID), int64(f.Serial), b2i(f.Down), f.Data)
	}
	if err := histRows(ctx, tx, "positions", histPositionCols, pos); err != nil {
		return err
	}
	if err := histRows(ctx, tx, "tank_states", histTankCols, tanks); err != nil {
		return err
	}
	return histRows(ctx, tx, "raw_frames", histFrameCols, fr)
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
func histCommitPG(ctx context.Context, d *db.DB, reports []Report, frames []Frame) error {
	var pos, tanks [][]any
	for i := range reports {
		r := &reports[i]
		t := reportTime(r)
		if !r.TankOnly {
			pos = append(pos, []any{r.CarID, t, r.TerminalID, r.Received.UnixMilli(), int64(r.Lat), int64(r.Lon),
				int64(r.Altitude), int64(r.Speed), int64(r.Direction), int64(r.Alarm), int64(r.Status),
				histPtr(r.HasMileage, int64(r.Mileage)), histPtr(r.HasFuel, int64(r.Fuel)),
				int64(r.Signal), int64(r.Satellites), b2i(r.Blind)})
		}
		if hasTank(r) {
			tanks = append(tanks, []any{r.CarID, t, r.TerminalID, tank.LockString(r.Tank), histSeal(r.Tank),
				LevelsText(r.Levels), helpCode(r.Help)})
		}
	}
	fr := make([][]any, len(frames))
	for i := range frames {
		f := &frames[i]
		fr[i] = []any{f.TerminalID, f.CarID, f.Phone, f.At.UnixMilli(), int64(f.MsgID), int64(f.Serial), b2i(f.Down), f.Data}
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
		tx, err := sc.Conn().Begin(ctx)
		if err != nil {
			return err
		}
		defer func() { _ = tx.Rollback(ctx) }() // no-op after Commit
		if err := histCopyIgnoring(ctx, tx, "positions", histPositionCols, pos); err != nil {
			return err
		}
		if err := histCopyIgnoring(ctx, tx, "tank_states", histTankCols, tanks); err != nil {
			return err
		}
		if len(fr) > 0 {
			if _, err := tx.CopyFrom(ctx, pgx.Identifier{"raw_frames"}, histFrameCols, pgx.CopyFromRows(fr)); err != nil {
				return err
			}
		}
		return tx.Commit(ctx)
	})
}

// histCopyIgnoring copies rows into table, skipping rows whose primary key is already stored.
func histCopyIgnoring(ctx context.Context, tx pgx.Tx, table string, cols []string, rows [][]any) error {
	if len(rows) == 0 {
		return nil
	}
	tmp := "hist_" + table
	if _, err := tx.Exec(ctx, "CREATE TEMP TABLE IF NOT EXISTS "+tmp+" (LIKE "+table+" INCLUDING DEFAULTS) ON COMMIT DELETE ROWS"); err != nil {
		return err
	}
	if _, err := tx.CopyFrom(ctx, pgx.Identifier{tmp}, cols, pgx.CopyFromRows(rows)); err != nil {
		return err
	}
	list := strings.Join(cols, ", ")
	_, err := tx.Exec(ctx, "INSERT INTO "+table+" ("+list+") SELECT "+list+" FROM "+tmp+" ON CONFLICT DO NOTHING")
	return err
}

func histPtr(ok bool, v int64) *int64 {
	if !ok {
		return nil
	}
	return &v
}
