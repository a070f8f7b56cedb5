-- +goose Up
-- Month-to-date running sums of the trip rollup (D70): for every key (car, carrier group, sales
-- company, product) that has a row in stat_trip_daily in a month, one row per day from the key's first
-- day in that month to the month's last day, holding the sum of the key's daily rows from the 1st up to
-- that day. A partial month [a, b] of a car is then row(b) - row(a-1): two rows per key whatever the
-- range, instead of one per day. Dense on purpose (a day without trips repeats the sum) so that both
-- reads are equality lookups. Rewritten for a car's month by stats.Refresh with its monthly row, and
-- for every car by stats.Rebuild; never edited.
CREATE TABLE stat_trip_mtd (
    day               INTEGER NOT NULL,
    car_id            BIGINT NOT NULL,
    group_id          BIGINT NOT NULL,
    sales_group_id    BIGINT NOT NULL DEFAULT 0,
    product_id        BIGINT NOT NULL DEFAULT 0,
    trips             INTEGER NOT NULL DEFAULT 0,
    shipped_vt_l      DOUBLE PRECISION NOT NULL DEFAULT 0,
    shipped_v20_l     DOUBLE PRECISION NOT NULL DEFAULT 0,
    shipped_t         DOUBLE PRECISION NOT NULL DEFAULT 0,
    received_v20_l    DOUBLE PRECISION NOT NULL DEFAULT 0,
    loss_l            DOUBLE PRECISION NOT NULL DEFAULT 0,
    km                DOUBLE PRECISION NOT NULL DEFAULT 0,
    ton_km            DOUBLE PRECISION NOT NULL DEFAULT 0,
    timed_trips       INTEGER NOT NULL DEFAULT 0,
    out_to_arrival_min DOUBLE PRECISION NOT NULL DEFAULT 0,
    abnormal_openings INTEGER NOT NULL DEFAULT 0,
    over_allowance    INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (car_id, day, group_id, sales_group_id, product_id)
);
CREATE INDEX stat_trip_mtd_day ON stat_trip_mtd (product_id, day, group_id) INCLUDE (car_id, sales_group_id,
    trips, shipped_vt_l, shipped_v20_l, shipped_t, received_v20_l, loss_l, km, ton_km, timed_trips, out_to_arrival_min,
    abnormal_openings, over_allowance);

-- The route rollup without the car (D71): stat_route_daily added up per day, carrier group, sales
-- company and route, and per month. The analysis pages read these (a year of the whole fleet is a few
-- rows per company and route a month instead of one per car and day). Re-added from the cars' rows for
-- the groups a refreshed car-day touched (analysis.Refresh) and in bulk after stats.Rebuild /
-- analysis.Rebuild; never edited. Shortest / longest are the min / max of the rows' (-1: none).
CREATE TABLE stat_route_group_daily (
    day                   INTEGER NOT NULL,
    group_id              BIGINT NOT NULL,
    sales_group_id        BIGINT NOT NULL DEFAULT 0,
    depot_id              BIGINT NOT NULL,
    station_id            BIGINT NOT NULL DEFAULT 0,
    trips                 INTEGER NOT NULL DEFAULT 0,
    shipped_vt_l          DOUBLE PRECISION NOT NULL DEFAULT 0,
    shipped_v20_l         DOUBLE PRECISION NOT NULL DEFAULT 0,
    shipped_t             DOUBLE PRECISION NOT NULL DEFAULT 0,
    received_v20_l        DOUBLE PRECISION NOT NULL DEFAULT 0,
    loss_l                DOUBLE PRECISION NOT NULL DEFAULT 0,
    km                    DOUBLE PRECISION NOT NULL DEFAULT 0,
    ton_km                DOUBLE PRECISION NOT NULL DEFAULT 0,
    timed_trips           INTEGER NOT NULL DEFAULT 0,
    out_to_arrival_min    DOUBLE PRECISION NOT NULL DEFAULT 0,
    out_to_arrival_sq     DOUBLE PRECISION NOT NULL DEFAULT 0,
    out_to_arrival_lo     DOUBLE PRECISION NOT NULL DEFAULT -1,
    out_to_arrival_hi     DOUBLE PRECISION NOT NULL DEFAULT -1,
    abnormal_openings     INTEGER NOT NULL DEFAULT 0,
    over_allowance        INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (day, group_id, sales_group_id, depot_id, station_id)
);

CREATE TABLE stat_route_group_monthly (
    month                 INTEGER NOT NULL,
    group_id              BIGINT NOT NULL,
    sales_group_id        BIGINT NOT NULL DEFAULT 0,
    depot_id              BIGINT NOT NULL,
    station_id            BIGINT NOT NULL DEFAULT 0,
    trips                 INTEGER NOT NULL DEFAULT 0,
    shipped_vt_l          DOUBLE PRECISION NOT NULL DEFAULT 0,
    shipped_v20_l         DOUBLE PRECISION NOT NULL DEFAULT 0,
    shipped_t             DOUBLE PRECISION NOT NULL DEFAULT 0,
    received_v20_l        DOUBLE PRECISION NOT NULL DEFAULT 0,
    loss_l                DOUBLE PRECISION NOT NULL DEFAULT 0,
    km                    DOUBLE PRECISION NOT NULL DEFAULT 0,
    ton_km                DOUBLE PRECISION NOT NULL DEFAULT 0,
    timed_trips           INTEGER NOT NULL DEFAULT 0,
    out_to_arrival_min    DOUBLE PRECISION NOT NULL DEFAULT 0,
    out_to_arrival_sq     DOUBLE PRECISION NOT NULL DEFAULT 0,
    out_to_arrival_lo     DOUBLE PRECISION NOT NULL DEFAULT -1,
    out_to_arrival_hi     DOUBLE PRECISION NOT NULL DEFAULT -1,
    abnormal_openings     INTEGER NOT NULL DEFAULT 0,
    over_allowance        INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (month, group_id, sales_group_id, depot_id, station_id)
);

-- +goose Down
DROP TABLE stat_route_group_monthly;
DROP TABLE stat_route_group_daily;
DROP TABLE stat_trip_mtd;
