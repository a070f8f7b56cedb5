package telemetry

import (
	"context"
	"encoding/binary"
	"errors"
	"net"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgproto3"

	"tankwatch/internal/platform/db"
	"tankwatch/internal/tank/trend/rollup"
)

// pgPipe is a whole transaction as one exchange with the server: one simple-protocol Query holding
// every statement (BEGIN, each COPY … FROM STDIN, the rollups' merge, COMMIT), then the COPYs' data,
// written at once, the answers read after (D127). A commit through pgx's calls waited for the server
// about fifteen times (BEGIN, a savepoint and a COPY per table, the rollups' copies and merge,
// COMMIT), and each wait is system calls and goroutine wake-ups on both sides: at a fleet's rate they
// were most of the writer's CPU. One Query rather than one per statement (D132): the server flushes its
// answers at each ReadyForQuery and at each COPY's start, so a Query per statement was about sixteen
// flushes, and as many wake-ups of the writer, where one Query is one per COPY and one at the end.
//
// The protocol makes this safe: if a statement fails, the server answers the error and ReadyForQuery
// and skips the rest of the Query (COMMIT included); it ignores the COPY data sent for the failed and
// the later COPYs. The transaction is then left aborted, and run rolls it back. So it is all or
// nothing, as with pgx; the caller learns the first error.
type pgPipe struct {
	sql  []byte // the statements, "; " after each
	buf  []byte // the COPYs' data messages, in the statements' order
	rows int    // the rows of every table the pipe copies, for pgPipeRowBytes
}

var pgPipeBufs = sync.Pool{New: func() any { return new(pgPipe) }}

// pgPipeKeep is the largest buffer kept for the next transaction: a batch at the writer's cap (25,000
// reports, a few compartments each) takes about 20 MB.
const pgPipeKeep = 64 << 20

// pgPipeRowBytes is what a row took in the last pipe (bytes per row, rows of every table): the next
// pipe's buffer is grown to its estimate at once. Growing it by appending, from a buffer too small (the
// kept one after smaller batches, or none), copied it over and over and faulted in fresh pages: at the
// benchmark's 7,000–20,000 reports a commit that was 13 % of the server's CPU (PERFORMANCE.md, tenth
// pass).
var pgPipeRowBytes atomic.Int64

// newPGPipe takes a pipe from the pool with room for rows rows.
func newPGPipe(rows int) *pgPipe {
	p := pgPipeBufs.Get().(*pgPipe)
	p.sql, p.buf, p.rows = append(p.sql[:0], 'Q', 0, 0, 0, 0), p.buf[:0], rows
	if per := pgPipeRowBytes.Load(); per > 0 {
		p.buf = slices.Grow(p.buf, 4096+rows*int(per)*9/8)
	}
	return p
}

// release keeps p for the next pipe.
func (p *pgPipe) release() {
	if cap(p.buf) <= pgPipeKeep {
		pgPipeBufs.Put(p)
	}
}

// stmt adds a statement (it may hold several, separated by ";").
func (p *pgPipe) stmt(sql string) {
	p.sql = append(append(p.sql, sql...), "; "...)
}

// copyData adds COPY table (cols) FROM STDIN BINARY and opens its data message; the caller appends
// the whole binary stream to buf and closes it with copyDone(at).
func (p *pgPipe) copyData(table string, cols []string) (at int) {
	p.stmt(pgCopySQL(table, cols))
	at = len(p.buf)
	p.buf = append(p.buf, 'd', 0, 0, 0, 0)
	return at
}

// copyDone sets the length of the data message opened at at and ends the copy.
func (p *pgPipe) copyDone(at int) {
	binary.BigEndian.PutUint32(p.buf[at+1:], uint32(len(p.buf)-at-1))
	p.buf = append(p.buf, 'c', 0, 0, 0, 4)
}

// run sends the whole pipe on pc, which must be idle outside any transaction, and reads every answer.
// It returns the first error the server sent, after rolling back the transaction that error left
// open. When the exchange itself fails, pc is closed: its place in the protocol is unknown, and
// database/sql then discards the connection.
func (p *pgPipe) run(ctx context.Context, pc *pgconn.PgConn) error {
	if pc.TxStatus() != 'I' || pc.IsBusy() {
		return errors.New("history writer: connection not idle")
	}
	broken := func(err error) error {
		cctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		_ = pc.Close(cctx)
		return err
	}
	if p.rows > 0 { // the pipe is whole: what its rows took is the next one's estimate
		pgPipeRowBytes.Store(int64(len(p.buf)/p.rows + 1))
	}
	p.sql = append(p.sql[:len(p.sql)-2], 0) // the last "; " off, the string's end on
	binary.BigEndian.PutUint32(p.sql[1:], uint32(len(p.sql)-1))
	conn := pc.Conn()
	if dl, ok := ctx.Deadline(); ok {
		_ = conn.SetWriteDeadline(dl)
	}
	stop := context.AfterFunc(ctx, func() { _ = conn.SetWriteDeadline(time.Unix(1, 0)) })
	out := net.Buffers{p.sql, p.buf}
	_, err := out.WriteTo(conn)
	stop()
	_ = conn.SetWriteDeadline(time.Time{})
	if err != nil {
		return broken(err)
	}
	var first error
	for done := false; !done; {
		msg, err := pc.ReceiveMessage(ctx)
		if err != nil {
			return broken(err)
		}
		switch m := msg.(type) {
		case *pgproto3.ErrorResponse:
			if first == nil {
				first = pgconn.ErrorResponseToPgError(m)
			}
		case *pgproto3.ReadyForQuery:
			done = true
		}
	}
	if pc.TxStatus() != 'I' { // a statement failed inside the transaction: COMMIT was skipped
		if err := pc.Exec(ctx, "ROLLBACK").Close(); err != nil {
			return broken(err)
		}
	}
	return first
}

// pgPipeFallbacks counts the commits the pipe could not make (a re-sent row, a value only pgx
// encodes) and that went through pgx's calls instead.
var pgPipeFallbacks atomic.Int64

// errNotPiped: a row has a value the stream encoder leaves to pgx; nothing was sent.
var errNotPiped = errors.New("history writer: a value only pgx encodes")

// pipeFallsBack tells whether histPipelined's err leaves the batch to the path that skips stored rows:
// a re-sent row (the copies went straight into the tables, so it failed the transaction with a
// unique violation) or a value only pgx encodes.
func pipeFallsBack(err error, c *pgx.Conn) bool {
	return errors.Is(err, errNotPiped) || db.IsUniqueViolation(err) && !c.IsClosed()
}

// histPipelined commits the batch through one pgPipe, every row copied straight into its table and
// the rollups (with fold, through the staging tables pgRollupStaging made) folded from all of them.
func histPipelined(ctx context.Context, c *pgx.Conn, pos []pgPosRow, tanks []pgTankRow, rd []pgLevelRow, fr []pgFrameRow,
	fold *rollup.Fold, addPos func(*pgPosRow), addLevel func(*pgLevelRow)) error {
	p := newPGPipe(len(pos) + len(tanks) + len(rd) + len(fr))
	defer p.release()
	p.stmt("BEGIN")
	if err := pipeRows(ctx, c, p, "positions", histPositionCols, pos); err != nil {
		return err
	}
	if err := pipeRows(ctx, c, p, "tank_states", histTankCols, tanks); err != nil {
		return err
	}
	if err := pipeRows(ctx, c, p, "level_readings", histReadingCols, rd); err != nil {
		return err
	}
	if fold != nil {
		fold.Reset()
		for i := range pos {
			addPos(&pos[i])
		}
		for i := range rd {
			addLevel(&rd[i])
		}
		mask := pgRollupTables(fold.TakeRows(), func(t *rollup.Table) {
			at := p.copyData(pgRollupStage(t.Name), t.Cols)
			p.buf = copyTrailer(t.AppendCopy(copyHeader(p.buf)))
			p.copyDone(at)
		})
		if mask != 0 {
			p.stmt(pgRollupMergeSQL(mask))
		}
	}
	if err := pipeRows(ctx, c, p, "raw_frames", histFrameCols, fr); err != nil {
		return err
	}
	p.stmt("COMMIT")
	err := p.run(ctx, c.PgConn())
	if err != nil && fold != nil && !db.IsUniqueViolation(err) {
		pgRollupForget(c.PgConn()) // something may have dropped the staging tables
	}
	return err
}

// pipeRows adds the copy of rows into table to p; errNotPiped when a value is one the stream encoder
// leaves to pgx (p is then unusable).
func pipeRows[T any, P interface {
	*T
	copyRow
}](ctx context.Context, c *pgx.Conn, p *pgPipe, table string, cols []string, rows []T) error {
	if len(rows) == 0 {
		return nil
	}
	oids, err := pgCopyTypes(ctx, c, c.PgConn(), table, cols)
	if err != nil {
		return err
	}
	at := p.copyData(table, cols)
	var ok bool
	if p.buf, ok = appendCopyRows[T, P](p.buf, oids, rows); !ok {
		return errNotPiped
	}
	p.copyDone(at)
	return nil
}
