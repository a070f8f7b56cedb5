package telemetry

import (
	"context"

	"github.com/jackc/pgx/v5"

	"tankwatch/internal/tank"
)

// The PostgreSQL writer's history rows, typed: each writes its fields straight into the COPY stream
// (no value boxed into an interface, which allocated for most of them), and gives its values as []any
// only when a column's type makes the stream go through pgx instead.

// copyRow is a row pgCopyRows encodes; key is its primary key (car, time, terminal or compartment).
type copyRow interface {
	copyTo(e *copyEnc)
	values() []any
	key() [3]int64
}

// pgPosRow is one positions row (histPositionCols).
type pgPosRow struct {
	car, t, term, received, lat, lon, alt, speed, dir, alarm, status int64
	mileage, fuel                                                    int64
	hasMileage, hasFuel                                              bool
	signal, satellites, blind                                        int64
}

func (r *pgPosRow) copyTo(e *copyEnc) {
	e.row(16)
	for _, v := range [...]int64{r.car, r.t, r.term, r.received, r.lat, r.lon, r.alt, r.speed, r.dir, r.alarm, r.status} {
		e.int(v)
	}
	e.intOrNull(r.hasMileage, r.mileage)
	e.intOrNull(r.hasFuel, r.fuel)
	e.int(r.signal)
	e.int(r.satellites)
	e.int(r.blind)
}

func (r *pgPosRow) values() []any {
	return []any{r.car, r.t, r.term, r.received, r.lat, r.lon, r.alt, r.speed, r.dir, r.alarm, r.status,
		histPtr(r.hasMileage, r.mileage), histPtr(r.hasFuel, r.fuel), r.signal, r.satellites, r.blind}
}

func (r *pgPosRow) key() [3]int64 { return [3]int64{r.car, r.t, r.term} }

func pgPos(r *Report, t int64) pgPosRow {
	return pgPosRow{car: r.CarID, t: t, term: r.TerminalID, received: r.Received.UnixMilli(), lat: int64(r.Lat), lon: int64(r.Lon),
		alt: int64(r.Altitude), speed: int64(r.Speed), dir: int64(r.Direction), alarm: int64(r.Alarm), status: int64(r.Status),
		mileage: int64(r.Mileage), fuel: int64(r.Fuel), hasMileage: r.HasMileage, hasFuel: r.HasFuel,
		signal: int64(r.Signal), satellites: int64(r.Satellites), blind: b2i(r.Blind)}
}

// pgTankRow is one tank_states row (histTankCols).
type pgTankRow struct {
	car, t, term int64
	lock         string
	seal         int64
	levels       string
	help         int64
}

func (r *pgTankRow) copyTo(e *copyEnc) {
	e.row(7)
	e.int(r.car)
	e.int(r.t)
	e.int(r.term)
	e.text(r.lock)
	e.int(r.seal)
	e.text(r.levels)
	e.int(r.help)
}

func (r *pgTankRow) values() []any {
	return []any{r.car, r.t, r.term, r.lock, r.seal, r.levels, r.help}
}

func (r *pgTankRow) key() [3]int64 { return [3]int64{r.car, r.t, r.term} }

// pgLevelRow is one level_readings row (histReadingCols, the values of histReadingRow).
type pgLevelRow struct {
	car, t int64
	g      tank.Reading
}

func (r *pgLevelRow) copyTo(e *copyEnc) {
	g := &r.g
	e.row(10)
	e.int(r.car)
	e.int(r.t)
	e.int(int64(g.Compartment))
	e.int(int64(g.LevelMM))
	e.int(int64(g.ProbeL))
	e.int(int64(g.TempDeci))
	e.float(g.VolumeL)
	e.int(int64(g.Source))
	e.float(g.V20L)
	e.float(g.MassKg)
}

func (r *pgLevelRow) values() []any {
	row := histReadingRow(r.car, r.t, &r.g)
	return row[:]
}

func (r *pgLevelRow) key() [3]int64 { return [3]int64{r.car, r.t, int64(r.g.Compartment)} }

// pgFrameRow is one raw_frames row (histFrameCols).
type pgFrameRow struct{ f *Frame }

func (r *pgFrameRow) copyTo(e *copyEnc) {
	f := r.f
	e.row(8)
	e.int(f.TerminalID)
	e.int(f.CarID)
	e.text(f.Phone)
	e.int(f.At.UnixMilli())
	e.int(int64(f.MsgID))
	e.int(int64(f.Serial))
	e.int(b2i(f.Down))
	e.bytes(f.Data)
}

func (r *pgFrameRow) values() []any {
	f := r.f
	return []any{f.TerminalID, f.CarID, f.Phone, f.At.UnixMilli(), int64(f.MsgID), int64(f.Serial), b2i(f.Down), f.Data}
}

func (r *pgFrameRow) key() [3]int64 {
	return [3]int64{r.f.TerminalID, r.f.At.UnixMilli(), int64(r.f.Serial)}
}

// pgCopyRows is pgCopy for typed rows: encoded straight into the stream when every column's type is
// one copyEnc writes, else boxed and left to pgCopy (and so to pgx).
func pgCopyRows[T any, P interface {
	*T
	copyRow
}](ctx context.Context, tx pgx.Tx, table string, cols []string, rows []T) error {
	conn := tx.Conn().PgConn()
	oids, err := pgCopyTypes(ctx, tx, conn, table, cols)
	if err != nil {
		return err
	}
	if buf, ok := appendCopyRows[T, P](make([]byte, 0, 21+len(rows)*(2+12*len(cols)+16)), oids, rows); ok {
		return pgCopySend(ctx, conn, table, cols, buf)
	}
	boxed := make([][]any, len(rows))
	for i := range rows {
		boxed[i] = P(&rows[i]).values()
	}
	return pgCopy(ctx, tx, table, cols, boxed)
}

// appendCopyRows appends the binary COPY stream of rows (header, tuples, trailer) for columns of the
// types oids to buf; ok is false at the first value copyEnc does not write as pgx would.
func appendCopyRows[T any, P interface {
	*T
	copyRow
}](buf []byte, oids []uint32, rows []T) (out []byte, ok bool) {
	e := &copyEnc{buf: copyHeader(buf), oids: oids, ok: true}
	for i := range rows {
		if P(&rows[i]).copyTo(e); !e.ok {
			return nil, false
		}
	}
	return e.end()
}
