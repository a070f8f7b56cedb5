// Package db opens the relational store (SQLite by default, PostgreSQL by DSN), wraps it in the bun
// query builder and applies the embedded goose migrations.
package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // database/sql driver "pgx"
	"github.com/pressly/goose/v3"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"
	"github.com/uptrace/bun/dialect/sqlitedialect"
	"modernc.org/sqlite"

	"tankwatch/migrations"
)

// Dialect names.
const (
	SQLite   = "sqlite"
	Postgres = "postgres"
)

// DB is the store.
type DB struct {
	*bun.DB
	Kind    string // SQLite or Postgres
	release func() // drops the data folder's shared lock (SQLite through Open)
}

// Close closes the store and releases its data folder.
func (d *DB) Close() error {
	err := d.DB.Close()
	if d.release != nil {
		d.release()
		d.release = nil
	}
	return err
}

// IsPostgres reports whether the store is PostgreSQL.
func (d *DB) IsPostgres() bool { return d.Kind == Postgres }

// IsPostgresDSN reports whether dsn names a PostgreSQL database.
func IsPostgresDSN(dsn string) bool {
	return strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://")
}

// Open opens the store: an empty dsn means the SQLite file <dataDir>/tankwatch.db (WAL, busy timeout,
// foreign keys), with the data folder's lock held shared until Close (storelock.go); postgres:// or
// postgresql:// means PostgreSQL through pgx.
func Open(ctx context.Context, dsn, dataDir string) (*DB, error) {
	switch {
	case dsn == "":
		if dataDir == "" {
			dataDir = "."
		}
		if err := os.MkdirAll(dataDir, 0o750); err != nil {
			return nil, fmt.Errorf("create data folder: %w", err)
		}
		release, err := LockStore(dataDir, false)
		if err != nil {
			return nil, err
		}
		d, err := OpenSQLite(ctx, StorePath(dataDir))
		if err != nil {
			release()
			return nil, err
		}
		d.release = release
		return d, nil
	case IsPostgresDSN(dsn):
		sqldb, err := sql.Open("pgx", dsn)
		if err != nil {
			return nil, fmt.Errorf("open postgres: %w", err)
		}
		// Keep as many idle as open: database/sql keeps only 2 idle by default, so concurrent requests
		// would open and close connections all the time (p99 went from 359 ms to a fraction, PERFORMANCE.md).
		sqldb.SetMaxOpenConns(20)
		sqldb.SetMaxIdleConns(20)
		sqldb.SetConnMaxIdleTime(5 * time.Minute)
		if err := sqldb.PingContext(ctx); err != nil {
			_ = sqldb.Close()
			return nil, fmt.Errorf("connect to postgres: %w", err)
		}
		return &DB{DB: bun.NewDB(sqldb, pgdialect.New()), Kind: Postgres}, nil
	}
	return nil, ErrDSN
}

// ErrDSN is returned for a --db that names neither SQLite (empty) nor PostgreSQL.
var ErrDSN = errors.New("--db must be empty (SQLite in the data folder) or a postgres:// URL")

// StoreFile is the SQLite store's file name in the data folder.
const StoreFile = "tankwatch.db"

// StorePath is the SQLite store in dataDir.
func StorePath(dataDir string) string { return filepath.Join(dataDir, StoreFile) }

// OpenSQLite opens (creating) the SQLite file at path. synchronous(FULL): a commit is on disk before it
// returns, so a report acknowledged after its commit survives a power loss too, not only a crash of the
// process (WAL with NORMAL would only promise the latter); group commit keeps that to one fsync per
// batch. Every pooled connection has SQLite's default page cache (2 MB); the history writer sets a
// larger one on its own connection (telemetry.sqliteWriter), so memory stays bounded however many
// connections the pool opens.
func OpenSQLite(ctx context.Context, path string) (*DB, error) {
	dsn := "file:" + path + "?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=foreign_keys(1)" +
		"&_pragma=synchronous(" + sqliteSync.Load().(string) + ")&_txlock=immediate"
	sqldb := sql.OpenDB(&sqliteConnector{dsn: dsn, drv: &sqlite.Driver{}, gate: newWriteGate()})
	sqldb.SetMaxOpenConns(8)
	sqldb.SetMaxIdleConns(8) // reopening a SQLite connection re-runs the pragmas; keep them
	if err := sqldb.PingContext(ctx); err != nil {
		_ = sqldb.Close()
		return nil, fmt.Errorf("open sqlite %s: %w", path, err)
	}
	return &DB{DB: bun.NewDB(sqldb, sqlitedialect.New()), Kind: SQLite}, nil
}

// sqliteSync is the synchronous pragma of the SQLite stores opened from now on: FULL (a commit survives
// a power cut) except in tests, where a power cut is not among the cases and the fsync per commit was
// half of a test's set-up (DECISIONS D76).
var sqliteSync atomic.Value

func init() { sqliteSync.Store("FULL") }

// UseUnsyncedSQLiteForTests makes the SQLite stores opened from now on skip fsync (tests only: a crash
// of the process still loses nothing, a power cut may).
func UseUnsyncedSQLiteForTests() { sqliteSync.Store("OFF") }

// Migrate applies every pending migration of the store's dialect.
func (d *DB) Migrate(ctx context.Context) error {
	sub, err := fs.Sub(migrations.FS, d.Kind)
	if err != nil {
		return err
	}
	gd := goose.DialectSQLite3
	if d.IsPostgres() {
		gd = goose.DialectPostgres
	}
	p, err := goose.NewProvider(gd, d.DB.DB, sub)
	if err != nil {
		return fmt.Errorf("migrations: %w", err)
	}
	if _, err := p.Up(ctx); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	return nil
}

// IsUniqueViolation reports whether err is a unique-constraint violation on either dialect.
func IsUniqueViolation(err error) bool {
	if err == nil {
		return false
	}
	s := err.Error()
	return strings.Contains(s, "UNIQUE constraint failed") || strings.Contains(s, "SQLSTATE 23505")
}

// UniqueAs returns conflict when err is a unique-constraint violation (the store refused a duplicate),
// and err itself otherwise (nil stays nil).
func UniqueAs(err, conflict error) error {
	if IsUniqueViolation(err) {
		return conflict
	}
	return err
}

// Now is the store's notion of the current time in Unix milliseconds.
func Now() int64 { return time.Now().UnixMilli() }
