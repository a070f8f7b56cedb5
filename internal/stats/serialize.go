package stats

import (
	"context"
	"slices"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"
)

// Several workers refresh rollups at once (one per node, each over its share of the cars, D113), and
// every refresh rewrites its rows by delete and insert. Two transactions rewriting the same rows — a
// group's, from two cars of the group on two nodes; a car's, while its partition moves — collided on
// PostgreSQL: the second's insert met the first's new rows and failed on the primary key, to be
// retried a round later (the "duplicate key" warnings of a cluster's log). Serialize makes them take
// turns instead (D121).

// Advisory lock spaces of the rollups: the cars and the groups of the trip rollup and of the lock and
// seal rollup.
const (
	SpaceTripCars int32 = 0x74775401 + iota
	SpaceTripGroups
	SpaceLockCars
	SpaceLockGroups
)

// Serialize has the transaction idb wait for the other transactions that serialized any of keys in
// space, and holds them until it ends: PostgreSQL's transaction-scoped advisory locks, taken in
// increasing order so that two transactions serializing overlapping sets do not wait on each other
// in a circle. Nothing on SQLite, whose writes are one at a time.
func Serialize(ctx context.Context, idb bun.IDB, space int32, keys ...int64) error {
	if idb.Dialect().Name() != dialect.PG || len(keys) == 0 {
		return nil
	}
	ks := slices.Compact(slices.Sorted(slices.Values(keys)))
	for _, k := range ks {
		// a key above 2^31 shares its lock with another: they take turns for nothing, nothing worse
		if _, err := idb.ExecContext(ctx, "SELECT pg_advisory_xact_lock(?, ?)", space, int32(k^k>>32)); err != nil {
			return err
		}
	}
	return nil
}
