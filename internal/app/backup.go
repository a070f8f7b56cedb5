package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"time"

	"tankwatch/internal/platform/config"
	"tankwatch/internal/platform/db"
)

// ErrPostgresBackup is returned by Backup and Restore on a PostgreSQL store: they print PostgreSQL's own
// recipe instead of pretending to copy it (DECISIONS D79).
var ErrPostgresBackup = errors.New("no file written or read: a PostgreSQL store is backed up and restored with PostgreSQL's tools (recipe above)")

// Backup is `tankwatch admin backup FILE`: a consistent copy of the SQLite store of cfg written to file
// while serve may be running; on PostgreSQL, the pg_dump and point-in-time recipe.
func Backup(ctx context.Context, cfg config.Config, file string, out io.Writer) error {
	if err := sqliteOnly(cfg, file, out); err != nil {
		return err
	}
	start := time.Now()
	src := db.StorePath(dataDir(cfg))
	b, err := db.BackupSQLite(ctx, dataDir(cfg), file)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "backed up %s to %s: %.1f MB, schema version %d, in %s\n", src, file,
		float64(b.Bytes)/(1<<20), b.Version, time.Since(start).Round(time.Millisecond))
	return nil
}

// Restore is `tankwatch admin restore FILE`: the SQLite store of cfg replaced by the backup in file,
// refused while any tankwatch process has the store open; the replaced store is kept beside it.
func Restore(ctx context.Context, cfg config.Config, file string, out io.Writer) error {
	if err := sqliteOnly(cfg, file, out); err != nil {
		return err
	}
	r, err := db.RestoreSQLite(ctx, dataDir(cfg), file, time.Now())
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "restored %s from %s (schema version %d", db.StorePath(dataDir(cfg)), file, r.Version)
	if r.Migrated != r.Version {
		fmt.Fprintf(out, ", migrated to %d", r.Migrated)
	}
	fmt.Fprintln(out, ")")
	if r.SideCopy != "" {
		fmt.Fprintf(out, "the previous store is kept as %s (delete it once the restored store is checked)\n", r.SideCopy)
	}
	return nil
}

// sqliteOnly checks --db and, for a PostgreSQL store, prints the recipe and returns ErrPostgresBackup.
func sqliteOnly(cfg config.Config, file string, out io.Writer) error {
	switch {
	case db.IsPostgresDSN(cfg.DB):
		fmt.Fprint(out, postgresRecipe(cfg.DB, file))
		return ErrPostgresBackup
	case cfg.DB != "":
		return db.ErrDSN
	}
	return nil
}

func dataDir(cfg config.Config) string {
	if cfg.Data == "" {
		return "."
	}
	return cfg.Data
}

// postgresRecipe is how to back up and restore the PostgreSQL store named by dsn (its password left out).
func postgresRecipe(dsn, file string) string {
	if u, err := url.Parse(dsn); err == nil {
		if u.User != nil {
			u.User = url.User(u.User.Username())
		}
		dsn = u.String()
	}
	return fmt.Sprintf(`The store is PostgreSQL: tankwatch does not copy it itself. PostgreSQL's tools do it consistently
while every tankwatch node keeps running (passwords from PGPASSWORD or ~/.pgpass).

Logical backup (a consistent snapshot, online):
  pg_dump --format=custom --file=%[2]s '%[1]s'
Restore it into an empty database, with every tankwatch node stopped:
  createdb <new database>
  pg_restore --no-owner --exit-on-error --dbname='<URL of the new database>' %[2]s
  then start the nodes with --db naming that database (they apply any newer migrations).

Point-in-time recovery (lose at most the last WAL segment, not a day):
  postgresql.conf: wal_level = replica, archive_mode = on,
                   archive_command = 'test ! -f /backup/wal/%%f && cp %%p /backup/wal/%%f'
  base backup, e.g. nightly: pg_basebackup --pgdata=/backup/base-$(date +%%F) --format=tar --gzip --wal-method=stream --dbname='%[1]s'
  to recover: stop the nodes and PostgreSQL, unpack the last base backup before the moment into an empty
  data directory, set restore_command = 'cp /backup/wal/%%f %%p' and recovery_target_time = '<moment>',
  create recovery.signal in it, start PostgreSQL, check, then SELECT pg_wal_replay_resume(); and start the nodes.
`, dsn, file)
}
