package db

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/uptrace/bun"
)

// Day partitions of a PostgreSQL table range-partitioned by a Unix-millisecond column: one partition
// per UTC day, named <table>_pYYYYMMDD, beside the table's default partition <table>_default (created
// by its migration) that takes every row no day covers.

// DayMS is one day in Unix milliseconds.
const DayMS = int64(24 * time.Hour / time.Millisecond)

// partitionLockTimeout bounds how long a maintenance statement waits for a table lock: attaching and
// dropping a partition need a short exclusive lock, and a waiting exclusive lock holds up the history
// writer queued behind it. A timed-out step is tried again at the next run.
const partitionLockTimeout = "5s"

// partitionLockKey serialises partition maintenance across the nodes sharing a database.
const partitionLockKey = 0x7457_5061_7274 // "tWPart"

// DayPartition is one day partition: its name and the day it covers, [From, To) in Unix ms.
type DayPartition struct {
	Name     string
	From, To int64
}

// PartitionName is the name of table's partition holding the UTC day that contains ms.
func PartitionName(table string, ms int64) string {
	return table + "_p" + time.UnixMilli(dayStart(ms)).UTC().Format("20060102")
}

// DefaultPartition is the name of table's default partition.
func DefaultPartition(table string) string { return table + "_default" }

func dayStart(ms int64) int64 {
	d := ms / DayMS
	if ms < 0 && ms%DayMS != 0 {
		d--
	}
	return d * DayMS
}

// DayPartitions lists table's day partitions in day order (the default partition left out).
func (d *DB) DayPartitions(ctx context.Context, table string) ([]DayPartition, error) {
	var names []string
	err := d.NewRaw(`SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
WHERE i.inhparent = ?::regclass ORDER BY c.relname`, table).Scan(ctx, &names)
	if err != nil {
		return nil, err
	}
	var out []DayPartition
	for _, n := range names {
		day, ok := strings.CutPrefix(n, table+"_p")
		if !ok {
			continue
		}
		t, err := time.Parse("20060102", day)
		if err != nil {
			continue // not one of ours
		}
		from := t.UnixMilli()
		out = append(out, DayPartition{Name: n, From: from, To: from + DayMS})
	}
	return out, nil
}

// EnsureDayPartition creates table's partition of the UTC day containing ms when it is missing and
// reports whether it did. Rows of that day already in the default partition (stored before the day
// had its partition) are moved into it; the row triggers on the default partition are switched off
// for the move, so that the rows' trend rollups, which already count them, stay as they are.
func (d *DB) EnsureDayPartition(ctx context.Context, table, col string, ms int64) (bool, error) {
	from := dayStart(ms)
	name := PartitionName(table, from)
	created := false
	err := d.partitionTx(ctx, func(tx bun.Tx) error {
		var exists bool
		if err := tx.NewRaw("SELECT to_regclass(?) IS NOT NULL", name).Scan(ctx, &exists); err != nil {
			return err
		}
		if exists {
			return nil
		}
		def := DefaultPartition(table)
		var stray bool
		if err := tx.NewRaw("SELECT EXISTS (SELECT 1 FROM ? WHERE ? >= ? AND ? < ?)", bun.Ident(def), bun.Ident(col), from,
			bun.Ident(col), from+DayMS).Scan(ctx, &stray); err != nil {
			return err
		}
		// CREATE … (LIKE) and ATTACH rather than CREATE … PARTITION OF: attaching locks the parent
		// only against other schema changes, so the writer and the readers go on meanwhile.
		stmts := []string{fmt.Sprintf("CREATE TABLE %s (LIKE %s INCLUDING DEFAULTS)", ident(name), ident(table))}
		if stray {
			stmts = append(stmts,
				fmt.Sprintf("ALTER TABLE %s DISABLE TRIGGER USER", ident(def)),
				fmt.Sprintf("WITH moved AS (DELETE FROM %s WHERE %s >= %d AND %s < %d RETURNING *) INSERT INTO %s SELECT * FROM moved",
					ident(def), ident(col), from, ident(col), from+DayMS, ident(name)),
				fmt.Sprintf("ALTER TABLE %s ENABLE TRIGGER USER", ident(def)))
		}
		stmts = append(stmts, fmt.Sprintf("ALTER TABLE %s ATTACH PARTITION %s FOR VALUES FROM (%d) TO (%d)",
			ident(table), ident(name), from, from+DayMS))
		for _, s := range stmts {
			if _, err := tx.ExecContext(ctx, s); err != nil {
				return fmt.Errorf("partition %s: %w", name, err)
			}
		}
		created = true
		return nil
	})
	return created, err
}

// DropPartition drops one partition of table (whole, without firing row triggers) after calling
// before in the same transaction (for what the dropped rows leave behind elsewhere). It is a no-op
// when the partition is already gone.
func (d *DB) DropPartition(ctx context.Context, table, name string, before func(tx bun.Tx) error) (bool, error) {
	dropped := false
	err := d.partitionTx(ctx, func(tx bun.Tx) error {
		var exists bool
		if err := tx.NewRaw("SELECT to_regclass(?) IS NOT NULL", name).Scan(ctx, &exists); err != nil || !exists {
			return err
		}
		if before != nil {
			if err := before(tx); err != nil {
				return err
			}
		}
		if _, err := tx.ExecContext(ctx, "DROP TABLE "+ident(name)); err != nil {
			return fmt.Errorf("partition %s: %w", name, err)
		}
		dropped = true
		return nil
	})
	return dropped, err
}

// partitionTx runs fn in a transaction holding the cluster-wide maintenance lock, with the lock
// timeout of a maintenance step.
func (d *DB) partitionTx(ctx context.Context, fn func(tx bun.Tx) error) error {
	if !d.IsPostgres() {
		return fmt.Errorf("partitions: %s has none", d.Kind)
	}
	return d.RunInTx(ctx, &sql.TxOptions{}, func(ctx context.Context, tx bun.Tx) error {
		if _, err := tx.ExecContext(ctx, "SET LOCAL lock_timeout = '"+partitionLockTimeout+"'"); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, "SELECT pg_advisory_xact_lock(?)", partitionLockKey); err != nil {
			return err
		}
		return fn(tx)
	})
}

// ident quotes a PostgreSQL identifier.
func ident(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
