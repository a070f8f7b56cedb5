package telemetry

import (
	"context"
	"database/sql"
	"strconv"
	"strings"
	"sync"

	"tankwatch/internal/platform/db"
	"tankwatch/internal/tank"
)

// The history insert is the one hot path that bypasses bun's query formatting: rows go to the driver
// as bound parameters. SQLite gets multi-row INSERT OR IGNORE statements (chunked under its 32766
// variable limit); PostgreSQL gets one INSERT … SELECT FROM unnest(arrays) per table, a single round
// trip whatever the batch size. Both make a re-sent report (same primary key) a no-op.

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
	tx, err := d.DB.DB.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if d.IsPostgres() {
		err = histInsertPG(ctx, tx, reports, frames)
	} else {
		err = histInsertSQLite(ctx, tx, reports, frames)
	}
	if err != nil {
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

// histInsertPG sends each table as column arrays (pgx encodes Go slices as PostgreSQL arrays).
func histInsertPG(ctx context.Context, tx *sql.Tx, reports []Report, frames []Frame) error {
	if len(reports) > 0 {
		var (
			car, t, term, recv, lat, lon, alt, speed, dir, alarm, status, sig, sats, blind []int64
			mileage, fuel                                                                  []*int64
			tCar, tT, tTerm, tSeal, tHelp                                                  []int64
			tLock, tLevels                                                                 []string
		)
		for i := range reports {
			r := &reports[i]
			rt := reportTime(r)
			if !r.TankOnly {
				car, t, term, recv = append(car, r.CarID), append(t, rt), append(term, r.TerminalID), append(recv, r.Received.UnixMilli())
				lat, lon, alt = append(lat, int64(r.Lat)), append(lon, int64(r.Lon)), append(alt, int64(r.Altitude))
				speed, dir = append(speed, int64(r.Speed)), append(dir, int64(r.Direction))
				alarm, status = append(alarm, int64(r.Alarm)), append(status, int64(r.Status))
				mileage, fuel = append(mileage, histPtr(r.HasMileage, int64(r.Mileage))), append(fuel, histPtr(r.HasFuel, int64(r.Fuel)))
				sig, sats, blind = append(sig, int64(r.Signal)), append(sats, int64(r.Satellites)), append(blind, b2i(r.Blind))
			}
			if hasTank(r) {
				tCar, tT, tTerm = append(tCar, r.CarID), append(tT, rt), append(tTerm, r.TerminalID)
				tLock, tSeal = append(tLock, tank.LockString(r.Tank)), append(tSeal, histSeal(r.Tank))
				tLevels, tHelp = append(tLevels, LevelsText(r.Levels)), append(tHelp, helpCode(r.Help))
			}
		}
		if len(car) > 0 {
			_, err := tx.ExecContext(ctx, `INSERT INTO positions (`+strings.Join(histPositionCols, ", ")+`)
SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::bigint[], $5::bigint[], $6::bigint[], $7::bigint[],
  $8::bigint[], $9::bigint[], $10::bigint[], $11::bigint[], $12::bigint[], $13::bigint[], $14::bigint[], $15::bigint[], $16::bigint[])
ON CONFLICT DO NOTHING`, car, t, term, recv, lat, lon, alt, speed, dir, alarm, status, mileage, fuel, sig, sats, blind)
			if err != nil {
				return err
			}
		}
		if len(tCar) > 0 {
			_, err := tx.ExecContext(ctx, `INSERT INTO tank_states (`+strings.Join(histTankCols, ", ")+`)
SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::text[], $5::bigint[], $6::text[], $7::bigint[])
ON CONFLICT DO NOTHING`, tCar, tT, tTerm, tLock, tSeal, tLevels, tHelp)
			if err != nil {
				return err
			}
		}
	}
	if len(frames) == 0 {
		return nil
	}
	term, car, at, msg, serial, down := make([]int64, len(frames)), make([]int64, len(frames)), make([]int64, len(frames)),
		make([]int64, len(frames)), make([]int64, len(frames)), make([]int64, len(frames))
	phone, data := make([]string, len(frames)), make([][]byte, len(frames))
	for i := range frames {
		f := &frames[i]
		term[i], car[i], phone[i], at[i] = f.TerminalID, f.CarID, f.Phone, f.At.UnixMilli()
		msg[i], serial[i], down[i], data[i] = int64(f.MsgID), int64(f.Serial), b2i(f.Down), f.Data
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO raw_frames (`+strings.Join(histFrameCols, ", ")+`)
SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::bigint[], $5::bigint[], $6::bigint[], $7::bigint[], $8::bytea[])`,
		term, car, phone, at, msg, serial, down, data)
	return err
}

func histPtr(ok bool, v int64) *int64 {
	if !ok {
		return nil
	}
	return &v
}
