package stats

import (
	"context"

	"github.com/uptrace/bun"
)

// LoadFinished reads car's finished trips on day exactly as the trip rollup does, for a rollup kept with
// it through Register that needs the trips themselves (the analysis part's route rollup, D57).
func LoadFinished(ctx context.Context, idb bun.IDB, carID int64, day int) ([]Trip, error) {
	return loadTrips(ctx, idb, "w.car_id = ? AND w.closed_at BETWEEN ? AND ?", carID, DayStart(day), DayEnd(day))
}
