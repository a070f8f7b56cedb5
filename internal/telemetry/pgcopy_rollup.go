package telemetry

import (
	"context"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"tankwatch/internal/tank/trend/rollup"
)

// The trend rollups on PostgreSQL go through staging tables: each table's slices are copied (binary
// COPY, encoded from the fold's typed rows) into a temporary table of the connection, and one
// INSERT … SELECT … ORDER BY key ON CONFLICT DO UPDATE per table merges them with UpsertSQL's own
// merge (rollup.MergeSQL). The multi-row upserts they replace bound up to 5,632 parameters per
// statement, which pgx encoded one by one (D107).

func pgRollupStage(table string) string { return "stage_" + table }

// pgRollupMerges caches the merge statements by the set of tables a batch has rows for.
var pgRollupMerges [1 << len(rollup.Tables)]atomic.Pointer[string]

func pgRollupMergeSQL(mask int) string {
	if q := pgRollupMerges[mask].Load(); q != nil {
		return *q
	}
	var parts []string
	for i, t := range rollup.Tables {
		if mask&(1<<i) != 0 {
			parts = append(parts, rollup.MergeSQL(t, pgRollupStage(t)))
		}
	}
	q := strings.Join(parts, "; ")
	pgRollupMerges[mask].Store(&q)
	return q
}

// pgStaged records, per connection, whether its staging tables are made and of the expected types
// (false: the rollups go through rollup.Write on that connection).
var pgStaged perConn[*pgconn.PgConn, bool]

// pgRollupStaging makes c's staging tables once per connection, outside any transaction (so that a
// rolled-back batch does not take them along), and tells whether pgRollups can use them.
func pgRollupStaging(ctx context.Context, c *pgx.Conn) (bool, error) {
	pc := c.PgConn()
	if ok, known := pgStaged.get(pc); known {
		return ok, nil
	}
	var ddl []string
	for _, t := range rollup.Tables {
		ddl = append(ddl, "CREATE TEMP TABLE IF NOT EXISTS "+pgRollupStage(t)+" (LIKE "+t+") ON COMMIT DELETE ROWS")
	}
	if _, err := c.Exec(ctx, strings.Join(ddl, "; ")); err != nil {
		return false, err
	}
	ok := true
	for _, t := range rollup.Tables {
		cols := rollup.Cols(t)
		oids, err := pgCopyTypes(ctx, c, pc, pgRollupStage(t), cols)
		if err != nil {
			return false, err
		}
		for i, col := range cols {
			want := uint32(oidInt8)
			if rollup.FloatCol(col) {
				want = oidFloat8
			}
			ok = ok && oids[i] == want
		}
	}
	pgStaged.put(pc, ok)
	return ok, nil
}

// pgRollupForget makes the next batch on pc check its staging tables again (after an error: something
// may have dropped them).
func pgRollupForget(pc *pgconn.PgConn) {
	pgStaged.forget(pc)
}

// pgRollups merges tables (from Fold.TakeRows) in tx through the staging tables pgRollupStaging made on
// tx's connection: a COPY per table, then one round trip of merge statements.
func pgRollups(ctx context.Context, tx pgx.Tx, tables []rollup.Table) error {
	pc := tx.Conn().PgConn()
	var buf []byte
	var err error
	mask := pgRollupTables(tables, func(t *rollup.Table) {
		if err == nil {
			buf = slices.Grow(copyHeader(buf[:0]), t.CopySize()+2)
			buf = copyTrailer(t.AppendCopy(buf))
			err = pgCopySend(ctx, pc, pgRollupStage(t.Name), t.Cols, buf)
		}
	})
	if err == nil && mask != 0 {
		_, err = tx.Exec(ctx, pgRollupMergeSQL(mask))
	}
	if err != nil {
		pgRollupForget(pc)
	}
	return err
}

// pgRollupTables calls stage with each of tables that has rows for a rollup table the staging knows,
// and returns their set, the mask of pgRollupMergeSQL.
func pgRollupTables(tables []rollup.Table, stage func(t *rollup.Table)) (mask int) {
	for i := range tables {
		t := &tables[i]
		if k := rollup.TableIndex(t.Name); k >= 0 && t.Rows() > 0 {
			mask |= 1 << k
			stage(t)
		}
	}
	return mask
}
