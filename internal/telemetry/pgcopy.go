package telemetry

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// pgCopy copies rows into table like tx.CopyFrom(…, pgx.CopyFromRows(rows)), writing the binary COPY
// stream itself: the history rows hold only int64, *int64, float64, string, []byte and nil, and pgx
// encoded each value through its type map (a plan lookup by reflection per value, an eighth of the
// server's CPU per report at ingest on PostgreSQL, docs/PERFORMANCE.md "fourth pass"). The columns'
// types come from the table's description, once per connection and table. A value or column type it
// does not know sends the rows through pgx instead, so the result is pgx's in every case.
func pgCopy(ctx context.Context, tx pgx.Tx, table string, cols []string, rows [][]any) error {
	conn := tx.Conn().PgConn()
	oids, err := pgCopyTypes(ctx, tx, conn, table, cols)
	if err != nil {
		return err
	}
	buf, ok := pgCopyEncode(oids, rows)
	if !ok {
		_, err := tx.CopyFrom(ctx, pgx.Identifier{table}, cols, pgx.CopyFromRows(rows))
		return err
	}
	return pgCopySend(ctx, conn, table, cols, buf)
}

// pgCopySend sends buf, a whole binary COPY stream, into table's columns cols.
func pgCopySend(ctx context.Context, conn *pgconn.PgConn, table string, cols []string, buf []byte) error {
	_, err := conn.CopyFrom(ctx, bytes.NewReader(buf), pgCopySQL(table, cols))
	return err
}

// pgCopySQL is the COPY statement of a binary stream into table's columns cols. The writer asks for
// the same few statements at every commit: they are made once (quoting allocated a few per cent of its CPU).
func pgCopySQL(table string, cols []string) string {
	if v, ok := pgCopySQLs.Load(table); ok && slices.Equal(v.(pgCopyStmt).cols, cols) {
		return v.(pgCopyStmt).sql
	}
	quoted := make([]string, len(cols))
	for i, c := range cols {
		quoted[i] = pgx.Identifier{c}.Sanitize()
	}
	q := "COPY " + pgx.Identifier{table}.Sanitize() + " (" + strings.Join(quoted, ", ") + ") FROM STDIN BINARY"
	pgCopySQLs.Store(table, pgCopyStmt{slices.Clone(cols), q})
	return q
}

// pgCopySQLs holds a pgCopyStmt per table: the last columns asked for (a look-up allocates nothing).
var pgCopySQLs sync.Map

type pgCopyStmt struct {
	cols []string
	sql  string
}

type pgCopyKey struct {
	conn  *pgconn.PgConn
	table string
}

var pgCopyCache perConn[pgCopyKey, []uint32]

// perConn is what the writer learnt of a connection (its columns' types, its staging tables), kept
// per connection; connections come and go, so past 1,024 entries all are forgotten and learnt again.
type perConn[K comparable, V any] struct {
	mu sync.Mutex
	m  map[K]V
}

func (c *perConn[K, V]) get(k K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[k]
	return v, ok
}

func (c *perConn[K, V]) put(k K, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) > 1024 {
		c.m = map[K]V{}
	}
	c.m[k] = v
}

func (c *perConn[K, V]) forget(k K) {
	c.mu.Lock()
	delete(c.m, k)
	c.mu.Unlock()
}

// querier is a pgx.Tx or a *pgx.Conn.
type querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

// pgCopyTypes returns the type OIDs of table's columns cols on conn.
func pgCopyTypes(ctx context.Context, tx querier, conn *pgconn.PgConn, table string, cols []string) ([]uint32, error) {
	k := pgCopyKey{conn, table}
	oids, ok := pgCopyCache.get(k)
	if ok && len(oids) == len(cols) {
		return oids, nil
	}
	quoted := make([]string, len(cols))
	for i, c := range cols {
		quoted[i] = pgx.Identifier{c}.Sanitize()
	}
	rs, err := tx.Query(ctx, "SELECT "+strings.Join(quoted, ", ")+" FROM "+pgx.Identifier{table}.Sanitize()+" LIMIT 0")
	if err != nil {
		return nil, err
	}
	fds := rs.FieldDescriptions()
	oids = make([]uint32, len(fds))
	for i := range fds {
		oids[i] = fds[i].DataTypeOID
	}
	rs.Close()
	if err := rs.Err(); err != nil {
		return nil, err
	}
	if len(oids) != len(cols) {
		return nil, errors.New("history writer: column description does not match")
	}
	pgCopyCache.put(k, oids)
	return oids, nil
}

// PostgreSQL type OIDs the history tables use.
const (
	oidBool    = 16
	oidBytea   = 17
	oidInt8    = 20
	oidInt2    = 21
	oidInt4    = 23
	oidText    = 25
	oidFloat4  = 700
	oidFloat8  = 701
	oidVarchar = 1043
)

// pgCopyEncode is the binary COPY stream of rows (header, tuples, trailer); ok is false when a value
// or a column type is not one it encodes the way pgx would.
func pgCopyEncode(oids []uint32, rows [][]any) (buf []byte, ok bool) {
	size := 0
	for _, row := range rows {
		size += 2 + 4*len(row)
		for _, v := range row {
			switch v := v.(type) {
			case string:
				size += len(v)
			case []byte:
				size += len(v)
			default:
				size += 8
			}
		}
	}
	e := newCopyEnc(oids, size)
	for _, row := range rows {
		e.row(len(row))
		for _, v := range row {
			if p, isPtr := v.(*int64); isPtr {
				if p == nil {
					v = nil
				} else {
					v = *p
				}
			}
			switch v := v.(type) {
			case nil:
				e.null()
			case int64:
				e.int(v)
			case float64:
				e.float(v)
			case string:
				e.text(v)
			case []byte:
				e.bytes(v)
			default:
				e.ok = false
			}
		}
		if !e.ok {
			return nil, false
		}
	}
	return e.end()
}

// copyEnc writes a binary COPY stream for columns of the types oids, a field at a time; ok turns
// false at the first value it does not encode the way pgx would (the caller then leaves the rows to pgx).
type copyEnc struct {
	buf  []byte
	oids []uint32
	col  int
	ok   bool
}

// newCopyEnc starts a stream with room for size bytes of tuples.
func newCopyEnc(oids []uint32, size int) *copyEnc {
	return &copyEnc{buf: copyHeader(make([]byte, 0, 19+2+size)), oids: oids, ok: true}
}

// copyHeader appends the binary COPY stream's header to buf.
func copyHeader(buf []byte) []byte {
	buf = append(buf, "PGCOPY\n\377\r\n\000"...)
	buf = binary.BigEndian.AppendUint32(buf, 0)  // flags
	return binary.BigEndian.AppendUint32(buf, 0) // header extension
}

// copyTrailer appends the stream's end to buf.
func copyTrailer(buf []byte) []byte { return binary.BigEndian.AppendUint16(buf, math.MaxUint16) } // -1: end of data

// row starts a tuple of n fields.
func (e *copyEnc) row(n int) {
	if n != len(e.oids) || e.col != 0 && e.col != len(e.oids) {
		e.ok = false
	}
	e.col = 0
	e.buf = binary.BigEndian.AppendUint16(e.buf, uint16(n))
}

// next is the type of the field being written.
func (e *copyEnc) next() uint32 {
	if e.col >= len(e.oids) {
		e.ok = false
		return 0
	}
	e.col++
	return e.oids[e.col-1]
}

func (e *copyEnc) null() {
	e.next()
	e.buf = binary.BigEndian.AppendUint32(e.buf, math.MaxUint32) // -1: NULL
}

func (e *copyEnc) int(v int64) {
	be := binary.BigEndian
	switch e.next() {
	case oidInt8:
		e.buf = be.AppendUint64(be.AppendUint32(e.buf, 8), uint64(v))
	case oidInt4:
		if v < math.MinInt32 || v > math.MaxInt32 {
			e.ok = false // pgx reports the overflow
			return
		}
		e.buf = be.AppendUint32(be.AppendUint32(e.buf, 4), uint32(int32(v)))
	case oidInt2:
		if v < math.MinInt16 || v > math.MaxInt16 {
			e.ok = false
			return
		}
		e.buf = be.AppendUint16(be.AppendUint32(e.buf, 2), uint16(int16(v)))
	default:
		e.ok = false
	}
}

// intOrNull is v, or NULL without ok (the history rows' optional mileage and fuel).
func (e *copyEnc) intOrNull(ok bool, v int64) {
	if !ok {
		e.null()
		return
	}
	e.int(v)
}

func (e *copyEnc) float(v float64) {
	if e.next() != oidFloat8 {
		e.ok = false
		return
	}
	e.buf = binary.BigEndian.AppendUint64(binary.BigEndian.AppendUint32(e.buf, 8), math.Float64bits(v))
}

func (e *copyEnc) text(v string) {
	if o := e.next(); o != oidText && o != oidVarchar {
		e.ok = false
		return
	}
	e.buf = append(binary.BigEndian.AppendUint32(e.buf, uint32(len(v))), v...)
}

func (e *copyEnc) bytes(v []byte) {
	if e.next() != oidBytea {
		e.ok = false
		return
	}
	if v == nil {
		e.buf = binary.BigEndian.AppendUint32(e.buf, math.MaxUint32) // pgx sends a nil []byte as NULL
		return
	}
	e.buf = append(binary.BigEndian.AppendUint32(e.buf, uint32(len(v))), v...)
}

// end closes the stream: the stream and whether every value was encoded.
func (e *copyEnc) end() ([]byte, bool) {
	if !e.ok || e.col != 0 && e.col != len(e.oids) {
		return nil, false
	}
	return copyTrailer(e.buf), true
}
