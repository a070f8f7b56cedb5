package telemetry

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"

	"tankwatch/internal/platform/db"
)

// On PostgreSQL the per-report history tables are partitioned by UTC day (migration 00039, DECISIONS
// D9B). The retention job keeps their partitions: it creates the days ahead, so that reports land in
// a day partition rather than the default one, and drops whole days past the retention.

// histPartitioned are the day-partitioned tables and their partition column.
var histPartitioned = []struct{ table, col string }{
	{"positions", "t"}, {"tank_states", "t"}, {"level_readings", "t"}, {"raw_frames", "received_at"},
}

// PartitionsAhead is how many days after today have their partitions ready; yesterday's is made too,
// for the blind-area reports a terminal uploads late (its clock is the device's).
const PartitionsAhead = 7

// EnsurePartitions creates the missing day partitions from yesterday to PartitionsAhead days ahead
// of every history table and returns how many it created (SQLite: none, nothing to do).
func (h *History) EnsurePartitions(ctx context.Context) (int, error) {
	if !h.db.IsPostgres() {
		return 0, nil
	}
	today := h.now().UnixMilli()
	n := 0
	for _, p := range histPartitioned {
		for day := -1; day <= PartitionsAhead; day++ {
			ok, err := h.db.EnsureDayPartition(ctx, p.table, p.col, today+int64(day)*db.DayMS)
			if err != nil {
				return n, err
			}
			if ok {
				n++
			}
		}
	}
	return n, nil
}

// dropDays drops table's day partitions that end at or before cutoff and returns the rows they held
// and how many partitions went. A day partition is dropped only whole: rows of the day the cutoff
// falls in stay until that day has passed (the retention is kept to within a day).
func (h *History) dropDays(ctx context.Context, table string, cutoff int64, rollups []string) (rows int64, parts int, err error) {
	days, err := h.db.DayPartitions(ctx, table)
	if err != nil {
		return 0, 0, err
	}
	for _, p := range days {
		if p.To > cutoff {
			break
		}
		var n int64
		ok, err := h.db.DropPartition(ctx, table, p.Name, func(tx bun.Tx) error {
			if len(rollups) == 0 {
				return tx.NewRaw("SELECT count(*) FROM ?", bun.Ident(p.Name)).Scan(ctx, &n)
			}
			var cars []struct {
				CarID int64 `bun:"car_id"`
				N     int64 `bun:"n"`
			}
			if err := tx.NewRaw("SELECT car_id, count(*) AS n FROM ? GROUP BY car_id", bun.Ident(p.Name)).Scan(ctx, &cars); err != nil {
				return err
			}
			ids := make([]int64, len(cars))
			for i, c := range cars {
				ids[i] = c.CarID
				n += c.N
			}
			// A dropped day fires no delete trigger: its trend slices (5 min and 1 h, both inside
			// one UTC day) go here, by car, through the rollups' primary key (car_id, b).
			for _, r := range rollups {
				if _, err := tx.NewDelete().TableExpr(r).Where("car_id = ANY(?)", pgdialect.Array(ids)).
					Where("b >= ? AND b < ?", p.From, p.To).Exec(ctx); err != nil {
					return fmt.Errorf("%s: %w", r, err)
				}
			}
			return nil
		})
		if err != nil {
			return rows, parts, err
		}
		if ok {
			rows += n
			parts++
		}
	}
	return rows, parts, nil
}
