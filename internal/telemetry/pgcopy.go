package telemetry

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"math"
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
	quoted := make([]string, len(cols))
	for i, c := range cols {
		quoted[i] = pgx.Identifier{c}.Sanitize()
	}
	_, err = conn.CopyFrom(ctx, bytes.NewReader(buf),
		"COPY "+pgx.Identifier{table}.Sanitize()+" ("+strings.Join(quoted, ", ")+") FROM STDIN BINARY")
	return err
}

type pgCopyKey struct {
	conn  *pgconn.PgConn
	table string
}

var pgCopyCache = struct {
	sync.Mutex
	m map[pgCopyKey][]uint32
}{m: map[pgCopyKey][]uint32{}}

// querier is a pgx.Tx or a *pgx.Conn.
type querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

// pgCopyTypes returns the type OIDs of table's columns cols on conn.
func pgCopyTypes(ctx context.Context, tx querier, conn *pgconn.PgConn, table string, cols []string) ([]uint32, error) {
	k := pgCopyKey{conn, table}
	pgCopyCache.Lock()
	oids, ok := pgCopyCache.m[k]
	pgCopyCache.Unlock()
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
	pgCopyCache.Lock()
	if len(pgCopyCache.m) > 1024 { // connections come and go: forget them all now and then
		clear(pgCopyCache.m)
	}
	pgCopyCache.m[k] = oids
	pgCopyCache.Unlock()
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
	be := binary.BigEndian
	size := 19 + 2 // header, trailer
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
	buf = make([]byte, 0, size)
	buf = append(buf, "PGCOPY\n\377\r\n\000"...)
	buf = be.AppendUint32(buf, 0) // flags
	buf = be.AppendUint32(buf, 0) // header extension
	for _, row := range rows {
		if len(row) != len(oids) {
			return nil, false
		}
		buf = be.AppendUint16(buf, uint16(len(row)))
		for i, v := range row {
			if p, isPtr := v.(*int64); isPtr {
				if p == nil {
					v = nil
				} else {
					v = *p
				}
			}
			switch v := v.(type) {
			case nil:
				buf = be.AppendUint32(buf, math.MaxUint32) // -1: NULL
			case int64:
				switch oids[i] {
				case oidInt8:
					buf = be.AppendUint64(be.AppendUint32(buf, 8), uint64(v))
				case oidInt4:
					if v < math.MinInt32 || v > math.MaxInt32 {
						return nil, false // pgx reports the overflow
					}
					buf = be.AppendUint32(be.AppendUint32(buf, 4), uint32(int32(v)))
				case oidInt2:
					if v < math.MinInt16 || v > math.MaxInt16 {
						return nil, false
					}
					buf = be.AppendUint16(be.AppendUint32(buf, 2), uint16(int16(v)))
				default:
					return nil, false
				}
			case float64:
				switch oids[i] {
				case oidFloat8:
					buf = be.AppendUint64(be.AppendUint32(buf, 8), math.Float64bits(v))
				default:
					return nil, false
				}
			case string:
				if oids[i] != oidText && oids[i] != oidVarchar {
					return nil, false
				}
				buf = append(be.AppendUint32(buf, uint32(len(v))), v...)
			case []byte:
				if oids[i] != oidBytea {
					return nil, false
				}
				if v == nil {
					buf = be.AppendUint32(buf, math.MaxUint32) // pgx sends a nil []byte as NULL
					continue
				}
				buf = append(be.AppendUint32(buf, uint32(len(v))), v...)
			default:
				return nil, false
			}
		}
	}
	buf = be.AppendUint16(buf, math.MaxUint16) // -1: end of data
	return buf, true
}
