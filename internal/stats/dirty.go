package stats

import (
	"context"
	"slices"
	"sync"

	"github.com/uptrace/bun"

	"tankwatch/internal/stats/outbox"
)

// Kinds of rollup work (stat_dirty.kind).
const (
	DirtyTrip = outbox.Trip // a waybill finished, or a finished waybill's figures or state changed
	DirtyLock = "lock"      // a lock event was recorded
	DirtySeal = "seal"      // a seal record or a seal incident was written or changed
)

// MarkDirty records that the rollups of kind must recompute car's day. Call it inside the transaction
// that changes the records, so that the mark and the change commit together; marking twice is free.
func MarkDirty(ctx context.Context, idb bun.IDB, kind string, carID int64, day int, now int64) error {
	return outbox.Mark(ctx, idb, kind, carID, day, now)
}

// Mark is one (car, day) to recompute.
type Mark struct {
	CarID    int64 `bun:"car_id"`
	Day      int   `bun:"day"`
	MarkedAt int64 `bun:"marked_at"`
}

// TakeDirty returns up to limit marks of kind, oldest first. Call Done with each mark once its rows
// are recomputed: a mark marked again meanwhile (a newer marked_at) stays for the next round.
func TakeDirty(ctx context.Context, idb bun.IDB, kind string, limit int) ([]Mark, error) {
	return TakeShare(ctx, idb, kind, limit, Share{})
}

// Share is the cars whose marks a node of a cluster recomputes: those whose id modulo Parts is one of
// Held, the partitions of cars it holds (D97), so that each mark is recomputed by one node instead of
// by every node (D113). The zero Share is every car.
type Share struct {
	Parts int
	Held  []int
}

// Every reports whether the share is every car.
func (s Share) Every() bool { return s.Parts <= 0 }

// Has reports whether carID is in the share.
func (s Share) Has(carID int64) bool {
	if s.Every() {
		return true
	}
	p := carID % int64(s.Parts)
	if p < 0 {
		p = -p
	}
	return slices.Contains(s.Held, int(p))
}

// TakeShare is TakeDirty for the cars of share (none when it holds no partition).
func TakeShare(ctx context.Context, idb bun.IDB, kind string, limit int, share Share) ([]Mark, error) {
	if !share.Every() && len(share.Held) == 0 {
		return nil, nil
	}
	var out []Mark
	q := idb.NewSelect().Table("stat_dirty").Column("car_id", "day", "marked_at").Where("kind = ?", kind)
	if !share.Every() {
		// car ids are positive: the modulo is the partition (cluster.Node.partition)
		q = q.Where("car_id % ? IN (?)", share.Parts, bun.In(share.Held))
	}
	err := q.OrderExpr("marked_at, car_id, day").Limit(int64(limit)).Scan(ctx, &out)
	return out, err
}

// Done removes mark m of kind unless it was marked again after it was taken.
func Done(ctx context.Context, idb bun.IDB, kind string, m Mark) error {
	_, err := idb.NewDelete().Table("stat_dirty").Where("kind = ? AND car_id = ? AND day = ? AND marked_at <= ?", kind, m.CarID, m.Day, m.MarkedAt).Exec(ctx)
	return err
}

// Forget removes the marks of kinds for the days from..to, for a rebuild of those days that starts
// after it: a mark committed before is for records the rebuild reads; one committed later stays.
func Forget(ctx context.Context, idb bun.IDB, from, to int, kinds ...string) error {
	_, err := idb.NewDelete().Table("stat_dirty").Where("kind IN (?) AND day BETWEEN ? AND ?", bun.In(kinds), from, to).Exec(ctx)
	return err
}

// Refresher recomputes one rollup's rows of car on day from the records.
type Refresher func(ctx context.Context, idb bun.IDB, carID int64, day int) error

var (
	refMu      sync.RWMutex
	refreshers = map[string]Refresher{}
)

// Register adds a rollup that Refresh and Rebuild keep together with the trip rollup (for instance the
// route rollup of the analysis pages). Registering a name again replaces it.
func Register(name string, fn Refresher) {
	refMu.Lock()
	defer refMu.Unlock()
	refreshers[name] = fn
}

func registered() []Refresher {
	refMu.RLock()
	defer refMu.RUnlock()
	out := make([]Refresher, 0, len(refreshers))
	for _, fn := range refreshers {
		out = append(out, fn)
	}
	return out
}

// Layers re-adds a registered rollup's layers above its per-car rows for the days from..to, every
// group (D71). Rebuild calls it once at the end, after the per-car refreshers ran in bulk mode.
type Layers func(ctx context.Context, idb bun.IDB, from, to int) error

var layers = map[string]Layers{}

// RegisterLayers adds the bulk re-add of a registered rollup's layers (see Bulk).
func RegisterLayers(name string, fn Layers) {
	refMu.Lock()
	defer refMu.Unlock()
	layers[name] = fn
}

func registeredLayers() []Layers {
	refMu.RLock()
	defer refMu.RUnlock()
	out := make([]Layers, 0, len(layers))
	for _, fn := range layers {
		out = append(out, fn)
	}
	return out
}

type bulkKey struct{}

// Bulk tells a Refresher that it runs inside Rebuild: it need not re-add its layers per car and day,
// Rebuild calls its Layers once for the whole period at the end.
func Bulk(ctx context.Context) bool { return ctx.Value(bulkKey{}) != nil }
