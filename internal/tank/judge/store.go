package judge

import (
	"context"
	"strconv"

	"github.com/uptrace/bun"
)

// EventRow is a row of car_tank_events.
type EventRow struct {
	bun.BaseModel `bun:"table:car_tank_events,alias:e"`

	ID          int64   `bun:"id,pk,autoincrement"`
	CarID       int64   `bun:"car_id"`
	Compartment int     `bun:"compartment"`
	Kind        string  `bun:"kind"`
	StartAt     int64   `bun:"start_at"`
	EndAt       *int64  `bun:"end_at"`
	Lat         int32   `bun:"lat"`
	Lon         int32   `bun:"lon"`
	StationID   int64   `bun:"station_id"`
	StationName string  `bun:"station_name"`
	BeforeL     float64 `bun:"before_l"`
	AfterL      float64 `bun:"after_l"`
	BeforeV20   float64 `bun:"before_v20"`
	AfterV20    float64 `bun:"after_v20"`
	// Detail: openings the device kind ("0"–"3"); theft "opening" or "parked"; sensorJump the jump
	// in litres; sensorStuck the stuck level in mm.
	Detail string `bun:"detail"`
}

// ValveRow is a row of valve_changes.
type ValveRow struct {
	bun.BaseModel `bun:"table:valve_changes,alias:v"`

	CarID       int64  `bun:"car_id,pk"`
	T           int64  `bun:"t,pk"`
	Compartment int    `bun:"compartment,pk"`
	Kind        int    `bun:"kind,pk"`
	PrevState   int    `bun:"prev_state"`
	State       int    `bun:"state"`
	Lat         int32  `bun:"lat"`
	Lon         int32  `bun:"lon"`
	StationID   int64  `bun:"station_id"`
	StationName string `bun:"station_name"`
}

// rowOf makes an event a row (an episode start has no end yet).
func rowOf(carID int64, e *Event) *EventRow {
	r := &EventRow{CarID: carID, Compartment: e.Compartment, Kind: e.Kind, StartAt: e.StartAt, Lat: e.Lat, Lon: e.Lon,
		StationID: e.StationID, StationName: e.StationName, BeforeL: e.BeforeL, AfterL: e.AfterL,
		BeforeV20: e.BeforeV20, AfterV20: e.AfterV20, Detail: e.Detail}
	if e.Device >= 0 {
		r.Detail = strconv.Itoa(e.Device)
	}
	if e.EndAt != 0 {
		end := e.EndAt
		r.EndAt = &end
	}
	return r
}

// episodic reports whether events of kind last start..end and are emitted twice.
func episodic(kind string) bool {
	return kind == KindCoverOpen || kind == KindValveOpen || kind == KindSensorStuck || kind == KindSensorMissing
}

// storeEvent writes one event: an episode start unless the same episode is already open (a restart
// judged it again), an episode end by closing the open row, any other event as a new row.
func storeEvent(ctx context.Context, idb bun.IDB, carID int64, e *Event) error {
	r := rowOf(carID, e)
	if episodic(e.Kind) {
		open := func(q *bun.SelectQuery) *bun.SelectQuery {
			q = q.Where("car_id = ? AND compartment = ? AND kind = ? AND end_at IS NULL", carID, e.Compartment, e.Kind)
			if e.Device >= 0 {
				q = q.Where("detail = ?", r.Detail)
			}
			return q
		}
		if e.End {
			var ids []int64
			if err := open(idb.NewSelect().Model((*EventRow)(nil)).Column("id")).Scan(ctx, &ids); err != nil {
				return err
			}
			if len(ids) == 0 {
				return nil
			}
			_, err := idb.NewUpdate().Model((*EventRow)(nil)).Set("end_at = ?", e.EndAt).Where("id IN (?)", bun.In(ids)).Exec(ctx)
			return err
		}
		n, err := open(idb.NewSelect().Model((*EventRow)(nil))).Count(ctx)
		if err != nil || n > 0 {
			return err
		}
	}
	// the same event judged again (a detector started over the same stored reports) is kept once
	n, err := idb.NewSelect().Model((*EventRow)(nil)).Where("car_id = ? AND start_at = ? AND compartment = ? AND kind = ? AND detail = ?",
		carID, r.StartAt, r.Compartment, r.Kind, r.Detail).Count(ctx)
	if err != nil || n > 0 {
		return err
	}
	_, err = idb.NewInsert().Model(r).Exec(ctx)
	return err
}

// storeValves writes device changes; a change already stored (a catch-up judging a report again) is
// kept as it was.
func storeValves(ctx context.Context, idb bun.IDB, rows []ValveRow) error {
	if len(rows) == 0 {
		return nil
	}
	_, err := idb.NewInsert().Model(&rows).On("CONFLICT DO NOTHING").Exec(ctx)
	return err
}
