package db

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"modernc.org/sqlite"
)

// SQLite lets one writer in at a time and makes the others poll its lock (sleeping up to 100 ms between
// tries). Under a continuous writer (the history writer under ingest) the pollers rarely hit the short
// gap between two of its transactions and starve: registrations and console edits failed with
// "database is locked". The write gate queues this process's writers in Go instead: every
// transaction, and every statement that writes outside one, first takes the gate, a channel that hands
// itself over in arrival order. Other processes (tankwatch admin) still
// meet SQLite's own lock and busy timeout.

// gateTimeout bounds the wait for the gate, like busy_timeout bounds the wait for SQLite's lock: a
// writer that never gets in fails instead of hanging.
const gateTimeout = 10 * time.Second

// ErrWriteGateTimeout is returned when a write waited gateTimeout for the other writers.
var ErrWriteGateTimeout = errors.New("database is locked: waited 10s for other writers")

// writeGate is a mutex whose Lock gives up when ctx ends or after gateTimeout.
type writeGate struct{ ch chan struct{} }

func newWriteGate() *writeGate { return &writeGate{ch: make(chan struct{}, 1)} }

func (g *writeGate) lock(ctx context.Context) error {
	select {
	case g.ch <- struct{}{}:
		return nil
	default:
	}
	t := time.NewTimer(gateTimeout)
	defer t.Stop()
	select {
	case g.ch <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return ErrWriteGateTimeout
	}
}

func (g *writeGate) unlock() { <-g.ch }

// sqliteConnector opens modernc connections wrapped with the gate of their database.
type sqliteConnector struct {
	dsn  string
	drv  *sqlite.Driver
	gate *writeGate
}

func (c *sqliteConnector) Connect(context.Context) (driver.Conn, error) {
	ci, err := c.drv.Open(c.dsn)
	if err != nil {
		return nil, err
	}
	inner, ok := ci.(sqliteConn)
	if !ok {
		_ = ci.Close()
		return nil, fmt.Errorf("sqlite driver connection %T lacks the context interfaces", ci)
	}
	return &gatedConn{c: inner, gate: c.gate}, nil
}

func (c *sqliteConnector) Driver() driver.Driver { return c.drv }

// sqliteConn is what modernc's connection implements and database/sql uses.
type sqliteConn interface {
	driver.Conn
	driver.ConnBeginTx
	driver.ConnPrepareContext
	driver.ExecerContext
	driver.QueryerContext
	driver.Pinger
	driver.SessionResetter
	driver.Validator
}

// gatedConn takes the gate for a transaction (from BeginTx to Commit or Rollback) and for each writing
// statement run outside one. database/sql uses a connection from one goroutine at a time.
type gatedConn struct {
	c    sqliteConn
	gate *writeGate
	inTx bool
}

// writes reports whether a statement outside a transaction may write. Reads that are misjudged only
// wait for the gate; a write must never be misjudged as a read.
func writes(query string) bool {
	q := strings.TrimLeft(query, " \t\r\n(")
	if len(q) > 7 {
		q = q[:7]
	}
	q = strings.ToUpper(q)
	return !strings.HasPrefix(q, "SELECT") && !strings.HasPrefix(q, "EXPLAIN")
}

func (g *gatedConn) Prepare(query string) (driver.Stmt, error) {
	return g.PrepareContext(context.Background(), query)
}

func (g *gatedConn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	s, err := g.c.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	return &gatedStmt{Stmt: s, conn: g, write: writes(query)}, nil
}

func (g *gatedConn) Close() error { return g.c.Close() }

func (g *gatedConn) Begin() (driver.Tx, error) {
	return g.BeginTx(context.Background(), driver.TxOptions{})
}

func (g *gatedConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	if err := g.gate.lock(ctx); err != nil {
		return nil, err
	}
	tx, err := g.c.BeginTx(ctx, opts)
	if err != nil {
		g.gate.unlock()
		return nil, err
	}
	g.inTx = true
	return &gatedTx{tx: tx, conn: g}, nil
}

// enter takes the gate for one statement outside a transaction; the returned func releases it.
func (g *gatedConn) enter(ctx context.Context, write bool) (func(), error) {
	if g.inTx || !write {
		return func() {}, nil
	}
	if err := g.gate.lock(ctx); err != nil {
		return nil, err
	}
	var once sync.Once
	return func() { once.Do(g.gate.unlock) }, nil
}

func (g *gatedConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	leave, err := g.enter(ctx, writes(query))
	if err != nil {
		return nil, err
	}
	defer leave()
	return g.c.ExecContext(ctx, query, args)
}

func (g *gatedConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	leave, err := g.enter(ctx, writes(query))
	if err != nil {
		return nil, err
	}
	rows, err := g.c.QueryContext(ctx, query, args)
	if err != nil {
		leave()
		return nil, err
	}
	// INSERT … RETURNING writes while its rows are read: hold the gate until they are closed.
	return &gatedRows{Rows: rows, leave: leave}, nil
}

func (g *gatedConn) Ping(ctx context.Context) error         { return g.c.Ping(ctx) }
func (g *gatedConn) ResetSession(ctx context.Context) error { return g.c.ResetSession(ctx) }
func (g *gatedConn) IsValid() bool                          { return g.c.IsValid() }

func (g *gatedConn) txDone() {
	g.inTx = false
	g.gate.unlock()
}

type gatedTx struct {
	tx   driver.Tx
	conn *gatedConn
	done bool
}

func (t *gatedTx) Commit() error {
	err := t.tx.Commit()
	t.end()
	return err
}

func (t *gatedTx) Rollback() error {
	err := t.tx.Rollback()
	t.end()
	return err
}

func (t *gatedTx) end() {
	if !t.done {
		t.done = true
		t.conn.txDone()
	}
}

type gatedRows struct {
	driver.Rows
	leave func()
}

func (r *gatedRows) Close() error {
	err := r.Rows.Close()
	r.leave()
	return err
}

// gatedStmt takes the gate when a prepared writing statement runs outside a transaction.
type gatedStmt struct {
	driver.Stmt
	conn  *gatedConn
	write bool
}

func (s *gatedStmt) Exec(args []driver.Value) (driver.Result, error) {
	leave, err := s.conn.enter(context.Background(), s.write)
	if err != nil {
		return nil, err
	}
	defer leave()
	return s.Stmt.Exec(args) //nolint:staticcheck // modernc's statements implement only Exec
}

func (s *gatedStmt) Query(args []driver.Value) (driver.Rows, error) {
	leave, err := s.conn.enter(context.Background(), s.write)
	if err != nil {
		return nil, err
	}
	rows, err := s.Stmt.Query(args) //nolint:staticcheck // modernc's statements implement only Query
	if err != nil {
		leave()
		return nil, err
	}
	return &gatedRows{Rows: rows, leave: leave}, nil
}
