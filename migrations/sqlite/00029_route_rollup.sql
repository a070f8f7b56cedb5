-- +goose Up
-- The daily route rollup of the analysis pages (issue 16, D57): the finished trips (CLOSED or
-- DIFF_FLAGGED, dated by closed_at in Asia/Shanghai, as stat_trip_daily) of a car on a day per carrier
-- group, sales company (0: none) and route = depot -> the first destination station (seq 1; 0 when the
-- waybill has none). The figures are stat_trip_daily's trip-row (product 0) figures, plus what the
-- out-to-arrival spread needs: the sum of squared minutes of the timed trips, and their shortest and
-- longest (-1: no timed trip). Recomputed per (car, day) by the refresher registered as "route";
-- never edited.
CREATE TABLE stat_route_daily (
    day                   INTEGER NOT NULL,
    car_id                INTEGER NOT NULL,
    group_id              INTEGER NOT NULL,
    sales_group_id        INTEGER NOT NULL DEFAULT 0,
    depot_id              INTEGER NOT NULL,
    station_id            INTEGER NOT NULL DEFAULT 0,
    trips                 INTEGER NOT NULL DEFAULT 0,
    shipped_vt_l          REAL NOT NULL DEFAULT 0,
    shipped_v20_l         REAL NOT NULL DEFAULT 0,
    shipped_t             REAL NOT NULL DEFAULT 0,
    received_v20_l        REAL NOT NULL DEFAULT 0,
    loss_l                REAL NOT NULL DEFAULT 0,
    km                    REAL NOT NULL DEFAULT 0,
    ton_km                REAL NOT NULL DEFAULT 0,
    timed_trips           INTEGER NOT NULL DEFAULT 0,
    out_to_arrival_min    REAL NOT NULL DEFAULT 0,
    out_to_arrival_sq     REAL NOT NULL DEFAULT 0,
    out_to_arrival_lo     REAL NOT NULL DEFAULT -1,
    out_to_arrival_hi     REAL NOT NULL DEFAULT -1,
    abnormal_openings     INTEGER NOT NULL DEFAULT 0,
    over_allowance        INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (car_id, day, group_id, sales_group_id, depot_id, station_id)
);
CREATE INDEX stat_route_daily_day ON stat_route_daily (day, depot_id, station_id);
CREATE INDEX stat_route_daily_group_day ON stat_route_daily (group_id, day);

-- +goose Down
DROP TABLE stat_route_daily;
